"""Exercise 4.1 (warm-up) — a Jacobian and a vector-Jacobian product, by hand.

For the function of two inputs and two outputs

    y0 = x0 * x1
    y1 = x0 + 3 * x1

write `jacobian(x0, x1)`, the 2x2 matrix J with J[i][j] = d y_i / d x_j, and
`vjp(x0, x1, v0, v1)`, the vector-Jacobian product vᵀJ: the gradient of
v0 * y0 + v1 * y1 with respect to (x0, x1). Plain floats and lists only.
"""


def jacobian(x0: float, x1: float) -> list:
    """[[dy0/dx0, dy0/dx1], [dy1/dx0, dy1/dx1]]."""
    # BEGIN SOLUTION
    # HINT: one row per output, one column per input.
    return [[x1, x0], [1.0, 3.0]]
    # END SOLUTION


def vjp(x0: float, x1: float, v0: float, v1: float) -> list:
    """[v0 * J[0][0] + v1 * J[1][0], v0 * J[0][1] + v1 * J[1][1]]: the row vector v times J."""
    # BEGIN SOLUTION
    # HINT: each entry of vᵀJ is a column of J weighted by v.
    (a, b), (c, d) = jacobian(x0, x1)
    return [v0 * a + v1 * c, v0 * b + v1 * d]
    # END SOLUTION
