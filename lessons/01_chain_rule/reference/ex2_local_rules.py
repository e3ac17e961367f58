"""Exercise 1.2 — local rules, then the chain.

Each function receives the incoming gradient `g` (d output / d this node's output)
and returns the gradient for each input of the node, as the engine's backward
closures do. Plain Python floats throughout.
"""

import math


def mul_backward(a: float, b: float, g: float) -> tuple[float, float]:
    """Node d = a * b. Return (gradient for a, gradient for b)."""
    # BEGIN SOLUTION
    return g * b, g * a
    # END SOLUTION


def add_backward(g: float) -> tuple[float, float]:
    """Node e = d + c. Return (gradient for d, gradient for c)."""
    # BEGIN SOLUTION
    return g, g
    # END SOLUTION


def tanh_backward(y: float, g: float) -> float:
    """Node f = tanh(e), whose output is y. Return the gradient for e."""
    # BEGIN SOLUTION
    # HINT: the derivative of tanh can be written with its output alone.
    return g * (1 - y * y)
    # END SOLUTION


def chain_rule(a: float, b: float, c: float) -> tuple[float, float, float]:
    """Forward pass of f = tanh(a * b + c), then the backward pass with the rules above.

    Return (df/da, df/db, df/dc). Seed the output with gradient 1.0.
    """
    # BEGIN SOLUTION
    d = a * b
    e = d + c
    f = math.tanh(e)
    g_e = tanh_backward(f, 1.0)
    g_d, g_c = add_backward(g_e)
    g_a, g_b = mul_backward(a, b, g_d)
    return g_a, g_b, g_c
    # END SOLUTION
