"""Checks for lesson 5: closed-form Hessians and known minima; predictions against the demo's trace."""

import functools

import numpy as np

import minigrad as mg
from minigrad.autograd import grad
from minigrad.course import check
from minigrad.course.recording import incoming_grads, pass_ids, record_call, record_demo


@check("ex2_hvp", "matches the analytic Hessian of sum(tanh(W @ x)**2)")
def _(ex):
    rng = np.random.default_rng(1)
    W = rng.standard_normal((5, 4))
    x = rng.standard_normal(4)
    v = rng.standard_normal(4)
    Wt = mg.tensor(W)
    got = ex.hvp(lambda x: ((Wt @ x).tanh() ** 2).sum(), mg.tensor(x), mg.tensor(v))
    t = np.tanh(W @ x)
    # d/dz tanh(z)^2 = 2 t (1 - t^2); second derivative: 2 (1 - t^2)(1 - 3 t^2)
    H = W.T @ np.diag(2 * (1 - t**2) * (1 - 3 * t**2)) @ W
    np.testing.assert_allclose(got.numpy(), H @ v, rtol=1e-10)


@check("ex2_hvp", "equals A v for random quadratics f(x) = x·Ax/2 with symmetric A")
def _(ex):
    rng = np.random.default_rng(2)
    for n in (1, 3, 6):
        M = rng.standard_normal((n, n))
        A = M + M.T
        At = mg.tensor(A)
        x, v = rng.standard_normal(n), rng.standard_normal(n)
        got = ex.hvp(lambda x, At=At: (x * (At @ x)).sum() / 2, mg.tensor(x), mg.tensor(v))
        np.testing.assert_allclose(got.numpy(), A @ v, rtol=1e-10)


@check("ex3_newton", "one step solves a quadratic exactly")
def _(ex):
    x = ex.newton_minimize(lambda x: 3 * (x - 2.5) ** 2 + 1, 10.0, 1)
    assert abs(x - 2.5) < 1e-12, f"after one Newton step on 3(x-2.5)^2+1 from 10, x = {x}, expected 2.5"


@check("ex3_newton", "converges to the minimum of x**4 - 3x**2 + x near x = 1.13")
def _(ex):
    x = ex.newton_minimize(lambda x: x**4 - 3 * x**2 + x, 1.0, 8)
    assert abs(4 * x**3 - 6 * x + 1) < 1e-10, f"f'(x) should be 0 at the minimum, x = {x}"
    assert 12 * x**2 - 6 > 0, "Newton's method should have found a minimum"


@functools.cache
def demo_trace():
    return record_demo(5)


@check("ex4_predict_trace", "predict_incoming_grad_of_x() matches x's node_entered gradient in each pass")
def _(ex):
    trace = demo_trace()
    want = [incoming_grads(trace, "x", pid)[0].item() for pid in pass_ids(trace)]
    got = list(ex.predict_incoming_grad_of_x())
    assert len(got) == len(want), f"the demo runs {len(want)} passes; you gave {len(got)} values"
    np.testing.assert_allclose(got, want, err_msg="the gradient entering x in passes 1, 2, 3")


@check("ex4_predict_trace", "predict_passes_that_create_nodes() names the passes with node_created events")
def _(ex):
    trace = demo_trace()
    want = [k for k, pid in enumerate(pass_ids(trace), 1) if trace.find("node_created", pass_id=pid)]
    got = sorted(ex.predict_passes_that_create_nodes())
    assert got == want, f"you predicted nodes are created in passes {got}; the trace shows {want}"


@check("ex4_predict_trace", "predict_pass2_enters_y() matches whether pass 2 enters y")
def _(ex):
    trace = demo_trace()
    want = bool(trace.find("node_entered", "y", pass_ids(trace)[1]))
    got = ex.predict_pass2_enters_y()
    assert got is want, f"you predicted {got}; in the trace, pass 2 {'enters' if want else 'never enters'} y"


@check("ex1_derivatives", "f', f'' and f''' of x**3 - 2x match three nested grad() calls")
def _(ex):
    for value in (1.5, -0.5, 2.0):
        x = mg.tensor(value, dtype=mg.float64, requires_grad=True)
        (d1,) = grad(x**3 - 2 * x, x, create_graph=True)
        (d2,) = grad(d1, x, create_graph=True)
        (d3,) = grad(d2, x)
        want = [d1.item(), d2.item(), d3.item()]
        got = [float(v) for v in ex.three_derivatives(value)]
        np.testing.assert_allclose(got, want, rtol=1e-12, err_msg=f"(f', f'', f''') at x = {value}")


@check("ex5_find_the_bug", "nodes_made_by_first_pass() counts the buggy first pass's node_created events")
def _(ex):
    trace, _ = record_call(ex.run_buggy)
    first = pass_ids(trace)[0]
    start = trace.find("pass_started", pass_id=first)[0].seq
    end = trace.find("pass_finished", pass_id=first)[0].seq
    want = sum(1 for e in trace.events[start:end] if e.kind == "node_created")
    got = ex.nodes_made_by_first_pass()
    assert got == want, f"node_created events during the buggy first pass: expected {want}, got {got}"


@check("ex5_find_the_bug", "second_derivative(f, x) is f''(x) for x**4, tanh and x**3 - 2x")
def _(ex):
    for f, fpp in [
        (lambda t: t**4, lambda v: 12 * v**2),
        (lambda t: t.tanh(), lambda v: -2 * np.tanh(v) * (1 - np.tanh(v) ** 2)),
        (lambda t: t**3 - 2 * t, lambda v: 6 * v),
    ]:
        x = mg.tensor(0.7, dtype=mg.float64, requires_grad=True)
        got = ex.second_derivative(f, x)
        np.testing.assert_allclose(float(got.item()), fpp(0.7), rtol=1e-10, err_msg="f''(0.7)")
