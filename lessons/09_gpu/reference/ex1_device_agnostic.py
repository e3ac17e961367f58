"""Exercise 9.1 (warm-up) — device-agnostic code starts with two helpers.

`pick_device()`: "cuda" when minigrad can use a GPU (`mg.cuda_is_available()`), else "cpu".
`model_device(model)`: the device a model lives on — the device of its first parameter
(as a `minigrad.device`, e.g. device(type='cpu')).
"""

import minigrad as mg


def pick_device() -> str:
    """ "cuda" if a GPU is usable, else "cpu"."""
    # BEGIN SOLUTION
    return "cuda" if mg.cuda_is_available() else "cpu"
    # END SOLUTION


def model_device(model):
    """The device of the model's first parameter."""
    # BEGIN SOLUTION
    # HINT: model.parameters() is an iterator; next() takes its first item, and a tensor has .device.
    return next(iter(model.parameters())).device
    # END SOLUTION
