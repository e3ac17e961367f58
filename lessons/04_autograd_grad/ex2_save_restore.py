# Exercise file generated from reference/ex2_save_restore.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
"""Exercise 4.2 — grad() built from backward() with save -> seed -> run -> collect -> restore.

Write `grad_via_backward(output, inputs)`: the gradients of the scalar `output` with
respect to each tensor in `inputs`, as a tuple, WITHOUT changing any input's `.grad`
— not even when the backward pass raises part-way (then re-raise the exception).

Use `output.backward(inputs=inputs, retain_graph=True)`, which accumulates into the
`.grad` of the given inputs only.
"""


def grad_via_backward(output, inputs) -> tuple:
    """(d output / d input for each input), leaving every `.grad` as it was."""
    # HINT: save, clear, run, collect, and restore in a `finally:` block.
    raise NotImplementedError("exercise: write grad_via_backward()")
