"""In-place ops on views, ported from PyTorch's test/test_autograd.py (its ``test_inplace_on_view_*``
cases and their neighbours), rewritten for minigrad. PyTorch's expected values are written out, so
these run without PyTorch; the comment on each names the test it comes from."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg

MULTI_VIEW = "This view is the output of a function that returns multiple views."


def _root(*shape, requires_grad=True):
    data = np.random.default_rng(0).standard_normal(shape)
    return mg.tensor(data, dtype=mg.float64, requires_grad=requires_grad)


def test_writing_a_view_reaches_the_base():
    # test_inplace_on_view_backprop_base
    root = _root(2, 2)
    x = root.clone()
    x.narrow(0, 0, 1).mul_(2)
    x.sum().backward()
    assert root.grad.tolist() == [[2, 2], [1, 1]]


def test_a_sibling_view_made_before_the_write_sees_it():
    # test_inplace_on_view_backprop_view_of_view
    root = _root(2, 2)
    x = root.clone()
    v1, v2 = x.narrow(0, 0, 1), x.narrow(0, 0, 1)
    v1.mul_(2)
    v2.sum().backward()
    assert root.grad.tolist() == [[2, 2], [0, 0]]


def test_writing_a_view_of_a_view():
    # test_inplace_on_view_of_view
    root = _root(2, 2)
    x = root.clone()
    x.narrow(0, 0, 1).narrow(1, 1, 1).mul_(2)
    x.sum().backward()
    assert root.grad.tolist() == [[1, 2], [1, 1]]


def test_reading_grad_fn_under_no_grad_after_a_write_leaves_the_graph_whole():
    # test_inplace_on_view_then_no_grad
    a = mg.ones(3, 1, dtype=mg.float64, requires_grad=True)
    c = (a * 2).view_as(a)
    c[0][0] = 3
    with mg.no_grad():
        assert c.grad_fn is not None
    c.sum().backward()
    assert a.grad.tolist() == [[0.0], [2.0], [2.0]]


def test_writes_into_two_views_gradcheck():
    # test_inplace_on_view_gradcheck
    def func(root, b):
        x = root.clone()
        x.narrow(1, 2, 2).narrow(0, 1, 2).mul_(b)
        x.narrow(1, 0, 2).narrow(0, 1, 2).mul_(b)
        return x

    inputs = (_root(4, 4), _root(2, 2) + 0)
    inputs = (inputs[0], inputs[1].detach().requires_grad_())
    assert mg.autograd.gradcheck(func, inputs)
    assert mg.autograd.gradgradcheck(func, inputs)


@pytest.mark.parametrize(
    "write",
    [
        lambda x: x.unbind()[0].mul_(2),  # test_inplace_on_view_multiple_outputs
        lambda x: x.unbind(0)[0].view_as(x[0]).mul_(2),  # test_inplace_on_view_of_multiple_output_view
        lambda x: x.view_as(x).unbind(0)[0].mul_(2),  # test_inplace_multiple_output_view_of_view
    ],
)
def test_one_of_several_views_refuses_a_write(write):
    x = mg.arange(9.0, dtype=mg.float64).reshape(3, 3).requires_grad_().clone()
    with pytest.raises(RuntimeError):
        write(x)


@pytest.mark.parametrize("split", [lambda t: t.split(1), lambda t: t.split([1, 1, 1]), lambda t: t.chunk(3)])
def test_writing_one_split_piece_with_another_is_refused(split):
    # test_inplace_on_view_multi_output_safe
    a = _root(3, 3)
    s1, s2, _ = split(a + a)
    with pytest.raises(RuntimeError, match=MULTI_VIEW):
        s1.mul_(s2)


def test_writing_a_view_puts_its_base_in_the_graph():
    # test_inplace_on_view_makes_base_require_grad
    def func(root, b):
        x = root.clone()
        assert not x.requires_grad
        x.narrow(1, 2, 2).mul_(b)
        assert x.requires_grad
        return x

    inputs = (_root(4, 4, requires_grad=False), _root(4, 2))
    assert mg.autograd.gradcheck(func, inputs)
    assert mg.autograd.gradgradcheck(func, inputs)


def test_backward_from_the_written_view():
    # test_inplace_on_view_backprop_view
    a = mg.tensor([2.0, 5.0])
    b = mg.tensor([3.0], requires_grad=True)
    a.narrow(0, 1, 1).mul_(b).sum().backward()
    assert b.grad.tolist() == [5.0]
    with pytest.warns(UserWarning, match="not a leaf Tensor"):  # the write made a a node, as in PyTorch
        assert a.grad is None


def test_an_element_picked_by_integers_is_a_view_that_sees_later_writes():
    # PyTorch's x[2] and x.select(0, 1) are 0-d views (NumPy copies such an element)
    x, m = mg.ones(5), mg.ones(2, 3)
    picked, selected, element, pieces = x[2], x.select(0, 1), m[0, 1], x.unbind()
    x.add_(1)
    m.mul_(5)
    assert (picked.item(), selected.item(), element.item(), pieces[3].item()) == (2.0, 2.0, 5.0, 2.0)
    assert picked._version == x._version == 1


def test_a_view_made_before_its_base_was_written_joins_the_graph():
    # test_inplace_on_view_modify_base
    def fn(r):
        x = mg.ones(5, dtype=mg.float64)
        v = x.select(0, 1)
        assert not v.requires_grad and v.grad_fn is None
        x.add_(r)  # v now depends on r through the write into x
        assert v.requires_grad
        return v

    r = mg.ones(1, dtype=mg.float64, requires_grad=True)
    assert mg.autograd.gradcheck(fn, (r,))
    assert mg.autograd.gradgradcheck(fn, (r,))


def test_writing_a_view_of_a_transposed_base():
    # test_inplace_on_view_non_contig
    root = mg.ones(2, 3, 2).select(2, 1).t().requires_grad_(True)
    x = root.clone()
    x.narrow(0, 0, 1).narrow(1, 1, 1).mul_(2)
    x.sum().backward()
    assert root.grad.tolist() == [[1, 2], [1, 1], [1, 1]]


class _AddInPlace(mg.autograd.Function):
    """PyTorch's PyAdd: forward adds ``y`` into ``x`` and says so with ``ctx.mark_dirty``."""

    @staticmethod
    def forward(ctx, x, y):
        ctx.mark_dirty(x)
        x.add_(y)
        return x

    @staticmethod
    def backward(ctx, grad):
        return grad, grad


def test_a_custom_function_writing_views_of_its_input_gradcheck():
    # test_inplace_on_view_python
    def func(root, b):
        x = root.clone()
        _AddInPlace.apply(x.narrow(1, 2, 2).narrow(0, 1, 2), b)
        _AddInPlace.apply(x.narrow(1, 0, 2).narrow(0, 1, 2), b)
        return x

    inputs = (_root(4, 4), _root(2, 2).detach().requires_grad_())
    assert mg.autograd.gradcheck(func, inputs)
    assert mg.autograd.gradgradcheck(func, inputs)


def test_mark_dirty_makes_the_input_the_functions_node():
    x, y = mg.ones(3, requires_grad=True), mg.ones(3, requires_grad=True)
    a = x.clone()
    out = _AddInPlace.apply(a, y)
    assert out is a and a.op == "_AddInPlace" and a._version == 2  # add_'s write and mark_dirty's, as PyTorch
    (out * 2).sum().backward()
    assert x.grad.tolist() == y.grad.tolist() == [2.0, 2.0, 2.0]
    x.grad = y.grad = None
    a = x.clone()
    view = _AddInPlace.apply(a[:2], y[:2])  # a view: its base becomes copy_slices
    assert a.op == "copy_slices" and view.op == "as_strided"
    a.sum().backward()
    assert x.grad.tolist() == [1.0, 1.0, 1.0] and y.grad.tolist() == [1.0, 1.0, 0.0]
    plain = mg.ones(3)
    assert _AddInPlace.apply(plain, mg.ones(3)) is plain and not plain.requires_grad


def test_mark_dirty_refusals_use_torchs_texts():
    class NotReturned(mg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_dirty(x)
            x.mul_(2)
            return x * 1

        @staticmethod
        def backward(ctx, g):
            return g

    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad has been used in an in-place"):
        _AddInPlace.apply(mg.ones(3, requires_grad=True), mg.ones(3))
    with pytest.raises(RuntimeError, match="Some elements marked as dirty during the forward method were not"):
        NotReturned.apply(mg.ones(3, requires_grad=True).clone())


def test_a_saved_dirty_input_is_the_written_value():
    class Triple(mg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_dirty(x)
            x.mul_(3)
            ctx.save_for_backward(x)
            return x

        @staticmethod
        def backward(ctx, g):
            (out,) = ctx.saved_tensors
            return g * out / out * 3

    w = mg.ones(2, requires_grad=True)
    Triple.apply(w * 2).sum().backward()
    assert w.grad.tolist() == [6.0, 6.0]


def test_a_view_of_one_of_several_views_is_refused_naming_its_own_op():
    # PyTorch names the view's own op: "Output 0 of Slice" for split(2)[1][1:]
    x = mg.rand(10, dtype=mg.float64, requires_grad=True).clone()
    with pytest.raises(RuntimeError, match="^Output 0 of Slice is a view and is being modified inplace"):
        x.split(2)[1][1:].mul_(2)
    with pytest.raises(RuntimeError, match="^Output 3 of Unbind is a view"):
        x.unbind(0)[3].mul_(2)
    outside = mg.zeros(2, 3).unbind(0)[1][1:]
    with pytest.raises(RuntimeError, match="This view is the output of a function that returns multiple views"):
        outside.add_(mg.ones(2, requires_grad=True))
