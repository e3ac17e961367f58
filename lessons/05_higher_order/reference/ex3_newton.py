"""Exercise 5.3 — Newton's method in one dimension.

`f` maps a 0-d float64 tensor to a 0-d tensor. Starting from the float `x0`, take
`steps` Newton steps x <- x - f'(x) / f''(x) and return the final x as a float.
Get f' and f'' with `minigrad.autograd.grad`.
"""

import minigrad as mg
from minigrad.autograd import grad


def newton_minimize(f, x0: float, steps: int) -> float:
    """x after `steps` Newton steps on f from x0."""
    # BEGIN SOLUTION
    x = x0
    for _ in range(steps):
        t = mg.tensor(x, dtype=mg.float64, requires_grad=True)
        (d1,) = grad(f(t), t, create_graph=True)
        (d2,) = grad(d1, t)
        x = x - d1.item() / d2.item()
    return x
    # END SOLUTION
