"""Toy 2-D datasets generated with NumPy: make_moons, make_spirals, make_blobs.

Each returns ``(X, y)``: ``X`` float32 ``[n, features]``, ``y`` int64 class labels.
With ``seed=None`` the draws come from minigrad's CPU generator, so
``minigrad.manual_seed`` makes them reproducible; an int seed gives its own stream.
"""

from __future__ import annotations

import numpy as np

from .. import backend as B
from ..creation import generator_for

__all__ = ["make_moons", "make_spirals", "make_blobs"]


def _rng(seed):
    return generator_for(B.CPU) if seed is None else np.random.default_rng(seed)


def _check_count(n: int, name: str = "n_samples") -> None:
    if not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"{name} must be a positive integer, got {n!r}")


def _finish(X, y, rng, shuffle: bool):
    if shuffle:
        order = rng.permutation(len(y))
        X, y = X[order], y[order]
    return X.astype(np.float32), y.astype(np.int64)


def make_moons(n_samples: int = 100, noise: float = 0.0, shuffle: bool = True, seed: int | None = None):
    """Two interleaving half circles (as scikit-learn's make_moons): class 0 on top, 1 below."""
    _check_count(n_samples)
    rng = _rng(seed)
    n_out = n_samples // 2
    n_in = n_samples - n_out
    t_out = np.linspace(0, np.pi, n_out)
    t_in = np.linspace(0, np.pi, n_in)
    X = np.vstack(
        [
            np.column_stack([np.cos(t_out), np.sin(t_out)]),
            np.column_stack([1 - np.cos(t_in), 1 - np.sin(t_in) - 0.5]),
        ]
    )
    y = np.concatenate([np.zeros(n_out), np.ones(n_in)])
    if noise:
        X = X + rng.normal(0.0, noise, X.shape)
    return _finish(X, y, rng, shuffle)


def make_spirals(
    n_samples: int = 300, n_classes: int = 3, noise: float = 0.2, shuffle: bool = True, seed: int | None = None
):
    """``n_classes`` interleaved spiral arms (the CS231n dataset); radii grow from 0 to 1."""
    _check_count(n_samples)
    _check_count(n_classes, "n_classes")
    rng = _rng(seed)
    counts = [n_samples // n_classes + (1 if k < n_samples % n_classes else 0) for k in range(n_classes)]
    parts, labels = [], []
    for k, n in enumerate(counts):
        r = np.linspace(0.0, 1.0, n)
        t = np.linspace(k * 4.0, (k + 1) * 4.0, n) + rng.normal(0.0, noise, n)
        parts.append(np.column_stack([r * np.sin(t), r * np.cos(t)]))
        labels.append(np.full(n, k))
    return _finish(np.vstack(parts), np.concatenate(labels), rng, shuffle)


def make_blobs(
    n_samples: int = 100,
    centers=3,
    n_features: int = 2,
    cluster_std: float = 1.0,
    center_box=(-10.0, 10.0),
    shuffle: bool = True,
    seed: int | None = None,
):
    """Gaussian blobs around ``centers`` (a count, drawn in ``center_box``, or an array of points)."""
    _check_count(n_samples)
    rng = _rng(seed)
    if isinstance(centers, (int, np.integer)):
        _check_count(centers, "centers")
        centers = rng.uniform(center_box[0], center_box[1], (int(centers), n_features))
    else:
        centers = np.asarray(centers, dtype=np.float64)
        if centers.ndim != 2:
            raise ValueError(f"centers must be an int or a 2-D array of points, got shape {list(centers.shape)}")
        n_features = centers.shape[1]
    k = len(centers)
    counts = [n_samples // k + (1 if i < n_samples % k else 0) for i in range(k)]
    X = np.vstack([c + rng.normal(0.0, cluster_std, (n, n_features)) for c, n in zip(centers, counts)])
    y = np.concatenate([np.full(n, i) for i, n in enumerate(counts)])
    return _finish(X, y, rng, shuffle)
