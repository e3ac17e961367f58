# Exercise file generated from reference/ex1_sgd_by_hand.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
"""Exercise 7.1 (warm-up) — gradient descent by hand.

The lesson's running example: one weight w, one data point, loss = (3w - 1)**2,
plain SGD w <- w - lr * dloss/dw. Starting from `w0`, take `steps` steps and return,
for each step, the tuple (loss, gradient, new w) as floats — by hand, no minigrad.
"""


def sgd_steps(w0: float, lr: float, steps: int) -> list:
    """[(loss, dloss/dw, w after the step), ...] for `steps` steps of SGD from w0."""
    # HINT: dloss/dw = 2 * (3w - 1) * 3 = 6 * (3w - 1).
    raise NotImplementedError("exercise: write sgd_steps()")
