"""Exercise 7.1 (warm-up) — gradient descent by hand.

The lesson's running example: one weight w, one data point, loss = (3w - 1)**2,
plain SGD w <- w - lr * dloss/dw. Starting from `w0`, take `steps` steps and return,
for each step, the tuple (loss, gradient, new w) as floats — by hand, no minigrad.
"""


def sgd_steps(w0: float, lr: float, steps: int) -> list:
    """[(loss, dloss/dw, w after the step), ...] for `steps` steps of SGD from w0."""
    # BEGIN SOLUTION
    # HINT: dloss/dw = 2 * (3w - 1) * 3 = 6 * (3w - 1).
    out, w = [], w0
    for _ in range(steps):
        loss = (3 * w - 1) ** 2
        g = 6 * (3 * w - 1)
        w = w - lr * g
        out.append((loss, g, w))
    return out
    # END SOLUTION
