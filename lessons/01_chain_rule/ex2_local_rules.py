# Exercise file generated from reference/ex2_local_rules.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
"""Exercise 1.2 — local rules, then the chain.

Each function receives the incoming gradient `g` (d output / d this node's output)
and returns the gradient for each input of the node, as the engine's backward
closures do. Plain Python floats throughout.
"""

import math


def mul_backward(a: float, b: float, g: float) -> tuple[float, float]:
    """Node d = a * b. Return (gradient for a, gradient for b)."""
    raise NotImplementedError("exercise: write mul_backward()")


def add_backward(g: float) -> tuple[float, float]:
    """Node e = d + c. Return (gradient for d, gradient for c)."""
    raise NotImplementedError("exercise: write add_backward()")


def tanh_backward(y: float, g: float) -> float:
    """Node f = tanh(e), whose output is y. Return the gradient for e."""
    # HINT: the derivative of tanh can be written with its output alone.
    raise NotImplementedError("exercise: write tanh_backward()")


def chain_rule(a: float, b: float, c: float) -> tuple[float, float, float]:
    """Forward pass of f = tanh(a * b + c), then the backward pass with the rules above.

    Return (df/da, df/db, df/dc). Seed the output with gradient 1.0.
    """
    raise NotImplementedError("exercise: write chain_rule()")
