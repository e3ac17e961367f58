"""Where each movement key lands, searched in the recorded events.

Every forward movement is a predicate over events: the first recorded event
after the cursor that satisfies it is the destination. When none is recorded yet
and the script is still running, the runner keeps releasing the script until an
event satisfies the same predicate, so live stepping and replay agree.
"""

from __future__ import annotations


class Movement:
    """A named forward movement: ``matches(event)`` says whether it stops there."""

    def __init__(self, name: str, matches, target=None) -> None:
        self.name = name
        self.matches = matches
        self.target = target

    def __repr__(self) -> str:
        return f"Movement({self.name})"


def step_into() -> Movement:
    return Movement("step", lambda e: True)


def next_event(depth: int) -> Movement:
    """pdb's next: the next event not inside a pass nested deeper than ``depth``.

    At the top level (``depth`` 0, the forward part) that includes the events of
    the top-level pass, so ``n`` walks a backward() event by event.
    """
    limit = max(depth, 1)
    return Movement("next", lambda e: e.depth <= limit)


def return_from(pass_id, depth: int) -> Movement:
    """pdb's return: to the end of the current pass (in the forward part, of the next top-level pass)."""
    if pass_id is None:
        return Movement("return", lambda e: e.kind in ("pass_finished", "error") and e.depth <= 1)
    return Movement("return", lambda e: e.kind in ("pass_finished", "error") and e.pass_id == pass_id)


def next_node() -> Movement:
    return Movement("next node", lambda e: e.kind == "node_entered")


def finish_node(node, pass_id) -> Movement:
    """Until ``node`` is finished in ``pass_id`` (or the pass ends, should it raise)."""

    def matches(e) -> bool:
        if e.pass_id != pass_id:
            return False
        return (e.kind == "node_finished" and e.node == node) or e.kind in ("pass_finished", "error")

    return Movement("finish", matches)


def run_to(node) -> Movement:
    """Until the pass enters ``node``."""
    return Movement("run to", lambda e: e.kind == "node_entered" and e.node == node, node)


def continue_to(breakpoints, hits) -> Movement:
    """Until a breakpoint or an error (``breakpoints`` is read at each event, so edits apply at once;
    ``hits``: the :class:`~minigrad.trace.breakpoints.HitCounter` of the trace)."""
    return Movement("continue", lambda e: e.kind == "error" or hits.first(breakpoints, e) is not None)


def stops_at(event) -> bool:
    """Whether a movement may stop at ``event``: a node's naming is part of its creation step."""
    return event.kind != "node_named"


def search(events: list, start: int, movement: Movement) -> int | None:
    """The first index >= ``start`` whose event the movement stops at, or None."""
    for i in range(start, len(events)):
        e = events[i]
        if e.kind != "node_named" and movement.matches(e):
            return i
    return None
