# Exercise file generated from reference/ex3_newton.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
"""Exercise 5.3 — Newton's method in one dimension.

`f` maps a 0-d float64 tensor to a 0-d tensor. Starting from the float `x0`, take
`steps` Newton steps x <- x - f'(x) / f''(x) and return the final x as a float.
Get f' and f'' with `minigrad.autograd.grad`.
"""

import minigrad as mg
from minigrad.autograd import grad


def newton_minimize(f, x0: float, steps: int) -> float:
    """x after `steps` Newton steps on f from x0."""
    raise NotImplementedError("exercise: write newton_minimize()")
