"""Custom autograd Functions."""

import inspect

import numpy as np
import pytest

import minigrad as mg
from minigrad import _events
from minigrad.autograd import Function, grad, gradcheck, gradgradcheck
from tests.conftest import rand64


class Cube(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * 3 * x * x


class ScaledExp(Function):
    """exp(x) * k with a non-tensor argument, saving its own output."""

    @staticmethod
    def forward(ctx, x, k):
        ctx.k = k
        out = x.exp() * k
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, g):
        (out,) = ctx.saved_tensors
        return g * out, None


def test_apply_records_a_node_named_after_the_class():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = Cube.apply(x)
    assert y.op == "Cube" and y.parents == (x,) and repr(y.grad_fn) == "<CubeBackward>"
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [3.0, 12.0])


def test_node_created_event_like_a_builtin_op():
    seen = []

    def listener(kind, values):
        node = _events.fields(kind, values).get("node")
        if kind == "node_created":
            seen.append(("created", node.id, node.op))
        if kind == "closure_called":
            seen.append(("closure", node.op))

    x = mg.tensor([1.0, 2.0], requires_grad=True)
    _events.add_listener(listener)
    try:
        y = Cube.apply(x)
        y.sum().backward()
    finally:
        _events.remove_listener(listener)
    assert ("created", y.id, "Cube") in seen
    assert ("closure", "Cube") in seen


def test_closure_source_points_at_the_users_backward():
    x = mg.tensor([1.0], requires_grad=True)
    y = Cube.apply(x)
    assert "ctx.saved_tensors" in inspect.getsource(y._backward)


def test_forward_runs_without_grad_and_needs_input_grad():
    seen = {}

    class Probe(Function):
        @staticmethod
        def forward(ctx, a, b, k):
            seen["mode"] = mg.is_grad_enabled()
            seen["needs"] = ctx.needs_input_grad
            seen["inner_records"] = (a * 2).requires_grad
            return a * b * k

        @staticmethod
        def backward(ctx, g):
            return g, g, None

    a = mg.tensor([1.0], requires_grad=True)
    b = mg.tensor([2.0])
    out = Probe.apply(a, b, 3.0)
    assert seen == {"mode": False, "needs": (True, False, False), "inner_records": False}
    assert out.requires_grad and out.parents == (a, b)
    with mg.no_grad():
        out = Probe.apply(a, b, 3.0)
    assert seen["needs"] == (False, False, False) and not out.requires_grad


def test_non_tensor_arguments_and_saved_outputs():
    x = rand64(3, seed=1)
    assert gradcheck(lambda t: ScaledExp.apply(t, 2.5), (x,))
    y = ScaledExp.apply(x, 2.5)
    (g,) = grad(y.sum(), x)
    np.testing.assert_allclose(g.numpy(), 2.5 * np.exp(x.detach().numpy()))


def test_double_backward_through_a_function():
    x = mg.tensor([0.5, -1.5], dtype=mg.float64, requires_grad=True)
    (g,) = grad(Cube.apply(x).sum(), x, create_graph=True)
    (h,) = grad(g.sum(), x, create_graph=True)
    (t,) = grad(h.sum(), x)
    np.testing.assert_allclose(g.detach().numpy(), 3 * x.detach().numpy() ** 2)
    np.testing.assert_allclose(h.detach().numpy(), 6 * x.detach().numpy())
    np.testing.assert_allclose(t.numpy(), [6.0, 6.0])
    assert gradgradcheck(Cube.apply, (rand64(3, seed=2),))
    assert gradgradcheck(lambda t: ScaledExp.apply(t, 0.5), (rand64(2, seed=3),))


def test_setup_context_style():
    class Square(Function):
        @staticmethod
        def forward(x):
            return x * x

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(inputs[0])

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * g * x

    assert gradcheck(Square.apply, (rand64(2, 2, seed=4),))


def test_multiple_outputs():
    class SinCos(Function):
        calls = 0

        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return mg.tensor(np.sin(x.array)), mg.tensor(np.cos(x.array))

        @staticmethod
        def backward(ctx, gs, gc):
            SinCos.calls += 1
            (x,) = ctx.saved_tensors
            return gs * mg.tensor(np.cos(x.array)) - gc * mg.tensor(np.sin(x.array))

    x = rand64(4, seed=5)
    s, c = SinCos.apply(x)
    assert s.op == c.op == "SinCos"
    assert gradcheck(lambda t: SinCos.apply(t), (x,))
    (g,) = grad((s * 2).sum() + c.sum(), x)
    xs = x.detach().numpy()
    np.testing.assert_allclose(g.numpy(), 2 * np.cos(xs) - np.sin(xs))
    (only_s,) = grad(SinCos.apply(x)[0].sum(), x)
    np.testing.assert_allclose(only_s.numpy(), np.cos(xs))


def test_materialize_grads_off_passes_none_for_unused_outputs():
    received = []

    class Two(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, g1, g2):
            received.append((g1 is None, g2 is None))
            total = 0
            if g1 is not None:
                total = total + g1 * 2
            if g2 is not None:
                total = total + g2 * 3
            return total

    x = mg.tensor([1.0], requires_grad=True)
    a, _ = Two.apply(x)
    (g,) = grad(a.sum(), x)
    assert g.tolist() == [2.0] and received == [(False, True)]


def test_mark_non_differentiable():
    class ArgMaxAndMax(Function):
        @staticmethod
        def forward(ctx, x):
            i = int(np.argmax(x.array))
            idx = mg.tensor(float(i))
            ctx.mark_non_differentiable(idx)
            ctx.i, ctx.shape = i, x.shape
            return x.array.max() * mg.ones(()), idx

        @staticmethod
        def backward(ctx, g, g_idx):
            out = np.zeros(ctx.shape)
            out[ctx.i] = 1
            return g * mg.tensor(out)

    x = mg.tensor([1.0, 5.0, 2.0], dtype=mg.float64, requires_grad=True)
    m, idx = ArgMaxAndMax.apply(x)
    assert m.requires_grad and not idx.requires_grad and idx.item() == 1.0
    (g,) = grad(m, x)
    assert g.tolist() == [0.0, 1.0, 0.0]


def test_gradient_that_broadcasts_to_the_input_is_summed_down():
    class Spread(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, g):
            return mg.ones(3, 2, dtype=g.dtype) * g

    x = mg.tensor([1.0, 2.0], requires_grad=True)
    (g,) = grad(Spread.apply(x).sum(), x)
    assert g.tolist() == [3.0, 3.0]


@pytest.mark.parametrize(
    ("returned", "error", "message"),
    [
        (
            lambda g: (g,),
            RuntimeError,
            "function BadBackward returned an incorrect number of gradients (expected 2, got 1)",
        ),
        (
            lambda g: (g, None, g),
            RuntimeError,
            "function BadBackward returned an incorrect number of gradients (expected 2, got 3)",
        ),
        (
            lambda g: (g, g),
            RuntimeError,
            "function BadBackward returned a gradient different than None at position 2, but the corresponding "
            "forward input was not a Variable",
        ),
        (
            lambda g: (mg.ones(3), None),
            RuntimeError,
            "Function BadBackward returned an invalid gradient at index 0 - got [3] but expected shape compatible "
            "with [2]",
        ),
        (lambda g: (5, None), RuntimeError, "expected Variable or None (got int)"),
    ],
)
def test_bad_backward_results_name_the_function(returned, error, message):
    class Bad(Function):
        @staticmethod
        def forward(ctx, x, k):
            return x * k

        @staticmethod
        def backward(ctx, g):
            return returned(g)

    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(error) as info:
        Bad.apply(x, 2.0).sum().backward()
    assert message in str(info.value)


def test_extra_trailing_none_gradients_are_allowed():
    class Extra(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2, None

    x = mg.tensor([1.0], requires_grad=True)
    Extra.apply(x).sum().backward()
    assert x.grad.tolist() == [2.0]


def test_misuse_errors():
    class Plain(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x, 3)
            return x

    class NotTensor(Function):
        @staticmethod
        def forward(ctx, x):
            return 3

    x = mg.tensor([1.0], requires_grad=True)
    with pytest.raises(TypeError, match="save_for_backward can only save tensors, but argument 1 is of type int"):
        Plain.apply(x)
    with pytest.raises(TypeError, match="NotTensor.forward must return a Tensor or a tuple of Tensors"):
        NotTensor.apply(x)
    with pytest.raises(RuntimeError, match="call it as Plain.apply"):
        Plain()(x)


def test_graph_of_a_function_is_freed_and_has_no_cycles():
    import gc
    import weakref

    x = mg.tensor([1.0, 2.0], requires_grad=True)
    gc.collect()
    gc.disable()
    try:
        y = ScaledExp.apply(x, 2.0)
        ref = weakref.ref(y)
        y.sum().backward()
        del y
        assert ref() is None
    finally:
        gc.enable()
    y = Cube.apply(x)
    y.sum().backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        y.sum().backward()


def test_once_differentiable_matches_torch():
    torch = pytest.importorskip("torch")
    from torch.autograd.function import once_differentiable as torch_once

    from minigrad.autograd.function import once_differentiable

    def square(lib, decorator):
        class Sq(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * x

            @staticmethod
            @decorator
            def backward(ctx, g):
                (x,) = ctx.saved_tensors
                seen.append(lib.is_grad_enabled())
                return 2 * x * g

        return Sq

    results = []
    for lib, decorator in ((mg, once_differentiable), (torch, torch_once)):
        seen = []
        sq = square(lib, decorator)
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        (plain,) = lib.autograd.grad(sq.apply(x).sum(), x, create_graph=True)
        v = lib.ones(2, requires_grad=True)
        (g,) = lib.autograd.grad(sq.apply(x), x, v, create_graph=True)
        with pytest.raises(RuntimeError, match="trying to differentiate twice a function that was marked with"):
            g.sum().backward()
        results.append((plain.tolist(), plain.requires_grad, g.tolist(), g.requires_grad, seen))
    assert results[0] == results[1]


def test_several_outputs_call_backward_once_with_every_gradient_as_torch():
    torch = pytest.importorskip("torch")
    results = []
    for lib in (mg, torch):

        class Split(lib.autograd.Function):
            calls = []

            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                ctx.calls = Split.calls
                return x * 2, x * 3

            @staticmethod
            def backward(ctx, ga, gb):
                ctx.calls.append((ga.tolist(), gb.tolist()))
                (x,) = ctx.saved_tensors
                return ga * gb * x  # not linear in the gradients: one call with both differs from a sum

        x = lib.tensor([1.0, 2.0], requires_grad=True, dtype=lib.float64)
        a, b = Split.apply(x)
        ((a * 5).sum() + (b * b).sum()).backward()
        a2, _ = Split.apply(x)
        (ga_only,) = lib.autograd.grad(a2.sum(), x)
        results.append((Split.calls, x.grad.tolist(), ga_only.tolist(), a.grad_fn.name().removesuffix("0")))
    assert results[0] == results[1]
