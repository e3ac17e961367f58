"""``Tensor.data``: a Tensor sharing memory, outside the graph and its version counter, as PyTorch's."""

import numpy as np
import pytest

import minigrad as mg


def test_data_is_a_tensor_sharing_memory_outside_the_graph():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    for t in (x, y):
        d = t.data
        assert isinstance(d, mg.Tensor) and not isinstance(d, mg.nn.Parameter)
        assert d.is_leaf and not d.requires_grad and d.grad_fn is None
        assert np.shares_memory(d.array, t.array)


def test_an_update_through_data_changes_the_parameter_in_place():
    p = mg.nn.Parameter(mg.tensor([1.0, 2.0]))
    memory = p.array
    p.grad = mg.tensor([0.5, 1.0])
    p.data.add_(p.grad, alpha=-2.0)
    np.testing.assert_array_equal(p.detach().numpy(), [0.0, 0.0])
    p.data += mg.tensor([1.0, 1.0])
    p.data.mul_(3)
    assert p.array is memory
    assert isinstance(p, mg.nn.Parameter) and p.is_leaf and p.requires_grad
    np.testing.assert_array_equal(p.detach().numpy(), [3.0, 3.0])


def test_writes_through_data_bump_no_version_counter():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    x.data.mul_(2)  # unseen by autograd, as in PyTorch: the rule reads the new values
    assert x._version == 0
    y.backward()
    np.testing.assert_array_equal(x.grad.numpy(), [4.0, 8.0])

    z = mg.tensor([1.0, 2.0], requires_grad=True)
    w = (z * z).sum()
    z.detach().mul_(2)  # detach() shares the counter: backward refuses
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        w.backward()


def test_assigning_data_makes_the_tensor_hold_the_new_memory():
    p = mg.nn.Parameter(mg.zeros(3))
    new = mg.arange(4.0)
    p.data = new
    assert p.shape == (4,) and p.array is new.array and p.requires_grad


def test_assigning_data_refuses_what_is_not_a_tensor():
    p = mg.nn.Parameter(mg.zeros(3))
    before = p.array
    with pytest.raises(TypeError, match="Variable data has to be a tensor, but got numpy.ndarray"):
        p.data = np.ones(3)
    with pytest.raises(RuntimeError, match="floating point"):
        p.data = mg.tensor([1, 2, 3])
    assert p.array is before


def test_the_sgd_update_of_old_pytorch_code_trains():
    torch = pytest.importorskip("torch")
    xs, ys = np.linspace(-1, 1, 8, dtype=np.float32)[:, None], np.linspace(0, 2, 8, dtype=np.float32)[:, None]
    losses = {}
    for lib in (mg, torch):
        w = lib.nn.Parameter(lib.tensor([[0.5]]))
        for _ in range(3):
            loss = ((lib.tensor(xs) @ w - lib.tensor(ys)) ** 2).mean()
            w.grad = None
            loss.backward()
            w.data.add_(w.grad.data, alpha=-0.1)
        losses[lib.__name__] = loss.item()
    assert losses["minigrad"] == pytest.approx(losses["torch"], rel=1e-6)
