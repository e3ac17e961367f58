"""W12 an LSTM language model as pytorch/examples' word_language_model writes it (embedding,
2-layer LSTM, decoder), trained with SGD: vocabulary 1 000, 35 steps of sequence x batch 20,
200 units, 2 steps per run. One model definition (``real_models.lstm_lm``) runs on both frameworks."""

from __future__ import annotations

from .. import data
from .real_models import load_initial_weights, lstm_lm, train
from .w11_gpt_block import library

NAME = "W12"
TITLE = "LSTM language model (word_language_model), vocab 1000, 2x200 units, seq 35 x batch 20, SGD"
UNIT = "ms/step"
PEERS = ("minigrad", "torch")
TARGETS = {("minigrad", "torch"): 1.2}
RATIOS = tuple(TARGETS)


def params(quick: bool) -> dict:
    if quick:
        return {"vocab": 50, "width": 16, "layers": 1, "seq": 5, "batch": 4, "steps": 1}
    return {"vocab": 1000, "width": 200, "layers": 2, "seq": 35, "batch": 20, "steps": 2}


def per_unit(p: dict) -> float:
    return p["steps"] / 1e3


def build(peer: str, p: dict):
    lib = library(peer)
    F = lib.nn.functional
    g = data.rng(32)
    tokens = [g.integers(0, p["vocab"], (p["seq"] + 1, p["batch"])) for _ in range(p["steps"])]
    batches = [(lib.tensor(t[:-1]), lib.tensor(t[1:].reshape(-1))) for t in tokens]
    model = lstm_lm(lib)(p["vocab"], p["width"], p["width"], p["layers"])

    def loss_fn(logits, target):
        return F.cross_entropy(logits.view(-1, p["vocab"]), target)

    def run():
        load_initial_weights(lib, model, seed=32)
        opt = lib.optim.SGD(model.parameters(), lr=1.0)
        return train(lib, model, opt, batches, loss_fn)

    return run, {"variant": "RNNModel('LSTM') without dropout, F.cross_entropy, optim.SGD"}
