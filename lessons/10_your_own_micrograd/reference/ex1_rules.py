"""Exercise 10.1 — warm-up: rules as closures.

Each function computes an op's output from plain floats and returns it together with the op's
*rule*: a function of `g` (the gradient arriving at the output) that returns a tuple with one
gradient per input. The rule is the mathematics only, and it captures numbers, not objects.

    out, rule = mul_rule(3.0, -2.0)     # out == -6.0
    rule(0.5)                           # (0.5 * -2.0, 0.5 * 3.0) == (-1.0, 1.5)
"""

import math


def mul_rule(a: float, b: float):
    """out = a * b and its rule g -> (d/da, d/db)."""
    # BEGIN SOLUTION
    return a * b, lambda g: (g * b, g * a)
    # END SOLUTION


def tanh_rule(x: float):
    """out = tanh(x) and its rule g -> (d/dx,)."""
    # BEGIN SOLUTION
    t = math.tanh(x)
    return t, lambda g: (g * (1 - t * t),)
    # END SOLUTION


def pow_rule(x: float, n: float):
    """out = x ** n (n a number) and its rule g -> (d/dx,)."""
    # BEGIN SOLUTION
    return x**n, lambda g: (g * n * x ** (n - 1),)
    # END SOLUTION


def chain(x: float, w: float, b: float) -> tuple[float, float, float, float]:
    """y = tanh(x * w + b) ** 2, forward with the three rules (and + as `g -> (g, g)`), then backward.

    Return (y, dy/dx, dy/dw, dy/db).
    """
    # BEGIN SOLUTION
    # HINT: keep every rule from the forward pass; call them in the reverse order with the gradient so far.
    xw, mul = mul_rule(x, w)
    s = xw + b
    t, tanh = tanh_rule(s)
    y, square = pow_rule(t, 2)
    (g_t,) = square(1.0)
    (g_s,) = tanh(g_t)
    g_xw, g_b = g_s, g_s
    g_x, g_w = mul(g_xw)
    return y, g_x, g_w, g_b
    # END SOLUTION
