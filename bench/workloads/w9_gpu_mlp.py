"""W9 GPU: W2's MLP training at batch 4096 and width 4096 (256-4096-4096-10, float32, 32 SGD steps)
on CUDA: minigrad on CuPy against PyTorch CUDA and a hand-written CuPy floor. Skipped without a GPU.

Every run ends by reading the loss back to the host, which waits for the GPU to finish."""

from __future__ import annotations

from . import Skip, import_torch
from . import w2_mlp as w2

NAME = "W9"
TITLE = "GPU: MLP 256-4096-4096-10 training, float32, batch 4096, 32 SGD steps (CUDA)"
UNIT = "s"
PEERS = ("minigrad", "minigrad_nn", "torch", "cupy")
RATIOS = (("minigrad", "torch"), ("minigrad", "cupy"), ("minigrad_nn", "torch"), ("minigrad_nn", "cupy"))


def params(quick: bool) -> dict:
    if quick:
        return {"n": 512, "n_in": 32, "hidden": [256, 256], "classes": 10, "batch": 128, "steps": 4}
    return {"n": 4096 * 32, "n_in": 256, "hidden": [4096, 4096], "classes": 10, "batch": 4096, "steps": 32}


def per_unit(p: dict) -> float:
    return 1.0


def _require_cupy_gpu():
    import minigrad as mg

    if not mg.cuda_is_available():
        raise Skip("no CUDA GPU usable through CuPy here")


def build(peer: str, p: dict):
    if peer in ("minigrad", "minigrad_nn", "cupy"):
        _require_cupy_gpu()
    elif peer == "torch":
        torch = import_torch()
        if not torch.cuda.is_available():
            raise Skip("PyTorch sees no CUDA GPU here")
    else:
        raise Skip(f"no {peer} peer for {NAME}")
    batches, weights = w2.problem(p)
    if peer == "minigrad":
        return w2.build_minigrad(batches, weights, device="cuda")
    if peer == "minigrad_nn":
        return w2.build_minigrad_nn(batches, weights, device="cuda")
    if peer == "torch":
        return w2.build_torch(batches, weights, device="cuda")
    import cupy

    gpu_batches = [(cupy.asarray(xb), cupy.asarray(yb)) for xb, yb in batches]
    return lambda: w2.numpy_floor(gpu_batches, weights, xp=cupy)
