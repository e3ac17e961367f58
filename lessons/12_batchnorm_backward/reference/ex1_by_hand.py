"""Exercise 12.1 (warm-up) — batch norm's forward, and its two easy gradients, by hand.

Work the demo's numbers on paper first (x = [1, 8, 4, 5], eps = 1e-5): the mean, the variance
(the biased one, dividing by N, as batch norm does), and the normalised values. Then write the
same steps as plain Python, for any list of numbers. No minigrad here: only arithmetic and `math`.

Then the gradients of the scale and the shift. With y = gamma * xhat + beta and dy the gradient
arriving at y, each entry of y sends dy * xhat to gamma and dy to beta; gamma and beta are shared
by the whole batch, so the contributions add up.
"""

import math


def forward_by_hand(xs: list[float], eps: float = 1e-5) -> tuple[float, float, list[float]]:
    """Return ``(mu, var, xhat)`` for the batch ``xs``: its mean, its biased variance, and
    ``xhat = (x - mu) / sqrt(var + eps)`` entry by entry, as Python floats."""
    # BEGIN SOLUTION
    # HINT: var is the mean of the squared deviations from mu (divide by len(xs), not len(xs) - 1).
    n = len(xs)
    mu = sum(xs) / n
    var = sum((v - mu) ** 2 for v in xs) / n
    inv_std = 1 / math.sqrt(var + eps)
    return mu, var, [(v - mu) * inv_std for v in xs]
    # END SOLUTION


def scale_shift_grads(xhat: list[float], dy: list[float]) -> tuple[float, float]:
    """Return ``(dgamma, dbeta)`` for ``y = gamma * xhat + beta`` when ``dy`` arrives at ``y``."""
    # BEGIN SOLUTION
    # HINT: each entry of y holds gamma once and beta once: add one contribution per entry.
    return sum(g * h for g, h in zip(dy, xhat)), sum(dy)
    # END SOLUTION
