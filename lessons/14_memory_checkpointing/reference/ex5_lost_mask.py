"""Debugging — a checkpointed block whose gradients are not those of the loss it computed.

``buggy_forward`` runs a block with dropout through ``checkpoint`` to save memory. The loss is right,
but the gradients are not: compare them with the same block run without the checkpoint, from the same
seed (``plain_grads`` and ``buggy_grads`` below). Step it from this lesson's folder::

    minigrad-tui ex5_lost_mask.py

and compare the forward's values with the recomputation's, in the nested pass. Then answer
``what_differs()`` and write ``fixed_forward``, which must give the plain block's gradients.
"""

import minigrad as mg
from minigrad import nn
from minigrad.utils.checkpoint import checkpoint


def make_block():
    """Linear(4, 4), dropout, tanh, with fixed weights."""
    mg.manual_seed(0)
    return nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.5), nn.Tanh())


def buggy_forward(block, x):
    return checkpoint(block, x, use_reentrant=False, preserve_rng_state=False)


def grads_of(forward, seed: int = 1):
    """The weight's gradient of ``forward(block, x).sum()``, the block's dropout drawn from ``seed``."""
    block = make_block()
    x = mg.tensor([[1.0, -2.0, 0.5, 3.0], [0.0, 1.0, -1.0, 2.0]])
    mg.manual_seed(seed)
    forward(block, x).sum().backward()
    return block[0].weight.grad


def plain_grads():
    return grads_of(lambda block, x: block(x))


def buggy_grads():
    return grads_of(buggy_forward)


def what_differs() -> str:
    """Between the forward and the recomputation in backward, what changes: "x", "weight" or "mask"?"""
    # BEGIN SOLUTION
    # HINT: the input and the weights are saved by the Checkpoint node; what does the block draw anew?
    return "mask"
    # END SOLUTION


def fixed_forward(block, x):
    """``block(x)`` through a checkpoint whose recomputation is the forward's, to the last element."""
    # BEGIN SOLUTION
    # HINT: what must the recomputation start from, besides x and the weights, to draw the same numbers?
    return checkpoint(block, x, use_reentrant=False)
    # END SOLUTION


if __name__ == "__main__":
    print("plain gradient of the weight:\n", plain_grads())
    print("buggy gradient of the weight:\n", buggy_grads())
