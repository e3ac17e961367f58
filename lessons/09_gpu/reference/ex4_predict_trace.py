"""Exercise 9.4 — predict what a transfer records.

The check records this function (in checks.py, exactly as here) for several
devices and dtypes:

    def move_and_square(device, dtype):
        x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True, name="x")   # float32, on the CPU
        xd = x.to(device, dtype)
        (xd * xd).sum().backward()

Answer for any device: the check asks about "cpu" and "cuda:0" on every machine (these are
predictions, they need no GPU; where there is one, it also records the run there).
"""


def predict_to_nodes(same_device: bool, same_dtype: bool) -> int:
    """How many nodes with op "to" the function records."""
    # BEGIN SOLUTION
    # HINT: to() returns the tensor itself when nothing changes.
    return 0 if same_device and same_dtype else 1
    # END SOLUTION


def predict_x_grad_device(compute_device: str) -> str:
    """The device of the gradient entering x (its `node_entered` event), e.g. "cpu" or "cuda:0"."""
    # BEGIN SOLUTION
    # HINT: a gradient always has its tensor's device; to()'s closure moves it back.
    return "cpu"
    # END SOLUTION


def predict_x_grad() -> list:
    """The gradient entering x (three floats): does the device change it?"""
    # BEGIN SOLUTION
    return [2.0, 4.0, 6.0]
    # END SOLUTION
