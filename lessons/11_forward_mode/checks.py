"""Checks for lesson 11: tangents by hand against forward mode; the Dual class against minigrad's
forward mode and finite differences; predictions against recorded runs; the planted bug."""

import functools
import math

import numpy as np

import minigrad as mg
from minigrad import func
from minigrad.autograd import Function
from minigrad.autograd import forward_ad as fwAD
from minigrad.course import check
from minigrad.course.cases import floats
from minigrad.course.checking import load_module, load_reference, this_lesson
from minigrad.course.expect import expect, expect_close, expect_prediction, expect_type
from minigrad.course.recording import as_array, record_call, record_demo
from minigrad.course.tracediff import explained_by_trace

LESSON = this_lesson()
X, V = [0.5, -1.0], [1.0, 0.5]


def forward_run():
    """{name: tangent} of the running example by minigrad's forward mode, and y's gradient."""
    with fwAD.dual_level():
        x = fwAD.make_dual(mg.tensor(X, dtype=mg.float64), mg.tensor(V, dtype=mg.float64))
        h = x * x
        t = h.tanh()
        y = t.sum()
        out = {name: fwAD.unpack_dual(val).tangent.numpy() for name, val in (("h", h), ("t", t), ("y", y))}
    xr = mg.tensor(X, dtype=mg.float64, requires_grad=True)
    (xr * xr).tanh().sum().backward()
    out["grad"] = xr.grad.numpy()
    return out


# ---------------------------------------------------------------- 11.1 by hand
@check("ex1_tangents_by_hand", "the tangents of h, t and y match minigrad's forward mode")
def _(ex):
    want = forward_run()
    expect_close(ex.tangent_of_h(), want["h"], "the tangent of h = x * x", rtol=1e-4)
    expect_close(ex.tangent_of_t(), want["t"], "the tangent of t = tanh(h)", rtol=1e-4)
    expect_close(ex.tangent_of_y(), want["y"], "the tangent of y = sum(t)", rtol=1e-4)


@check("ex1_tangents_by_hand", "the gradient matches reverse mode, and <gradient, v> is the tangent of y")
def _(ex):
    want = forward_run()
    expect_close(ex.gradient_of_y(), want["grad"], "dy/dx by reverse mode", rtol=1e-4)
    expect_close(
        float(np.dot(ex.gradient_of_y(), V)),
        ex.tangent_of_y(),
        "<your gradient, v> against your tangent of y",
        rtol=1e-3,
    )


# ---------------------------------------------------------------- 11.2 dual numbers
EXPRESSIONS = {
    "x * x + 3 * x": lambda x: x * x + 3 * x,
    "sin(x) * exp(x)": lambda x: x.sin() * x.exp(),
    "tanh(2 * x - 1) / (x * x + 1)": lambda x: (2 * x - 1).tanh() / (x * x + 1),
    "1 / x - x ** 3": lambda x: 1 / x - x**3,
    "exp(sin(x)) - 0.5 * x": lambda x: x.sin().exp() - 0.5 * x,
}


def minigrad_derivative(f, x: float) -> float:
    with fwAD.dual_level():
        out = f(fwAD.make_dual(mg.tensor(x, dtype=mg.float64), mg.tensor(1.0, dtype=mg.float64)))
        return fwAD.unpack_dual(out).tangent.item()


@check("ex2_dual", "Dual computes values and tangents of sums, products and quotients")
def _(ex):
    a, b = ex.Dual(3.0, 1.0), ex.Dual(-2.0, 0.5)
    for text, got, value, tangent in [
        ("a + b", a + b, 1.0, 1.5),
        ("a * b", a * b, -6.0, -2.0 + 1.5),
        ("a - 2", a - 2, 1.0, 1.0),
        ("2 * a", 2 * a, 6.0, 2.0),
        ("a / b", a / b, -1.5, (1.0 * -2.0 - 3.0 * 0.5) / 4.0),
    ]:
        expect_type(got, ex.Dual, text)
        expect_close(got.value, value, f"({text}).value with a = Dual(3, 1), b = Dual(-2, 0.5)")
        expect_close(got.tangent, tangent, f"({text}).tangent with a = Dual(3, 1), b = Dual(-2, 0.5)")


@check("ex2_dual", "derivative() matches minigrad's forward mode on five expressions, at random points")
def _(ex):
    names = sorted(EXPRESSIONS)
    for k, x in enumerate(floats(0.3, 2.0, 30, seed=111)):
        name = names[k % len(names)]
        f = EXPRESSIONS[name]
        expect_close(ex.derivative(f, x), minigrad_derivative(f, x), f"derivative of {name} at x = {x:.4g}", rtol=1e-9)


@check("ex2_dual", "directional() is the dot product of the gradient with the direction")
def _(ex):
    def f(a, b):
        return (a * b).tanh() + a * a

    a, b, va, vb = 0.7, -1.2, 1.0, 2.0
    grad_a = (1 - math.tanh(a * b) ** 2) * b + 2 * a
    grad_b = (1 - math.tanh(a * b) ** 2) * a
    expect_close(ex.directional(f, [a, b], [va, vb]), grad_a * va + grad_b * vb, "directional(tanh(a*b) + a*a)")


# ---------------------------------------------------------------- 11.3 predictions
@functools.cache
def demo_trace():
    return record_demo(LESSON)


def forward_part(trace):
    """The demo's tangent_computed events before its unpack_dual."""
    events = trace.find("tangent_computed")
    first_unpack = next(i for i, e in enumerate(events) if e.op == "unpack_dual")
    return events[:first_unpack]


@check("ex3_predict_trace", "predict_tangent_events_before_unpack() counts the forward-mode steps")
def _(ex):
    steps = forward_part(demo_trace())
    expect_prediction(ex.predict_tangent_events_before_unpack(), len(steps), "tangent events before unpack_dual")


@check("ex3_predict_trace", "predict_parents_tangents_of_mul() is what the mul step shows")
def _(ex):
    mul = next(e for e in forward_part(demo_trace()) if e.op == "mul")
    want = [as_array(t).tolist() for t in mul.tangents]
    expect_prediction(ex.predict_parents_tangents_of_mul(), want, "the parents' tangents at the mul step")


def backward_passes(transform, n_out, n_in) -> int:
    W = mg.randn(n_out, n_in, dtype=mg.float64)
    trace, _ = record_call(lambda: transform(lambda x: (W @ x).tanh())(mg.randn(n_in, dtype=mg.float64)))
    return len(trace.find("pass_started"))


@check("ex3_predict_trace", "the backward passes of jacrev and jacfwd, counted in recorded runs")
def _(ex):
    expect_prediction(
        ex.predict_backward_passes_of_jacrev_on_the_tall_function(),
        backward_passes(lambda f: func.jacrev(f, chunk_size=1), 64, 2),
        "backward passes of jacrev(f, chunk_size=1), 64 outputs and 2 inputs",
    )
    expect_prediction(
        ex.predict_backward_passes_of_jacfwd(), backward_passes(func.jacfwd, 64, 2), "backward passes of jacfwd"
    )


# ---------------------------------------------------------------- 11.4 the planted bug
def buggy():
    return load_module(LESSON.path / "buggy_softplus.py", f"lesson{LESSON.number}_buggy_softplus")


@check("ex4_find_the_bug", "identity_gap() is 0 for ops whose rules agree")
def _(ex):
    rng = np.random.default_rng(0)
    x, v, u = (mg.tensor(rng.standard_normal(4)) for _ in range(3))
    for name, f in [("tanh", lambda x: x.tanh()), ("x * x", lambda x: x * x), ("softmax", lambda x: x.softmax(0))]:
        expect_close(ex.identity_gap(f, x, v, u), 0.0, f"identity_gap for {name}", atol=1e-10)


@check("ex4_find_the_bug", "identity_gap() finds Softplus's disagreement, and wrong_rule() names the rule")
def _(ex):
    rng = np.random.default_rng(1)
    x, v, u = (mg.tensor(rng.standard_normal(4)) for _ in range(3))
    gap = ex.identity_gap(buggy().softplus, x, v, u)
    expect(abs(gap) > 1e-3, "|identity_gap| for the buggy Softplus", "more than 1e-3", gap)
    expect_prediction(ex.wrong_rule(), "jvp", "the rule of Softplus that disagrees with finite differences")


@check("ex4_find_the_bug", "softplus_tangent() is the right forward-mode rule")
def _(ex):
    x, t = mg.tensor([-2.0, 0.0, 1.5], dtype=mg.float64), mg.tensor([1.0, -0.5, 2.0], dtype=mg.float64)
    eps = 1e-6

    def softplus(z):
        return np.log1p(np.exp(z))

    want = (softplus(x.numpy() + eps * t.numpy()) - softplus(x.numpy() - eps * t.numpy())) / (2 * eps)
    reference = load_reference("ex4_find_the_bug").softplus_tangent
    with explained_by_trace(tangent_run(ex.softplus_tangent, x, t), tangent_run(reference, x, t), rtol=1e-6):
        expect_close(ex.softplus_tangent(x, t).numpy(), want, "softplus_tangent against finite differences", rtol=1e-6)


def softplus_with(tangent_rule):
    """Softplus as a Function whose jvp is ``tangent_rule(x, t)``."""

    class Softplus(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_forward(x)
            return (x.exp() + 1).log()

        @staticmethod
        def jvp(ctx, t):
            (x,) = ctx.saved_tensors
            return tangent_rule(x, t)

    return Softplus


def tangent_run(tangent_rule, x, t):
    """Softplus with ``tangent_rule`` at the dual ``x + t·ε``, recorded: its tangent_computed event."""

    def run():
        with fwAD.dual_level():
            fwAD.unpack_dual(softplus_with(tangent_rule).apply(fwAD.make_dual(x, t)))

    return run
