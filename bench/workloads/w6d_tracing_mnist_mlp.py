"""W6d tracing cost on an MNIST-sized MLP (784 -> 512 -> 512 -> 10, batch 128) trained the way a user writes
it (nn.Linear, F.cross_entropy, optim.SGD): no listener vs. a do-nothing listener vs. a recording."""

from __future__ import annotations

from .w6_tracing import MINIGRAD_PEERS, PEERS, RATIOS  # noqa: F401
from .w6c_tracing_small_mlp import mlp_build

NAME = "W6d"
TITLE = "tracing cost on a 784-512-512-10 MLP (nn, batch 128, 8 SGD steps): listener variants of minigrad"
UNIT = "s"
TARGETS = {("noop", "none"): 1.05, ("recorder", "none"): 1.5}  # ratio <= target
SUBJECT = "none"


def params(quick: bool) -> dict:
    if quick:
        return {"n": 64, "n_in": 32, "hidden": [16, 16], "classes": 10, "batch": 16, "steps": 2}
    return {"n": 1024, "n_in": 784, "hidden": [512, 512], "classes": 10, "batch": 128, "steps": 8}


def per_unit(p: dict) -> float:
    return 1.0


def build(peer: str, p: dict):
    return mlp_build(peer, p)
