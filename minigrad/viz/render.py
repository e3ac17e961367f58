"""Lay out and render DOT text in-process with pygraphviz's bundled Graphviz (no system install)."""

from __future__ import annotations

import contextlib
import io

__all__ = ["FORMATS", "render", "agraph"]

#: Output formats by file suffix. ``dot``/``gv`` are the DOT source itself.
FORMATS = {"svg": "svg", "png": "png", "pdf": "pdf", "jpg": "jpg", "jpeg": "jpg", "dot": "dot", "gv": "dot"}


def agraph(source: str):
    """A pygraphviz ``AGraph`` parsed from DOT text (pygraphviz is imported here, not at package import)."""
    import pygraphviz

    return pygraphviz.AGraph(string=source)


def render(source: str, fmt: str, prog: str = "dot") -> bytes:
    """Lay out ``source`` with Graphviz program ``prog`` and return the rendered bytes in ``fmt``."""
    if fmt not in FORMATS.values():
        raise ValueError(f"unsupported diagram format {fmt!r}; choose from {', '.join(sorted(set(FORMATS.values())))}")
    if fmt == "dot":
        return source.encode()
    graph = agraph(source)
    # pygraphviz prints a "may take a long time" note above 1 000 nodes; diagrams are capped by max_nodes
    with contextlib.redirect_stderr(io.StringIO()):
        return graph.draw(format=fmt, prog=prog)
