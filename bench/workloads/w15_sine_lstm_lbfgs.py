"""W15 pytorch/examples' time_sequence_prediction: two LSTMCells and a Linear stepped by hand over every
timestep of a batch of sine waves (float64), the outputs joined with ``cat``, MSE, trained with LBFGS
(lr 0.8, a closure per evaluation). A long graph of small ops rebuilt once per closure: 97 waves of 300
steps (the example has 999), one LBFGS step of max_iter 4 (5 closures) and a forward without grad per run. The model is written once and runs on both frameworks."""

from __future__ import annotations

import numpy as np

from .real_models import load_initial_weights
from .w11_gpt_block import library

NAME = "W15"
TITLE = "time_sequence_prediction: 2 LSTMCells x 51 over 300 steps x 97 waves, float64, LBFGS step (max_iter 4)"
UNIT = "ms/step"
PEERS = ("minigrad", "torch")
TARGETS = {("minigrad", "torch"): 1.2}
RATIOS = tuple(TARGETS)


def params(quick: bool) -> dict:
    if quick:
        return {"waves": 4, "length": 12, "width": 8, "max_iter": 2}
    return {"waves": 97, "length": 300, "width": 51, "max_iter": 4}


def per_unit(p: dict) -> float:
    return 1 / 1e3


def sine_waves(p: dict) -> np.ndarray:
    """The example's data: sin(x / 20) over ``length + 1`` steps, each wave shifted by a random offset."""
    offsets = np.random.default_rng(2).integers(-80, 80, p["waves"]).reshape(-1, 1)
    return np.sin((np.arange(p["length"] + 1) + offsets) / 20.0)


def sequence(lib, width: int):
    """The example's ``Sequence`` module, written against ``lib`` (minigrad or torch)."""
    nn = lib.nn

    class Sequence(nn.Module):
        def __init__(self):
            super().__init__()
            self.lstm1 = nn.LSTMCell(1, width)
            self.lstm2 = nn.LSTMCell(width, width)
            self.linear = nn.Linear(width, 1)

        def forward(self, input):  # noqa: A002
            outputs = []
            h_t = c_t = h_t2 = c_t2 = lib.zeros(input.size(0), width, dtype=lib.double)
            for input_t in input.split(1, dim=1):
                h_t, c_t = self.lstm1(input_t, (h_t, c_t))
                h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
                outputs += [self.linear(h_t2)]
            return lib.cat(outputs, dim=1)

    return Sequence()


def build(peer: str, p: dict):
    lib = library(peer)
    waves = sine_waves(p)
    inputs, target = lib.from_numpy(waves[:, :-1].copy()), lib.from_numpy(waves[:, 1:].copy())
    model = sequence(lib, p["width"])
    criterion = lib.nn.MSELoss()

    def run():
        load_initial_weights(lib, model, seed=15)
        model.double()
        opt = lib.optim.LBFGS(model.parameters(), lr=0.8, max_iter=p["max_iter"])

        def closure():
            opt.zero_grad()
            loss = criterion(model(inputs), target)
            loss.backward()
            return loss

        opt.step(closure)
        with lib.no_grad():
            return criterion(model(inputs), target).item()

    return run, {"variant": "the example's Sequence and closure, float64, LBFGS(lr=0.8, max_iter=4)"}
