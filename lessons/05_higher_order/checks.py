"""Checks for lesson 5: closed-form Hessians and known minima; predictions against the demo's trace."""

import functools

import numpy as np

import minigrad as mg
from minigrad.autograd import grad
from minigrad.course import check
from minigrad.course.expect import expect, expect_close, expect_len, expect_prediction
from minigrad.course.recording import incoming_grads, pass_ids, record_call, record_demo


@check("ex2_hvp", "matches the analytic Hessian of sum(tanh(W @ x)**2)")
def _(ex):
    rng = np.random.default_rng(1)
    W = rng.standard_normal((5, 4))
    x = rng.standard_normal(4)
    v = rng.standard_normal(4)
    Wt = mg.tensor(W)
    got = ex.hvp(lambda x: ((Wt @ x).tanh() ** 2).sum(), mg.tensor(x, requires_grad=True), mg.tensor(v))
    t = np.tanh(W @ x)
    # d/dz tanh(z)^2 = 2 t (1 - t^2); second derivative: 2 (1 - t^2)(1 - 3 t^2)
    H = W.T @ np.diag(2 * (1 - t**2) * (1 - 3 * t**2)) @ W
    expect_close(got, H @ v, "H v for f(x) = sum(tanh(W @ x) ** 2), 5x4 W", rtol=1e-10)


@check("ex2_hvp", "equals A v for random quadratics f(x) = x·Ax/2 with symmetric A")
def _(ex):
    rng = np.random.default_rng(2)
    for n in (1, 3, 6):
        M = rng.standard_normal((n, n))
        A = M + M.T
        At = mg.tensor(A)
        x, v = rng.standard_normal(n), rng.standard_normal(n)
        got = ex.hvp(lambda x, At=At: (x * (At @ x)).sum() / 2, mg.tensor(x, requires_grad=True), mg.tensor(v))
        expect_close(got, A @ v, f"H v for f(x) = x·Ax/2 with a symmetric {n}x{n} A (H = A)", rtol=1e-10)


@check("ex3_newton", "one step solves a quadratic exactly")
def _(ex):
    x = ex.newton_minimize(lambda x: 3 * (x - 2.5) ** 2 + 1, 10.0, 1)
    expect_close(x, 2.5, "x after one Newton step on 3(x-2.5)^2+1 from 10", rtol=0, atol=1e-12)


@check("ex3_newton", "converges to the minimum of x**4 - 3x**2 + x near x = 1.13")
def _(ex):
    x = ex.newton_minimize(lambda x: x**4 - 3 * x**2 + x, 1.0, 8)
    expect_close(
        4 * x**3 - 6 * x + 1, 0.0, f"f'(x) at your x = {x} after 8 steps from 1 (0 at the minimum)", atol=1e-10
    )
    expect(12 * x**2 - 6 > 0, f"f''(x) at your x = {x}", "positive (a minimum)", 12 * x**2 - 6)


@functools.cache
def demo_trace():
    return record_demo()


@check("ex4_predict_trace", "predict_incoming_grad_of_x() matches x's node_entered gradient in each pass")
def _(ex):
    trace = demo_trace()
    want = [incoming_grads(trace, "x", pid)[0].item() for pid in pass_ids(trace)]
    got = [float(v) for v in ex.predict_incoming_grad_of_x()]
    expect_prediction(got, want, "the gradient entering x in passes 1, 2, 3")


@check("ex4_predict_trace", "predict_passes_that_create_nodes() names the passes with node_created events")
def _(ex):
    trace = demo_trace()
    want = [k for k, pid in enumerate(pass_ids(trace), 1) if trace.find("node_created", pass_id=pid)]
    expect_prediction(sorted(ex.predict_passes_that_create_nodes()), want, "the passes that create nodes")


@check("ex4_predict_trace", "predict_pass2_enters_y() matches whether pass 2 enters y")
def _(ex):
    trace = demo_trace()
    want = bool(trace.find("node_entered", "y", pass_ids(trace)[1]))
    expect_prediction(ex.predict_pass2_enters_y(), want, "whether pass 2 enters y")


@check("ex1_derivatives", "f', f'' and f''' of x**3 - 2x match three nested grad() calls")
def _(ex):
    for value in (1.5, -0.5, 2.0):
        x = mg.tensor(value, dtype=mg.float64, requires_grad=True)
        (d1,) = grad(x**3 - 2 * x, x, create_graph=True)
        (d2,) = grad(d1, x, create_graph=True)
        (d3,) = grad(d2, x)
        want = [d1.item(), d2.item(), d3.item()]
        got = [float(v) for v in expect_len(ex.three_derivatives(value), 3, f"three_derivatives({value})")]
        expect_close(got, want, f"(f', f'', f''') of x**3 - 2x at x = {value}", rtol=1e-12)


@check("ex5_find_the_bug", "nodes_made_by_first_pass() counts the buggy first pass's node_created events")
def _(ex):
    trace, _ = record_call(ex.run_buggy)
    first = pass_ids(trace)[0]
    start = trace.find("pass_started", pass_id=first)[0].seq
    end = trace.find("pass_finished", pass_id=first)[0].seq
    want = sum(1 for e in trace.events[start:end] if e.kind == "node_created")
    expect_prediction(ex.nodes_made_by_first_pass(), want, "node_created events during the buggy first pass")


@check("ex5_find_the_bug", "second_derivative(f, x) is f''(x) for x**4, tanh and x**3 - 2x")
def _(ex):
    for name, f, fpp in [
        ("x**4", lambda t: t**4, lambda v: 12 * v**2),
        ("tanh(x)", lambda t: t.tanh(), lambda v: -2 * np.tanh(v) * (1 - np.tanh(v) ** 2)),
        ("x**3 - 2x", lambda t: t**3 - 2 * t, lambda v: 6 * v),
    ]:
        x = mg.tensor(0.7, dtype=mg.float64, requires_grad=True)
        got = ex.second_derivative(f, x)
        expect_close(got, fpp(0.7), f"f''(0.7) for f(x) = {name}", rtol=1e-10)
