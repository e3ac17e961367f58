# Exercise file generated from reference/ex1_rules.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
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
    raise NotImplementedError("exercise: write mul_rule()")


def tanh_rule(x: float):
    """out = tanh(x) and its rule g -> (d/dx,)."""
    raise NotImplementedError("exercise: write tanh_rule()")


def pow_rule(x: float, n: float):
    """out = x ** n (n a number) and its rule g -> (d/dx,)."""
    raise NotImplementedError("exercise: write pow_rule()")


def chain(x: float, w: float, b: float) -> tuple[float, float, float, float]:
    """y = tanh(x * w + b) ** 2, forward with the three rules (and + as `g -> (g, g)`), then backward.

    Return (y, dy/dx, dy/dw, dy/db).
    """
    # HINT: keep every rule from the forward pass; call them in the reverse order with the gradient so far.
    raise NotImplementedError("exercise: write chain()")
