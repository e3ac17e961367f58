"""Warm-up — per-example gradients and their clipping, by hand.

The model of the text, w = [0.5, -1.0], with each example's loss (w · x - y)², on a new batch of three:

    x = [2, 0], y = 0        x = [1, -1], y = 1        x = [0, 4], y = 1

Work each number out on paper with the rule of the text (the gradient of one example is
2 (w · x - y) x), write it here as numbers, not as minigrad code, then run the lesson's check.
"""


def per_example_gradients() -> list:
    """The gradient of each example's loss with respect to w: three pairs of numbers."""
    # BEGIN SOLUTION
    # HINT: first each residual w · x - y, then twice the residual times x.
    return [[4.0, 0.0], [1.0, -1.0], [0.0, -40.0]]
    # END SOLUTION


def batch_gradient() -> list:
    """The gradient of the summed loss of the three examples (what one backward pass of the batch gives)."""
    # BEGIN SOLUTION
    return [5.0, -41.0]
    # END SOLUTION


def gradient_norms() -> list:
    """The Euclidean norm of each example's gradient: three numbers (four digits suffice)."""
    # BEGIN SOLUTION
    return [4.0, 1.414214, 40.0]
    # END SOLUTION


def clipped_sum(max_norm: float = 5.0) -> list:
    """The sum of the three gradients after each is clipped to norm max_norm = 5, as DP-SGD clips them."""
    # BEGIN SOLUTION
    # HINT: an example whose norm is at most 5 keeps its gradient; the others are scaled by 5 / norm.
    return [5.0, -6.0]
    # END SOLUTION
