"""W6e tracing cost on W11's GPT block (nanoGPT, AdamW): no listener vs. a do-nothing listener vs. a recording."""

from __future__ import annotations

from . import w11_gpt_block as w11
from .w6_tracing import MINIGRAD_PEERS, PEERS, RATIOS, listen_wrapper  # noqa: F401

NAME = "W6e"
TITLE = "tracing cost on W11 (GPT block, AdamW): listener variants of minigrad"
UNIT = "ms/step"
TARGETS = {("noop", "none"): 1.05, ("recorder", "none"): 1.5}  # ratio <= target
SUBJECT = "none"
params = w11.params
per_unit = w11.per_unit


def build(peer: str, p: dict):
    listen = listen_wrapper(peer)
    run, info = w11.build("minigrad", p)
    return (lambda: listen(run)), info
