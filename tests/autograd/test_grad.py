"""autograd.grad: the seed examples and save/restore."""

import numpy as np
import pytest

import minigrad as mg
from minigrad.autograd import grad


def test_seed_single_output():
    x = mg.tensor([1.0, -2.0, 3.0], requires_grad=True)
    (dx,) = grad((x * x).sum(), x)
    np.testing.assert_allclose(dx.numpy(), [2.0, -4.0, 6.0])
    assert x.grad is None


def test_seed_two_outputs_two_inputs():
    a = mg.tensor([2.0, -1.0, 0.5], requires_grad=True)
    b = mg.tensor([3.0, 4.0, -2.0], requires_grad=True)
    out1 = (a * b).sum()
    out2 = (a * a).sum()
    da, db = grad((out1, out2), (a, b))
    np.testing.assert_allclose(da.numpy(), [7.0, 2.0, -1.0])
    np.testing.assert_allclose(db.numpy(), [2.0, -1.0, 0.5])


def test_third_derivative_of_x4():
    x = mg.tensor(1.5, dtype=mg.float64, requires_grad=True)
    (g1,) = grad(x**4, x, create_graph=True)
    (g2,) = grad(g1, x, create_graph=True)
    (g3,) = grad(g2, x)
    assert np.isclose(g3.item(), 24 * 1.5)


def test_grad_never_changes_dot_grad_even_when_a_closure_raises():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    x.grad = mg.tensor([7.0, 7.0])
    mid = x * 2
    mid.register_hook(lambda g: (_ for _ in ()).throw(ValueError("hook failed")))
    y = (mid * mid).sum()
    with pytest.raises(ValueError):
        grad(y, x)
    np.testing.assert_allclose(x.grad.numpy(), [7.0, 7.0])
    assert y._backward is not None and mid._backward is not None


def test_unused_input():
    a = mg.tensor([1.0], requires_grad=True)
    b = mg.tensor([1.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="appears to not have been used in the graph"):
        grad((a * 2).sum(), (a, b))
    assert grad((a * 2).sum(), (a, b), allow_unused=True)[1] is None
    assert grad((a * 2).sum(), (a, b), materialize_grads=True)[1].tolist() == [0.0]
