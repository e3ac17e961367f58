"""One diagram per step of a recorded trace: for lessons, slides and the HTML player."""

from __future__ import annotations

import os
from dataclasses import dataclass

from ..trace.describe import details, headline
from .diagram import Diagram
from .dot import to_dot
from .options import Options
from .render import FORMATS
from .steps import TraceIndex, graph_at_step

__all__ = ["Frame", "frames", "write_frames", "parse_steps"]


@dataclass
class Frame:
    """The diagram of one step, with the event's one-line text and longer details."""

    step: int
    kind: str
    text: str
    details: str
    diagram: Diagram


def parse_steps(spec: str | None, n: int) -> range:
    """Steps chosen by ``"START:STOP"`` (either end optional, Python slice rules) or ``"K"``; all when None."""
    if spec is None:
        return range(n)
    try:
        if ":" in spec:
            start, _, stop = spec.partition(":")
            return range(n)[slice(int(start) if start else None, int(stop) if stop else None)]
        k = int(spec)
    except ValueError:
        raise ValueError(f"steps must look like 'K' or 'START:STOP', got {spec!r}") from None
    if not -n <= k < n:
        raise IndexError(f"step {k} out of range for a trace of {n} events (0 to {n - 1})")
    return range(k % n, k % n + 1)


def frames(trace, steps=None, options: Options | None = None):
    """Yield a :class:`Frame` for each step in ``steps`` (default: every event of ``trace``)."""
    options = options or Options()
    index = TraceIndex(trace)
    for step in range(len(trace.events)) if steps is None else steps:
        graph = graph_at_step(trace, step, options, index)
        ev = trace.events[step]
        yield Frame(
            step=step,
            kind=ev.kind,
            text=headline(ev, trace),
            details="\n".join(details(ev, trace)),
            diagram=Diagram(to_dot(graph, options), graph),
        )


def write_frames(trace, directory, steps=None, options: Options | None = None, fmt: str = "svg") -> list:
    """Write one file per step into ``directory`` (``step_0000.svg``...); returns the paths written."""
    if fmt not in FORMATS:
        raise ValueError(f"unsupported frame format {fmt!r}; choose from {', '.join(FORMATS)}")
    os.makedirs(directory, exist_ok=True)
    width = max(4, len(str(len(trace.events) - 1)))
    paths = []
    for frame in frames(trace, steps, options):
        path = os.path.join(os.fspath(directory), f"step_{frame.step:0{width}d}.{fmt}")
        frame.diagram.save(path, fmt)
        paths.append(path)
    return paths
