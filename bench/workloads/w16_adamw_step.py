"""W16 the optimizer step alone: AdamW (PyTorch's defaults) over the 12 parameters of W11's GPT block
(nanoGPT, 128 channels: four matrices of 16 384 to 65 536 elements, eight biases and norm weights of
128 to 512), float32, fixed gradients, 50 steps per run. ``minigrad`` runs the default (small
parameters joined into flat groups, ``minigrad.optim.flat``), ``minigrad_alone`` one parameter at a
time (``foreach=False``); ``torch`` runs PyTorch's ``foreach=True`` path, ``torch_for_loop``
``foreach=False``."""

from __future__ import annotations

import time
import zlib

import numpy as np

from . import Skip
from .real_models import gpt_block, load_initial_weights
from .w11_gpt_block import library

NAME = "W16"
TITLE = "AdamW step over a GPT block's 12 parameters (128 channels), float32, 50 steps"
UNIT = "ms/step"
PEERS = ("minigrad", "minigrad_alone", "torch", "torch_for_loop")
MINIGRAD_PEERS = ("minigrad",)  # minigrad_alone passes foreach=, which a checkout before it refuses
TARGETS = {("minigrad", "torch"): 1.0}
RATIOS = (("minigrad", "torch"), ("minigrad", "minigrad_alone"), ("torch", "torch_for_loop"))
FOREACH = {"minigrad": {}, "minigrad_alone": {"foreach": False}, "torch": {"foreach": True}}
FOREACH["torch_for_loop"] = {"foreach": False}


def params(quick: bool) -> dict:
    if quick:
        return {"channels": 16, "heads": 2, "tokens": 8, "steps": 2}
    return {"channels": 128, "heads": 4, "tokens": 64, "steps": 50}


def per_unit(p: dict) -> float:
    return p["steps"] / 1e3


def adamw_steps(peer: str, model_class, p: dict, seed: int):
    """A run of ``p["steps"]`` AdamW steps for ``peer`` over the parameters of ``model_class(lib)()``,
    whose gradients are drawn from their names and ``seed`` (the same for every peer), from the same
    starting weights each run. Only the steps are timed (the first makes the optimizer's state); the
    check is the sum of the parameters after them."""
    if peer not in FOREACH:
        raise Skip(f"no {peer} peer")
    lib = library(peer.split("_")[0])
    model = model_class(lib)()
    named = list(model.named_parameters())
    for name, param in named:
        g = np.random.default_rng([seed, zlib.crc32(name.encode())])
        param.grad = lib.tensor(g.standard_normal(tuple(param.shape)).astype(np.float32))

    def run():
        load_initial_weights(lib, model, seed=seed)
        opt = lib.optim.AdamW([param for _, param in named], lr=1e-3, **FOREACH[peer])
        start, start_cpu = time.perf_counter(), time.process_time()
        for _ in range(p["steps"]):
            opt.step()
        wall, cpu = time.perf_counter() - start, time.process_time() - start_cpu
        check = float(sum(param.detach().numpy().astype(np.float64).sum() for _, param in named))
        return {"check": check, "wall": wall, "cpu": cpu}

    return run, {"variant": f"optim.AdamW(lr=1e-3{''.join(f', {k}={v}' for k, v in FOREACH[peer].items())})"}


def build(peer: str, p: dict):
    def block(lib):
        return lambda: gpt_block(lib)(p["channels"], p["heads"], p["tokens"])

    return adamw_steps(peer, block, p, seed=16)
