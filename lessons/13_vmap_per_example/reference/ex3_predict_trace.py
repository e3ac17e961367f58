"""Prediction — what the debugger shows for the demo's loop and its vmap(grad(loss)).

The demo computes the gradients of its three examples twice: by a loop that calls backward() once
per example, then by ``vmap(grad(loss), in_dims=(None, 0, 0))(w, xb, yb)``. Answer from the text
and your own reasoning, then run the lesson's check (it records the demo and compares, without
telling you the answer); `minigrad lesson debug 13` shows you the steps.
"""


def predict_passes_of_the_loop() -> int:
    """How many backward passes (pass_started events) the demo's loop records."""
    # BEGIN SOLUTION
    return 3
    # END SOLUTION


def predict_passes_of_vmap_grad() -> int:
    """How many backward passes the demo's call of vmap(grad(loss)) records."""
    # BEGIN SOLUTION
    # HINT: how many times does vmap call the function it maps, grad(loss)?
    return 1
    # END SOLUTION


def predict_seed_of_the_vmap_pass() -> list:
    """The gradient the vmap pass is seeded with (its `seeded` step): a list of numbers."""
    # BEGIN SOLUTION
    # HINT: each example's loss is a scalar, seeded with 1, as a loss always is; how many losses are there?
    return [1.0, 1.0, 1.0]
    # END SOLUTION


def predict_sum_axes_in_the_vmap_pass() -> tuple:
    """The axes that sum's rule captured in the vmap pass (the loop's passes show ``(0,)``): a tuple."""
    # BEGIN SOLUTION
    # HINT: the loss sums w * x over the entry's only dim; where is that dim once the batch is in front?
    return (1,)
    # END SOLUTION


def predict_shape_of_the_per_example_gradient() -> list:
    """The shape of the gradient the vmap pass accumulates into its copy of w: a list of ints."""
    # BEGIN SOLUTION
    return [3, 2]
    # END SOLUTION
