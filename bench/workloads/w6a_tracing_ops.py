"""W6a tracing cost on W1's op chain: no listener vs. a do-nothing listener vs. a recording (trace.record())."""

from __future__ import annotations

from . import w1_op_overhead as w1
from .w6_tracing import MINIGRAD_PEERS, PEERS, RATIOS, listen_wrapper  # noqa: F401

NAME = "W6a"
TITLE = "tracing cost on W1 (op chain): listener variants of minigrad"
UNIT = "us/op"
TARGETS = {("noop", "none"): 1.05, ("recorder", "none"): 3.0}  # ratio <= target (issue 31)
SUBJECT = "none"
params = w1.params
per_unit = w1.per_unit


def build(peer: str, p: dict):
    listen = listen_wrapper(peer)
    run = w1.build("minigrad", p)
    return lambda: listen(run)
