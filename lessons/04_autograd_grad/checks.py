"""Checks for lesson 4: autograd.grad as the oracle; .grad survival, also through an exception."""

import numpy as np
import pytest

import minigrad as mg
from minigrad.course import check


def seed_example():
    a = mg.tensor([2.0, -1.0, 0.5], requires_grad=True)
    b = mg.tensor([3.0, 4.0, -2.0], requires_grad=True)
    return a, b, (a * b).sum() + (a * a).sum()


@check("ex1_save_restore", "returns the seed example's gradients, da = [7, 2, -1], db = [2, -1, 0.5]")
def _(ex):
    a, b, out = seed_example()
    da, db = ex.grad_via_backward(out, (a, b))
    np.testing.assert_allclose(da.numpy(), [7.0, 2.0, -1.0])
    np.testing.assert_allclose(db.numpy(), [2.0, -1.0, 0.5])


@check("ex1_save_restore", "leaves existing .grad values untouched")
def _(ex):
    a, b, out = seed_example()
    a.grad = mg.tensor([1.0, 1.0, 1.0])
    ex.grad_via_backward(out, (a, b))
    np.testing.assert_allclose(a.grad.numpy(), [1.0, 1.0, 1.0])
    assert b.grad is None


@check("ex1_save_restore", "restores .grad even when a hook raises in the middle of the pass")
def _(ex):
    a, b, _ = seed_example()
    a.grad = mg.tensor([5.0, 5.0, 5.0])
    b.grad = mg.tensor([6.0, 6.0, 6.0])
    mid = a * b

    def failing_hook(g):
        raise ValueError("hook failed mid-pass")

    b.register_hook(failing_hook)
    out = (mid + a).sum()
    with pytest.raises(ValueError, match="hook failed mid-pass"):
        ex.grad_via_backward(out, (a, b))
    np.testing.assert_allclose(a.grad.numpy(), [5.0, 5.0, 5.0])
    np.testing.assert_allclose(b.grad.numpy(), [6.0, 6.0, 6.0])


@check("ex1_save_restore", "matches autograd.grad on a random network")
def _(ex):
    rng = np.random.default_rng(0)
    W = mg.tensor(rng.standard_normal((4, 3)), requires_grad=True)
    x = mg.tensor(rng.standard_normal(3), requires_grad=True)
    out = ((W @ x).tanh() ** 2).sum()
    got = ex.grad_via_backward(out, (W, x))
    want = mg.autograd.grad(out, (W, x), retain_graph=True)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-12)
