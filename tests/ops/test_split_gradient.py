"""split's gradient: one concatenation of the pieces' gradients (zeros for a piece that got none), made by one
node for all the pieces, as PyTorch's SplitBackward; gradchecked in float64, every order."""

import numpy as np
import pytest

import minigrad as mg
from minigrad.autograd import forward_ad as fwAD
from minigrad.autograd import gradcheck, gradgradcheck
from tests.conftest import rand64


@pytest.mark.parametrize(
    "pieces",
    [
        lambda x: x.split(3, dim=-1),  # q, k, v as a GPT block splits them
        lambda x: x.split([2, 3, 4], dim=-1),
        lambda x: x.chunk(3, dim=1),
        lambda x: x.split(4, dim=-1),  # the last piece smaller
    ],
)
def test_split_gradchecks_with_every_piece_used(pieces):
    x = rand64(2, 3, 9)

    def f(t):
        return tuple(p.sin() * (k + 1) for k, p in enumerate(pieces(t)))

    assert gradcheck(f, (x,))
    assert gradgradcheck(f, (x,))


def test_split_gradchecks_with_pieces_unused():
    x = rand64(2, 9)
    assert gradcheck(lambda t: t.split(3, dim=1)[1].exp(), (x,))
    assert gradgradcheck(lambda t: t.split(3, dim=1)[1].exp(), (x,))
    assert gradcheck(lambda t: t.split([4, 1, 4], dim=1)[2] * t.split([4, 1, 4], dim=1)[0], (x,))


def test_a_piece_with_no_gradient_gives_zeros_there():
    x = mg.arange(9.0, requires_grad=True)
    _, k, v = x.split(3)
    (k * 2 + v * 3).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [0, 0, 0, 2, 2, 2, 3, 3, 3])


def test_float32_split_gradient_stays_float32():
    x = mg.ones(4, 6, dtype=mg.float32, requires_grad=True)
    q, k = x.split(3, dim=1)
    (q * k).sum().backward()
    assert x.grad.dtype == mg.float32
    np.testing.assert_array_equal(x.grad.numpy(), np.ones((4, 6), np.float32))


def test_split_saves_nothing_so_a_second_backward_through_other_pieces_works():
    """PyTorch's SplitBackward keeps no tensors: after a backward that freed its graph, another one through
    the same pieces runs."""
    x = mg.arange(6.0, requires_grad=True)
    a, b = x.split(3)
    (a * 2).sum().backward()
    (b * 3 + a).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [3, 3, 3, 3, 3, 3])


def test_a_pass_stopped_after_one_piece_leaves_nothing_for_the_next():
    """A piece's gradient waits for the node that joins them; a pass that fails between the two must not
    hand that gradient to a later pass."""
    x = mg.arange(4.0, requires_grad=True)
    a, b = x.split(2)

    def fail(g):
        raise ValueError("stop")

    handle = a.register_hook(fail)  # b (made later) runs first, then a's hook stops the pass
    with pytest.raises(ValueError, match="stop"):
        (a * 2 + b * 3).sum().backward(retain_graph=True)
    x.grad = None
    handle.remove()
    (a * 5).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [5, 5, 0, 0])


def test_split_pieces_under_create_graph_give_a_differentiable_gradient():
    x = rand64(6)
    a, b = x.split(3)
    (g,) = mg.autograd.grad((a**3).sum() + (b**2).sum(), x, create_graph=True)
    (gg,) = mg.autograd.grad(g.sum(), x)
    v = x.detach().numpy()
    np.testing.assert_allclose(gg.numpy(), np.concatenate([6 * v[:3], np.full(3, 2.0)]))


def test_split_of_a_dual_tensor_that_requires_grad_carries_tangents():
    x = rand64(2, 6)
    t = mg.tensor(np.arange(12.0).reshape(2, 6))
    with fwAD.dual_level():
        dual = fwAD.make_dual(x, t)
        first, second = dual.split([2, 4], dim=1)
        np.testing.assert_array_equal(fwAD.unpack_dual(second).tangent.numpy(), t.numpy()[:, 2:])
        (first.sum() + second.sum()).backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.ones((2, 6)))


def test_pieces_stay_views_whose_in_place_change_is_refused():
    x = mg.ones(2, 6, requires_grad=True) * 1
    q, _ = x.split(3, dim=1)
    with pytest.raises(RuntimeError, match="Output 0 of Split is a view and is being modified inplace"):
        q.mul_(2)


def test_one_node_joins_the_pieces_gradients():
    """The pieces hang off one SplitBackward node, whose rule concatenates their gradients (no piece writes
    its gradient into zeros of the whole shape)."""
    x = rand64(2, 9)
    pieces = x.split(3, dim=1)
    hubs = {id(p.grad_fn.next_functions[0][0].node) for p in pieces}
    assert len(hubs) == 1
    hub = pieces[0].grad_fn.next_functions[0][0]
    assert hub.name() == "SplitBackward" and hub.next_functions[0][0] is None  # x, a leaf
    with mg.trace.record() as tr:
        sum(p.sum() * (k + 1) for k, p in enumerate(pieces)).backward()
    called = [tr.nodes[e.node].op for e in tr.find("closure_called")]
    assert called.count("split") == 4  # the three pieces, then the node that joins them
    np.testing.assert_array_equal(x.grad.numpy(), np.repeat([[1.0, 2.0, 3.0]], 3, axis=1).repeat(2, axis=0))
