# Exercise file generated from reference/ex2_xavier.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
"""Exercise 8.2 — initialisations that keep gradients alive.

A layer h = tanh(h_prev @ W) with W of shape [fan_in, fan_out] multiplies the
backward gradient by W (and by tanh' <= 1). If W's entries have standard deviation
s, the gradient's size changes by about s * sqrt(fan_out) per layer: through 30
layers, 0.9^30 = 0.04 and 1.1^30 = 17. Glorot & Bengio (2010) choose

    s = sqrt(2 / (fan_in + fan_out))

which keeps both the forward activations and the backward gradients at about the
same scale in every layer.

Write `xavier_normal(fan_in, fan_out, seed)`: a float64 NumPy array [fan_in, fan_out]
of normal samples with that standard deviation.

A relu layer, h = relu(h_prev @ W), lets through the gradient of only the half of its
units that are positive, so the factor per layer is about s * sqrt(fan_out / 2):
with Glorot's s, twelve square relu layers shrink the gradient about 2^6 = 64 times.
He et al. (2015) double the variance for relu. Write `he_normal(fan_in, fan_out, seed)`
with standard deviation sqrt(2 / fan_in). The check records a stack of your relu
layers and replays two breakpoints over it, `op:relu if |g| > ...` and
`op:relu if |g| < ...`: neither may stop.
"""

import numpy as np


def xavier_normal(fan_in: int, fan_out: int, seed: int) -> np.ndarray:
    """Normal weights [fan_in, fan_out] with std sqrt(2 / (fan_in + fan_out))."""
    # HINT: np.random.default_rng(seed).standard_normal(shape) has std 1.
    raise NotImplementedError("exercise: write xavier_normal()")


def he_normal(fan_in: int, fan_out: int, seed: int) -> np.ndarray:
    """Normal weights [fan_in, fan_out] with std sqrt(2 / fan_in), for relu layers."""
    raise NotImplementedError("exercise: write he_normal()")
