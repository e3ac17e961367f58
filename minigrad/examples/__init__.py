"""Built-in example scripts: what ``minigrad demo`` runs, what ``minigrad-tui`` opens with no
script, and small programs tests and lessons record.

Each example is a plain script in this folder (``python -m minigrad.examples.demo`` runs one):

- ``demo``: the seed example, ``loss = (tanh(a * b) + a * a).sum()`` and its backward pass;
- ``nested_grad``: a hook that calls ``grad()`` during ``backward()`` (a pass at depth 2);
- ``higher_order``: ``grad(create_graph=True)`` then a backward pass through that gradient;
- ``nonfinite``: ``sqrt`` at 0, so an infinite gradient flows (what ``--break nonfinite`` finds).
"""

from __future__ import annotations

import os
import runpy

__all__ = ["NAMES", "path", "source", "run"]

NAMES = ("demo", "nested_grad", "higher_order", "nonfinite")


def path(name: str = "demo") -> str:
    """The file of example ``name``; ValueError naming the examples when there is none."""
    if name not in NAMES:
        raise ValueError(f"no built-in example {name!r}; choose from {', '.join(NAMES)}")
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), f"{name}.py")


def source(name: str = "demo") -> str:
    """The text of example ``name``."""
    with open(path(name), encoding="utf-8") as fh:
        return fh.read()


def run(name: str = "demo") -> dict:
    """Run example ``name`` as ``__main__`` (under ``minigrad.trace.record()`` to record it); returns its globals."""
    return runpy.run_path(path(name), run_name="__main__")
