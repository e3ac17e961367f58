# Exercise file generated from reference/ex1_derivatives.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
"""Exercise 5.1 (warm-up) — derivatives of derivatives, by hand.

For f(x) = x**3 - 2*x, return (f'(x), f''(x), f'''(x)) as floats, by hand (no
minigrad). The check compares them with three nested grad() calls, the way the
lesson's demo takes them.
"""


def three_derivatives(x: float) -> tuple:
    """(f'(x), f''(x), f'''(x)) for f(x) = x**3 - 2*x."""
    # HINT: differentiate term by term: d(x**n)/dx = n * x**(n - 1), and a constant's derivative is 0.
    raise NotImplementedError("exercise: write three_derivatives()")
