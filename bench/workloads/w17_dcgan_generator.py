"""W17 the generator of a DCGAN (pytorch/examples dcgan's netG, scaled down: a 32-dim noise vector to a
32x32 image through four 4x4 transposed convolutions, batch norm and ReLU, tanh), trained towards
random images with MSE and Adam(betas=(0.5, 0.999)): batch 64, 2 steps per run. One model definition
runs on both frameworks."""

from __future__ import annotations

from .. import data
from .real_models import load_initial_weights, train
from .w11_gpt_block import library

NAME = "W17"
TITLE = "DCGAN generator (4 ConvTranspose2d, BatchNorm2d), batch 64, noise 32 -> 1 x 32 x 32, Adam, 2 steps"
UNIT = "ms/step"
PEERS = ("minigrad", "torch")
TARGETS = {("minigrad", "torch"): 1.0}
RATIOS = tuple(TARGETS)


def generator(lib, noise: int = 32, width: int = 32):
    """netG of pytorch/examples dcgan for 32x32 single-channel images (4 -> 8 -> 16 -> 32 pixels)."""
    nn = lib.nn
    return nn.Sequential(
        nn.ConvTranspose2d(noise, width * 4, 4, 1, 0, bias=False),
        nn.BatchNorm2d(width * 4),
        nn.ReLU(),
        nn.ConvTranspose2d(width * 4, width * 2, 4, 2, 1, bias=False),
        nn.BatchNorm2d(width * 2),
        nn.ReLU(),
        nn.ConvTranspose2d(width * 2, width, 4, 2, 1, bias=False),
        nn.BatchNorm2d(width),
        nn.ReLU(),
        nn.ConvTranspose2d(width, 1, 4, 2, 1, bias=False),
        nn.Tanh(),
    )


def params(quick: bool) -> dict:
    return {"batch": 4 if quick else 64, "steps": 1 if quick else 2}


def per_unit(p: dict) -> float:
    return p["steps"] / 1e3


def build(peer: str, p: dict):
    lib = library(peer)
    g = data.rng(37)
    batches = [
        (
            lib.tensor(g.standard_normal((p["batch"], 32, 1, 1), dtype="float32")),
            lib.tensor(g.uniform(-1, 1, (p["batch"], 1, 32, 32)).astype("float32")),
        )
        for _ in range(p["steps"])
    ]
    model = generator(lib)

    def run():
        load_initial_weights(lib, model, seed=37)
        opt = lib.optim.Adam(model.parameters(), lr=2e-4, betas=(0.5, 0.999))
        return train(lib, model, opt, batches, lib.nn.functional.mse_loss)

    return run, {"variant": "netG without the discriminator, F.mse_loss, optim.Adam"}
