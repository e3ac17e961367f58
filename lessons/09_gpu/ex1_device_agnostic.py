# Exercise file generated from reference/ex1_device_agnostic.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
"""Exercise 9.1 (warm-up) — device-agnostic code starts with two helpers.

`pick_device()`: "cuda" when minigrad can use a GPU (`mg.cuda_is_available()`), else "cpu".
`model_device(model)`: the device a model lives on — the device of its first parameter
(as a `minigrad.device`, e.g. device(type='cpu')).
"""

import minigrad as mg


def pick_device() -> str:
    """ "cuda" if a GPU is usable, else "cpu"."""
    raise NotImplementedError("exercise: write pick_device()")


def model_device(model):
    """The device of the model's first parameter."""
    # HINT: model.parameters() is an iterator; next() takes its first item, and a tensor has .device.
    raise NotImplementedError("exercise: write model_device()")
