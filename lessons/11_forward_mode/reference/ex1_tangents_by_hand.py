"""Exercise 11.1 — the running example's tangents and gradient, by hand.

x = [0.5, -1.0] carries the tangent v = [1.0, 0.5]; h = x * x, t = tanh(h), y = sum(t).
Work each number out with the rules in the text (a calculator for tanh is fine), write it here as
a number, not as minigrad code, then run `minigrad lesson check 11`. Four digits suffice.
"""


def tangent_of_h() -> list:
    """The tangent of h = x * x: two numbers."""
    # BEGIN SOLUTION
    # HINT: the product rule on x * x gives 2 x v.
    return [1.0, -1.0]
    # END SOLUTION


def tangent_of_t() -> list:
    """The tangent of t = tanh(h): two numbers."""
    # BEGIN SOLUTION
    # HINT: (1 - tanh(h)**2) times the tangent of h, element by element; h = [0.25, 1.0].
    return [0.940015, -0.419974]
    # END SOLUTION


def tangent_of_y() -> float:
    """The tangent of y = sum(t)."""
    # BEGIN SOLUTION
    return 0.520041
    # END SOLUTION


def gradient_of_y() -> list:
    """dy/dx by reverse mode: two numbers. Check: their dot product with v is the tangent of y."""
    # BEGIN SOLUTION
    # HINT: the backward rules in reverse order: 1 from the sum, times (1 - t**2), times 2 x.
    return [0.940015, -0.839949]
    # END SOLUTION
