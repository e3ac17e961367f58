"""Cases ported from PyTorch's test/test_autograd.py (TestAutograd), rewritten for minigrad: version
counters and in-place ops, the saved-tensor check, retain_graph, hooks, ``grad`` with
``allow_unused``/``materialize_grads``, and grad mode inside a custom Function's backward.

Most cases are one script run on both libraries (``lib`` is ``minigrad`` or ``torch``) whose
results are compared, so a difference from PyTorch shows as a failure; the comment on each names
the PyTorch test it comes from."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg

torch = pytest.importorskip("torch")

LIBS = pytest.mark.parametrize("lib", [mg, torch], ids=["minigrad", "torch"])


def _np(t):
    return np.asarray(t.detach().numpy() if hasattr(t, "detach") else t, dtype=np.float64)


def both(script):
    """``script(lib)`` on each library; its results (tensors, numbers, or lists of them) agree."""
    ours, theirs = script(mg), script(torch)
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        if a is None or b is None:
            assert a is None and b is None, (a, b)
        else:
            np.testing.assert_allclose(_np(a), _np(b), rtol=1e-12, atol=1e-12)


def _raises_modified(fn):
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        fn()


# ---------------------------------------------------------------- version counters, in-place


def test_version_counter():
    # test_version_counter: in-place ops bump it; a view shares its base's counter
    def script(lib):
        x = lib.ones(1, 2, dtype=lib.float64)
        before = x._version
        x.add_(1).add_(1)
        view = x[:]
        same = [x._version == view._version]
        view.add_(1)
        return [x._version - before, view._version - before, float(same[0]), float(x._version == view._version)]

    both(script)


@LIBS
def test_inplace_on_an_input_that_add_does_not_save(lib):
    # test_inplace (1st part): add saves nothing, so backward after z.add_ is fine; mul saves z and raises
    x = lib.ones(5, 5, dtype=lib.float64, requires_grad=True)
    y = (lib.ones(5, 5, dtype=lib.float64) * 4).requires_grad_()
    z = x * y
    q = z + y
    w = z * y
    z.add_(2)
    q.backward(lib.ones(5, 5, dtype=lib.float64), retain_graph=True)
    _raises_modified(lambda: w.backward(lib.ones(5, 5, dtype=lib.float64)))


@LIBS
def test_inplace_result_is_the_last_expression(lib):
    # test_inplace (2nd part): w = z.add_(y) is current; r does not read z; q reads the dirty z
    x = lib.ones(5, 5, dtype=lib.float64, requires_grad=True)
    y = (lib.ones(5, 5, dtype=lib.float64) * 4).requires_grad_()
    z = x * y
    q = z * y
    r = z + y
    w = z.add_(y)
    w.backward(lib.ones(5, 5, dtype=lib.float64), retain_graph=True)
    r.backward(lib.ones(5, 5, dtype=lib.float64), retain_graph=True)
    _raises_modified(lambda: q.backward(lib.ones(5, 5, dtype=lib.float64)))


def test_inplace_gradients_through_the_rebased_node():
    # test_inplace (3rd part, with mul_ for exp_): gradients through r and through the in-place result
    def script(lib):
        x = lib.ones(5, 5, dtype=lib.float64, requires_grad=True)
        y = (lib.ones(5, 5, dtype=lib.float64) * 4).requires_grad_()
        z = x / 2 + y / 8
        q = z * y
        r = z + y
        before = z._version
        w = z.mul_(3)
        r.backward(lib.ones(5, 5, dtype=lib.float64), retain_graph=True)
        after_r = x.grad.clone()
        w.backward(lib.ones(5, 5, dtype=lib.float64), retain_graph=True)
        _raises_modified(lambda: q.backward(lib.ones(5, 5, dtype=lib.float64)))
        return [float(z._version != before), after_r, x.grad, y.grad]

    both(script)


def test_inplace_on_a_clone_of_a_leaf():
    # test_inplace (4th part): a clone changed in place stays usable; a saved clone changed again raises
    def script(lib):
        leaf = lib.ones(5, 5, dtype=lib.float64, requires_grad=True)
        x = leaf.clone()
        x.add_(10)
        y = x + 2
        y.backward(lib.ones(5, 5, dtype=lib.float64))
        z = x * y
        x.add_(2)
        _raises_modified(lambda: z.backward(lib.ones(5, 5, dtype=lib.float64)))
        return [x, leaf.grad]

    both(script)


@LIBS
def test_inplace_on_a_leaf_that_requires_grad_is_refused(lib):
    # test_inplace_not_requires_grad / leaf refusal, with the same text in both
    a = lib.ones(2, dtype=lib.float64, requires_grad=True)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place operation"):
        a.add_(1)
    with pytest.raises(RuntimeError, match="a view of a leaf Variable that requires grad is being used in an in-place"):
        a[:1].copy_(lib.zeros(1, dtype=lib.float64))


def test_inplace_under_no_grad_on_a_saved_leaf_is_caught():
    # test_no_grad_modifies_version / issue 14's case: w.mul_(10) under no_grad after the graph saved w
    def script(lib):
        w = lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True)
        y = (w * w).sum()
        with lib.no_grad():
            w.mul_(10)
        _raises_modified(y.backward)
        return [w._version]

    both(script)


@LIBS
def test_saved_tensor_error_names_the_tensor_and_versions(lib):
    # test_saved_variable_version_counter-style: the message names the shape, the op and both versions
    a = lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True)
    b = a.sigmoid()
    c = b * b
    b.mul_(2)
    with pytest.raises(
        RuntimeError, match=r"\[[\w.]+ \[2\]\], which is output 0 of \w+, is at version 1; expected version 0"
    ):
        c.sum().backward()


def test_retain_grad_inplace():
    # test_retain_grad_inplace: retain_grad follows the tensor through its in-place changes, and
    # through an in-place change of a view of it; the grad is the latest version's
    def script(lib):
        a = lib.tensor([1.0], dtype=lib.float64, requires_grad=True).clone()
        a.retain_grad()
        a.mul_(2)
        a.sum().backward()
        once = a.grad
        b = lib.tensor([1.0], dtype=lib.float64, requires_grad=True).clone()
        b.retain_grad()
        b.mul_(2)
        b.mul_(2)
        b.sum().backward()
        x = lib.tensor([1.0], dtype=lib.float64, requires_grad=True).clone()
        x.retain_grad()
        x_view = x[:]
        x_view *= 2
        x *= 2
        x.sum().backward()
        z = lib.zeros(4, dtype=lib.float64)
        operand = lib.ones(2, 2, dtype=lib.float64, requires_grad=True)
        z.view(2, 2).add_(operand)
        (z * lib.arange(4, dtype=lib.float64)).sum().backward()
        return [once, b.grad, x.grad, z, operand.grad]

    both(script)


def test_tensor_hooks_inplace():
    # test_tensor_hooks_inplace: a hook stays with the value it was registered on
    def script(lib):
        seen = []
        a = lib.tensor(1.0, dtype=lib.float64, requires_grad=True).clone()
        a.register_hook(lambda g: seen.append(("before", float(g))))
        a.mul_(2)
        a.register_hook(lambda g: seen.append(("after", float(g))))
        (a * 3).backward()
        return [[v for _, v in seen], float(seen[0][0] == "after")]

    both(script)


# ---------------------------------------------------------------- retain_graph


@LIBS
def test_backward_twice_with_saved_values(lib):
    # test_backward_twice_with_saved_values
    b = lib.tensor([0.5, -1.0, 2.0], dtype=lib.float64, requires_grad=True)
    c = (b * b).sum()
    c.backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        c.backward()


def test_backward_twice_retained_graph_with_saved_values():
    # test_backward_twice_retained_graph_with_saved_values
    def script(lib):
        b = lib.tensor([0.5, -1.0, 2.0], dtype=lib.float64, requires_grad=True)
        c = (b * b).sum()
        c.backward(retain_graph=True)
        c.backward()
        return [b.grad]

    both(script)


def test_backward_twice_when_only_a_python_scalar_is_saved():
    # test_backward_twice_with_saved_values, ``b * 2``: PyTorch saves the wrapped scalar and refuses a
    # second pass; minigrad's Python scalars are constants, so the graph saved nothing (README)
    b = mg.tensor([0.5, -1.0], dtype=mg.float64, requires_grad=True)
    c = (b * 2).sum()
    c.backward()
    c.backward()
    np.testing.assert_array_equal(b.grad.numpy(), [4.0, 4.0])
    tb = torch.tensor([0.5, -1.0], dtype=torch.float64, requires_grad=True)
    tc = (tb * 2).sum()
    tc.backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        tc.backward()


def test_backward_twice_without_saved_values():
    # test_backward_twice_without_saved_values: add saves nothing, so a second pass works
    def script(lib):
        b = lib.tensor([0.5, -1.0, 2.0], dtype=lib.float64, requires_grad=True)
        c = b + 1
        c.backward(lib.ones(3, dtype=lib.float64))
        c.backward(lib.ones(3, dtype=lib.float64))
        return [b.grad]

    both(script)


# ---------------------------------------------------------------- hooks


def test_hooks_order_and_modification():
    # test_hooks: hooks run in registration order; a hook's return replaces the gradient for the next
    def script(lib):
        x = lib.ones(2, 2, dtype=lib.float64, requires_grad=True)
        y = lib.ones(2, 2, dtype=lib.float64) * 4
        y.requires_grad_()
        z = x * y + 1
        calls = []
        z.register_hook(lambda g: calls.append(float(g.sum())))
        z.register_hook(lambda g: g * 2)
        z.register_hook(lambda g: calls.append(float(g.sum())))
        z.backward(lib.ones(2, 2, dtype=lib.float64))
        return [calls, x.grad, y.grad]

    both(script)


def test_hook_on_a_leaf_runs_before_accumulation():
    # test_hooks on leaves: the hook's result is what accumulates into .grad, each pass
    def script(lib):
        x = lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True)
        x.register_hook(lambda g: g * 10)
        (x * 3).sum().backward()
        (x * x).sum().backward()
        return [x.grad]

    both(script)


def test_hook_removed_by_its_handle():
    # test_hooks: handle.remove() stops a hook
    def script(lib):
        x = lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True)
        handle = x.register_hook(lambda g: g * 10)
        (x * 3).sum().backward()
        handle.remove()
        (x * 3).sum().backward()
        return [x.grad]

    both(script)


def test_retain_grad_sees_the_gradient_after_the_hooks():
    # test_retain_grad / test_retains_grad_can_always_observe_tensor_prehook: retain_grad's .grad is
    # the value after every tensor hook, even one registered after retain_grad
    def script(lib):
        x = lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True)
        h = x * 3
        h.retain_grad()
        h.register_hook(lambda g: g * 2)
        (h * h).sum().backward()
        return [h.grad, x.grad]

    both(script)


def test_retain_grad_accumulates_over_passes():
    # test_retain_grad: a retained non-leaf grad accumulates over passes into a new tensor (a leaf's
    # is added in place); retain_grad twice is a no-op
    def script(lib):
        inp = lib.tensor([[0.5, -1.0, 2.0]], dtype=lib.float64, requires_grad=True)
        h1 = inp * 3
        out = (h1 * h1).sum()
        h1.retain_grad()
        h1.retain_grad()
        out.backward(retain_graph=True)
        once = h1.grad
        out.backward()
        return [once, h1.grad, inp.grad, float(h1.grad is once)]

    both(script)


# ---------------------------------------------------------------- grad()


def test_grad_unreachable_allow_unused():
    # test_grad_unreachable: an input outside the graph is None with allow_unused, an error without
    def script(lib):
        x = lib.tensor(1.0, dtype=lib.float64, requires_grad=True)
        y = lib.tensor(2.0, dtype=lib.float64, requires_grad=True)
        out = x * 2
        gx, gy = lib.autograd.grad(out, [x, y], allow_unused=True)
        with pytest.raises(RuntimeError, match="The differentiated Tensor at index 1 appears to not have been used"):
            lib.autograd.grad(x * 2, [x, y])
        return [gx, gy]

    both(script)


def test_grad_materialize_grads():
    # test_grad_materialize_grads: zeros for an unused input, differentiable again with create_graph
    def script(lib):
        x = lib.tensor(0.5, dtype=lib.float64, requires_grad=True)
        a = lib.tensor(1.0, dtype=lib.float64, requires_grad=True)
        y = x * a
        (dydx,) = lib.autograd.grad(y, x, create_graph=True)
        (none,) = lib.autograd.grad(dydx, x, create_graph=True, allow_unused=True)
        (d2,) = lib.autograd.grad(dydx, x, create_graph=True, allow_unused=True, materialize_grads=True)
        (d3,) = lib.autograd.grad(d2, x, materialize_grads=True)
        with pytest.raises(ValueError, match="Expected allow_unused to be True or not passed when"):
            lib.autograd.grad(dydx, x, allow_unused=False, materialize_grads=True)
        return [none, d2, d3, float(d2.requires_grad)]

    both(script)


def test_grad_nonleaf():
    # test_grad_nonleaf: grad() with respect to a non-leaf leaves .grad alone
    def script(lib):
        x_init = lib.tensor([0.3, -0.2], dtype=lib.float64, requires_grad=True)
        x = x_init
        for _ in range(3):
            y = x * x
            (g,) = lib.autograd.grad(y, x, grad_outputs=lib.ones(2, dtype=lib.float64), create_graph=True)
            x = x - g * 0.25
        x.sum().backward()
        return [x_init.grad, x]

    both(script)


# ---------------------------------------------------------------- custom Function backward


def _double(lib):
    class Double(lib.autograd.Function):
        modes: list = []

        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            Double.modes.append(lib.is_grad_enabled())
            with lib.no_grad():
                constant = g * 0 + 2
            return g * constant + 0 * x

    return Double


def test_grad_mode_in_a_custom_functions_backward():
    # test_grad_mode_restored_reentrant / no_grad in backward: backward runs with grad mode on only
    # under create_graph; a no_grad block inside it gives a constant
    def script(lib):
        Double = _double(lib)
        x = lib.tensor([1.0, -2.0], dtype=lib.float64, requires_grad=True)
        y = Double.apply(x).sum()
        (g,) = lib.autograd.grad(y, x, create_graph=True)
        (g2,) = lib.autograd.grad(Double.apply(x).sum(), x)
        return [[float(m) for m in Double.modes], g, g2, float(g.requires_grad), float(lib.is_grad_enabled())]

    both(script)


# ---------------------------------------------------------------- more of TestAutograd


def test_grad_nonleaf_register_hook():
    # test_grad_nonleaf_register_hook: a hook on one output of unbind; the others leave it alone
    def script(lib):
        x = lib.tensor([0.1, 0.2, 0.3, 0.4], dtype=lib.float64, requires_grad=True)
        parts = x.unbind()
        seen = [None]
        parts[0].register_hook(lambda g: seen.__setitem__(0, g))
        parts[0].backward()
        first, after_first = seen[0], x.grad.clone()
        seen[0] = None
        for p in parts[1:]:
            p.backward()
        return [first, after_first, seen[0], x.grad]

    both(script)


def test_hook_returning_none_keeps_the_gradient():
    # test_hook_none: a hook that returns None changes nothing
    def script(lib):
        x = lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True)
        y = x * x
        y.register_hook(lambda g: None)
        y.sum().backward()
        return [x.grad]

    both(script)


def test_detach():
    # test_detach: a detached value is a constant in the later graph
    def script(lib):
        x = lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True)
        y = (x * 2).detach()
        z = x * y + y
        z.sum().backward()
        return [x.grad, float(y.requires_grad), float(y.grad_fn is None)]

    both(script)


def test_requires_grad_inplace():
    # test_requires_grad_inplace: a += b with b requiring grad puts a in the graph
    def script(lib):
        a = lib.tensor([1.0, 2.0], dtype=lib.float64)
        b = lib.tensor([3.0, 4.0], dtype=lib.float64, requires_grad=True)
        a += b
        (a * a).sum().backward()
        return [float(a.requires_grad), b.grad]

    both(script)


def test_leaf_assignment():
    # test_leaf_assignment: x[0] = y and x[1] = z put x in the graph
    def script(lib):
        x = lib.zeros(3, 2, dtype=lib.float64)
        y = lib.tensor([1.0, -1.0], dtype=lib.float64, requires_grad=True)
        z = lib.tensor([2.0, 3.0], dtype=lib.float64, requires_grad=True)
        x[0] = y
        x[1] = 2 * z
        (x * x).sum().backward()
        return [float(x.requires_grad), y.grad, z.grad]

    both(script)


def test_inplace_on_detached_shares_the_version():
    # test_detach_base / version counter of detach(): a write through detach() is seen by the graph
    def script(lib):
        a = lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True)
        x = a.clone()
        y = x * x
        x.detach().add_(1)
        _raises_modified(lambda: y.sum().backward())
        return [x._version]

    both(script)


@pytest.mark.filterwarnings("ignore:Using backward:UserWarning")  # torch's reference-cycle note
def test_accumulate_grad_with_create_graph():
    # test_accumulate_grad: with create_graph the leaf's .grad is in the graph and accumulates
    def script(lib):
        x = lib.tensor([1.0, -2.0], dtype=lib.float64, requires_grad=True)
        (x**3).sum().backward(create_graph=True)
        first = x.grad.clone()
        g_rg = float(x.grad.requires_grad)
        (x**2).sum().backward(create_graph=True)
        (second,) = lib.autograd.grad(x.grad.sum(), x)
        return [first, g_rg, x.grad, second]

    both(script)


def _split_function(lib):
    class Split(lib.autograd.Function):
        calls: list = []

        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * 2, x**2

        @staticmethod
        def backward(ctx, ga, gb):
            Split.calls.append((ga is None, gb is None))
            (x,) = ctx.saved_tensors
            return ga * 2 + gb * 2 * x

    return Split


def test_function_with_two_outputs_one_used():
    # test_materialize_grads / test_set_materialize_grads: the unused output's gradient is zeros,
    # backward is called once
    def script(lib):
        Split = _split_function(lib)
        x = lib.tensor([1.0, 3.0], dtype=lib.float64, requires_grad=True)
        a, b = Split.apply(x)
        (a.sum() + (b * b).sum()).backward()
        a, _ = Split.apply(x)
        a.sum().backward()
        return [len(Split.calls), x.grad]

    both(script)


def test_once_differentiable_refuses_double_backward():
    # test_once_differentiable: differentiating its backward raises PyTorch's text (the result is in
    # the graph only through a cotangent that requires grad, as in PyTorch)
    def script(lib):
        once = lib.autograd.function.once_differentiable

        class Square(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * x

            @staticmethod
            @once
            def backward(ctx, g):
                (x,) = ctx.saved_tensors
                return 2 * x * g

        x = lib.tensor([1.5], dtype=lib.float64, requires_grad=True)
        v = lib.tensor([2.0], dtype=lib.float64, requires_grad=True)  # a cotangent in the graph
        (g,) = lib.autograd.grad(Square.apply(x), x, grad_outputs=v, create_graph=True)
        with pytest.raises(RuntimeError, match="trying to differentiate twice a function that was marked with"):
            g.sum().backward()
        return [g]

    both(script)


def test_needs_input_grad_and_non_differentiable_output():
    # test_needs_input_grad / test_mark_non_differentiable
    def script(lib):
        seen = []

        class Scale(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x, y):
                mask = x > 0
                ctx.mark_non_differentiable(mask)
                ctx.save_for_backward(x, y)
                return x * y, mask

            @staticmethod
            def backward(ctx, g, g_mask):
                seen.append(tuple(ctx.needs_input_grad))
                x, y = ctx.saved_tensors
                return g * y, g * x

        x = lib.tensor([1.0, -2.0], dtype=lib.float64, requires_grad=True)
        y = lib.tensor([3.0, 4.0], dtype=lib.float64)
        out, mask = Scale.apply(x, y)
        out.sum().backward()
        return [x.grad, float(mask.requires_grad), [float(v) for v in seen[0]]]

    both(script)


def test_no_grad_modifies_version():
    # test_no_grad_modifies_version: x *= 2 under no_grad after a graph saved x
    def script(lib):
        x = lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True)
        y = lib.tensor([3.0, 4.0], dtype=lib.float64, requires_grad=True)
        z = (x * y).sum()
        with lib.no_grad():
            x *= 2
        _raises_modified(z.backward)
        return [x, float(x.is_leaf)]

    both(script)


def test_no_grad_assignment():
    # test_no_grad_assignment: x[0] = y under no_grad leaves x a leaf without grad_fn
    def script(lib):
        x = lib.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=lib.float64, requires_grad=True)
        y = lib.tensor([5.0, 6.0], dtype=lib.float64, requires_grad=True)
        with lib.no_grad():
            x[0] = y
        (x * x).sum().backward()
        return [x, float(x.grad_fn is None), x.grad, y.grad]

    both(script)


@LIBS
def test_bad_calls_give_torchs_texts(lib):
    # test_backward_badcalls / test_grad_badcalls / test_requires_grad_ / retain_grad on a constant
    x = lib.tensor([1.0, 2.0], dtype=lib.float64)
    with pytest.raises(RuntimeError, match="element 0 of tensors does not require grad and does not have a grad_fn"):
        x.sum().backward()
    w = lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True)
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar outputs"):
        lib.autograd.grad(w * 2, w)
    with pytest.raises(RuntimeError, match="you can only change requires_grad flags of leaf variables"):
        (w * 2).requires_grad_(False)
    with pytest.raises(RuntimeError, match="only Tensors of floating point"):
        lib.tensor([1, 2]).requires_grad_()
    with pytest.raises(RuntimeError, match="can't retain_grad on Tensor that has requires_grad=False"):
        x.retain_grad()
    with pytest.raises(
        RuntimeError, match=r"attempting to assign a gradient of size .\[3\]. to a tensor of size .\[2\]."
    ):
        w.grad = lib.zeros(3, dtype=lib.float64)
    with pytest.raises(RuntimeError, match="attempting to assign a gradient with dtype 'float' to a tensor with grad_"):
        w.grad = lib.zeros(2, dtype=lib.float32)
    with pytest.raises(TypeError, match="assigned grad expected to be a Tensor or None but got grad of type int"):
        w.grad = 3


def test_accumulate_grad_tensor_reference():
    # test_accumulate_grad_tensor_reference: a plain pass accumulates into the same .grad object,
    # a create_graph pass replaces it
    def script(lib):
        kept = []
        for create_graph in (False, True):
            p = lib.tensor([1.5, 1.5], dtype=lib.float64, requires_grad=True)
            p.grad = lib.tensor([1.0, 1.0], dtype=lib.float64)
            before = p.grad
            p.backward(lib.tensor([2.0, 3.0], dtype=lib.float64), create_graph=create_graph)
            kept += [float(p.grad is before), p.grad]
        return kept

    both(script)


def test_backward_inputs_limits_accumulation():
    # test_backward_with_inputs: only the listed tensors get .grad, a non-leaf's included
    def script(lib):
        x = lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True)
        y = lib.tensor([3.0, 4.0], dtype=lib.float64, requires_grad=True)
        h = x * y
        (h * h).sum().backward(inputs=[y, h])
        return [x.grad, y.grad, h.grad]

    both(script)


def test_hook_on_a_non_leaf_seen_by_grad():
    # test_hook_edge_case_when_called_with_grad: a tensor hook on the input of grad() changes the result
    def script(lib):
        a = lib.tensor(1.5, dtype=lib.float64, requires_grad=True)
        b = a * 2
        c = b * b
        b.register_hook(lambda g: g * 10)
        (gb,) = lib.autograd.grad(c, b, retain_graph=True)
        (ga,) = lib.autograd.grad(c, a)
        return [gb, ga]

    both(script)


@LIBS
def test_inference_tensors_refuse_to_be_saved(lib):
    # test_inference_mode_tensor_in_normal_mode: saving an inference tensor for backward is refused
    with lib.inference_mode():
        c = lib.tensor([1.0, 2.0], dtype=lib.float64)
    w = lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True)
    with pytest.raises(RuntimeError, match="Inference tensors cannot be saved for backward"):
        w * c
    with pytest.raises(RuntimeError, match="Inplace update to inference tensor outside InferenceMode"):
        c.add_(1)


def test_set_grad_enabled_as_function_and_context():
    # test_set_grad_enabled: both forms, and the context restores the mode
    def script(lib):
        x = lib.tensor([1.0], dtype=lib.float64, requires_grad=True)
        with lib.set_grad_enabled(False):
            a = x * 2
        b = x * 2
        lib.set_grad_enabled(False)
        c = x * 2
        lib.set_grad_enabled(True)
        with lib.no_grad():
            with lib.enable_grad():
                d = x * 2
        return [float(t.requires_grad) for t in (a, b, c, d)]

    both(script)
