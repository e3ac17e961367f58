"""Checks for lesson 1: finite differences and minigrad's own gradients as oracles."""

import functools
import math

import minigrad as mg
from minigrad.autograd import Function
from minigrad.course import check
from minigrad.course.cases import float_tuples
from minigrad.course.checking import load_reference
from minigrad.course.expect import expect_close, expect_len, expect_prediction
from minigrad.course.recording import as_array, incoming_grads, record_call, record_demo
from minigrad.course.tracediff import explained_by_trace


def numeric_grads(a, b, c, eps=1e-6):
    def f(a, b, c):
        return math.tanh(a * b + c)

    return (
        (f(a + eps, b, c) - f(a - eps, b, c)) / (2 * eps),
        (f(a, b + eps, c) - f(a, b - eps, c)) / (2 * eps),
        (f(a, b, c + eps) - f(a, b, c - eps)) / (2 * eps),
    )


def minigrad_grads(a, b, c):
    ta, tb, tc = (mg.tensor(v, dtype=mg.float64, requires_grad=True) for v in (a, b, c))
    (ta * tb + tc).tanh().backward()
    return ta.grad.item(), tb.grad.item(), tc.grad.item()


def assert_close(got, want, what):
    expect_len(got, len(want), what)
    for name, x, y in zip("abc", got, want):
        expect_close(x, y, f"{what}'s d/d{name}", rtol=1e-5, atol=1e-7)


@check("ex1_by_hand", "matches finite differences at a = 2, b = -3, c = 10 and a = 0.5, b = 0.2, c = -0.1")
def _(ex):
    for args in [(2.0, -3.0, 10.0), (0.5, 0.2, -0.1)]:
        assert_close(ex.grads_by_hand(*args), numeric_grads(*args), f"grads_by_hand{args}")


@check("ex1_by_hand", "matches minigrad on random inputs")
def _(ex):
    for a, b, c in float_tuples(-2.0, 2.0, 3, 50, seed=1):
        assert_close(ex.grads_by_hand(a, b, c), minigrad_grads(a, b, c), f"grads_by_hand({a:.4g}, {b:.4g}, {c:.4g})")


@check("ex2_local_rules", "mul_backward, add_backward and tanh_backward are the local rules")
def _(ex):
    expect_close(
        expect_len(ex.mul_backward(3.0, -2.0, 0.5), 2, "mul_backward(a=3, b=-2, g=0.5)"),
        [-1.0, 1.5],
        "mul_backward(a=3, b=-2, g=0.5), the gradients for (a, b)",
    )
    expect_close(
        expect_len(ex.add_backward(0.25), 2, "add_backward(g=0.25)"),
        [0.25, 0.25],
        "add_backward(g=0.25), the gradients for (d, c)",
    )
    y = math.tanh(0.3)
    expect_close(ex.tanh_backward(y, 2.0), 2.0 * (1 - y * y), "tanh_backward(y=tanh(0.3), g=2), the gradient for e")


@check("ex2_local_rules", "chain_rule matches minigrad on random inputs")
def _(ex):
    for a, b, c in float_tuples(-2.0, 2.0, 3, 50, seed=2):
        assert_close(ex.chain_rule(a, b, c), minigrad_grads(a, b, c), f"chain_rule({a:.4g}, {b:.4g}, {c:.4g})")


@functools.cache
def demo_trace():
    return record_demo()


@check("ex3_predict_trace", "predict_order_entered() is the order of the demo's node_entered events")
def _(ex):
    trace = demo_trace()
    want = [trace.nodes[e.node].label for e in trace.find("node_entered")]
    expect_prediction(list(ex.predict_order_entered()), want, "the order the pass enters the nodes")


@check("ex3_predict_trace", "predict_grad_entering_d() is the gradient the pass brings into d")
def _(ex):
    (want,) = incoming_grads(demo_trace(), "d")
    expect_prediction(ex.predict_grad_entering_d(), float(want), "the gradient entering d", rtol=0, atol=5e-4)


@check("ex3_predict_trace", "predict_leaf_accumulations() counts the demo's writes into .grad")
def _(ex):
    want = sum(1 for e in demo_trace().find("grad_accumulated") if e.into == "grad")
    expect_prediction(ex.predict_leaf_accumulations(), want, "grad_accumulated events into a leaf's .grad")


@check("ex4_find_the_bug", "buggy_grad_of_e() is what the buggy MyTanh.backward returns")
def _(ex):
    trace, _ = record_call(ex.run_buggy)
    closure = next(e for e in trace.find("closure_called") if trace.nodes[e.node].op == "MyTanh")
    want = float(as_array(closure.outputs[0]))
    expect_prediction(ex.buggy_grad_of_e(), want, "the gradient the buggy rule returns for e", rtol=0, atol=5e-4)


@check("ex4_find_the_bug", "tanh_grad(x, y, g) is the local rule of tanh, on many inputs")
def _(ex):
    reference = tanh_with(load_reference("ex4_find_the_bug").tanh_grad)
    for x, g in float_tuples(-2.0, 2.0, 2, 40, seed=4):
        y = math.tanh(x)
        want = g * (1 - y * y)
        with explained_by_trace(tanh_run(tanh_with(ex.tanh_grad), x, g), tanh_run(reference, x, g)):
            got = ex.tanh_grad(x, y, g)
            expect_close(got, want, f"tanh_grad at x = {x:.4g}, g = {g:.4g}", rtol=1e-9, atol=1e-12)


def tanh_with(tanh_grad):
    """MyTanh (y = tanh(x)) as a Function whose rule is ``tanh_grad(x, y, g)`` on numbers."""

    class MyTanh(Function):
        @staticmethod
        def forward(ctx, x):
            y = x.tanh()
            ctx.save_for_backward(x, y)
            return y

        @staticmethod
        def backward(ctx, g):
            x, y = ctx.saved_tensors
            return mg.tensor(tanh_grad(x.item(), y.item(), g.item()), dtype=mg.float64)

    return MyTanh


def tanh_run(my_tanh, x: float, g: float):
    """``my_tanh.apply(x).backward(g)`` on a fresh leaf x."""

    def run():
        x_ = mg.tensor(x, dtype=mg.float64, requires_grad=True, name="x")
        my_tanh.apply(x_).backward(mg.tensor(g, dtype=mg.float64))

    return run
