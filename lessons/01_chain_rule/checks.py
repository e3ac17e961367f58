"""Checks for lesson 1: finite differences and minigrad's own gradients as oracles."""

import functools
import math

from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad as mg
from minigrad.course import check
from minigrad.course.recording import as_array, incoming_grads, record_call, record_demo

values = st.floats(min_value=-2.0, max_value=2.0, allow_nan=False)


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
    assert len(got) == len(want), f"{what}: expected {len(want)} values, got {len(got)}"
    for name, x, y in zip("abc", got, want):
        assert math.isclose(x, y, rel_tol=1e-5, abs_tol=1e-7), f"{what}: d/d{name} is {x}, expected {y}"


@check("ex1_by_hand", "matches finite differences at a = 2, b = -3, c = 10 and a = 0.5, b = 0.2, c = -0.1")
def _(ex):
    for args in [(2.0, -3.0, 10.0), (0.5, 0.2, -0.1)]:
        assert_close(ex.grads_by_hand(*args), numeric_grads(*args), f"grads_by_hand{args}")


@check("ex1_by_hand", "matches minigrad on random inputs")
def _(ex):
    @settings(max_examples=50, deadline=None)
    @given(values, values, values)
    def prop(a, b, c):
        assert_close(ex.grads_by_hand(a, b, c), minigrad_grads(a, b, c), f"grads_by_hand({a}, {b}, {c})")

    prop()


@check("ex2_local_rules", "mul_backward, add_backward and tanh_backward are the local rules")
def _(ex):
    assert tuple(ex.mul_backward(3.0, -2.0, 0.5)) == (-1.0, 1.5), "mul_backward(a=3, b=-2, g=0.5)"
    assert tuple(ex.add_backward(0.25)) == (0.25, 0.25), "add_backward(g=0.25)"
    y = math.tanh(0.3)
    assert math.isclose(ex.tanh_backward(y, 2.0), 2.0 * (1 - y * y)), "tanh_backward(y=tanh(0.3), g=2)"


@check("ex2_local_rules", "chain_rule matches minigrad on random inputs")
def _(ex):
    @settings(max_examples=50, deadline=None)
    @given(values, values, values)
    def prop(a, b, c):
        assert_close(ex.chain_rule(a, b, c), minigrad_grads(a, b, c), f"chain_rule({a}, {b}, {c})")

    prop()


@functools.cache
def demo_trace():
    return record_demo(1)


@check("ex3_predict_trace", "predict_order_entered() is the order of the demo's node_entered events")
def _(ex):
    trace = demo_trace()
    want = [trace.nodes[e.node].label for e in trace.find("node_entered")]
    got = list(ex.predict_order_entered())
    assert got == want, f"the order the pass enters the nodes: expected {want}, got {got}"


@check("ex3_predict_trace", "predict_grad_entering_d() is the gradient the pass brings into d")
def _(ex):
    (want,) = incoming_grads(demo_trace(), "d")
    got = ex.predict_grad_entering_d()
    assert abs(got - float(want)) < 5e-4, f"the gradient entering d: expected {float(want):.4f}, got {got}"


@check("ex3_predict_trace", "predict_leaf_accumulations() counts the demo's writes into .grad")
def _(ex):
    want = sum(1 for e in demo_trace().find("grad_accumulated") if e.into == "grad")
    got = ex.predict_leaf_accumulations()
    assert got == want, f"grad_accumulated events into a leaf's .grad: expected {want}, got {got}"


@check("ex4_find_the_bug", "buggy_grad_of_e() is what the buggy MyTanh.backward returns")
def _(ex):
    trace, _ = record_call(ex.run_buggy)
    closure = next(e for e in trace.find("closure_called") if trace.nodes[e.node].op == "MyTanh")
    want = float(as_array(closure.outputs[0]))
    got = ex.buggy_grad_of_e()
    assert abs(got - want) < 5e-4, f"the gradient the buggy rule returns for e: expected {want:.4f}, got {got}"


@check("ex4_find_the_bug", "tanh_grad(x, y, g) is the local rule of tanh, on many inputs")
def _(ex):
    @settings(max_examples=40, deadline=None)
    @given(values, values)
    def prop(x, g):
        y = math.tanh(x)
        got = ex.tanh_grad(x, y, g)
        want = g * (1 - y * y)
        assert math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-12), (
            f"tanh_grad at x = {x}, g = {g}: expected {want}, got {got}"
        )

    prop()
