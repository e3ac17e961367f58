# Exercise file generated from reference/ex1_by_hand.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
"""Warm-up — per-example gradients and their clipping, by hand.

The model of the text, w = [0.5, -1.0], with each example's loss (w · x - y)², on a new batch of three:

    x = [2, 0], y = 0        x = [1, -1], y = 1        x = [0, 4], y = 1

Work each number out on paper with the rule of the text (the gradient of one example is
2 (w · x - y) x), write it here as numbers, not as minigrad code, then run the lesson's check.
"""


def per_example_gradients() -> list:
    """The gradient of each example's loss with respect to w: three pairs of numbers."""
    # HINT: first each residual w · x - y, then twice the residual times x.
    raise NotImplementedError("exercise: write per_example_gradients()")


def batch_gradient() -> list:
    """The gradient of the summed loss of the three examples (what one backward pass of the batch gives)."""
    raise NotImplementedError("exercise: write batch_gradient()")


def gradient_norms() -> list:
    """The Euclidean norm of each example's gradient: three numbers (four digits suffice)."""
    raise NotImplementedError("exercise: write gradient_norms()")


def clipped_sum(max_norm: float = 5.0) -> list:
    """The sum of the three gradients after each is clipped to norm max_norm = 5, as DP-SGD clips them."""
    # HINT: an example whose norm is at most 5 keeps its gradient; the others are scaled by 5 / norm.
    raise NotImplementedError("exercise: write clipped_sum()")
