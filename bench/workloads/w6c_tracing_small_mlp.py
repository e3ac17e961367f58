"""W6c tracing cost on a small MLP (64 -> 256 -> 10, batch 128) trained the way a user writes it (nn.Linear,
F.cross_entropy, optim.SGD): no listener vs. a do-nothing listener vs. a recording (trace.record())."""

from __future__ import annotations

from . import w2_mlp as w2
from .w6_tracing import MINIGRAD_PEERS, PEERS, RATIOS, listen_wrapper  # noqa: F401

NAME = "W6c"
TITLE = "tracing cost on a 64-256-10 MLP (nn, batch 128, 32 SGD steps): listener variants of minigrad"
UNIT = "s"
TARGETS = {("noop", "none"): 1.05, ("recorder", "none"): 1.5}  # ratio <= target
SUBJECT = "none"


def params(quick: bool) -> dict:
    if quick:
        return {"n": 64, "n_in": 16, "hidden": [32], "classes": 10, "batch": 16, "steps": 4}
    return {"n": 4096, "n_in": 64, "hidden": [256], "classes": 10, "batch": 128, "steps": 32}


def per_unit(p: dict) -> float:
    return 1.0


def build(peer: str, p: dict):
    return mlp_build(peer, p)


def mlp_build(peer: str, p: dict):
    """W2's ``minigrad_nn`` training on the sizes ``p``, run under the peer's listener setup."""
    listen = listen_wrapper(peer)
    batches, weights = w2.problem(p)
    run, info = w2.build_minigrad_nn(batches, weights)
    return (lambda: listen(run)), info
