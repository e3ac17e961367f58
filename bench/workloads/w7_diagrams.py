"""W7 diagrams: render a recorded trace's 1 000-node graph to SVG (W7a), and every frame of a
200-step trace (W7b), with minigrad.viz (Graphviz through pygraphviz, in-process)."""

from __future__ import annotations

from . import Skip

PEERS = ("minigrad",)


def chain_trace(nodes: int):
    """A recorded forward and backward pass of a chain of ``nodes`` tensors (x * 1.0001 ... then sum)."""
    import minigrad as mg
    from minigrad.trace import record

    with record() as trace:
        x = mg.tensor([0.5, -0.25], requires_grad=True, name="x")
        h = x
        for _ in range(nodes - 2):
            h = h * 1.0001
        h.sum().backward()
    return trace


def import_viz():
    try:
        from minigrad import viz
        from minigrad.trace import record  # noqa: F401
    except ImportError as exc:
        raise Skip(f"minigrad.viz / minigrad.trace are not there yet ({exc})") from None
    return viz
