"""Tensor hooks and retain_grad, in backward() and grad() alike."""

import numpy as np
import pytest

import minigrad as mg
from minigrad.autograd import grad


@pytest.mark.parametrize("via", ["backward", "grad"])
def test_hook_sees_the_gradient_and_can_replace_it(via):
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    h = x * 3
    seen = []
    h.register_hook(lambda g: seen.append(g.tolist()))
    h.register_hook(lambda g: g * 10)
    y = (h * h).sum()
    if via == "backward":
        y.backward()
        result = x.grad
    else:
        (result,) = grad(y, x)
        assert x.grad is None
    assert seen == [[6.0, 12.0]]
    np.testing.assert_allclose(result.numpy(), [180.0, 360.0])


@pytest.mark.parametrize("via", ["backward", "grad"])
def test_leaf_hook_runs_before_accumulation(via):
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    x.register_hook(lambda g: g + 1)
    y = (x * 2).sum()
    if via == "backward":
        y.backward()
        result = x.grad
    else:
        (result,) = grad(y, x)
    assert result.tolist() == [3.0, 3.0]


def test_hooks_run_in_registration_order_and_chain():
    x = mg.tensor([1.0], requires_grad=True)
    x.register_hook(lambda g: g + 1)
    x.register_hook(lambda g: g * 10)
    (x * 1).sum().backward()
    assert x.grad.tolist() == [20.0]


def test_handle_remove_and_context_manager():
    x = mg.tensor([1.0], requires_grad=True)
    handle = x.register_hook(lambda g: g * 0)
    handle.remove()
    handle.remove()  # removing twice is harmless
    (x * 2).sum().backward()
    assert x.grad.tolist() == [2.0]
    x.grad = None
    with x.register_hook(lambda g: g * 5):
        (x * 2).sum().backward()
    assert x.grad.tolist() == [10.0]
    x.grad = None
    (x * 2).sum().backward()
    assert x.grad.tolist() == [2.0]


def test_hook_on_tensor_without_grad():
    with pytest.raises(RuntimeError, match="cannot register a hook on a tensor that doesn't require gradient"):
        mg.tensor([1.0]).register_hook(lambda g: g)


def test_hook_that_changes_shape_dtype_or_returns_junk():
    def widen(g):
        return mg.ones(3)

    x = mg.tensor([1.0, 2.0], requires_grad=True)
    x.register_hook(widen)
    with pytest.raises(
        RuntimeError, match="hook 'widen' .* has changed the size of value \\(was \\[2\\] got \\[3\\]\\)"
    ):
        (x * 2).sum().backward()
    y = mg.tensor([1.0, 2.0], requires_grad=True)
    y.register_hook(lambda g: g.to(mg.float64))
    with pytest.raises(RuntimeError, match="has changed the type of value \\(was float32 got float64\\)"):
        (y * 2).sum().backward()
    z = mg.tensor([1.0, 2.0], requires_grad=True)
    z.register_hook(lambda g: 3)
    with pytest.raises(TypeError, match="expected Tensor, but hook '<lambda>' .* returned 'int'"):
        grad((z * 2).sum(), z)


def test_retain_grad_keeps_non_leaf_grad_in_every_pass_as_torch():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    h = x * 3
    assert not h.retains_grad and not x.retains_grad
    h.retain_grad()
    x.retain_grad()  # no-op on a leaf
    assert h.retains_grad and not x.retains_grad
    y = (h * h).sum()
    grad(y, x, retain_graph=True)  # as in PyTorch, grad() fills .grad of retain_grad non-leaves on its way
    np.testing.assert_allclose(h.grad.numpy(), [6.0, 12.0])
    y.backward()
    np.testing.assert_allclose(h.grad.numpy(), [12.0, 24.0])
    other = (x * 5).sum()
    other.backward()
    assert other.grad is None  # not retained


def test_retain_grad_requires_grad():
    with pytest.raises(RuntimeError, match="can't retain_grad on Tensor that has requires_grad=False"):
        mg.tensor([1.0]).retain_grad()


def test_hook_replacement_feeds_the_rest_of_the_pass():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    h = x * 3
    h.retain_grad()
    h.register_hook(lambda g: g * 0 + 1)
    (h * h).sum().backward()
    assert h.grad.tolist() == [1.0, 1.0]
    assert x.grad.tolist() == [3.0, 3.0]


def test_retain_grad_in_grad_and_backward_inputs_matches_torch():
    torch = pytest.importorskip("torch")
    seen = []
    for lib in (mg, torch):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        h = x * 2
        h.retain_grad()
        k = h * 1
        k.retain_grad()
        y = (h * k).sum()
        lib.autograd.grad(y, x, retain_graph=True)
        after_grad_x = (h.grad.tolist(), k.grad.tolist())
        lib.autograd.grad(y, h, retain_graph=True)
        after_grad_h = (h.grad.tolist(), k.grad.tolist())
        y.backward(inputs=[x])
        seen.append((after_grad_x, after_grad_h, h.grad.tolist(), k.grad.tolist(), x.grad.tolist()))
    assert seen[0] == seen[1]
