"""Exercise 8.4 — read the demo like a trace.

Answer from demo.py and the lesson alone; `minigrad lesson check 8` records the
demo and compares. Then confirm with `minigrad-tui --break nonfinite
demo.py` and `minigrad trace ... / trace show`.
"""


def predict_smallest_gradient_layer() -> int:
    """In part 1's sigmoid stack, which of the 12 weights (0 = first, nearest the input) gets the smallest gradient norm?"""
    # BEGIN SOLUTION
    # HINT: the gradient reaches the first layer last, after every sigmoid' <= 1/4 factor.
    return 0
    # END SOLUTION


def predict_nonfinite_op() -> str:
    """In part 2, the op of the node whose closure first returns a non-finite gradient."""
    # BEGIN SOLUTION
    # HINT: where() passes zeros to the branch it did not pick; which local derivative is infinite?
    return "sqrt"
    # END SOLUTION


def predict_incoming_grad_of_root() -> list:
    """The gradient entering node `root` (four floats): still finite, or not yet?"""
    # BEGIN SOLUTION
    return [1.0, 1.0, 0.0, 0.0]
    # END SOLUTION


def predict_nan_count_in_x_grad() -> int:
    """How many entries of x.grad are NaN at the end."""
    # BEGIN SOLUTION
    # HINT: 0 * inf and 0 * nan are both NaN.
    return 2
    # END SOLUTION
