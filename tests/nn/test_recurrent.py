"""RNN, LSTM, GRU and their cells: torch's parameter names and shapes; loading torch's state dict gives
torch's outputs and gradients; float64 gradcheck."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad.autograd import gradcheck
from tests.torch_oracle import raises_like_torch

KINDS = ["RNN", "LSTM", "GRU"]
CONFIGS = [
    {},
    {"num_layers": 2},
    {"batch_first": True},
    {"bidirectional": True},
    {"num_layers": 2, "batch_first": True, "bidirectional": True, "bias": False},
]


def _pair(kind: str, torch, **kwargs):
    torch.manual_seed(0)
    theirs = getattr(torch.nn, kind)(3, 4, **kwargs).double()
    ours = getattr(mg.nn, kind)(3, 4, **kwargs, dtype=mg.float64)
    ours.load_state_dict(theirs.state_dict())  # torch's own tensors, as a user would pass them
    return ours, theirs


def _assert_close(ours, theirs):
    if isinstance(theirs, tuple):
        for o, t in zip(ours, theirs):
            _assert_close(o, t)
        return
    assert tuple(ours.shape) == tuple(theirs.shape)
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("kwargs", CONFIGS, ids=lambda k: ",".join(k) or "default")
@pytest.mark.parametrize("kind", KINDS)
def test_torchs_state_dict_gives_torchs_outputs_and_gradients(kind, kwargs):
    torch = pytest.importorskip("torch")
    ours, theirs = _pair(kind, torch, **kwargs)
    assert list(ours.state_dict()) == list(theirs.state_dict())
    assert [tuple(p.shape) for p in ours.parameters()] == [tuple(p.shape) for p in theirs.parameters()]
    x = np.random.default_rng(1).standard_normal((2, 5, 3))
    mx, tx = mg.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    (mo, mh), (to, th) = ours(mx), theirs(tx)
    _assert_close(mo, to)
    _assert_close(mh, th)
    w = np.random.default_rng(2).standard_normal(tuple(to.shape))
    (mo * mg.tensor(w)).sum().backward()
    (to * torch.tensor(w)).sum().backward()
    _assert_close(mx.grad, tx.grad)
    for (name, p), q in zip(ours.named_parameters(), theirs.parameters()):
        np.testing.assert_allclose(p.grad.numpy(), q.grad.numpy(), rtol=1e-9, atol=1e-12, err_msg=name)


@pytest.mark.parametrize("kind", KINDS)
def test_initial_state_and_unbatched_input_match_torch(kind):
    torch = pytest.importorskip("torch")
    ours, theirs = _pair(kind, torch, num_layers=2)
    rng = np.random.default_rng(3)
    x, h0, c0 = rng.standard_normal((5, 2, 3)), rng.standard_normal((2, 2, 4)), rng.standard_normal((2, 2, 4))
    if kind == "LSTM":
        mine = ours(mg.tensor(x), (mg.tensor(h0), mg.tensor(c0)))
        ref = theirs(torch.tensor(x), (torch.tensor(h0), torch.tensor(c0)))
        unbatched = ours(mg.tensor(x[:, 0]), (mg.tensor(h0[:, 0]), mg.tensor(c0[:, 0])))
        ref_unbatched = theirs(torch.tensor(x[:, 0]), (torch.tensor(h0[:, 0]), torch.tensor(c0[:, 0])))
    else:
        mine, ref = ours(mg.tensor(x), mg.tensor(h0)), theirs(torch.tensor(x), torch.tensor(h0))
        unbatched = ours(mg.tensor(x[:, 0]), mg.tensor(h0[:, 0]))
        ref_unbatched = theirs(torch.tensor(x[:, 0]), torch.tensor(h0[:, 0]))
    _assert_close(tuple(mine), tuple(ref))
    _assert_close(tuple(unbatched), tuple(ref_unbatched))


def test_relu_rnn_matches_torch():
    torch = pytest.importorskip("torch")
    ours, theirs = _pair("RNN", torch, nonlinearity="relu")
    x = np.random.default_rng(4).standard_normal((3, 2, 3))
    _assert_close(tuple(ours(mg.tensor(x))), tuple(theirs(torch.tensor(x))))


@pytest.mark.parametrize("kind", KINDS)
def test_cells_match_torch(kind):
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    theirs = getattr(torch.nn, kind + "Cell")(3, 4).double()
    ours = getattr(mg.nn, kind + "Cell")(3, 4, dtype=mg.float64)
    assert list(ours.state_dict()) == list(theirs.state_dict())
    ours.load_state_dict({k: v.numpy() for k, v in theirs.state_dict().items()})
    x = np.random.default_rng(5).standard_normal((2, 3))
    _assert_close(ours(mg.tensor(x)), theirs(torch.tensor(x)))
    _assert_close(ours(mg.tensor(x[0])), theirs(torch.tensor(x[0])))


@pytest.mark.parametrize("kind", KINDS)
def test_gradcheck_through_time(kind):
    mg.manual_seed(0)
    layer = getattr(mg.nn, kind)(2, 3, num_layers=2, bidirectional=True, dtype=mg.float64)
    x = mg.tensor(np.random.default_rng(6).standard_normal((3, 2, 2)), requires_grad=True)

    def run(inp, w_ih, w_hh):
        layer._parameters["weight_ih_l0"] = w_ih
        layer._parameters["weight_hh_l1_reverse"] = w_hh
        out, _ = layer(inp)
        return out

    w_ih = mg.tensor(layer.weight_ih_l0.detach().numpy(), requires_grad=True)
    w_hh = mg.tensor(layer.weight_hh_l1_reverse.detach().numpy(), requires_grad=True)
    assert gradcheck(run, (x, w_ih, w_hh))


def test_initialisation_is_uniform_in_torchs_bound():
    mg.manual_seed(0)
    layer = mg.nn.LSTM(8, 16)
    values = np.concatenate([p.detach().numpy().ravel() for p in layer.parameters()])
    assert np.abs(values).max() <= 0.25 and np.abs(values).max() > 0.24


@pytest.mark.parametrize(
    "call",
    [
        lambda nn: nn.RNN(3, 4)(_ones(nn, 2, 2, 5)),
        lambda nn: nn.RNN(3, 4)(_ones(nn, 2, 2, 2, 3)),
        lambda nn: nn.GRU(3, 4)(_ones(nn, 2, 2, 3), _ones(nn, 2, 2, 4)),
        lambda nn: nn.RNN(3, 4, nonlinearity="sigmoid"),
        lambda nn: nn.LSTM(3, 4, dropout=1.5),
        lambda nn: nn.LSTM(3, 0),
    ],
)
def test_bad_input_raises_like_torch(call):
    torch = pytest.importorskip("torch")
    with pytest.raises(Exception) as theirs:
        call(torch.nn)
    with pytest.raises(theirs.type):
        call(mg.nn)


def _ones(nn, *shape):
    import torch

    return torch.ones(*shape) if nn is torch.nn else mg.ones(*shape)


def test_dropout_between_layers_only_in_training():
    mg.manual_seed(0)
    layer = mg.nn.GRU(3, 4, num_layers=2, dropout=0.5)
    x = mg.randn(5, 2, 3)
    layer.eval()
    first, second = layer(x)[0], layer(x)[0]
    assert np.array_equal(first.detach().numpy(), second.detach().numpy())
    layer.train()
    assert not np.array_equal(layer(x)[0].detach().numpy(), first.detach().numpy())


@pytest.mark.parametrize("kind", KINDS)
def test_vmap_gives_each_entrys_outputs_and_input_gradient(kind):
    """Inside vmap the layer runs on each entry's logical shape (its checks read it, its steps are stacked
    by the public ops, which batch): the results of running each entry alone, and their gradients."""
    mg.manual_seed(0)
    layer = getattr(mg.nn, kind)(3, 4, num_layers=2, bidirectional=True, dtype=mg.float64)
    xs = mg.tensor(np.random.default_rng(0).standard_normal((3, 5, 2, 3)))

    def run(x):
        out, final = layer(x)
        return out, final[1] if kind == "LSTM" else final

    def loss(x):
        out, final = run(x)
        return out.tanh().sum() + final.sum()

    batched = mg.func.vmap(run)(xs)
    one_by_one = [run(x) for x in xs.unbind(0)]
    for i, got in enumerate(batched):
        _assert_close(got, mg.stack([entry[i] for entry in one_by_one]))
    _assert_close(mg.func.vmap(mg.func.grad(loss))(xs), mg.stack([mg.func.grad(loss)(x) for x in xs.unbind(0)]))


@pytest.mark.parametrize("kind", KINDS)
def test_an_input_of_another_dtype_than_the_weights_raises_like_torch(kind):
    ours, theirs = raises_like_torch(lambda lib: getattr(lib.nn, kind)(3, 4)(lib.ones(5, 2, 3, dtype=lib.float64)))
    assert str(ours) == str(theirs).replace("torch.", "minigrad.")
