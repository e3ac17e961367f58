"""Inputs for a check that tries many cases: the edges of a range first, then seeded random draws.

Checks run wherever the learner installed minigrad, so they use nothing the wheel does not
depend on (no test library): these replace property-testing strategies with plain lists that are
the same on every run, so a failure the learner sees can be reproduced.
"""

from __future__ import annotations

import itertools

import numpy as np

__all__ = ["floats", "float_tuples", "rng"]


def rng(seed: int) -> np.random.Generator:
    """A NumPy generator for a check's own draws (shapes, op lists, arrays)."""
    return np.random.default_rng(seed)


def floats(low: float, high: float, n: int, seed: int = 0) -> list[float]:
    """``n`` floats in [low, high]: its ends (and 0 when inside), then uniform draws."""
    edges = [low, high] + ([0.0] if low < 0 < high else [])
    draws = rng(seed).uniform(low, high, max(n - len(edges), 0))
    return [float(v) for v in [*edges, *draws]][:n]


def float_tuples(low: float, high: float, arity: int, n: int, seed: int = 0) -> list[tuple[float, ...]]:
    """``n`` tuples of ``arity`` floats in [low, high]: every combination of the ends first, then draws."""
    corners = list(itertools.product([low, high], repeat=arity))[: n // 2]
    draws = rng(seed).uniform(low, high, (max(n - len(corners), 0), arity))
    return [tuple(float(v) for v in row) for row in [*corners, *draws]]
