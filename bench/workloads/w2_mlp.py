"""W2 MLP training: X (4096, 256) float32, 10 classes, MLP 256-512-512-10 with ReLU, softmax
cross-entropy, plain SGD (lr 0.1), batch 128, 32 steps. Matmul-bound: the framework should add
next to nothing to the NumPy floor."""

from __future__ import annotations

import numpy as np

from .. import data
from . import Skip, import_torch

NAME = "W2"
TITLE = "MLP 256-512-512-10 training, float32, batch 128, 32 SGD steps"
UNIT = "s"
PEERS = ("minigrad", "minigrad_nn", "torch", "numpy", "micrograd")
TARGETS = {
    ("minigrad", "torch"): 1.0,
    ("minigrad", "numpy"): 1.05,
    ("minigrad_nn", "torch"): 1.0,
    ("minigrad_nn", "numpy"): 1.05,
}  # ratio <= target
RATIOS = tuple((a, b) for a, b in TARGETS)
LR = 0.1


def params(quick: bool) -> dict:
    if quick:
        return {"n": 64, "n_in": 16, "hidden": [32, 32], "classes": 10, "batch": 16, "steps": 4}
    return {"n": 4096, "n_in": 256, "hidden": [512, 512], "classes": 10, "batch": 128, "steps": 32}


def per_unit(p: dict) -> float:
    return 1.0


def problem(p: dict):
    """The data split into the batches the steps use (views, made outside the timed run)."""
    X, y, weights = data.mlp_problem(p["n"], p["n_in"], tuple(p["hidden"]), p["classes"])
    b = p["batch"]
    batches = [(X[i * b : (i + 1) * b], y[i * b : (i + 1) * b]) for i in range(p["steps"])]
    return batches, weights


def build(peer: str, p: dict):
    batches, weights = problem(p)
    if peer == "minigrad":
        return build_minigrad(batches, weights)
    if peer == "minigrad_nn":
        return build_minigrad_nn(batches, weights)
    if peer == "torch":
        return build_torch(batches, weights)
    if peer == "numpy":
        return lambda: numpy_floor(batches, weights)
    if peer == "micrograd":
        raise Skip("scalar engine: 400k float32 parameters do not fit")
    raise Skip(f"no {peer} peer for {NAME}")


def build_minigrad(batches, weights, listen=None, device="cpu"):
    """minigrad with raw tensor ops (matmul, relu, a stable cross-entropy) and a hand-written SGD step.

    ``listen`` (used by W6) wraps each run, e.g. to register a listener around it.
    """
    import minigrad as mg

    mb = [(mg.tensor(xb, device=device), mg.tensor(yb, device=device)) for xb, yb in batches]
    rows = mg.arange(len(batches[0][1]), device=device)

    def cross_entropy(logits, target):
        # The shift by the row max is a constant: it cancels in the gradient, so it is taken off the graph.
        shifted = logits - logits.detach().amax(dim=1, keepdim=True)
        log_z = shifted.exp().sum(dim=1).log()
        return (log_z - shifted[rows, target]).mean()

    def run():
        params = [
            (mg.tensor(W, device=device, requires_grad=True), mg.tensor(b, device=device, requires_grad=True))
            for W, b in weights
        ]
        flat = [t for pair in params for t in pair]
        loss = None
        for xb, yb in mb:
            h = xb
            for i, (W, b) in enumerate(params):
                h = h @ W + b
                if i < len(params) - 1:
                    h = h.relu()
            loss = cross_entropy(h, yb)
            loss.backward()
            for t in flat:
                t.array -= LR * t.grad.array
                t.grad = None
        return float(loss.item())

    info = {"variant": "raw tensor ops (amax, exp, log, sum, integer-array indexing), hand-written SGD"}
    return (run, info) if listen is None else ((lambda: listen(run)), info)


def build_minigrad_nn(batches, weights, device="cpu"):
    """minigrad the way a user writes it: nn.Linear, F.cross_entropy, optim.SGD.

    The model is built once; each run loads the initial weights into it (as the floor copies
    them) and trains. Building it draws a random initialisation that the load overwrites, and
    the weights' ``[out, in]`` copies are bench glue: neither is a training step, so neither is timed.
    """
    try:
        import minigrad as mg
        from minigrad import nn, optim
        from minigrad.nn import functional as F
    except ImportError as exc:
        raise Skip(f"minigrad.nn / minigrad.optim are not there yet ({exc})") from None
    mb = [(mg.tensor(xb, device=device), mg.tensor(yb, device=device)) for xb, yb in batches]
    initial = [(mg.tensor(np.ascontiguousarray(W.T), device=device), mg.tensor(b, device=device)) for W, b in weights]
    linears = [nn.Linear(W.shape[0], W.shape[1], device=device) for W, _ in weights]
    layers = [m for lin in linears for m in (lin, nn.ReLU())]
    model = nn.Sequential(*layers[:-1])

    def run():
        with mg.no_grad():
            for lin, (W, b) in zip(linears, initial):
                lin.weight.copy_(W)
                lin.bias.copy_(b)
        opt = optim.SGD(model.parameters(), lr=LR)
        loss = None
        for xb, yb in mb:
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        return float(loss.item())

    return run, {"variant": "nn.Linear + F.cross_entropy + optim.SGD (model built once, weights loaded per run)"}


def build_torch(batches, weights, device="cpu"):
    """PyTorch as ``build_minigrad_nn`` runs minigrad: the model built once, the initial weights loaded per run."""
    torch = import_torch()
    F = torch.nn.functional
    tb = [(torch.from_numpy(xb).to(device), torch.from_numpy(yb).to(device)) for xb, yb in batches]
    initial = [
        (torch.from_numpy(np.ascontiguousarray(W.T)).to(device), torch.from_numpy(b).to(device)) for W, b in weights
    ]
    linears = [torch.nn.Linear(W.shape[0], W.shape[1], device=device) for W, _ in weights]
    layers = [m for lin in linears for m in (lin, torch.nn.ReLU())]
    model = torch.nn.Sequential(*layers[:-1])

    def run():
        with torch.no_grad():
            for lin, (W, b) in zip(linears, initial):
                lin.weight.copy_(W)
                lin.bias.copy_(b)
        opt = torch.optim.SGD(model.parameters(), lr=LR)
        loss = None
        for xb, yb in tb:
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
        return float(loss.item())

    return run, {"variant": "nn.Linear + F.cross_entropy + optim.SGD (model built once, weights loaded per run)"}


def numpy_floor(batches, weights, xp=np) -> float:
    """Forward, the analytic backward of softmax cross-entropy and ReLU, and SGD, by hand (``xp``: NumPy or CuPy)."""
    params = [(xp.array(W), xp.array(b)) for W, b in weights]
    last = len(params) - 1
    loss = None
    for xb, yb in batches:
        acts = [xb]
        h = xb
        for i, (W, b) in enumerate(params):
            h = h @ W + b
            if i < last:
                h = xp.maximum(h, 0)
            acts.append(h)
        n = h.shape[0]
        rows = xp.arange(n)
        shifted = h - h.max(axis=1, keepdims=True)
        e = xp.exp(shifted)
        z = e.sum(axis=1, keepdims=True)
        loss = xp.mean(xp.log(z[:, 0]) - shifted[rows, yb])
        g = e / z
        g[rows, yb] -= 1
        g /= n
        for i in range(last, -1, -1):
            W, b = params[i]
            a = acts[i]
            gW = a.T @ g
            gb = g.sum(axis=0)
            if i > 0:
                g = (g @ W.T) * (a > 0)
            W -= LR * gW
            b -= LR * gb
    return float(loss)
