"""SELU, CELU, GLU, Softmin, the shrinks, Threshold and PReLU: values and gradients against PyTorch,
gradcheck in float64 (by the oracle), the layers' reprs and parameters, and PyTorch's refusals."""

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F
from tests.torch_oracle import arr, check, raises_like_torch


def _f(lib):
    return F if lib is mg else lib.nn.functional


CALLS = {
    "selu": lambda lib, x: _f(lib).selu(x),
    "celu": lambda lib, x: _f(lib).celu(x, alpha=0.7),
    "glu": lambda lib, x: _f(lib).glu(x),
    "glu_dim0": lambda lib, x: _f(lib).glu(x, 0),
    "softmin": lambda lib, x: _f(lib).softmin(x, dim=1),
    "hardshrink": lambda lib, x: _f(lib).hardshrink(x, 0.6),
    "softshrink": lambda lib, x: _f(lib).softshrink(x),
    "tanhshrink": lambda lib, x: _f(lib).tanhshrink(x),
    "threshold": lambda lib, x: _f(lib).threshold(x, 0.3, -2.0),
}


@pytest.mark.parametrize("name", list(CALLS))
def test_matches_torch(name):
    pytest.importorskip("torch")
    check(CALLS[name], arr(4, 6))


@pytest.mark.parametrize("shape", [(3, 4), (2, 4, 5), (2, 4, 3, 3)])
@pytest.mark.parametrize("slopes", [1, 4])
def test_prelu_matches_torch(shape, slopes):
    pytest.importorskip("torch")
    check(lambda lib, x, w: _f(lib).prelu(x, w), arr(*shape), arr(slopes, seed=1, low=0.0, high=0.5))


def test_prelu_one_slope_on_a_vector_matches_torch():
    pytest.importorskip("torch")
    check(lambda lib, x, w: _f(lib).prelu(x, w), arr(5), arr(1, seed=1))


@pytest.mark.parametrize("name", ["SELU", "CELU", "GLU", "Hardshrink", "Softshrink", "Tanhshrink"])
def test_layers_match_torch(name):
    pytest.importorskip("torch")
    check(lambda lib, x: getattr(lib.nn, name)()(x), arr(3, 4))


def test_threshold_softmin_and_prelu_layers_match_torch():
    pytest.importorskip("torch")
    check(lambda lib, x: lib.nn.Threshold(0.1, 20.0)(x), arr(3, 4))
    check(lambda lib, x: lib.nn.Softmin(dim=0)(x), arr(3, 4))
    layer = mg.nn.PReLU(4)
    assert [(n, tuple(p.shape)) for n, p in layer.named_parameters()] == [("weight", (4,))]
    np.testing.assert_array_equal(layer.weight.detach().numpy(), np.full(4, 0.25, dtype=np.float32))
    x = mg.tensor(np.random.default_rng(0).standard_normal((2, 4, 3)))
    layer.double()(x).sum().backward()
    assert layer.weight.grad.shape == (4,)


def test_reprs_as_torch():
    assert repr(mg.nn.SELU()) == "SELU()"
    assert repr(mg.nn.SELU(inplace=True)) == "SELU(inplace=True)"
    assert repr(mg.nn.CELU()) == "CELU(alpha=1.0)"
    assert repr(mg.nn.Threshold(0.1, 2, True)) == "Threshold(threshold=0.1, value=2, inplace=True)"
    assert repr(mg.nn.Hardshrink()) == "Hardshrink(0.5)"
    assert repr(mg.nn.Softshrink()) == "Softshrink(0.5)"
    assert repr(mg.nn.Softmin(1)) == "Softmin(dim=1)"
    assert repr(mg.nn.GLU()) == "GLU(dim=-1)"
    assert repr(mg.nn.PReLU(3)) == "PReLU(num_parameters=3)"


def test_inplace_writes_the_input():
    x = mg.tensor([-1.0, 0.5, 2.0])
    out = F.threshold(x, 1.0, 0.0, inplace=True)
    assert out is x
    np.testing.assert_array_equal(x.numpy(), [0.0, 0.0, 2.0])
    y = mg.tensor([-1.0, 1.0])
    mg.nn.SELU(inplace=True)(y)
    np.testing.assert_allclose(y.numpy(), F.selu(mg.tensor([-1.0, 1.0])).numpy())


def test_softmin_without_dim_warns_and_picks_torchs_dim():
    x = mg.tensor(np.arange(6.0).reshape(2, 3))
    with pytest.warns(UserWarning, match="Implicit dimension choice for softmin"):
        out = F.softmin(x)
    np.testing.assert_allclose(out.numpy().sum(axis=1), [1.0, 1.0])


@pytest.mark.parametrize(
    "call",
    [
        lambda lib: _f(lib).glu(lib.zeros(2, 3), 1),
        lambda lib: _f(lib).glu(lib.zeros(())),
        lambda lib: _f(lib).glu(lib.zeros(2, 4), 2),
        lambda lib: _f(lib).celu(lib.zeros(2), alpha=0.0),
        lambda lib: _f(lib).softshrink(lib.zeros(2), -1.0),
        lambda lib: _f(lib).prelu(lib.zeros(2, 4), lib.zeros(3)),
        lambda lib: _f(lib).prelu(lib.zeros(4), lib.zeros(4)),
        lambda lib: _f(lib).prelu(lib.zeros(()), lib.zeros(2)),
        lambda lib: _f(lib).prelu(lib.zeros(2, 4), lib.zeros(1, 4)),
    ],
)
def test_refusals_as_torch(call):
    raises_like_torch(call)


def test_refusal_words():
    with pytest.raises(RuntimeError, match="Halving dimension must be even, but dimension 1 is size 3"):
        F.glu(mg.zeros(2, 3), 1)
    with pytest.raises(RuntimeError, match="ZeroDivisionError: alpha cannot be 0 for CELU"):
        F.celu(mg.zeros(2), 0.0)
    with pytest.raises(RuntimeError, match=r"lambda must be in range \[0, 3.40282e\+38\] for input dtype Float"):
        F.softshrink(mg.zeros(2), -1.0)
    with pytest.raises(RuntimeError, match="Found parameter numbers = 3 and channel size = 4"):
        F.prelu(mg.zeros(2, 4), mg.zeros(3))


@pytest.mark.parametrize("name", ["selu", "celu", "threshold"])
def test_inplace_on_a_graph_tensor_backpropagates_as_torch(name):
    torch = pytest.importorskip("torch")
    calls = {
        "selu": lambda f, y: f.selu(y, inplace=True),
        "celu": lambda f, y: f.celu(y, inplace=True),
        "threshold": lambda f, y: f.threshold(y, 0.1, 0.0, inplace=True),
    }
    grads = []
    for lib, f in ((mg, F), (torch, torch.nn.functional)):
        w = lib.tensor([1.0, 2.0, 0.5], requires_grad=True)
        y = w * 2 - 3
        assert calls[name](f, y) is y
        y.sum().backward()
        grads.append(w.grad.numpy())
    np.testing.assert_allclose(grads[0], grads[1], rtol=1e-6)
