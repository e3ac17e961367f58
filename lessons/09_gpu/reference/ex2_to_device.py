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
    # BEGIN SOLUTION
    # HINT: recursion; isinstance(batch, mg.Tensor) for the base case.
    if isinstance(batch, mg.Tensor):
        return batch.to(device)
    if isinstance(batch, dict):
        return {k: to_device(v, device) for k, v in batch.items()}
    if isinstance(batch, (list, tuple)):
        return type(batch)(to_device(v, device) for v in batch)
    return batch
    # END SOLUTION
