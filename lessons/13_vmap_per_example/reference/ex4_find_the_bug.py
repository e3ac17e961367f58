"""Debugging — a DP-SGD clipping that lets examples through above the bound.

``buggy_clipping.py`` (beside this file) computes per-example gradients of a model with two
parameters, W and b, with ``vmap(grad(loss))`` and clips them before summing. Its printout says every
clipped gradient has norm at most 1.0, yet an example can still move the model by more than 1.0.
Run it, read ``clip_per_example``, and write the measurement that shows the problem, then the fix;
``python ex4_find_the_bug.py`` in the lesson's folder prints your measurement of both clippings.
"""

import math

import minigrad as mg


def example_norms(grads: dict) -> mg.Tensor:
    """The norm of each example's whole gradient, over all of the model's parameters: shape (B,).

    ``grads`` maps a parameter's name to its per-example gradients, the batch dim first
    (``{"W": (B, 2, 2), "b": (B, 2)}``): example i's gradient is every ``grads[name][i]`` together."""
    # BEGIN SOLUTION
    # HINT: the squared norm of a vector made of pieces is the sum of the pieces' squared norms.
    squares = [g.reshape(g.shape[0], -1).square().sum(1) for g in grads.values()]
    return mg.stack(squares).sum(0).sqrt()
    # END SOLUTION


def worst_case_ratio() -> float:
    """For a model with two parameters, the largest an example's norm after ``buggy_clipping.clip_per_example``
    can be, as a multiple of ``max_norm`` (1.0 if the clipping kept its promise)."""
    # BEGIN SOLUTION
    return math.sqrt(2.0)
    # END SOLUTION


def clip_per_example(grads: dict, max_norm: float) -> dict:
    """Each example's gradient (all its parameters together) scaled down to norm ``max_norm`` where it is
    larger, unchanged where it is not: the same dict of per-example gradients, clipped."""
    # BEGIN SOLUTION
    # HINT: one factor per example, computed from example_norms, applied to every parameter's gradient.
    factors = (max_norm / example_norms(grads)).clamp(max=1.0)
    return {name: g * factors.reshape((-1,) + (1,) * (g.dim() - 1)) for name, g in grads.items()}
    # END SOLUTION


if __name__ == "__main__":  # run this file from the lesson's folder to measure the colleague's clipping
    import buggy_clipping

    grads = buggy_clipping.per_example_gradients(buggy_clipping.PARAMS, buggy_clipping.XB, buggy_clipping.YB)
    print("each example's norm before clipping:  ", example_norms(grads).tolist())
    print("after buggy_clipping.clip_per_example:", example_norms(buggy_clipping.clip_per_example(grads, 1.0)).tolist())
    print("after your clip_per_example:          ", example_norms(clip_per_example(grads, 1.0)).tolist())
