"""W6b tracing cost on W2's MLP training: no listener vs. a do-nothing listener vs. a recording (trace.record())."""

from __future__ import annotations

from . import w2_mlp as w2
from .w6_tracing import MINIGRAD_PEERS, PEERS, RATIOS, listen_wrapper  # noqa: F401

NAME = "W6b"
TITLE = "tracing cost on W2 (MLP training): listener variants of minigrad"
UNIT = "s"
TARGETS = {("noop", "none"): 1.05, ("recorder", "none"): 2.0}  # ratio <= target (issue 31: the hidden-size MLP)
SUBJECT = "none"
params = w2.params
per_unit = w2.per_unit


def build(peer: str, p: dict):
    listen = listen_wrapper(peer)
    batches, weights = w2.problem(p)
    return w2.build_minigrad(batches, weights, listen=listen)
