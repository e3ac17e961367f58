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
    # BEGIN SOLUTION
    # HINT: p.grad.numpy() is a NumPy array; the norm is the square root of the sum of squares.
    return [0.0 if p.grad is None else math.sqrt(float((p.grad.numpy() ** 2).sum())) for p in params]
    # END SOLUTION


def spread(norms) -> float:
    """max(norms) / min(non-zero norms)."""
    # BEGIN SOLUTION
    nonzero = [n for n in norms if n > 0]
    return max(nonzero) / min(nonzero)
    # END SOLUTION
