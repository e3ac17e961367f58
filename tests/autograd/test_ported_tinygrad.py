"""tinygrad's backward-pass tests (test/test_tensor.py: backward pass, with a vjp, the diamond model),
rewritten for minigrad: the same expressions, checked by gradcheck in float64 and against PyTorch
when it is installed."""

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F
from minigrad.autograd import gradcheck

rng = np.random.default_rng(1337)
X_INIT = rng.standard_normal((1, 3))
U_INIT, V_INIT, W_INIT = (rng.standard_normal((3, 3)) for _ in range(3))
M_INIT = rng.standard_normal((1, 3))
GRADIENT = rng.standard_normal((1, 3))


def backward_pass(lib, x, W, m):
    out = lib.relu(x @ W)
    return lib.log_softmax(out, dim=1) * m + m


def diamond(lib, u, v, w):
    x = lib.relu(u * v)
    y = lib.relu(u * w)
    out = lib.relu((x + y) * y)
    return lib.log_softmax(out, dim=1).sum()


class _Ours:
    relu = staticmethod(F.relu)
    log_softmax = staticmethod(F.log_softmax)


def _leaf(a):
    return mg.tensor(a, dtype=mg.float64, requires_grad=True)


def test_backward_pass_gradchecks():
    m = mg.tensor(M_INIT)
    assert gradcheck(lambda x, W: backward_pass(_Ours, x, W, m).sum(), (_leaf(X_INIT), _leaf(U_INIT)))


def test_diamond_model_gradchecks():
    assert gradcheck(lambda u, v, w: diamond(_Ours, u, v, w), (_leaf(U_INIT), _leaf(V_INIT), _leaf(W_INIT)))


@pytest.mark.parametrize("with_vjp", [False, True])
def test_backward_pass_matches_torch(with_vjp):
    torch = pytest.importorskip("torch")
    tf = torch.nn.functional
    x, W = _leaf(X_INIT), _leaf(W_INIT)
    tx, tW = (torch.tensor(a, requires_grad=True) for a in (X_INIT, W_INIT))
    out = backward_pass(_Ours, x, W, mg.tensor(M_INIT))
    tout = backward_pass(tf, tx, tW, torch.tensor(M_INIT))
    if with_vjp:
        out.backward(mg.tensor(GRADIENT))
        tout.backward(torch.tensor(GRADIENT))
    else:
        out.sum().backward()
        tout.sum().backward()
    np.testing.assert_allclose(out.detach().numpy(), tout.detach().numpy(), atol=1e-12)
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), atol=1e-12)
    np.testing.assert_allclose(W.grad.numpy(), tW.grad.numpy(), atol=1e-12)


def test_diamond_model_matches_torch():
    torch = pytest.importorskip("torch")
    ours = [_leaf(a) for a in (U_INIT, V_INIT, W_INIT)]
    theirs = [torch.tensor(a, requires_grad=True) for a in (U_INIT, V_INIT, W_INIT)]
    diamond(_Ours, *ours).backward()
    diamond(torch.nn.functional, *theirs).backward()
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), atol=1e-12)
