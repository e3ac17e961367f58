# Exercise file generated from reference/ex1_grad_norms.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
"""Exercise 8.1 (warm-up) — measure before you fix.

After `loss.backward()`, the first thing to look at is the size of each
parameter's gradient. Write `grad_norms(params)`: the Euclidean norm of each
parameter's `.grad` as a Python float, in order, with 0.0 for a parameter whose
`.grad` is None (it received no gradient at all). Then `spread(norms)`: the
largest norm divided by the smallest non-zero one — how many times faster the
fastest-learning parameter moves than the slowest.
"""

import math


def grad_norms(params) -> list:
    """The norm of each parameter's .grad (0.0 where .grad is None)."""
    # HINT: p.grad.numpy() is a NumPy array; the norm is the square root of the sum of squares.
    raise NotImplementedError("exercise: write grad_norms()")


def spread(norms) -> float:
    """max(norms) / min(non-zero norms)."""
    raise NotImplementedError("exercise: write spread()")
