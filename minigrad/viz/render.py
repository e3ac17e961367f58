"""Lay out and render DOT text in-process with pygraphviz's bundled Graphviz (no system install)."""

from __future__ import annotations

import contextlib
import io

__all__ = ["FORMATS", "render", "agraph", "import_pygraphviz"]

#: Output formats by file suffix. ``dot``/``gv`` are the DOT source itself.
FORMATS = {"svg": "svg", "png": "png", "pdf": "pdf", "jpg": "jpg", "jpeg": "jpg", "dot": "dot", "gv": "dot"}


def import_pygraphviz():
    """pygraphviz, imported on first use (not at package import); an ImportError that says what to install.

    The wheel bundles Graphviz but links the system's GLib and X11 client libraries, which bare images lack.
    """
    try:
        import pygraphviz
    except ImportError as exc:
        raise ImportError(
            f"Graphviz could not be loaded ({exc}): minigrad draws graphs with pygraphviz, whose wheel needs the "
            "system's GLib and X11 client libraries (Debian/Ubuntu: apt install libglib2.0-0 libx11-6 libxext6 "
            "libxrender1)"
        ) from exc
    return pygraphviz


def agraph(source: str):
    """A pygraphviz ``AGraph`` parsed from DOT text."""
    return import_pygraphviz().AGraph(string=source)


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
