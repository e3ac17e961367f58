"""Exercise 1.1 — the chain rule by hand.

For f(a, b, c) = tanh(a * b + c), return (df/da, df/db, df/dc) as Python floats.
Use only the `math` module: no minigrad, no finite differences.
"""

import math


def grads_by_hand(a: float, b: float, c: float) -> tuple[float, float, float]:
    """Return (df/da, df/db, df/dc) for f = tanh(a * b + c)."""
    # BEGIN SOLUTION
    # HINT: name the pieces: d = a * b, e = d + c, f = tanh(e); df/de = 1 - f**2.
    f = math.tanh(a * b + c)
    df_de = 1 - f * f
    return df_de * b, df_de * a, df_de
    # END SOLUTION
