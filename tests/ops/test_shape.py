"""Shape ops: values against NumPy, gradients by gradcheck (float64), errors, and hypothesis families."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad as mg
from minigrad.autograd import gradcheck, gradgradcheck
from tests.conftest import rand64
from tests.ops.strategies import shape_and_dim, shapes, tensors

# ---------------------------------------------------------------- gradients of every op
GRAD_CASES = {
    "reshape": ((2, 3, 4), lambda x: x.reshape(4, -1)),
    "view_tuple": ((2, 3, 4), lambda x: x.view((6, 4))),
    "reshape_noncontiguous": ((3, 4), lambda x: x.mT.reshape(12) * mg.arange(12.0, dtype=mg.float64)),
    "flatten_all": ((2, 3, 4), lambda x: x.flatten()),
    "flatten_mid": ((2, 3, 4, 2), lambda x: x.flatten(1, -2)),
    "flatten_neg": ((2, 3, 4), lambda x: x.flatten(-2)),
    "flatten_0d": ((), lambda x: x.flatten()),
    "unflatten": ((2, 12), lambda x: x.unflatten(-1, (3, -1))),
    "squeeze_all": ((1, 3, 1), lambda x: x.squeeze()),
    "squeeze_dim": ((1, 3, 1), lambda x: x.squeeze(-1)),
    "squeeze_tuple": ((1, 3, 1), lambda x: x.squeeze((0, 2))),
    "unsqueeze_neg": ((2, 3), lambda x: x.unsqueeze(-1)),
    "unsqueeze_front": ((2, 3), lambda x: x.unsqueeze(0)),
    "permute": ((2, 3, 4), lambda x: x.permute(2, 0, 1)),
    "permute_neg": ((2, 3, 4), lambda x: x.permute((-1, -3, -2))),
    "transpose": ((2, 3, 4), lambda x: x.transpose(0, -1)),
    "T": ((2, 3, 4), lambda x: x.T),
    "mT": ((2, 3, 4), lambda x: x.mT),
    "movedim": ((2, 3, 4), lambda x: x.movedim(0, -1)),
    "movedim_tuple": ((2, 3, 4, 5), lambda x: x.movedim((0, 1), (2, 0))),
    "expand": ((3, 1), lambda x: x.expand(2, 3, 4)),
    "expand_keep": ((3, 1), lambda x: x.expand(-1, 5)),
    "broadcast_to": ((1, 4), lambda x: mg.broadcast_to(x, (3, 4))),
    "repeat": ((2, 3), lambda x: x.repeat(2, 1, 3)),
    "repeat_noncontiguous": ((3, 2), lambda x: x.T.repeat(3, 2)),
    "tile": ((2, 3), lambda x: x.tile(2)),
    "split_int": ((5, 2), lambda x: x.split(2)[2] * 3 + x.split(2)[0].sum()),
    "split_list": ((2, 6), lambda x: mg.cat(x.split([1, 3, 2], dim=-1)[::-1], dim=1)),
    "chunk": ((7,), lambda x: x.chunk(3)[1] * x.chunk(3)[2].sum()),
    "unbind": ((3, 2), lambda x: x.unbind(1)[0] * x.unbind(1)[1]),
    "narrow": ((4, 5), lambda x: x.narrow(1, -3, 2)),
    "select": ((4, 5), lambda x: x.select(-1, 2)),
    "flip": ((3, 4), lambda x: x.flip(0, -1)),
    "flip_noncontiguous": ((3, 4), lambda x: x.T.flip(0)),
    "pad_constant": ((2, 3), lambda x: mg.pad(x, (1, 2, 0, 1), value=0.5)),
    "pad_crop": ((3, 4), lambda x: mg.pad(x, (-1, 2, 1, -2))),
    "pad_reflect": ((2, 4), lambda x: mg.pad(x, (3, 2), mode="reflect")),
    "pad_replicate": ((2, 3), lambda x: mg.pad(x, (2, 3, 1, 1), mode="replicate")),
    "pad_circular": ((2, 3), lambda x: mg.pad(x, (3, 1), mode="circular")),
}


@pytest.mark.parametrize("name", list(GRAD_CASES))
def test_gradcheck(name):
    shape, fn = GRAD_CASES[name]
    assert gradcheck(fn, (rand64(*shape, seed=1),))


@pytest.mark.parametrize(
    "fn",
    [
        lambda a, b: mg.cat([a, b], dim=0),
        lambda a, b: mg.cat((a, b, a), dim=-1),
        lambda a, b: mg.stack([a, b], dim=1),
        lambda a, b: mg.stack([a, b, a], dim=-1),
    ],
)
def test_gradcheck_joins(fn):
    assert gradcheck(fn, (rand64(2, 2, seed=1), rand64(2, 2, seed=2)))


@pytest.mark.parametrize(
    "fn",
    [
        lambda x: x.repeat(2, 2) * x.repeat(2, 2),
        lambda x: mg.pad(x, (1, 1), mode="reflect") ** 2,
        lambda x: mg.cat([x, x * x], 1).flip(0) ** 2,
        lambda x: x.split(1)[0] ** 3,
        lambda x: x.expand(3, 2, 2) ** 2,
    ],
)
def test_second_derivatives(fn):
    assert gradgradcheck(fn, (rand64(2, 2, seed=3),))


# ---------------------------------------------------------------- forward values
def test_values_match_numpy():
    a = np.arange(24.0).reshape(2, 3, 4)
    x = mg.tensor(a)
    np.testing.assert_array_equal(x.flatten(1).numpy(), a.reshape(2, 12))
    np.testing.assert_array_equal(x.permute(2, 0, 1).numpy(), a.transpose(2, 0, 1))
    np.testing.assert_array_equal(x.T.numpy(), a.T)
    np.testing.assert_array_equal(x.mT.numpy(), a.swapaxes(-1, -2))
    np.testing.assert_array_equal(x.movedim(0, -1).numpy(), np.moveaxis(a, 0, -1))
    np.testing.assert_array_equal(x.repeat(1, 2, 1, 3).numpy(), np.tile(a, (1, 2, 1, 3)))
    np.testing.assert_array_equal(x.flip(1).numpy(), a[:, ::-1])
    np.testing.assert_array_equal(mg.cat([x, x], -1).numpy(), np.concatenate([a, a], -1))
    np.testing.assert_array_equal(mg.stack([x, x], 1).numpy(), np.stack([a, a], 1))
    np.testing.assert_array_equal(x.narrow(2, 1, 2).numpy(), a[:, :, 1:3])
    assert [p.shape for p in x.split(3, dim=-1)] == [(2, 3, 3), (2, 3, 1)]
    assert [p.shape for p in x.chunk(2, 1)] == [(2, 2, 4), (2, 1, 4)]
    assert [p.shape for p in mg.arange(6).chunk(4)] == [(2,), (2,), (2,)]  # fewer chunks when sizes run out
    assert len(x.unbind(2)) == 4 and x.unbind(2)[1].shape == (2, 3)


def test_pad_matches_numpy_in_every_mode():
    a = np.arange(12.0).reshape(3, 4)
    x = mg.tensor(a)
    np.testing.assert_array_equal(mg.pad(x, (1, 2), value=7).numpy(), np.pad(a, ((0, 0), (1, 2)), constant_values=7))
    np.testing.assert_array_equal(
        mg.pad(x, (1, 2, 2, 0), mode="reflect").numpy(), np.pad(a, ((2, 0), (1, 2)), "reflect")
    )
    np.testing.assert_array_equal(mg.pad(x, (3, 1), mode="replicate").numpy(), np.pad(a, ((0, 0), (3, 1)), "edge"))
    np.testing.assert_array_equal(mg.pad(x, (0, 0, 2, 3), mode="circular").numpy(), np.pad(a, ((2, 3), (0, 0)), "wrap"))
    np.testing.assert_array_equal(mg.pad(x, (-1, 1)).numpy(), np.pad(a[:, 1:], ((0, 0), (0, 1))))


def test_cat_and_stack_promote_dtypes_like_torch():
    assert mg.cat([mg.ones(2), mg.ones(2, dtype=mg.int64)]).dtype == mg.float32
    assert mg.stack([mg.ones(2, dtype=mg.int32), mg.ones(2, dtype=mg.float64)]).dtype == mg.float64
    assert mg.cat([mg.ones(2, 3), mg.ones(0)]).shape == (2, 3)  # legacy: 1-D empty tensors are skipped


def test_split_pieces_accumulate_into_one_gradient():
    x = mg.arange(6.0, requires_grad=True)
    a, b, c = x.split(2)
    (a * 1 + b * 2 + c * 3).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [1, 1, 2, 2, 3, 3])


def test_view_ops_that_change_nothing_return_a_new_view_as_torch():
    x = mg.ones(2, 3, requires_grad=True)
    same = {
        "reshape": x.reshape(2, 3),
        "reshape ": x.view(2, 3),  # view is reshape here (torch names both ViewBackward0)
        "squeeze": x.squeeze(),
        "expand": x.expand(2, 3),
        "permute": x.permute(0, 1),
        "transpose": x.transpose(1, 1),
    }
    for op, y in same.items():
        assert y is not x and y.op == op.strip() and y.shape == x.shape, op
        assert y.array.base is not None and np.shares_memory(y.array, x.array), op  # a view, not a copy
    hooked = x.reshape(2, 3)
    hooked.register_hook(lambda g: g * 10)  # the view's hook is its own, not x's
    (hooked.sum() + x.sum()).backward()
    assert x.grad.tolist() == [[11.0] * 3] * 2
    assert mg.ones(3).T is not None and mg.ones(3).T.shape == (3,)


def test_copying_ops_that_change_nothing_return_a_copy_as_torch():
    x = mg.ones(2, 3, requires_grad=True)
    for op, y in {"flip": x.flip([]), "pad": mg.pad(x, (0, 0))}.items():
        assert y is not x and y.op == op and not np.shares_memory(y.array, x.array), op
        y.sum().backward()
    assert x.grad.tolist() == [[2.0] * 3] * 2


def test_grad_fn_names():
    x = mg.ones(2, 3, requires_grad=True)
    assert repr(x.reshape(3, 2).grad_fn) == "<ReshapeBackward>"
    assert repr(mg.cat([x, x]).grad_fn) == "<CatBackward>"
    assert repr(x.permute(1, 0).grad_fn) == "<PermuteBackward>"
    assert repr(mg.pad(x, (1, 1)).grad_fn) == "<PadBackward>"


# ---------------------------------------------------------------- errors
@pytest.mark.parametrize(
    "fn, exc, text",
    [
        (lambda x: x.reshape(5, 5), RuntimeError, "shape '[5, 5]' is invalid for input of size 24"),
        (lambda x: x.reshape(-1, -1), RuntimeError, "only one dimension can be inferred"),
        (lambda x: x.flatten(2, 0), RuntimeError, "start_dim cannot come after end_dim"),
        (lambda x: x.unflatten(1, (2, 2)), RuntimeError, "don't multiply up to the size of dim 1 (3)"),
        (lambda x: x.permute(0, 1), RuntimeError, "input.dim() = 3 is not equal to len(dims) = 2"),
        (lambda x: x.permute(0, 1, 1), RuntimeError, "duplicate dims"),
        (lambda x: x.transpose(0, 3), IndexError, "expected to be in range of [-3, 2], but got 3"),
        (lambda x: x.squeeze(5), IndexError, "Dimension out of range"),
        (lambda x: x.unsqueeze(4), IndexError, "expected to be in range of [-4, 3], but got 4"),
        (lambda x: x.expand(3, 3, 4), RuntimeError, "must match the existing size (2) at non-singleton dimension 0"),
        (lambda x: x.expand(3, 4), RuntimeError, "number of sizes provided (2) must be greater or equal"),
        (lambda x: x.repeat(2, 2), RuntimeError, "can not be smaller than number of dimensions"),
        (lambda x: x.split([1, 2]), RuntimeError, "split_sizes to sum exactly to 2"),
        (lambda x: x.chunk(0), RuntimeError, "chunk expects `chunks` to be greater than 0"),
        (lambda x: x.narrow(2, 3, 2), RuntimeError, "start (3) + length (2) exceeds dimension size (4)"),
        (lambda x: x.select(1, 3), IndexError, "index 3 out of range"),
        (lambda x: mg.cat([x, mg.ones(2, 4, 4)]), RuntimeError, "Expected size 3 but got size 4 for tensor number 1"),
        (lambda x: mg.cat([x, mg.ones(2, 3)]), RuntimeError, "same number of dimensions: got 3 and 2"),
        (lambda x: mg.cat([]), RuntimeError, "non-empty list"),
        (lambda x: mg.cat(x), TypeError, "must be a sequence of Tensors"),
        (lambda x: mg.cat([mg.tensor(1.0)]), RuntimeError, "zero-dimensional tensor (at position 0)"),
        (lambda x: mg.stack([x, x[0]]), RuntimeError, "equal size, but got [2, 3, 4] at entry 0 and [3, 4] at entry 1"),
        (lambda x: mg.pad(x, (1, 2, 3)), RuntimeError, "Padding length must be divisible by 2"),
        (lambda x: mg.pad(x, (1,) * 8), RuntimeError, "padding length 8 and input of dimension 3"),
        (lambda x: mg.pad(x, (4, 0), mode="reflect"), RuntimeError, "Padding size should be less than"),
        (lambda x: mg.pad(x, (1, 1), mode="wrap"), NotImplementedError, "unknown padding mode 'wrap'"),
        (lambda x: mg.ones(3).mT, RuntimeError, "tensor.mT is only supported on matrices"),
        (lambda x: x.movedim((0, 1), 2), TypeError, "'source' and 'destination' must both be ints or both be tuples"),
        (lambda x: x.movedim((0, 1), (2,)), RuntimeError, "movedim: Invalid source or destination dims"),
    ],
)
def test_errors(fn, exc, text):
    with pytest.raises(exc) as info:
        fn(mg.ones(2, 3, 4))
    assert text in str(info.value)


def test_cat_device_mismatch_names_both_devices():
    fake = mg.ones(2)
    fake.device = mg.Device("cuda", 0)  # a second device without a GPU: the check runs before any array work
    with pytest.raises(RuntimeError, match="cpu and cuda:0"):
        mg.cat([mg.ones(2), fake])


# ---------------------------------------------------------------- hypothesis families
@settings(max_examples=15, deadline=None)
@given(x=tensors(shapes(min_dims=1, max_dims=3)), data=st.data())
def test_permutations_roundtrip_and_gradcheck(x, data):
    order = data.draw(st.permutations(range(x.ndim)))
    y = x.permute(order)
    np.testing.assert_array_equal(y.detach().numpy(), x.array.transpose(order))
    inverse = np.argsort(order).tolist()
    np.testing.assert_array_equal(y.permute(inverse).detach().numpy(), x.array)
    assert gradcheck(lambda t: t.permute(order), (x,))


@settings(max_examples=15, deadline=None)
@given(sd=shape_and_dim(min_dims=1, max_dims=3), n=st.integers(1, 3), data=st.data())
def test_cat_split_roundtrip(sd, n, data):
    shape, dim = sd
    xs = [mg.tensor(np.random.default_rng(i).standard_normal(shape), requires_grad=True) for i in range(n)]
    joined = mg.cat(xs, dim)
    pieces = joined.split([shape[dim]] * n, dim)
    for p, x in zip(pieces, xs):
        np.testing.assert_array_equal(p.detach().numpy(), x.array)
    weights = data.draw(st.lists(st.floats(-2, 2), min_size=n, max_size=n))
    sum(p.sum() * w for p, w in zip(pieces, weights)).backward()
    for x, w in zip(xs, weights):
        np.testing.assert_allclose(x.grad.numpy(), np.full(shape, w))


@settings(max_examples=15, deadline=None)
@given(x=tensors(shapes(min_dims=0, max_dims=3)), data=st.data())
def test_reshape_flatten_family(x, data):
    flat = x.flatten()
    assert flat.shape == (x.numel(),)
    target = data.draw(st.sampled_from([(-1,), (x.numel(), 1), (1, -1)]))
    assert gradcheck(lambda t: t.reshape(target).flatten(), (x,))


@settings(max_examples=12, deadline=None)
@given(x=tensors(shapes(min_dims=1, max_dims=2, max_side=3)), data=st.data())
def test_repeat_and_expand_family(x, data):
    reps = tuple(data.draw(st.lists(st.integers(1, 3), min_size=x.ndim, max_size=x.ndim + 1)))
    np.testing.assert_array_equal(x.repeat(reps).detach().numpy(), np.tile(x.array, reps))
    assert gradcheck(lambda t: t.repeat(reps), (x,))
    target = tuple(2 if n == 1 else n for n in x.shape)
    assert gradcheck(lambda t: t.unsqueeze(0).expand((2,) + target), (x,))


@settings(max_examples=12, deadline=None)
@given(x=tensors(shapes(min_dims=1, max_dims=3)), data=st.data())
def test_pad_family(x, data):
    k = data.draw(st.integers(1, x.ndim))
    mode = data.draw(st.sampled_from(["constant", "replicate", "circular", "reflect"]))
    limit = min(x.shape[x.ndim - k :]) - (1 if mode == "reflect" else 0)
    pads = tuple(data.draw(st.lists(st.integers(0, max(limit, 0)), min_size=2 * k, max_size=2 * k)))
    expected_shape = list(x.shape)
    for i in range(k):
        expected_shape[x.ndim - 1 - i] += pads[2 * i] + pads[2 * i + 1]
    y = mg.pad(x, pads, mode=mode)
    assert y.shape == tuple(expected_shape)
    assert gradcheck(lambda t: mg.pad(t, pads, mode=mode), (x,))


# ---------------------------------------------------------------- PyTorch parity
def test_torch_parity_pad_and_repeat_grads():
    torch = pytest.importorskip("torch")
    a = np.random.default_rng(0).standard_normal((2, 3, 4))
    w = np.random.default_rng(1).standard_normal((2, 3, 9))
    for mode in ("constant", "reflect", "replicate", "circular"):
        x, tx = mg.tensor(a, requires_grad=True), torch.tensor(a, requires_grad=True)
        (mg.pad(x, (3, 2), mode=mode) * mg.tensor(w)).sum().backward()
        (torch.nn.functional.pad(tx, (3, 2), mode=mode) * torch.tensor(w)).sum().backward()
        np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), err_msg=mode)
    x, tx = mg.tensor(a, requires_grad=True), torch.tensor(a, requires_grad=True)
    (x.repeat(2, 1, 1, 3) ** 2).sum().backward()
    (tx.repeat(2, 1, 1, 3) ** 2).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy())
    assert [p.shape for p in mg.tensor(a).chunk(3, -1)] == [tuple(p.shape) for p in torch.tensor(a).chunk(3, -1)]
