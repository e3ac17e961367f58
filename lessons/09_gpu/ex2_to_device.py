# Exercise file generated from reference/ex2_to_device.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
"""Exercise 9.2 — move a whole batch to a device.

A batch is rarely one tensor: (inputs, targets), a dict of named tensors, a list of
sequences... Write `to_device(batch, device)`: the same structure with every Tensor
inside moved with `.to(device)`. Tuples stay tuples, lists stay lists, dicts keep their
keys; anything that is not a Tensor, list, tuple or dict (ints, strings, None, NumPy
arrays) is returned unchanged.
"""

import minigrad as mg


def to_device(batch, device):
    """`batch` with every tensor in it on `device`."""
    # HINT: recursion; isinstance(batch, mg.Tensor) for the base case.
    raise NotImplementedError("exercise: write to_device()")
