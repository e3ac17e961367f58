"""The backward engine: seeds, accumulation, deep graphs, freeing, cycles."""

import gc
import weakref

import numpy as np
import pytest

import minigrad as mg


def test_seed_example_sum_of_squares():
    x = mg.tensor([1.0, -2.0, 3.0], requires_grad=True)
    (x * x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [2.0, -4.0, 6.0])


def test_reused_node_gets_exact_gradient():
    a = mg.tensor([1.5, -2.0], requires_grad=True)
    b = a + a
    c = b * b  # c = 4 a^2, dc/da = 8a
    c.sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), 8 * np.array([1.5, -2.0]))


def test_grad_accumulates_across_calls():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    (x * 3).sum().backward()
    (x * 3).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [6.0, 6.0])


def test_grad_is_not_aliased_between_leaves():
    a = mg.tensor([1.0], requires_grad=True)
    b = mg.tensor([2.0], requires_grad=True)
    (a + b).sum().backward()
    a.grad.array[0] = 100.0
    assert b.grad.item() == 1.0


def test_non_scalar_needs_gradient():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar outputs"):
        (x * 2).backward()
    (x * 2).backward(mg.tensor([1.0, 10.0]))
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 20.0])


def test_gradient_shape_mismatch_names_both_shapes():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(
        RuntimeError, match=r"grad_output\[0\] has a shape of \[3\] and output\[0\] has a shape of \[2\]"
    ):
        (x * 2).backward(mg.tensor([1.0, 1.0, 1.0]))


def test_backward_on_tensor_without_grad():
    with pytest.raises(RuntimeError, match="does not require grad and does not have a grad_fn"):
        mg.tensor([1.0]).sum().backward()


def test_second_backward_through_freed_graph():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        y.backward()


def test_retain_graph_allows_second_backward():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), [4.0, 8.0])


def test_freeing_drops_closures_and_captured_values():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2
    y = (h * h).sum()
    closure_ref = weakref.ref(y.parents[0]._backward)  # h * h saved h
    y.backward()
    gc.collect()
    assert closure_ref() is None


def test_graph_that_saved_nothing_runs_twice_as_in_torch():
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    y = (a + 1).sum()
    y.backward()
    y.backward()
    np.testing.assert_allclose(a.grad.numpy(), [2.0, 2.0])


def test_deep_chain_at_default_recursion_limit():
    x = mg.tensor(1.0, dtype=mg.float64, requires_grad=True)
    y = x
    for _ in range(100_000):
        y = y * 1.0001 + 0.0001
    y.backward()
    assert np.isclose(x.grad.item(), 1.0001**100_000)


def test_training_loop_creates_no_reference_cycles():
    gc.collect()
    gc.disable()
    try:
        w = mg.randn(4, 3, requires_grad=True)
        x = mg.randn(8, 4)
        refs = []
        for _ in range(3):
            h = (x @ w).tanh()
            loss = (h * h).mean()
            refs.append(weakref.ref(h))
            loss.backward()
            del h, loss
        assert all(r() is None for r in refs), "graph nodes kept alive by a reference cycle"
    finally:
        gc.enable()


def test_backward_inputs_restricts_accumulation():
    a = mg.tensor([1.0], requires_grad=True)
    b = mg.tensor([2.0], requires_grad=True)
    (a * b).sum().backward(inputs=[a])
    assert a.grad.item() == 2.0
    assert b.grad is None


def test_retain_grad_on_non_leaf():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    h = x * 3
    h.retain_grad()
    (h * h).sum().backward()
    np.testing.assert_allclose(h.grad.numpy(), [6.0, 12.0])


def test_hooks_can_replace_gradient_and_be_removed():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    handle = x.register_hook(lambda g: g * 10)
    (x * 1).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [10.0, 10.0])
    handle.remove()
    x.grad = None
    (x * 1).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [1.0, 1.0])


def test_closure_error_keeps_grads_and_graph():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    x.grad = mg.tensor([5.0, 5.0])
    y = (x * x).sum()

    def bad_hook(g):
        raise ValueError("boom")

    mid = x * 1
    mid.register_hook(bad_hook)
    z = (mid + y).sum()
    with pytest.raises(ValueError, match="boom"):
        z.backward()
    np.testing.assert_allclose(x.grad.numpy(), [5.0, 5.0])
    assert y._backward is not None
    y.backward()  # graph still intact
