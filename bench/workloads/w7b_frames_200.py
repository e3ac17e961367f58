"""W7b: every frame (one diagram per event) of a 200-step trace, rendered to SVG."""

from __future__ import annotations

from .w7_diagrams import PEERS, chain_trace, import_viz  # noqa: F401

NAME = "W7b"
TITLE = "diagram: all frames of a 200-step trace to SVG"
UNIT = "s"


def params(quick: bool) -> dict:
    return {"nodes": 12 if quick else 50, "steps": 20 if quick else 200}


def per_unit(p: dict) -> float:
    return 1.0


def build(peer: str, p: dict):
    viz = import_viz()
    trace = chain_trace(p["nodes"])
    steps = range(min(p["steps"], len(trace.events)))

    def run():
        return float(sum(len(frame.diagram.svg()) for frame in viz.frames(trace, steps)))

    return run, {"events_in_trace": len(trace.events), "frames": len(steps)}
