"""W5 micrograd's demo: a 2-16-16-1 ReLU MLP on 100 moons points, full-batch max-margin loss plus
1e-4 L2, SGD with lr 1.0 - 0.9*k/100, 20 steps, float64. (The demo's accuracy printout is left out.)"""

from __future__ import annotations

import numpy as np

from .. import data
from . import Skip, import_micrograd, import_torch

NAME = "W5"
TITLE = "micrograd's demo: 2-16-16-1 MLP, 100 moons, 20 steps, float64"
UNIT = "s"
PEERS = ("minigrad", "torch", "numpy", "micrograd")
TARGETS = {("minigrad", "torch"): 1.0, ("minigrad", "micrograd"): 0.001}  # ratio <= target
ALPHA = 1e-4


def params(quick: bool) -> dict:
    return {"n": 20 if quick else 100, "steps": 2 if quick else 20}


def per_unit(p: dict) -> float:
    return 1.0


def lr(k: int) -> float:
    return 1.0 - 0.9 * k / 100


def build(peer: str, p: dict):
    X, y = data.moons(p["n"])
    weights = data.micrograd_mlp_weights()
    steps = p["steps"]
    if peer == "minigrad":
        import minigrad as mg

        return tensor_run(mg, mg.tensor(X), mg.tensor(y).reshape(-1, 1), weights, steps)
    if peer == "torch":
        torch = import_torch()

        return tensor_run(torch, torch.from_numpy(X), torch.from_numpy(y).reshape(-1, 1), weights, steps)
    if peer == "numpy":
        return lambda: numpy_floor(X, y, weights, steps)
    if peer == "micrograd":
        return micrograd_run(X, y, weights, steps)
    raise Skip(f"no {peer} peer for {NAME}")


def tensor_run(lib, Xt, yt, weights, steps: int):
    """The demo with whole-batch tensor ops; the same code for minigrad and PyTorch."""

    def run():
        params = [(lib.tensor(W, requires_grad=True), lib.tensor(b, requires_grad=True)) for W, b in weights]
        flat = [t for pair in params for t in pair]
        total = None
        for k in range(steps):
            h = Xt
            for i, (W, b) in enumerate(params):
                h = h @ W + b
                if i < len(params) - 1:
                    h = h.relu()
            data_loss = (1 - yt * h).relu().mean()
            reg = sum((t * t).sum() for t in flat)
            total = data_loss + ALPHA * reg
            for t in flat:
                t.grad = None
            total.backward()
            rate = lr(k)
            for t in flat:
                t.data -= rate * t.grad.data
        return float(total.item())

    return run


def numpy_floor(X, y, weights, steps: int) -> float:
    params = [(W.copy(), b.copy()) for W, b in weights]
    last = len(params) - 1
    n = X.shape[0]
    total = None
    for k in range(steps):
        acts = [X]
        h = X
        for i, (W, b) in enumerate(params):
            h = h @ W + b
            if i < last:
                h = np.maximum(h, 0)
            acts.append(h)
        margin = 1 - y[:, None] * h
        data_loss = np.maximum(margin, 0).mean()
        reg = sum(float((W * W).sum() + (b * b).sum()) for W, b in params)
        total = data_loss + ALPHA * reg
        g = np.where(margin > 0, -y[:, None], 0.0) / n
        rate = lr(k)
        for i in range(last, -1, -1):
            W, b = params[i]
            a = acts[i]
            gW = a.T @ g + 2 * ALPHA * W
            gb = g.sum(axis=0) + 2 * ALPHA * b
            if i > 0:
                g = (g @ W.T) * (a > 0)
            W -= rate * gW
            b -= rate * gb
    return float(total)


def micrograd_run(X, y, weights, steps: int):
    engine, nn = import_micrograd()
    Value = engine.Value
    rows = [list(map(float, r)) for r in X]
    labels = [float(v) for v in y]

    def run():
        model = nn.MLP(2, [16, 16, 1])
        for layer, (W, b) in zip(model.layers, weights):
            for j, neuron in enumerate(layer.neurons):
                for i, w in enumerate(neuron.w):
                    w.data = float(W[i, j])
                neuron.b.data = float(b[j])
        total = None
        for k in range(steps):
            inputs = [list(map(Value, r)) for r in rows]
            scores = list(map(model, inputs))
            losses = [(1 + -yi * si).relu() for yi, si in zip(labels, scores)]
            data_loss = sum(losses) * (1.0 / len(losses))
            reg = ALPHA * sum(p * p for p in model.parameters())
            total = data_loss + reg
            model.zero_grad()
            total.backward()
            rate = lr(k)
            for p in model.parameters():
                p.data -= rate * p.grad
        return float(total.data)

    return run
