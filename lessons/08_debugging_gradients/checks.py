"""Checks for lesson 8: measured gradient norms through deep tanh stacks, NaN hunts against
anomaly mode's verdict, finite differences for safe_sqrt, predictions against the demo's trace."""

import functools
import warnings

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad as mg
from minigrad.autograd import detect_anomaly, grad
from minigrad.course import check
from minigrad.course.recording import incoming_grads, record_demo


def norm_ratio(weights) -> float:
    """|d loss / d first layer's output| / |d loss / d last layer's output| for a tanh stack."""
    rng = np.random.default_rng(80)
    h = mg.tensor(rng.standard_normal((16, weights[0].shape[0])), requires_grad=True)
    outputs = []
    for W in weights:
        h = (h @ mg.tensor(W)).tanh()
        outputs.append(h)
    loss = (h * mg.tensor(rng.standard_normal(h.shape))).sum()
    grads = grad(loss, outputs)
    return np.linalg.norm(grads[0].numpy()) / np.linalg.norm(grads[-1].numpy())


@check("ex2_xavier", "shape, dtype and standard deviation sqrt(2 / (fan_in + fan_out))")
def _(ex):
    for fan_in, fan_out in [(64, 64), (100, 20), (10, 300)]:
        W = np.asarray(ex.xavier_normal(fan_in, fan_out, seed=1))
        assert W.shape == (fan_in, fan_out), f"shape {W.shape}, expected {(fan_in, fan_out)}"
        want = np.sqrt(2 / (fan_in + fan_out))
        assert abs(W.std() / want - 1) < 0.05, f"std {W.std():.4f} for {fan_in}x{fan_out}, expected {want:.4f}"
        assert abs(W.mean()) < 3 * want / np.sqrt(W.size), f"mean {W.mean():.4f} should be about 0"
    same = np.asarray(ex.xavier_normal(5, 5, seed=3)), np.asarray(ex.xavier_normal(5, 5, seed=3))
    np.testing.assert_array_equal(*same, err_msg="the same seed must give the same weights")


@check("ex2_xavier", "through 30 tanh layers of width 64 the gradient stays within 10x (std 0.05 vanishes)")
def _(ex):
    vanishing = norm_ratio([np.random.default_rng(k).standard_normal((64, 64)) * 0.05 for k in range(30)])
    assert vanishing < 1e-6, f"sanity: the badly initialised stack should vanish (ratio {vanishing:.2g})"
    ratio = norm_ratio([ex.xavier_normal(64, 64, seed=k) for k in range(30)])
    assert 0.1 < ratio < 10, f"first/last layer gradient norm ratio is {ratio:.3g}; it should stay within 10x"


def culprit_cases():
    def sqrt_at_zero():
        x = mg.tensor([0.0, 1.0], requires_grad=True)
        s = x.sqrt()
        (s * 2).sum().backward()

    def log_of_zero():
        x = mg.tensor([0.5, 0.0], requires_grad=True)
        e = x.exp() - 1
        lg = (x * e).log()
        (lg * 0 + x).sum().backward()

    def finite():
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        (x.tanh() * x).sum().backward()

    return [(sqrt_at_zero, "s", "sqrt"), (log_of_zero, "lg", "log"), (finite, None, None)]


@check("ex3_nan_hunt", "first_nonfinite_node names the node that anomaly mode blames (or None)")
def _(ex):
    for fn, name, op in culprit_cases():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = ex.first_nonfinite_node(fn)
            blamed = None
            try:
                with detect_anomaly():
                    fn()
            except RuntimeError as exc:
                blamed = str(exc)
        assert got == name, f"{fn.__name__}: you found {got!r}, expected {name!r}"
        if op is not None:
            assert blamed is not None and f"op {op})" in blamed, f"sanity: anomaly mode must blame {op} ({blamed})"


@check("ex3_nan_hunt", "safe_sqrt: values and gradient (finite differences) right, never NaN")
def _(ex):
    @settings(max_examples=25, deadline=None)
    @given(st.lists(st.floats(-5, 5).filter(lambda v: v == 0 or abs(v) > 1e-3), min_size=1, max_size=6))
    def prop(values):
        x = mg.tensor(values, dtype=mg.float64, requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a sqrt of a negative number would warn
            y = ex.safe_sqrt(x)
            y.sum().backward()
        v = np.array(values)
        pos = v > 0
        np.testing.assert_allclose(y.detach().numpy(), np.where(pos, np.sqrt(np.where(pos, v, 1)), 0), rtol=1e-12)
        g = x.grad.numpy()
        assert np.isfinite(g).all(), f"gradient {g} for x = {values}"
        eps = 1e-7
        a = np.where(pos, v, 1.0)
        numeric = np.where(pos, (np.sqrt(a + eps) - np.sqrt(a - eps)) / (2 * eps), 0.0)
        np.testing.assert_allclose(g, numeric, rtol=1e-5, atol=1e-8)

    prop()


@functools.cache
def demo_trace():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return record_demo(8)


def first_nonfinite_closure(trace):
    for ev in trace.events:
        if ev.kind == "closure_called" and any(o is not None and o.has_nonfinite() for o in ev.outputs):
            return ev
    raise AssertionError("the demo's trace has no non-finite gradient")


@check("ex4_predict_trace", "predict_smallest_gradient_layer() matches the recorded weight gradients")
def _(ex):
    trace = demo_trace()
    first_pass = trace.find("pass_started")[0].pass_id
    leaves = [e for e in trace.find("grad_accumulated", pass_id=first_pass) if e.into == "grad"]
    by_node = {e.node: np.linalg.norm(e.after.values) for e in leaves}
    order = sorted(by_node)  # weights are created first to last, so ids grow with the layer
    smallest = order.index(min(by_node, key=by_node.get))
    got = ex.predict_smallest_gradient_layer()
    assert got == smallest, f"you predicted layer {got}; the smallest gradient is at layer {smallest}"


@check("ex4_predict_trace", "predict_nonfinite_op() is the op where the nonfinite breakpoint fires")
def _(ex):
    trace = demo_trace()
    want = trace.nodes[first_nonfinite_closure(trace).node].op
    got = ex.predict_nonfinite_op()
    assert got == want, f"you predicted {got!r}; the first non-finite gradient comes from {want!r}"


@check("ex4_predict_trace", "predict_incoming_grad_of_root() is root's node_entered gradient")
def _(ex):
    (want,) = incoming_grads(demo_trace(), "root")
    np.testing.assert_allclose(ex.predict_incoming_grad_of_root(), want, err_msg="the gradient entering root")


@check("ex4_predict_trace", "predict_nan_count_in_x_grad() matches x's final gradient")
def _(ex):
    (entered,) = incoming_grads(demo_trace(), "x")
    want = int(np.isnan(entered).sum())
    got = ex.predict_nan_count_in_x_grad()
    assert got == want, f"you predicted {got} NaNs; x.grad has {want}"


@check("ex1_grad_norms", "grad_norms: one float per parameter, 0.0 for a parameter without .grad")
def _(ex):
    a = mg.tensor([3.0, 4.0], requires_grad=True)
    b = mg.tensor([[1.0, 2.0], [2.0, 4.0]], requires_grad=True)
    unused = mg.tensor([1.0], requires_grad=True)
    ((a * 0.5).sum() + (b * b).sum() * 0.5).backward()
    got = ex.grad_norms([a, b, unused])
    want = [float(np.linalg.norm([0.5, 0.5])), 5.0, 0.0]
    assert len(got) == 3, f"three parameters: expected 3 norms, got {got!r}"
    np.testing.assert_allclose(got, want, err_msg="the gradient norms of a (grad [0.5, 0.5]), b (grad b), unused")
    assert all(isinstance(n, float) for n in got), f"norms are Python floats, got {[type(n).__name__ for n in got]}"


@check("ex1_grad_norms", "spread: the largest norm over the smallest non-zero one (the demo's 12 sigmoid layers)")
def _(ex):
    assert ex.spread([2.0, 0.0, 0.5, 8.0]) == 16.0, (
        f"spread([2, 0, 0.5, 8]): expected 16.0, got {ex.spread([2.0, 0.0, 0.5, 8.0])}"
    )
    trace = demo_trace()
    first_pass = trace.find("pass_started")[0].pass_id
    leaves = [e for e in trace.find("grad_accumulated", pass_id=first_pass) if e.into == "grad"]
    norms = [float(np.linalg.norm(e.after.values)) for e in leaves]
    got = ex.spread(norms)
    want = max(norms) / min(norms)
    assert abs(got / want - 1) < 1e-9, f"the spread of the demo's 12 layers: expected {want:.4g}, got {got:.4g}"


@check("ex5_stale_gradient", "the tensor mul's rule needs unchanged, and the stale gradient it gives")
def _(ex):
    got = ex.tensor_the_rule_needs()
    assert got == "w", f"d(w * u)/du = w, so the rule for u reads w: expected 'w', got {got!r}"
    w = np.array([1.0, 2.0])
    want = w * 10  # what mul's rule returns for `u` when it reads w after the in-place update
    np.testing.assert_allclose(ex.stale_grad_of_u(), want, err_msg="u.grad computed from the updated w")


@check("ex5_stale_gradient", "fixed_step: gradients at the original w, then the update, and no error")
def _(ex):
    w = mg.tensor([1.0, 2.0], requires_grad=True)
    u = mg.tensor([3.0, 4.0], requires_grad=True)
    loss = ex.fixed_step(w, u, lr=0.1)
    assert abs(float(loss.item()) - 11.0) < 1e-6, f"the loss at w = [1, 2]: expected 11.0, got {loss.item()}"
    np.testing.assert_allclose(u.grad.numpy(), [1.0, 2.0], err_msg="u.grad (d loss / du = the original w)")
    np.testing.assert_allclose(w.grad.numpy(), [3.0, 4.0], err_msg="w.grad (d loss / dw = u)")
    np.testing.assert_allclose(w.detach().numpy(), [0.7, 1.6], rtol=1e-6, err_msg="w after w - 0.1 * w.grad")
