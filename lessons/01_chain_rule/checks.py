"""Checks for lesson 1: finite differences and minigrad's own gradients as oracles."""

import math

from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad as mg
from minigrad.course import check

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
