# Exercise file generated from reference/ex3_predict_trace.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
"""Prediction — what the debugger shows for the demo's loop and its vmap(grad(loss)).

The demo computes the gradients of its three examples twice: by a loop that calls backward() once
per example, then by ``vmap(grad(loss), in_dims=(None, 0, 0))(w, xb, yb)``. Answer from the text
and your own reasoning, then run the lesson's check (it records the demo and compares, without
telling you the answer); `minigrad lesson debug 13` shows you the steps.
"""


def predict_passes_of_the_loop() -> int:
    """How many backward passes (pass_started events) the demo's loop records."""
    raise NotImplementedError("exercise: write predict_passes_of_the_loop()")


def predict_passes_of_vmap_grad() -> int:
    """How many backward passes the demo's call of vmap(grad(loss)) records."""
    # HINT: how many times does vmap call the function it maps, grad(loss)?
    raise NotImplementedError("exercise: write predict_passes_of_vmap_grad()")


def predict_seed_of_the_vmap_pass() -> list:
    """The gradient the vmap pass is seeded with (its `seeded` step): a list of numbers."""
    # HINT: each example's loss is a scalar, seeded with 1, as a loss always is; how many losses are there?
    raise NotImplementedError("exercise: write predict_seed_of_the_vmap_pass()")


def predict_sum_axes_in_the_vmap_pass() -> tuple:
    """The axes that sum's rule captured in the vmap pass (the loop's passes show ``(0,)``): a tuple."""
    # HINT: the loss sums w * x over the entry's only dim; where is that dim once the batch is in front?
    raise NotImplementedError("exercise: write predict_sum_axes_in_the_vmap_pass()")


def predict_shape_of_the_per_example_gradient() -> list:
    """The shape of the gradient the vmap pass accumulates into its copy of w: a list of ints."""
    raise NotImplementedError("exercise: write predict_shape_of_the_per_example_gradient()")
