# Exercise file generated from reference/ex3_predict_trace.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
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
    raise NotImplementedError("exercise: write predict_passes_of_the_loop()")


def predict_passes_of_vmap_grad() -> int:
    """How many passes run()'s call of vmap(grad(loss), ..., chunk_size=2) records."""
    # HINT: how many times does vmap call the function it maps, grad(loss), when it maps two examples at a time?
    raise NotImplementedError("exercise: write predict_passes_of_vmap_grad()")


def predict_seed_of_the_last_vmap_pass() -> list:
    """The gradient the last of the vmap passes is seeded with (its `seeded` step): a list of numbers."""
    # HINT: each example's loss is a scalar, seeded with 1; how many examples are left for the last chunk?
    raise NotImplementedError("exercise: write predict_seed_of_the_last_vmap_pass()")


def predict_sum_axes_in_the_vmap_pass() -> tuple:
    """The axes that sum's rule captured in the vmap passes (the loop's passes show ``(0, 1)``): a tuple."""
    # HINT: the loss sums w * x over all of an entry's dims; where are they once the batch is in front?
    raise NotImplementedError("exercise: write predict_sum_axes_in_the_vmap_pass()")


def predict_shape_of_the_per_example_gradient() -> list:
    """The shape of the gradient the first vmap pass accumulates into its lifted w: a list of ints."""
    raise NotImplementedError("exercise: write predict_shape_of_the_per_example_gradient()")


if __name__ == "__main__":
    run()
