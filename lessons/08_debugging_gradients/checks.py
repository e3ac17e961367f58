"""Checks for lesson 8: measured gradient norms through deep tanh stacks, NaN hunts against
anomaly mode's verdict, finite differences for safe_sqrt, predictions against the demo's trace."""

import functools
import warnings

import numpy as np

import minigrad as mg
from minigrad.autograd import detect_anomaly, grad
from minigrad.course import check
from minigrad.course.cases import rng
from minigrad.course.expect import expect, expect_close, expect_equal, expect_len, expect_prediction
from minigrad.course.recording import incoming_grads, record_demo
from minigrad.trace import HitCounter, parse_breakpoint, record


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
        call = f"xavier_normal({fan_in}, {fan_out})"
        expect_equal(W.shape, (fan_in, fan_out), f"the shape of {call}")
        want = np.sqrt(2 / (fan_in + fan_out))
        expect(
            abs(W.std() / want - 1) < 0.05, f"the standard deviation of {call}", f"{want:.4f} ± 5%", f"{W.std():.4f}"
        )
        expect(abs(W.mean()) < 3 * want / np.sqrt(W.size), f"the mean of {call}", "about 0", f"{W.mean():.4f}")
    first, again = np.asarray(ex.xavier_normal(5, 5, seed=3)), np.asarray(ex.xavier_normal(5, 5, seed=3))
    expect_close(
        again, first, "xavier_normal(5, 5, seed=3) called twice (the same seed gives the same weights)", rtol=0, atol=0
    )


@check("ex2_xavier", "through 30 tanh layers of width 64 the gradient stays within 10x (std 0.05 vanishes)")
def _(ex):
    vanishing = norm_ratio([np.random.default_rng(k).standard_normal((64, 64)) * 0.05 for k in range(30)])
    assert vanishing < 1e-6, f"sanity: the badly initialised stack should vanish (ratio {vanishing:.2g})"
    ratio = norm_ratio([ex.xavier_normal(64, 64, seed=k) for k in range(30)])
    expect(0.1 < ratio < 10, "the first/last layer gradient norm ratio through 30 layers", "within 10x", f"{ratio:.3g}")


def relu_stack(weights) -> tuple:
    """A stack of relu layers ``h = relu(h @ W)`` over ``weights``, each output named ``layer K``, recorded:
    ``(trace, the norm of the gradient entering the last layer)``."""
    draw = np.random.default_rng(81)
    with record() as trace:
        h = mg.tensor(draw.standard_normal((16, weights[0].shape[0])), requires_grad=True)
        for k, W in enumerate(weights, 1):
            h = (h @ mg.tensor(W)).relu()
            h.name = f"layer {k}"
        top = draw.standard_normal(h.shape)
        (h * mg.tensor(top)).sum().backward()
    return trace, float(np.linalg.norm(top))


def first_stop(trace, spec: str):
    """``(layer name, |g|)`` where the debugger's ``c`` first stops for breakpoint ``spec``, or None."""
    breakpoint_, hits = parse_breakpoint(spec), HitCounter(trace)
    for event in trace.events:
        if breakpoint_.matches(event, hits):
            grad = event.grad
            return trace.nodes[event.node].name, grad.stats.norm if grad.values is None else np.linalg.norm(grad.values)
    return None


@check("ex2_xavier", "he_normal: shape, dtype and standard deviation sqrt(2 / fan_in)")
def _(ex):
    for fan_in, fan_out in [(64, 64), (100, 20), (10, 300)]:
        W = np.asarray(ex.he_normal(fan_in, fan_out, seed=1))
        call = f"he_normal({fan_in}, {fan_out})"
        expect_equal(W.shape, (fan_in, fan_out), f"the shape of {call}")
        want = np.sqrt(2 / fan_in)
        expect(
            abs(W.std() / want - 1) < 0.05, f"the standard deviation of {call}", f"{want:.4f} ± 5%", f"{W.std():.4f}"
        )
    first, again = np.asarray(ex.he_normal(5, 5, seed=3)), np.asarray(ex.he_normal(5, 5, seed=3))
    expect_close(again, first, "he_normal(5, 5, seed=3) called twice (the same seed gives the same weights)", 0, 0)


@check("ex2_xavier", "through 12 relu layers of width 64 with he_normal, no breakpoint on |g| stops")
def _(ex):
    def breakpoints(top):  # the gradient leaving the 10x band around the last layer's, either way
        return (f"op:relu if |g| > {10 * top:.4g}", f"op:relu if |g| < {top / 10:.4g}")

    trace, top = relu_stack([np.random.default_rng(k).standard_normal((64, 64)) for k in range(12)])
    assert first_stop(trace, breakpoints(top)[0]), "sanity: weights of std 1 should explode through relu layers"
    trace, top = relu_stack([np.sqrt(1 / 64) * np.random.default_rng(k).standard_normal((64, 64)) for k in range(12)])
    assert first_stop(trace, breakpoints(top)[1]), "sanity: Glorot's std should vanish through relu layers"
    trace, top = relu_stack([ex.he_normal(64, 64, seed=k) for k in range(12)])
    for spec in breakpoints(top):
        stop = first_stop(trace, spec)
        expect(
            stop is None,
            f"`minigrad-tui --break '{spec}'` over 12 relu layers initialised with he_normal "
            f"(the gradient entering the last layer has norm {top:.3g})",
            "no stop",
            None if stop is None else f"a stop entering {stop[0]}, where |g| = {stop[1]:.3g}",
        )


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
        expect_equal(got, name, f"first_nonfinite_node({fn.__name__})")
        if op is not None:
            assert blamed is not None and f"op {op})" in blamed, f"sanity: anomaly mode must blame {op} ({blamed})"


@check("ex3_nan_hunt", "safe_sqrt: values and gradient (finite differences) right, never NaN")
def _(ex):
    draw = rng(83)
    cases = [[0.0], [0.0, 4.0, -1.0], [-5.0, 5.0]]
    while len(cases) < 25:
        v = draw.uniform(-5, 5, int(draw.integers(1, 7)))
        v[draw.random(v.size) < 0.25] = 0.0  # zeros are where a plain sqrt's gradient is infinite
        cases.append(np.where(np.abs(v) < 1e-3, 0.0, v).tolist())
    for values in cases:
        x = mg.tensor(values, dtype=mg.float64, requires_grad=True)
        where = f"at x = {np.round(values, 4).tolist()}"
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a sqrt of a negative number would warn
            y = ex.safe_sqrt(x)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # an infinite gradient is reported below, in the lesson's words
            y.sum().backward()
        v = np.array(values)
        pos = v > 0
        expect_close(y.detach(), np.where(pos, np.sqrt(np.where(pos, v, 1)), 0), f"safe_sqrt {where}", rtol=1e-12)
        expect(x.grad is not None, f"x.grad after safe_sqrt(x).sum().backward() {where}", "a gradient", None)
        g = x.grad.numpy()
        expect(np.isfinite(g).all(), f"the gradient of safe_sqrt {where}", "finite numbers", g)
        eps = 1e-7
        a = np.where(pos, v, 1.0)
        numeric = np.where(pos, (np.sqrt(a + eps) - np.sqrt(a - eps)) / (2 * eps), 0.0)
        expect_close(g, numeric, f"the gradient of safe_sqrt {where} (finite differences)", rtol=1e-5, atol=1e-8)


@functools.cache
def demo_trace():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return record_demo()


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
    expect_prediction(ex.predict_smallest_gradient_layer(), smallest, "the layer with the smallest gradient")


@check("ex4_predict_trace", "predict_nonfinite_op() is the op where the nonfinite breakpoint fires")
def _(ex):
    trace = demo_trace()
    want = trace.nodes[first_nonfinite_closure(trace).node].op
    expect_prediction(ex.predict_nonfinite_op(), want, "the op of the first non-finite gradient")


@check("ex4_predict_trace", "predict_incoming_grad_of_root() is root's node_entered gradient")
def _(ex):
    (want,) = incoming_grads(demo_trace(), "root")
    expect_prediction(ex.predict_incoming_grad_of_root(), want, "the gradient entering root")


@check("ex4_predict_trace", "predict_nan_count_in_x_grad() matches x's final gradient")
def _(ex):
    (entered,) = incoming_grads(demo_trace(), "x")
    want = int(np.isnan(entered).sum())
    expect_prediction(ex.predict_nan_count_in_x_grad(), want, "the number of NaNs in x.grad")


@check("ex1_grad_norms", "grad_norms: one float per parameter, 0.0 for a parameter without .grad")
def _(ex):
    a = mg.tensor([3.0, 4.0], requires_grad=True)
    b = mg.tensor([[1.0, 2.0], [2.0, 4.0]], requires_grad=True)
    unused = mg.tensor([1.0], requires_grad=True)
    ((a * 0.5).sum() + (b * b).sum() * 0.5).backward()
    got = expect_len(ex.grad_norms([a, b, unused]), 3, "grad_norms of three parameters")
    want = [float(np.linalg.norm([0.5, 0.5])), 5.0, 0.0]
    expect_close(got, want, "the gradient norms of a (grad [0.5, 0.5]), b (grad b), unused (no grad)")
    types = [type(n).__name__ for n in got]
    expect(all(isinstance(n, float) for n in got), "the types of the norms", "Python floats", types)


@check("ex1_grad_norms", "spread: the largest norm over the smallest non-zero one (the demo's 12 sigmoid layers)")
def _(ex):
    expect_close(ex.spread([2.0, 0.0, 0.5, 8.0]), 16.0, "spread([2, 0, 0.5, 8])")
    trace = demo_trace()
    first_pass = trace.find("pass_started")[0].pass_id
    leaves = [e for e in trace.find("grad_accumulated", pass_id=first_pass) if e.into == "grad"]
    norms = [float(np.linalg.norm(e.after.values)) for e in leaves]
    expect_close(ex.spread(norms), max(norms) / min(norms), "the spread of the demo's 12 layers", rtol=1e-9)


@check("ex5_stale_gradient", "the tensor mul's rule needs unchanged, and the stale gradient it gives")
def _(ex):
    expect_prediction(ex.tensor_the_rule_needs(), "w", "the tensor mul's rule for u reads")
    w = np.array([1.0, 2.0])
    want = w * 10  # what mul's rule returns for `u` when it reads w after the in-place update
    expect_prediction(ex.stale_grad_of_u(), want, "u.grad computed from the updated w")


@check("ex5_stale_gradient", "fixed_step: gradients at the original w, then the update, and no error")
def _(ex):
    w = mg.tensor([1.0, 2.0], requires_grad=True)
    u = mg.tensor([3.0, 4.0], requires_grad=True)
    loss = ex.fixed_step(w, u, lr=0.1)
    expect_close(loss, 11.0, "the loss at w = [1, 2], u = [3, 4]", rtol=1e-6)
    for name, t in (("u", u), ("w", w)):
        expect(t.grad is not None, f"{name}.grad after fixed_step", "a gradient", None)
    expect_close(u.grad, [1.0, 2.0], "u.grad (d loss / du = the original w)")
    expect_close(w.grad, [3.0, 4.0], "w.grad (d loss / dw = u)")
    expect_close(w.detach(), [0.7, 1.6], "w after w - 0.1 * w.grad", rtol=1e-6)
