# Exercise file generated from reference/ex4_predict_trace.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
"""Exercise 8.4 — read the demo like a trace.

Answer from demo.py and the lesson alone; `minigrad lesson check 8` records the
demo and compares. Then confirm with `minigrad-tui --break nonfinite
demo.py` and `minigrad trace ... / trace show`.
"""


def predict_smallest_gradient_layer() -> int:
    """In part 1's sigmoid stack, which of the 12 weights (0 = first, nearest the input) gets the smallest gradient norm?"""
    # HINT: the gradient reaches the first layer last, after every sigmoid' <= 1/4 factor.
    raise NotImplementedError("exercise: write predict_smallest_gradient_layer()")


def predict_nonfinite_op() -> str:
    """In part 2, the op of the node whose closure first returns a non-finite gradient."""
    # HINT: where() passes zeros to the branch it did not pick; which local derivative is infinite?
    raise NotImplementedError("exercise: write predict_nonfinite_op()")


def predict_incoming_grad_of_root() -> list:
    """The gradient entering node `root` (four floats): still finite, or not yet?"""
    raise NotImplementedError("exercise: write predict_incoming_grad_of_root()")


def predict_nan_count_in_x_grad() -> int:
    """How many entries of x.grad are NaN at the end."""
    # HINT: 0 * inf and 0 * nan are both NaN.
    raise NotImplementedError("exercise: write predict_nan_count_in_x_grad()")
