"""W7a: a recorded trace's 1 000-node graph, drawn at its last step and rendered to SVG."""

from __future__ import annotations

from .w7_diagrams import PEERS, chain_trace, import_viz  # noqa: F401

NAME = "W7a"
TITLE = "diagram: 1 000-node traced graph to SVG"
UNIT = "s"
LIMITS = {"minigrad": 1.0}  # seconds


def params(quick: bool) -> dict:
    return {"nodes": 60 if quick else 1000}


def per_unit(p: dict) -> float:
    return 1.0


def build(peer: str, p: dict):
    viz = import_viz()
    trace = chain_trace(p["nodes"])
    return lambda: float(len(viz.draw(trace, max_nodes=None).svg()))
