"""The 8x8 handwritten digits bundled with scikit-learn (no download), and a train/test split."""

from __future__ import annotations

import numpy as np

from .. import backend as B
from ..creation import generator_for

__all__ = ["load_digits", "train_test_split"]


def load_digits(normalize: bool = True):
    """The 1797 scikit-learn digits: ``X`` float32 ``[1797, 64]`` (pixels scaled to [0, 1] when
    ``normalize``, else 0..16) and ``y`` int64 labels 0..9.

    Needs scikit-learn (``pip install 'minigrad[data]'``).
    """
    try:
        from sklearn.datasets import load_digits as sk_load_digits
    except ImportError:
        raise ImportError(
            "load_digits() needs scikit-learn, which ships the 8x8 digits dataset. Install it with "
            "pip install 'minigrad[data]' (or pip install scikit-learn)."
        ) from None
    bunch = sk_load_digits()
    X = bunch.data.astype(np.float32)
    if normalize:
        X /= 16.0
    return X, bunch.target.astype(np.int64)


def train_test_split(*arrays, test_fraction: float = 0.2, shuffle: bool = True, seed: int | None = None):
    """Split arrays (same first dim) into train and test parts: ``X_train, X_test, y_train, y_test, ...``.

    With ``seed=None`` the shuffle uses minigrad's CPU generator (``manual_seed``).
    """
    if not arrays:
        raise ValueError("train_test_split() needs at least one array")
    n = len(arrays[0])
    for a in arrays:
        if len(a) != n:
            raise ValueError(f"arrays must have the same length, got {[len(a) for a in arrays]}")
    if not 0.0 < test_fraction < 1.0:
        raise ValueError(f"test_fraction must be between 0 and 1, got {test_fraction}")
    n_test = max(1, int(round(n * test_fraction)))
    if shuffle:
        rng = generator_for(B.CPU) if seed is None else np.random.default_rng(seed)
        order = rng.permutation(n)
    else:
        order = np.arange(n)
    test, train = order[:n_test], order[n_test:]
    out = []
    for a in arrays:
        out.extend([a[train], a[test]])
    return out
