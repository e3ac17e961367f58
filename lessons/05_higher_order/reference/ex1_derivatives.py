"""Exercise 5.1 (warm-up) — derivatives of derivatives, by hand.

For f(x) = x**3 - 2*x, return (f'(x), f''(x), f'''(x)) as floats, by hand (no
minigrad). The check compares them with three nested grad() calls, the way the
lesson's demo takes them.
"""


def three_derivatives(x: float) -> tuple:
    """(f'(x), f''(x), f'''(x)) for f(x) = x**3 - 2*x."""
    # BEGIN SOLUTION
    # HINT: differentiate term by term: d(x**n)/dx = n * x**(n - 1), and a constant's derivative is 0.
    return 3 * x**2 - 2, 6 * x, 6.0
    # END SOLUTION
