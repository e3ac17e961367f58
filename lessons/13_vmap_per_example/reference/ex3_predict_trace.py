"""Prediction — what the debugger shows for a loop and a vmap(grad(loss)) that the text did not run.

`run()` below is the demo's two ways with three changes: five examples instead of three, each example
a (2, 3) array (two measurements of three features) for a w of three weights, and vmap told to map
two examples at a time (``chunk_size=2``). Answer on paper from what the text says about batching
rules and passes, then run the lesson's check (it records run() and compares, without telling you
the answer). Step through it, from this lesson's folder, with `minigrad-tui ex3_predict_trace.py`.
"""

import minigrad as mg
from minigrad import func


def loss(w, x, y):
    """The squared error of one example: x has shape (2, 3), w shape (3,), y is a number."""
    residual = (w * x).sum() - y
    return residual * residual


def run():
    """A loop of backward passes, then vmap(grad(loss)) in chunks of two, on five examples."""
    w = mg.tensor([0.5, -1.0, 2.0], dtype=mg.float64, name="w")
    xb = mg.tensor(
        [
            [[1.0, 0.0, 1.0], [0.0, 2.0, 1.0]],
            [[1.0, 1.0, 0.0], [2.0, 0.0, -1.0]],
            [[0.0, 1.0, 1.0], [1.0, 0.0, 0.0]],
            [[2.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
            [[1.0, 1.0, 1.0], [0.0, 1.0, 0.0]],
        ],
        dtype=mg.float64,
        name="xb",
    )
    yb = mg.tensor([1.0, 0.0, 2.0, 1.0, 0.0], dtype=mg.float64, name="yb")
    for x, y in zip(xb.unbind(0), yb.unbind(0)):
        wi = w.detach().requires_grad_()
        loss(wi, x, y).backward()
    return func.vmap(func.grad(loss), in_dims=(None, 0, 0), chunk_size=2)(w, xb, yb)


def predict_passes_of_the_loop() -> int:
    """How many backward passes (pass_started events) run()'s loop records."""
    # BEGIN SOLUTION
    return 5
    # END SOLUTION


def predict_passes_of_vmap_grad() -> int:
    """How many passes run()'s call of vmap(grad(loss), ..., chunk_size=2) records."""
    # BEGIN SOLUTION
    # HINT: how many times does vmap call the function it maps, grad(loss), when it maps two examples at a time?
    return 3
    # END SOLUTION


def predict_seed_of_the_last_vmap_pass() -> list:
    """The gradient the last of the vmap passes is seeded with (its `seeded` step): a list of numbers."""
    # BEGIN SOLUTION
    # HINT: each example's loss is a scalar, seeded with 1; how many examples are left for the last chunk?
    return [1.0]
    # END SOLUTION


def predict_sum_axes_in_the_vmap_pass() -> tuple:
    """The axes that sum's rule captured in the vmap passes (the loop's passes show ``(0, 1)``): a tuple."""
    # BEGIN SOLUTION
    # HINT: the loss sums w * x over all of an entry's dims; where are they once the batch is in front?
    return (1, 2)
    # END SOLUTION


def predict_shape_of_the_per_example_gradient() -> list:
    """The shape of the gradient the first vmap pass accumulates into its lifted w: a list of ints."""
    # BEGIN SOLUTION
    return [2, 3]
    # END SOLUTION


if __name__ == "__main__":
    run()
