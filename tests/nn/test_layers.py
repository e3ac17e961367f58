"""Layers: gradients by gradcheck (float64), behaviour, and forward values against PyTorch."""

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad as mg
from minigrad import nn
from minigrad.autograd import gradcheck, gradgradcheck
from minigrad.nn import functional as F
from tests.conftest import rand64

D = mg.float64


def check_module(module, *inputs):
    params = tuple(module.parameters())
    assert gradcheck(lambda *args: module(*args[: len(inputs)]), inputs + params)


@pytest.mark.parametrize("batch_shape", [(4,), (2, 3), ()])
def test_linear_gradcheck(batch_shape):
    check_module(nn.Linear(3, 2, dtype=D), rand64(*batch_shape, 3))


def test_linear_without_bias_and_second_order():
    layer = nn.Linear(3, 2, bias=False, dtype=D)
    assert layer.bias is None and len(list(layer.parameters())) == 1
    check_module(layer, rand64(4, 3))
    assert gradgradcheck(lambda x, w: F.linear(x, w) ** 2, (rand64(2, 3), rand64(2, 3)))


def test_linear_of_a_batch_of_rows_is_one_node_between_views_and_its_bias_gradient_is_reduced():
    """As PyTorch's graph: a [2, 3, in] input is viewed as 6 rows, one linear node, viewed back; the bias's
    gradient is the engine's sum over the rows (a grad_reduced event a learner sees, as lesson 3's bias)."""
    layer = nn.Linear(3, 2, dtype=D)
    out = layer(rand64(2, 3, 3, requires_grad=False))
    assert out.shape == (2, 3, 2) and out.grad_fn.name() == "ReshapeBackward"
    assert out.grad_fn.next_functions[0][0].name() == "LinearBackward"
    with mg.trace.record() as tr:
        out.sum().backward()
    reduced = [e for e in tr.find("grad_reduced") if e.target == layer.bias.id]
    assert [(e.from_shape, e.to_shape, e.dims) for e in reduced] == [((6, 2), (2,), (0,))]
    np.testing.assert_allclose(layer.bias.grad.numpy(), [6.0, 6.0])
    check_module(nn.Linear(3, 2, dtype=D), rand64(3))  # one row: a [in] input


def test_linear_matches_formula_and_skips_unneeded_grads():
    layer = nn.Linear(3, 2, dtype=D)
    x = rand64(4, 3, requires_grad=False)
    out = layer(x)
    np.testing.assert_allclose(out.array, x.array @ layer.weight.array.T + layer.bias.array)
    out.sum().backward()
    assert x.grad is None and layer.weight.grad.shape == (2, 3)


@pytest.mark.parametrize(
    "module",
    [
        nn.ReLU(),
        nn.Tanh(),
        nn.Sigmoid(),
        nn.GELU(),
        nn.GELU("tanh"),
        nn.LeakyReLU(0.1),
        nn.SiLU(),
        nn.Softmax(1),
        nn.LogSoftmax(0),
        nn.Flatten(),
        nn.Identity(),
    ],
    ids=lambda m: repr(m),
)
def test_activation_and_shape_layers_gradcheck(module):
    x = rand64(3, 2, 2)
    x.array[np.abs(x.array) < 1e-3] = 0.5  # keep clear of relu's kink
    check_module(module, x)


def test_softmax_and_log_softmax_are_stable_and_twice_differentiable():
    x = mg.tensor([[1e4, 0.0, -1e4], [3.0, 3.0, 3.0]], dtype=D)
    np.testing.assert_allclose(F.softmax(x, 1).array, [[1, 0, 0], [1 / 3, 1 / 3, 1 / 3]])
    np.testing.assert_allclose(F.log_softmax(x, 1).array[1], np.log([1 / 3] * 3))
    assert np.isfinite(F.log_softmax(x, 1).array).all()
    assert gradgradcheck(lambda t: F.softmax(t, 0), (rand64(4),))
    assert gradgradcheck(lambda t: F.log_softmax(t, -1), (rand64(2, 3),))


def test_dropout_train_and_eval():
    layer = nn.Dropout(0.25)
    x = mg.ones(2000, dtype=D)
    y = layer(x).array
    kept = y != 0
    assert 0.7 < kept.mean() < 0.8
    np.testing.assert_allclose(y[kept], 1 / 0.75)
    assert layer.eval()(x) is x
    assert not nn.Dropout(1.0)(x).array.any()
    with pytest.raises(ValueError, match="between 0 and 1"):
        nn.Dropout(1.5)


def test_dropout_gradcheck_with_a_fixed_mask():
    layer = nn.Dropout(0.5)

    def fn(x):
        mg.manual_seed(3)
        return layer(x)

    assert gradcheck(fn, (rand64(3, 4),))


def test_dropout_is_seeded_by_manual_seed():
    mg.manual_seed(7)
    a = F.dropout(mg.ones(50), 0.5).array
    mg.manual_seed(7)
    np.testing.assert_array_equal(a, F.dropout(mg.ones(50), 0.5).array)


def test_layer_norm_gradcheck_and_values():
    layer = nn.LayerNorm((2, 3), dtype=D)
    with mg.no_grad():
        layer.weight.array[...] = np.arange(6).reshape(2, 3) / 3 + 0.5
        layer.bias.array[...] = 0.1
    x = rand64(4, 2, 3)
    check_module(layer, x)
    y = F.layer_norm(x, (2, 3)).array
    np.testing.assert_allclose(y.mean(axis=(1, 2)), 0, atol=1e-12)
    v = x.array.var(axis=(1, 2))
    np.testing.assert_allclose(y.var(axis=(1, 2)), v / (v + 1e-5), rtol=1e-10)
    with pytest.raises(RuntimeError, match=r"LayerNorm: expected input of shape \[\*, 2, 3\].*\[4, 3, 2\]"):
        layer(rand64(4, 3, 2))


@pytest.mark.parametrize("empty", [[], ()])
def test_layer_norm_over_no_dims_is_refused(empty):
    # it gave zeros (a mean over dim=() reduced nothing); torch refuses an empty normalized_shape
    with pytest.raises(RuntimeError, match=r"Expected normalized_shape to be at least 1-dimensional.* = \[\]"):
        F.layer_norm(rand64(2, 3), empty)


@pytest.mark.parametrize("shape", [(5, 3), (4, 3, 2)])
def test_batch_norm_gradcheck_in_train_and_eval(shape):
    layer = nn.BatchNorm1d(3, dtype=D)
    check_module(layer, rand64(*shape))
    layer.eval()
    check_module(layer, rand64(*shape))


def test_batch_norm_running_statistics():
    layer = nn.BatchNorm1d(2, momentum=0.5)
    x = mg.tensor([[1.0, 10.0], [3.0, 20.0], [5.0, 30.0]])
    y = layer(x)
    np.testing.assert_allclose(y.array.mean(0), 0, atol=1e-6)
    np.testing.assert_allclose(layer.running_mean.array, [1.5, 10.0])
    np.testing.assert_allclose(layer.running_var.array, [0.5 + 0.5 * 4, 0.5 + 0.5 * 100], rtol=1e-6)
    assert int(layer.num_batches_tracked.item()) == 1
    layer.eval()
    expected = (x.array - layer.running_mean.array) / np.sqrt(layer.running_var.array + 1e-5)
    np.testing.assert_allclose(layer(x).array, expected, rtol=1e-5)
    np.testing.assert_allclose(layer.running_mean.array, [1.5, 10.0])  # eval leaves them alone


def test_batch_norm_errors():
    layer = nn.BatchNorm1d(3)
    with pytest.raises(RuntimeError, match=r"BatchNorm1d: expected input with num_features=3.*\[4, 2\]"):
        layer(mg.randn(4, 2))
    with pytest.raises(ValueError, match="more than 1 value per channel"):
        layer(mg.randn(1, 3))
    with pytest.raises(ValueError, match="2D or 3D"):
        layer(mg.randn(2, 3, 4, 5))


def test_embedding_gradients_and_padding():
    layer = nn.Embedding(5, 3, padding_idx=1, dtype=D)
    assert not layer.weight.array[1].any()
    idx = mg.tensor([[0, 1, 4], [4, 4, 2]])
    assert layer(idx).shape == (2, 3, 3)
    assert gradcheck(lambda w: F.embedding(idx, w), (rand64(5, 3),))
    assert gradgradcheck(lambda w: F.embedding(idx, w) ** 2, (rand64(5, 3),))
    layer(idx).sum().backward()
    np.testing.assert_array_equal(layer.weight.grad.array[:, 0], [1, 0, 1, 0, 3])
    with pytest.raises(IndexError, match=r"index 5 is out of range for a weight of shape \[5, 3\]"):
        layer(mg.tensor([5]))
    with pytest.raises(RuntimeError, match="'indices' to have one of the following scalar types: Long, Int"):
        layer(mg.tensor([0.0]))


@pytest.mark.parametrize("indices", [[[3, 0, 3], [7, 3, 0]], list(range(8))[::-1], []])
def test_embedding_gradient_sums_the_rows_of_repeated_indices(indices):
    """Every index's row of the gradient is the sum of the output gradient's rows that looked it up."""
    weight = rand64(8, 4)
    idx = np.array(indices, dtype=np.int64)
    seed = rand64(*idx.shape, 4, seed=3)
    F.embedding(mg.tensor(idx), weight).backward(seed)
    expected = np.zeros((8, 4))
    np.add.at(expected, idx.reshape(-1), seed.array.reshape(-1, 4))
    np.testing.assert_allclose(weight.grad.array, expected, rtol=1e-15, atol=1e-15)


@pytest.mark.parametrize("repeats", [[3, 3, 50], [7] * 40], ids=["few repeats", "one index many times"])
def test_embedding_gradient_over_many_rows_is_np_add_at_s_sum(repeats):
    """Many distinct indices and a few repeats (summed round by round), or one index repeated many times (summed
    as one run): both give ``np.add.at``'s sums."""
    idx = np.random.default_rng(0).permutation(np.concatenate([np.arange(100), repeats])).reshape(-1, 1)
    weight, seed = rand64(120, 4), rand64(idx.size, 1, 4, seed=3)
    F.embedding(mg.tensor(idx), weight).backward(seed)
    expected = np.zeros((120, 4))
    np.add.at(expected, idx.reshape(-1), seed.array.reshape(-1, 4))
    np.testing.assert_allclose(weight.grad.array, expected, rtol=1e-14, atol=1e-14)


@pytest.mark.parametrize(
    "kwargs", [{}, {"stride": 2}, {"padding": 1}, {"dilation": 2, "padding": (1, 2)}, {"stride": (1, 2), "bias": False}]
)
def test_conv2d_gradcheck(kwargs):
    layer = nn.Conv2d(2, 3, (3, 2), dtype=D, **kwargs)
    check_module(layer, rand64(2, 2, 5, 6))


def test_im2col_is_twice_differentiable():
    w = rand64(2, 1, 2, 2)
    assert gradgradcheck(lambda x, w: F.conv2d(x, w, stride=1, padding=1), (rand64(1, 1, 3, 3), w))


@pytest.mark.parametrize(
    "kwargs",
    [
        {"kernel_size": 2},
        {"kernel_size": 3, "stride": 2, "padding": 1},
        {"kernel_size": (2, 3), "stride": 1, "dilation": 2},
    ],
)
def test_max_pool2d_gradcheck(kwargs):
    x = mg.tensor(
        np.random.default_rng(1).permutation(2 * 3 * 7 * 7).reshape(2, 3, 7, 7) / 10.0, dtype=D, requires_grad=True
    )  # distinct values: no ties
    check_module(nn.MaxPool2d(**kwargs), x)


def test_conv_and_pool_errors_name_the_layer():
    model = nn.Sequential(nn.Conv2d(3, 4, 3))
    with pytest.raises(RuntimeError, match=r"Conv2d '0': expected input \[N, 3, H, W\].*\[1, 2, 5, 5\]"):
        model(mg.randn(1, 2, 5, 5))
    with pytest.raises(RuntimeError, match="too small"):
        nn.Conv2d(1, 1, 5)(mg.randn(1, 1, 3, 3))
    with pytest.raises(RuntimeError, match="at most half"):
        F.max_pool2d(mg.randn(1, 1, 4, 4), 2, padding=2)


@pytest.mark.parametrize(
    "conv,x,weight,given",
    [
        (F.conv2d, (1, 2, 5, 5), (3, 2, 3, 3), "Given weight of size [3, 2, 3, 3]"),
        (F.conv1d, (1, 2, 5), (3, 2, 3), "Given weight of size [3, 2, 3]"),
        (F.conv_transpose2d, (1, 2, 5, 5), (2, 3, 3, 3), "Given transposed=1, weight of size [2, 3, 3, 3]"),
        (F.conv_transpose1d, (1, 2, 5), (2, 3, 3), "Given transposed=1, weight of size [2, 3, 3]"),
    ],
)
@pytest.mark.parametrize("bias", [(3, 1), (1, 3), (4,), ()])
def test_a_conv_bias_must_hold_one_value_per_output_channel(conv, x, weight, given, bias):
    # a [3, 1] or [1, 3] bias was broadcast into the output; torch refuses any shape but [out_channels]
    message = f"{given}, expected bias to be 1-dimensional with 3 elements, but got bias of size {list(bias)} instead"
    with pytest.raises(RuntimeError, match=re.escape(message)):
        conv(rand64(*x), rand64(*weight), mg.ones(bias, dtype=D))
    assert conv(rand64(*x), rand64(*weight), mg.ones(3, dtype=D)).shape[1] == 3


def test_mlp_helper():
    model = nn.MLP(4, [8, 6], 3, activation="tanh", dropout=0.1, dtype=D)
    assert [n for n, _ in model.named_children()] == ["fc1", "act1", "drop1", "fc2", "act2", "drop2", "fc3"]
    assert isinstance(model.act1, nn.Tanh)
    model.eval()
    check_module(model, rand64(2, 4))
    with pytest.raises(ValueError, match="unknown activation"):
        nn.MLP(1, [], 1, activation="swish")


def test_layers_match_pytorch():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 3, 9, 8))
    conv = nn.Conv2d(3, 4, 3, stride=2, padding=1, dilation=1, dtype=D)
    tconv = torch.nn.Conv2d(3, 4, 3, stride=2, padding=1, dtype=torch.float64)
    tconv.load_state_dict({k: torch.from_numpy(v.array.copy()) for k, v in conv.state_dict().items()})
    np.testing.assert_allclose(conv(mg.tensor(x)).array, tconv(torch.from_numpy(x)).detach().numpy(), atol=1e-12)
    pool = F.max_pool2d(mg.tensor(x), 3, 2, 1).array
    np.testing.assert_allclose(pool, torch.nn.functional.max_pool2d(torch.from_numpy(x), 3, 2, 1).numpy())
    xs = rng.standard_normal((6, 4, 5))
    bn, tbn = nn.BatchNorm1d(4, dtype=D), torch.nn.BatchNorm1d(4, dtype=torch.float64)
    for _ in range(2):
        np.testing.assert_allclose(bn(mg.tensor(xs)).array, tbn(torch.from_numpy(xs)).detach().numpy(), atol=1e-12)
    np.testing.assert_allclose(bn.running_var.array, tbn.running_var.numpy(), atol=1e-12)
    bn.eval(), tbn.eval()
    np.testing.assert_allclose(bn(mg.tensor(xs)).array, tbn(torch.from_numpy(xs)).detach().numpy(), atol=1e-12)
    ln = torch.nn.functional.layer_norm(torch.from_numpy(xs), (5,)).numpy()
    np.testing.assert_allclose(F.layer_norm(mg.tensor(xs), 5).array, ln, atol=1e-12)


@settings(max_examples=20, deadline=None)
@given(
    batch=st.lists(st.integers(1, 3), max_size=2),
    n_in=st.integers(1, 4),
    n_out=st.integers(1, 4),
    seed=st.integers(0, 2**16),
)
def test_linear_matches_numpy_for_any_batch_shape(batch, n_in, n_out, seed):
    rng = np.random.default_rng(seed)
    x = mg.tensor(rng.standard_normal((*batch, n_in)), dtype=D, requires_grad=True)
    layer = nn.Linear(n_in, n_out, dtype=D)
    out = layer(x)
    np.testing.assert_allclose(out.array, x.array @ layer.weight.array.T + layer.bias.array, rtol=1e-12)
    g = rng.standard_normal(out.shape)
    out.backward(mg.tensor(g))
    g2, x2 = g.reshape(-1, n_out), x.array.reshape(-1, n_in)
    np.testing.assert_allclose(x.grad.array, g @ layer.weight.array, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(layer.weight.grad.array, g2.T @ x2, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(layer.bias.grad.array, g2.sum(0), rtol=1e-12, atol=1e-14)


def test_elu_and_softplus_modules_match_torch():
    torch = pytest.importorskip("torch")
    x = np.linspace(-3.0, 3.0, 7)
    for ours, theirs in ((mg.nn.ELU(0.7), torch.nn.ELU(0.7)), (mg.nn.Softplus(2.0, 1.5), torch.nn.Softplus(2.0, 1.5))):
        np.testing.assert_allclose(ours(mg.tensor(x)).numpy(), theirs(torch.tensor(x)).numpy(), rtol=1e-12)
    assert repr(mg.nn.ELU(0.7)) == repr(torch.nn.ELU(0.7))
