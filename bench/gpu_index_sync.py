"""What W9 loses to minigrad's host-side index check on CUDA: ``python -m bench.gpu_index_sync [cpu]``.

minigrad checks an integer index on the host (``int(index.min())``), so a bad index is an IndexError at
the line that made it; on CUDA that waits for the GPU once per indexing op. This runs W9's raw step with
the loss's pick as ``x[rows, target]`` and, alternating, through a one-hot mask (no synchronisation), and
prints the median of each. ``cpu`` runs W9's quick sizes on the CPU (a smoke test).
"""

from __future__ import annotations

import statistics
import sys
import time

import minigrad as mg

from .workloads import w2_mlp as w2
from .workloads import w9_gpu_mlp as w9


def main(argv: list[str]) -> None:
    device = argv[0] if argv else "cuda"
    p = w9.params(quick=device == "cpu")
    batches, weights = w2.problem(p)
    data = [(mg.tensor(xb, device=device), mg.tensor(yb, device=device)) for xb, yb in batches]
    rows = mg.arange(len(batches[0][1]), device=device)
    onehots = [mg.nn.functional.one_hot(yb, p["classes"]).float() for _, yb in data]

    def train(by_mask: bool) -> float:
        params = [
            (mg.tensor(W, device=device, requires_grad=True), mg.tensor(b, device=device, requires_grad=True))
            for W, b in weights
        ]
        flat = [t for pair in params for t in pair]
        for k, (xb, yb) in enumerate(data):
            h = xb
            for i, (W, b) in enumerate(params):
                h = h @ W + b
                if i < len(params) - 1:
                    h = h.relu()
            shifted = h - h.detach().amax(dim=1, keepdim=True)
            log_z = shifted.exp().sum(dim=1).log()
            picked = (shifted * onehots[k]).sum(dim=1) if by_mask else shifted[rows, yb]
            loss = (log_z - picked).mean()
            loss.backward()
            for t in flat:
                t.array -= w2.LR * t.grad.array
                t.grad = None
        return float(loss.item())

    times: dict[bool, list[float]] = {False: [], True: []}
    losses = {}
    for _ in range(6):  # the first of each is a warm-up
        for by_mask in (False, True):
            start = time.perf_counter()
            losses[by_mask] = train(by_mask)
            times[by_mask].append(time.perf_counter() - start)
    for by_mask, how in ((False, "x[rows, target] (host bounds check)"), (True, "one-hot mask (no sync)")):
        print(
            f"W9 minigrad raw, {how}: median {statistics.median(times[by_mask][1:]):.4f} s of 5, loss {losses[by_mask]:.6f}"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
