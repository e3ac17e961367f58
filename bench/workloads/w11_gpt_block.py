"""W11 a GPT block as nanoGPT writes it (pre-norm causal self-attention through F.scaled_dot_product_attention, GELU MLP), trained with
AdamW on a regression target: batch 8, 64 tokens, 128 channels, 4 heads, 4 steps per run. The
model code is one definition (``real_models.gpt_block``) run by both frameworks."""

from __future__ import annotations

from .. import data
from . import Skip, import_torch
from .real_models import gpt_block, load_initial_weights, train

NAME = "W11"
TITLE = "GPT block (nanoGPT), AdamW, batch 8 x 64 tokens x 128 channels, 4 heads, 4 steps"
UNIT = "ms/step"
PEERS = ("minigrad", "torch")
TARGETS = {("minigrad", "torch"): 1.0}
RATIOS = tuple(TARGETS)


def params(quick: bool) -> dict:
    if quick:
        return {"batch": 2, "tokens": 8, "channels": 16, "heads": 2, "steps": 1}
    return {"batch": 8, "tokens": 64, "channels": 128, "heads": 4, "steps": 4}


def per_unit(p: dict) -> float:
    return p["steps"] / 1e3


def library(peer: str):
    """The framework a peer runs: minigrad, or PyTorch pinned to one thread."""
    if peer == "minigrad":
        import minigrad

        return minigrad
    if peer == "torch":
        return import_torch()
    raise Skip(f"no {peer} peer")


def build(peer: str, p: dict):
    lib = library(peer)
    g = data.rng(31)
    shape = (p["batch"], p["tokens"], p["channels"])
    batches = [
        (lib.tensor(g.standard_normal(shape, dtype="float32")), lib.tensor(g.standard_normal(shape, dtype="float32")))
        for _ in range(p["steps"])
    ]
    model = gpt_block(lib)(p["channels"], p["heads"], p["tokens"])

    def run():
        load_initial_weights(lib, model, seed=31)
        opt = lib.optim.AdamW(model.parameters(), lr=1e-3)
        return train(lib, model, opt, batches, lib.nn.functional.mse_loss)

    return run, {
        "variant": "nanoGPT's Block attending with F.scaled_dot_product_attention (is_causal), F.mse_loss, optim.AdamW"
    }
