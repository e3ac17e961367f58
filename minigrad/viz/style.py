"""Colours and line styles of a diagram, and the words its legend uses for them."""

from __future__ import annotations

from ..trace.status import NodeStatus

__all__ = [
    "ROLE_FILL",
    "ROLE_TEXT",
    "NESTED_FILL",
    "STATE_STYLE",
    "EDGE_STYLE",
    "GRAD_COLOR",
    "SAVED_FILL",
    "RESTORED_FILL",
]

#: Box fill per tensor role.
ROLE_FILL = {
    "param": "#cfe2ff",
    "input": "#e9ecef",
    "intermediate": "#fff6d5",
    "output": "#d3f2d3",
}
ROLE_TEXT = {
    "param": "leaf parameter (requires grad)",
    "input": "input / constant (no grad)",
    "intermediate": "intermediate",
    "output": "output",
}
#: Fill of tensors built during a backward pass (create_graph=True, or by a hook or closure).
NESTED_FILL = "#eadcf8"

#: Box border per node status at a step (FORWARD: the plain look): (border colour, pen width, style, font colour).
STATE_STYLE = {
    NodeStatus.ACTIVE: ("#d62728", 3.0, "rounded,filled", "#000000"),
    NodeStatus.PENDING: ("#ff7f0e", 2.0, "rounded,filled", "#000000"),
    NodeStatus.DONE: ("#2ca02c", 2.0, "rounded,filled", "#000000"),
    NodeStatus.UNTOUCHED: ("#9e9e9e", 1.0, "rounded,filled,dashed", "#7a7a7a"),
    NodeStatus.FAILED: ("#8b0000", 3.0, "rounded,filled,bold", "#8b0000"),
}
#: Edge look per edge state: (colour, pen width).
EDGE_STYLE = {
    None: ("#555555", 1.0),
    NodeStatus.ACTIVE: ("#d62728", 2.5),
    NodeStatus.DONE: ("#2ca02c", 1.5),
}
GRAD_COLOR = "#b22222"
TANGENT_COLOR = "#1f5fbf"  # forward mode: tangents travel with the arrows, gradients against them
SAVED_FILL = "#c9f1f5"
RESTORED_FILL = "#e2f0d9"
