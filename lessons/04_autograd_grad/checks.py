"""Checks for lesson 4: autograd.grad as the oracle; .grad survival, also through an exception;
predictions against the demo's recorded trace."""

import functools

import numpy as np
import pytest

import minigrad as mg
from minigrad.course import check
from minigrad.course.recording import as_array, contributions_into, incoming_grads, record_demo


def seed_example():
    a = mg.tensor([2.0, -1.0, 0.5], requires_grad=True)
    b = mg.tensor([3.0, 4.0, -2.0], requires_grad=True)
    return a, b, (a * b).sum() + (a * a).sum()


@check("ex2_save_restore", "returns the seed example's gradients, da = [7, 2, -1], db = [2, -1, 0.5]")
def _(ex):
    a, b, out = seed_example()
    da, db = ex.grad_via_backward(out, (a, b))
    np.testing.assert_allclose(da.numpy(), [7.0, 2.0, -1.0])
    np.testing.assert_allclose(db.numpy(), [2.0, -1.0, 0.5])


@check("ex2_save_restore", "leaves existing .grad values untouched")
def _(ex):
    a, b, out = seed_example()
    a.grad = mg.tensor([1.0, 1.0, 1.0])
    ex.grad_via_backward(out, (a, b))
    np.testing.assert_allclose(a.grad.numpy(), [1.0, 1.0, 1.0])
    assert b.grad is None


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
    with pytest.raises(ValueError, match="hook failed mid-pass"):
        ex.grad_via_backward(out, (a, b))
    np.testing.assert_allclose(a.grad.numpy(), [5.0, 5.0, 5.0])
    np.testing.assert_allclose(b.grad.numpy(), [6.0, 6.0, 6.0])


@check("ex2_save_restore", "matches autograd.grad on a random network")
def _(ex):
    rng = np.random.default_rng(0)
    W = mg.tensor(rng.standard_normal((4, 3)), requires_grad=True)
    x = mg.tensor(rng.standard_normal(3), requires_grad=True)
    out = ((W @ x).tanh() ** 2).sum()
    got = ex.grad_via_backward(out, (W, x))
    want = mg.autograd.grad(out, (W, x), retain_graph=True)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-12)


@functools.cache
def demo_trace():
    return record_demo(4)


def names_of(trace, pairs) -> dict:
    return {trace.nodes[nid].label: (None if snap is None else as_array(snap).tolist()) for nid, snap in pairs}


@check("ex3_predict_trace", "predict_saved() is what the demo's grads_saved event stashes")
def _(ex):
    answer = ex.predict_saved()
    (saved,) = demo_trace().find("grads_saved")
    want = names_of(demo_trace(), saved.saved)
    assert set(answer) == set(want), f"grads_saved stashes the .grad of {sorted(want)}, you named {sorted(answer)}"
    for name, value in want.items():
        got = answer[name]
        if value is None:
            assert got is None, f"{name}.grad was None before the pass, so None is saved; you said {got}"
        else:
            assert got is not None, f"{name}.grad held a value before the pass; you said None"
            np.testing.assert_allclose(got, value, err_msg=f"the saved .grad of {name}")


@check("ex3_predict_trace", "predict_contributions_into_a() counts the grad_accumulated events into a")
def _(ex):
    want = len(contributions_into(demo_trace(), "a", into="pass"))
    got = ex.predict_contributions_into_a()
    assert got == want, f"you predicted {got} contributions into a; the trace has {want}"


@check("ex3_predict_trace", "predict_incoming_grad_of_a() is a's node_entered gradient")
def _(ex):
    (want,) = incoming_grads(demo_trace(), "a")
    np.testing.assert_allclose(ex.predict_incoming_grad_of_a(), want, err_msg="the gradient entering a")


@check("ex3_predict_trace", "predict_a_grad_after() is a.grad at the end of the trace")
def _(ex):
    trace = demo_trace()
    want = as_array(trace.state_at(-1).nodes[trace.node("a").id].grad)
    np.testing.assert_allclose(ex.predict_a_grad_after(), want, err_msg="a.grad after grad() returns")


@check("ex1_vjp_by_hand", "the Jacobian of (x0 * x1, x0 + 3 * x1), against minigrad's jacobian")
def _(ex):
    for x0, x1 in [(2.0, -1.0), (0.5, 4.0)]:
        x = mg.tensor([x0, x1], dtype=mg.float64)
        want = mg.autograd.functional.jacobian(lambda t: mg.stack([t[0] * t[1], t[0] + 3 * t[1]]), x).numpy()
        np.testing.assert_allclose(np.asarray(ex.jacobian(x0, x1), dtype=float), want, err_msg=f"J at x = ({x0}, {x1})")


@check("ex1_vjp_by_hand", "vjp equals the gradient of v0 * y0 + v1 * y1 (grad with grad_outputs = v)")
def _(ex):
    for x0, x1, v0, v1 in [(2.0, -1.0, 1.0, 0.0), (0.5, 4.0, -2.0, 3.0)]:
        x = mg.tensor([x0, x1], dtype=mg.float64, requires_grad=True)
        y = mg.stack([x[0] * x[1], x[0] + 3 * x[1]])
        (want,) = mg.autograd.grad(y, x, grad_outputs=mg.tensor([v0, v1], dtype=mg.float64))
        got = np.asarray(ex.vjp(x0, x1, v0, v1), dtype=float)
        np.testing.assert_allclose(got, want.numpy(), err_msg=f"vᵀJ at x = ({x0}, {x1}), v = ({v0}, {v1})")


@check("ex4_find_the_bug", "buggy_result_for_a() is what buggy_grad returns for a")
def _(ex):
    want = ex.run_buggy()[0].numpy()
    got = np.asarray(ex.buggy_result_for_a(), dtype=float)
    np.testing.assert_allclose(got, want, err_msg="the buggy gradient of a")


@check("ex4_find_the_bug", "with clear_before_run the five steps give [7, 2, -1] and keep a.grad")
def _(ex):
    a, b, out = seed_example()
    a.grad = mg.tensor([100.0, 100.0, 100.0])
    saved = [a.grad, b.grad]
    ex.clear_before_run((a, b))
    try:
        out.backward(inputs=[a, b], retain_graph=True)
        da, db = a.grad, b.grad
    finally:
        a.grad, b.grad = saved
    assert da is not None, "after clear_before_run and backward, a.grad holds the pass's gradient"
    np.testing.assert_allclose(da.numpy(), [7.0, 2.0, -1.0], err_msg="the gradient of a")
    np.testing.assert_allclose(db.numpy(), [2.0, -1.0, 0.5], err_msg="the gradient of b")
