"""The inputs every peer of a workload shares, generated deterministically with NumPy."""

from __future__ import annotations

import numpy as np

SEED = 20240601


def rng(offset: int = 0) -> np.random.Generator:
    return np.random.default_rng(SEED + offset)


def op_chain_input(shape=(4, 4)) -> np.ndarray:
    """W1's starting tensor (float64)."""
    return rng(1).standard_normal(shape)


def mlp_problem(n: int, n_in: int, hidden: tuple, n_classes: int):
    """W2: ``X`` (n, n_in) float32, integer labels, and Linear-style initial weights.

    Labels come from a random linear teacher, so the loss actually falls. Weights are
    stored as ``(fan_in, fan_out)`` matrices (``x @ W + b``), initialised uniformly in
    ``[-1/sqrt(fan_in), 1/sqrt(fan_in)]`` as ``torch.nn.Linear`` does.
    """
    g = rng(2)
    X = g.standard_normal((n, n_in)).astype(np.float32)
    teacher = g.standard_normal((n_in, n_classes)).astype(np.float32)
    y = (X @ teacher).argmax(axis=1).astype(np.int64)
    sizes = (n_in, *hidden, n_classes)
    weights = []
    for fan_in, fan_out in zip(sizes[:-1], sizes[1:]):
        bound = 1.0 / np.sqrt(fan_in)
        W = g.uniform(-bound, bound, (fan_in, fan_out)).astype(np.float32)
        b = g.uniform(-bound, bound, (fan_out,)).astype(np.float32)
        weights.append((W, b))
    return X, y, weights


def hvp_problem(n: int, count: int):
    """W3: ``W`` (n, n) float64, the point ``x`` and ``count`` directions ``V``."""
    g = rng(3)
    W = g.standard_normal((n, n)) / np.sqrt(n)
    x = g.standard_normal(n)
    V = g.standard_normal((count, n))
    return W, x, V


def moons(n: int = 100, noise: float = 0.1):
    """Two interleaving half circles (as sklearn's make_moons), labels in {-1, +1}, float64."""
    g = rng(5)
    n_out = n // 2
    n_in = n - n_out
    t_out = np.linspace(0, np.pi, n_out)
    t_in = np.linspace(0, np.pi, n_in)
    X = np.concatenate(
        [np.stack([np.cos(t_out), np.sin(t_out)], 1), np.stack([1 - np.cos(t_in), 0.5 - np.sin(t_in)], 1)]
    )
    X += g.normal(scale=noise, size=X.shape)
    y = np.concatenate([-np.ones(n_out), np.ones(n_in)])
    return X, y


def micrograd_mlp_weights(sizes=(2, 16, 16, 1)):
    """W5: micrograd's init (weights uniform in [-1, 1], biases 0) as ``(fan_in, fan_out)`` matrices."""
    g = rng(6)
    return [
        (g.uniform(-1.0, 1.0, (fan_in, fan_out)), np.zeros(fan_out)) for fan_in, fan_out in zip(sizes[:-1], sizes[1:])
    ]
