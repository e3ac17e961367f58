"""Where a node stands at a step: the one status vocabulary of every viewer.

``Trace.state_at(k).nodes[id].status`` is a :class:`NodeStatus`; the debugger's
graph and tree, the diagrams, the HTML player and the notebook colour nodes by it
(each viewer keeps its own colours, keyed by these members). Whether a node's
closure was freed (retain_graph=False) is a separate flag, ``NodeState.freed``:
a node can be done and freed at once.
"""

from __future__ import annotations

from enum import Enum

__all__ = ["NodeStatus"]


class NodeStatus(str, Enum):
    """A node's status in the pass a viewer shows (a ``str``: ``NodeStatus.DONE == "done"``)."""

    FORWARD = "forward"
    UNTOUCHED = "untouched"
    PENDING = "pending"
    ACTIVE = "active"
    DONE = "done"
    FAILED = "failed"

    @property
    def meaning(self) -> str:
        """What the status means, in a legend's words."""
        return _MEANINGS[self]

    def __str__(self) -> str:
        return self.value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)


_MEANINGS = {
    NodeStatus.FORWARD: "forward code: no pass is shown",
    NodeStatus.UNTOUCHED: "not reached yet",
    NodeStatus.PENDING: "gradient waiting",
    NodeStatus.ACTIVE: "being processed now",
    NodeStatus.DONE: "finished",
    NodeStatus.FAILED: "the pass raised here",
}
