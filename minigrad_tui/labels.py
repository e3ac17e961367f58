"""Short values for graph labels: ``[0.3, -0.7] g=[0.1, 0.9]`` or ``(64, 10) |g|=0.42``."""

from __future__ import annotations

from minigrad.trace.values import format_array

SMALL = 3  # tensors with at most this many elements show their values
WIDTH = 28  # ... when their values fit this many characters (else as a larger tensor: its shape, |g|)


def _short(snap, grad: bool) -> str:
    text = format_array(snap.values, WIDTH) if snap.size <= SMALL and not snap.summarised else None
    if text is not None:
        return text
    if grad:
        return f"|g|={snap.describe().norm:.2g}"
    return str(tuple(snap.shape))


def short_value(node_state) -> str:
    """A node's value and, once it has one, its gradient in this pass (else its ``.grad``)."""
    text = _short(node_state.data, False)
    g = node_state.pass_grad if node_state.pass_grad is not None else node_state.grad
    if g is None:
        return text
    g_text = _short(g, True)
    return f"{text} {g_text}" if g_text.startswith("|g|") else f"{text} g={g_text}"


def value_key(node_state) -> tuple:
    """Changes whenever :func:`short_value` may (snapshots are immutable, so identity will do)."""
    return (id(node_state.data), id(node_state.grad), id(node_state.pass_grad))
