# Exercise file generated from reference/ex1_by_hand.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
"""Exercise 1.1 — the chain rule by hand.

For f(a, b, c) = tanh(a * b + c), return (df/da, df/db, df/dc) as Python floats.
Use only the `math` module: no minigrad, no finite differences.
"""

import math


def grads_by_hand(a: float, b: float, c: float) -> tuple[float, float, float]:
    """Return (df/da, df/db, df/dc) for f = tanh(a * b + c)."""
    # HINT: name the pieces: d = a * b, e = d + c, f = tanh(e); df/de = 1 - f**2.
    raise NotImplementedError("exercise: write grads_by_hand()")
