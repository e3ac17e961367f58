"""Checks for lesson 4: autograd.grad as the oracle; .grad survival, also through an exception;
predictions against the demo's recorded trace."""

import functools

import numpy as np

import minigrad as mg
from minigrad.course import check
from minigrad.course.checking import load_reference
from minigrad.course.expect import expect, expect_close, expect_len, expect_prediction, expect_raises
from minigrad.course.recording import as_array, contributions_into, incoming_grads, record_demo
from minigrad.course.tracediff import explained_by_trace


def seed_example():
    a = mg.tensor([2.0, -1.0, 0.5], requires_grad=True, name="a")
    b = mg.tensor([3.0, 4.0, -2.0], requires_grad=True, name="b")
    return a, b, (a * b).sum() + (a * a).sum()


def grad_runs(ex, a_grad=None):
    """grad_via_backward on the seed example (a.grad holding ``a_grad`` first), the learner's and the reference's."""

    def run(grad_via_backward):
        def go():
            a, b, out = seed_example()
            a.grad = None if a_grad is None else mg.tensor(a_grad)
            grad_via_backward(out, (a, b))

        return go

    return run(ex.grad_via_backward), run(load_reference("ex2_save_restore").grad_via_backward)


def expect_grad(t, want, what):
    """``t.grad`` holds ``want`` (a None is reported as such, not as an AttributeError)."""
    expect(t.grad is not None, what, want, None)
    expect_close(t.grad, want, what)


@check("ex2_save_restore", "returns the seed example's gradients, da = [7, 2, -1], db = [2, -1, 0.5]")
def _(ex):
    a, b, out = seed_example()
    with explained_by_trace(*grad_runs(ex)):
        da, db = expect_len(ex.grad_via_backward(out, (a, b)), 2, "grad_via_backward(out, (a, b))")
        expect_close(da, [7.0, 2.0, -1.0], "grad_via_backward's gradient of a")
        expect_close(db, [2.0, -1.0, 0.5], "grad_via_backward's gradient of b")


@check("ex2_save_restore", "leaves existing .grad values untouched")
def _(ex):
    a, b, out = seed_example()
    a.grad = mg.tensor([1.0, 1.0, 1.0])
    with explained_by_trace(*grad_runs(ex, a_grad=[1.0, 1.0, 1.0])):
        ex.grad_via_backward(out, (a, b))
        expect_grad(a, [1.0, 1.0, 1.0], "a.grad after grad_via_backward, which held [1, 1, 1] before")
        expect(b.grad is None, "b.grad after grad_via_backward, which was None before", "None", b.grad)


@check("ex2_save_restore", "restores .grad even when a hook raises in the middle of the pass")
def _(ex):
    a, b, _ = seed_example()
    a.grad = mg.tensor([5.0, 5.0, 5.0])
    b.grad = mg.tensor([6.0, 6.0, 6.0])
    mid = a * b

    def failing_hook(g):
        raise ValueError("hook failed mid-pass")

    b.register_hook(failing_hook)
    out = (mid + a).sum()
    expect_raises(
        lambda: ex.grad_via_backward(out, (a, b)),
        ValueError,
        "hook failed mid-pass",
        "grad_via_backward when a hook raises ValueError('hook failed mid-pass') during the pass",
    )
    where = "after a pass that raised (restore in a `finally:`)"
    expect_grad(a, [5.0, 5.0, 5.0], f"a.grad {where}")
    expect_grad(b, [6.0, 6.0, 6.0], f"b.grad {where}")


@check("ex2_save_restore", "matches autograd.grad on a random network")
def _(ex):
    rng = np.random.default_rng(0)
    W = mg.tensor(rng.standard_normal((4, 3)), requires_grad=True)
    x = mg.tensor(rng.standard_normal(3), requires_grad=True)
    out = ((W @ x).tanh() ** 2).sum()
    got = ex.grad_via_backward(out, (W, x))
    want = mg.autograd.grad(out, (W, x), retain_graph=True)
    expect_len(got, 2, "grad_via_backward(out, (W, x))")
    for name, g, w in zip(("W", "x"), got, want):
        expect_close(g, w, f"the gradient of {name} in sum(tanh(W @ x) ** 2)", rtol=1e-12)


@functools.cache
def demo_trace():
    return record_demo()


def names_of(trace, pairs) -> dict:
    return {trace.nodes[nid].label: (None if snap is None else as_array(snap).tolist()) for nid, snap in pairs}


@check("ex3_predict_trace", "predict_saved() is what the demo's grads_saved event stashes")
def _(ex):
    (saved,) = demo_trace().find("grads_saved")
    expect_prediction(ex.predict_saved(), names_of(demo_trace(), saved.saved), "what grads_saved stashes")


@check("ex3_predict_trace", "predict_contributions_into_a() counts the grad_accumulated events into a")
def _(ex):
    want = len(contributions_into(demo_trace(), "a", into="pass"))
    expect_prediction(ex.predict_contributions_into_a(), want, "the contributions into a")


@check("ex3_predict_trace", "predict_incoming_grad_of_a() is a's node_entered gradient")
def _(ex):
    (want,) = incoming_grads(demo_trace(), "a")
    expect_prediction(ex.predict_incoming_grad_of_a(), want, "the gradient entering a")


@check("ex3_predict_trace", "predict_a_grad_after() is a.grad at the end of the trace")
def _(ex):
    trace = demo_trace()
    want = as_array(trace.state_at(-1).nodes[trace.node("a").id].grad)
    expect_prediction(ex.predict_a_grad_after(), want, "a.grad after grad() returns")


@check("ex1_vjp_by_hand", "the Jacobian of (x0 * x1, x0 + 3 * x1), against minigrad's jacobian")
def _(ex):
    for x0, x1 in [(2.0, -1.0), (0.5, 4.0)]:
        x = mg.tensor([x0, x1], dtype=mg.float64)
        want = mg.autograd.functional.jacobian(lambda t: mg.stack([t[0] * t[1], t[0] + 3 * t[1]]), x).numpy()
        expect_close(np.asarray(ex.jacobian(x0, x1), dtype=float), want, f"J at x = ({x0}, {x1})")


@check("ex1_vjp_by_hand", "vjp equals the gradient of v0 * y0 + v1 * y1 (grad with grad_outputs = v)")
def _(ex):
    for x0, x1, v0, v1 in [(2.0, -1.0, 1.0, 0.0), (0.5, 4.0, -2.0, 3.0)]:
        x = mg.tensor([x0, x1], dtype=mg.float64, requires_grad=True)
        y = mg.stack([x[0] * x[1], x[0] + 3 * x[1]])
        (want,) = mg.autograd.grad(y, x, grad_outputs=mg.tensor([v0, v1], dtype=mg.float64))
        got = np.asarray(ex.vjp(x0, x1, v0, v1), dtype=float)
        expect_close(got, want, f"vᵀJ at x = ({x0}, {x1}), v = ({v0}, {v1})")


@check("ex4_find_the_bug", "buggy_result_for_a() is what buggy_grad returns for a")
def _(ex):
    want = ex.run_buggy()[0].numpy()
    expect_prediction(np.asarray(ex.buggy_result_for_a(), dtype=float), want, "the buggy gradient of a")


@check("ex4_find_the_bug", "with clear_before_run the five steps give [7, 2, -1] and keep a.grad")
def _(ex):
    reference = load_reference("ex4_find_the_bug").clear_before_run
    with explained_by_trace(five_steps(ex.clear_before_run), five_steps(reference)):
        da, db = five_steps(ex.clear_before_run)()
        expect(da is not None, "a.grad after clear_before_run and backward", "the pass's gradient", None)
        expect_close(da, [7.0, 2.0, -1.0], "a.grad after clear_before_run and backward")
        expect_close(db, [2.0, -1.0, 0.5], "b.grad after clear_before_run and backward")


def five_steps(clear_before_run):
    """The seed example with a.grad = [100, 100, 100]: save, ``clear_before_run``, run, collect, restore."""

    def run():
        a, b, out = seed_example()
        a.grad = mg.tensor([100.0, 100.0, 100.0])
        saved = [a.grad, b.grad]
        clear_before_run((a, b))
        try:
            out.backward(inputs=[a, b], retain_graph=True)
            return a.grad, b.grad
        finally:
            a.grad, b.grad = saved

    return run
