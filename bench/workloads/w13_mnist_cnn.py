"""W13 the LeNet-style CNN of pytorch/examples' mnist (two 3x3 convolutions, a 2x2 max pool, two
linear layers, log-softmax), trained with SGD on random 28x28 images: batch 64,
2 steps per run. One model definition (``real_models.mnist_net``) runs on both frameworks."""

from __future__ import annotations

from .. import data
from .real_models import load_initial_weights, mnist_net, train
from .w11_gpt_block import library

NAME = "W13"
TITLE = "mnist CNN (pytorch/examples Net), batch 64 x 1 x 28 x 28, SGD, 2 steps"
UNIT = "ms/step"
PEERS = ("minigrad", "torch")
TARGETS = {("minigrad", "torch"): 1.0}
RATIOS = tuple(TARGETS)


def params(quick: bool) -> dict:
    return {"batch": 4 if quick else 64, "steps": 1 if quick else 2}


def per_unit(p: dict) -> float:
    return p["steps"] / 1e3


def build(peer: str, p: dict):
    lib = library(peer)
    g = data.rng(33)
    batches = [
        (
            lib.tensor(g.standard_normal((p["batch"], 1, 28, 28), dtype="float32")),
            lib.tensor(g.integers(0, 10, p["batch"])),
        )
        for _ in range(p["steps"])
    ]
    model = mnist_net(lib)()

    def run():
        load_initial_weights(lib, model, seed=33)
        opt = lib.optim.SGD(model.parameters(), lr=0.01)
        return train(lib, model, opt, batches, lib.nn.functional.nll_loss)

    return run, {"variant": "Net without dropout, F.nll_loss, optim.SGD"}
