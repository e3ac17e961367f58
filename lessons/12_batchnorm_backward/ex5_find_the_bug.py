# Exercise file generated from reference/ex5_find_the_bug.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
"""Exercise 12.5 (debugging) — a batch norm whose gradient has lost a path.

`batchnorm_logged` normalises a batch as the demo does and keeps its statistics for a log. It
raises nothing, it trains, and its outputs are right to the last digit — yet its gradient for x
is wrong. Find out which path went missing, from this lesson's folder:

    python ex5_find_the_bug.py      the gradient, beside the demo's
    minigrad-tui ex5_find_the_bug.py

In the debugger, press `/`, type `x`, Enter, and step through the pass: count the contributions
that reach `x` and compare them with the demo's.
"""

import numpy as np

import minigrad as mg

LOG = []


def batch_statistics(x) -> dict:
    """The batch's mean and variance per column, for the log."""
    values = x.detach().numpy()
    return {"mean": values.mean(axis=0), "var": values.var(axis=0)}


def batchnorm_logged(x, gamma, beta, eps: float = 1e-5):
    """Batch norm over dim 0 that logs the batch's statistics."""
    stats = batch_statistics(x)
    LOG.append(stats)
    xc = x - stats["mean"]
    var = (xc**2).mean(dim=0)
    xhat = xc * (var + eps) ** -0.5
    return gamma * xhat + beta


def run_buggy():
    """The demo's batch, through batchnorm_logged: returns x.grad."""
    x = mg.tensor([[1.0], [8.0], [4.0], [5.0]], dtype=mg.float64, requires_grad=True, name="x")
    gamma = mg.tensor([2.0], dtype=mg.float64, requires_grad=True, name="gamma")
    beta = mg.tensor([0.5], dtype=mg.float64, requires_grad=True, name="beta")
    w = mg.tensor([[-1.0], [2.0], [-3.0], [1.0]], dtype=mg.float64, name="w")
    loss = (batchnorm_logged(x, gamma, beta) * w).sum()
    loss.backward()
    return x.grad


def contributions_into_x() -> int:
    """How many `grad_accumulated` events into `x` (not `x.grad`) the pass of run_buggy() makes."""
    # HINT: count them in the debugger, or in `minigrad trace` of this file.
    raise NotImplementedError("exercise: write contributions_into_x()")


def missing_path() -> str:
    """The path that no longer reaches x: "direct", "variance" or "mean"."""
    # HINT: which node sends the demo's last contribution into x? Is there such a node here?
    raise NotImplementedError("exercise: write missing_path()")


def fixed_batchnorm(x, gamma, beta, eps: float = 1e-5):
    """batchnorm_logged with every path to x, still logging the statistics (as NumPy values)."""
    # HINT: the log may keep NumPy values; the computation must keep Tensors.
    raise NotImplementedError("exercise: write fixed_batchnorm()")


if __name__ == "__main__":
    x_grad = run_buggy().numpy()  # one pass, the one the debugger steps through
    print("x.grad with batchnorm_logged:", np.round(x_grad.ravel(), 4).tolist())
    print("the demo's x.grad:           [0.8, 0.4, -2.0, 0.8]")
    shift = np.sum(x_grad)
    print(f"sum of x.grad: {shift:.4g} (moving the whole batch by a constant cannot change a batch norm's output)")
