"""Graphviz diagrams of a computation graph, live or at any step of a recorded backward pass.

>>> import minigrad as mg
>>> from minigrad import viz
>>> a = mg.tensor(2.0, requires_grad=True, name="a")
>>> d = viz.draw(a * 3.0 + 1.0)
>>> d.source.startswith("digraph")
True

``draw`` returns a :class:`Diagram` (``.source``, ``.svg()``, ``.png()``,
``.save(path)``, Jupyter display). For a recorded trace, ``frames``/``write_frames``
give one diagram per step and ``write_html`` one self-contained page that steps
through them. Layout and rendering run in-process through
pygraphviz's bundled Graphviz; pygraphviz is imported only when something is
rendered or laid out, and ``import minigrad`` never imports this package.
"""

from __future__ import annotations

from .diagram import Diagram
from .frames import Frame, frames, write_frames
from .options import DEFAULT_FIELDS, FIELDS, Options
from .player import player_html, write_html

__all__ = [
    "draw",
    "Diagram",
    "Options",
    "FIELDS",
    "DEFAULT_FIELDS",
    "Frame",
    "frames",
    "write_frames",
    "player_html",
    "write_html",
    "layout_graph",
]


def draw(
    root,
    step: int | None = None,
    *,
    rankdir: str = "LR",
    fields=DEFAULT_FIELDS,
    captured: bool = False,
    max_nodes: int | None = 500,
    precision: int = 4,
    max_inline: int = 6,
    op_nodes: bool = True,
    legend: bool = True,
    title: str | None = None,
    options: Options | None = None,
) -> Diagram:
    """Draw a graph: ``root`` is a tensor (or a list of tensors), or a recorded trace with ``step``.

    A tensor is drawn with its graph as it stands now (everything reachable
    through ``.parents``). A trace is drawn as it was after event ``step``
    (default: the last): the node being processed, the edge carrying a gradient
    with its contribution, finished and unreached nodes, grad()'s saved and
    restored ``.grad`` values, and the nodes built by nested (create_graph) passes.

    Options:
        rankdir: ``"LR"`` (left to right, default) or ``"TB"`` (top to bottom; also RL, BT).
        fields: which of ``name, op, shape, dtype, device, data, grad`` a box shows.
        captured: also show the values each backward closure captured.
        max_nodes: draw at most this many tensors (nearest the output first); the rest
            become one "… N nodes not shown" marker. ``None`` draws everything.
        precision: significant digits of numbers.
        max_inline: arrays with at most this many elements are shown in full, larger
            ones as mean/std/min/max.
        op_nodes: draw each op as its own small node between tensor boxes (micrograd
            style); False merges the op into the box it produced.
        legend: add a legend of the colours used.
        title: a caption above the diagram (for a trace, the default is the step's event).
        options: an :class:`Options` to use instead of the keyword arguments above.
    """
    options = options or Options(
        rankdir=rankdir,
        fields=fields,
        captured=captured,
        max_nodes=max_nodes,
        precision=precision,
        max_inline=max_inline,
        op_nodes=op_nodes,
        legend=legend,
        title=title,
    )
    from .dot import to_dot

    graph = _build(root, step, options)
    return Diagram(to_dot(graph, options), graph)


def _build(root, step, options: Options):
    from ..tensor import Tensor

    if isinstance(root, Tensor) or (
        isinstance(root, (list, tuple)) and root and all(isinstance(r, Tensor) for r in root)
    ):
        if step is not None:
            raise TypeError("draw(): step= applies to a recorded trace, not to a tensor")
        from .live import graph_of_tensors

        roots = [root] if isinstance(root, Tensor) else list(root)
        return graph_of_tensors(roots, options.max_nodes, options.captured)
    if hasattr(root, "events") and hasattr(root, "state_at"):
        from .steps import graph_at_step

        return graph_at_step(root, step, options)
    raise TypeError(f"draw(): expected a Tensor, a list of Tensors or a recorded Trace, got {type(root).__name__}")


def layout_graph(*args, **kwargs):
    """See :func:`minigrad.viz.layout.layout_graph` (imported lazily)."""
    from .layout import layout_graph as impl

    return impl(*args, **kwargs)
