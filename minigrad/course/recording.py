"""Record a lesson's demo (or any call) as a trace, and look events up in it, for prediction checks.

A prediction exercise asks the learner what the engine *will* do ("the gradient
entering ``a``", "how many contributions reach ``h``"); its check records the
run with :func:`minigrad.trace.record` and compares the answer with the events.
"""

from __future__ import annotations

import contextlib
import io
import runpy
import sys

import numpy as np

__all__ = ["record_demo", "record_call", "incoming_grads", "contributions_into", "pass_ids", "as_array"]


def record_demo(lesson=None, argv: tuple = ()):
    """Run ``lesson``'s demo.py (a Lesson or a lesson number; in a lesson's checks, that lesson when
    omitted) under ``trace.record()``; its output is discarded."""
    from minigrad.trace import record

    from .checking import this_lesson
    from .lessons import find_lesson

    if lesson is None:
        lesson = this_lesson()
    elif isinstance(lesson, int):
        lesson = find_lesson(lesson)
    saved_argv = sys.argv
    sys.argv = [str(lesson.demo), *argv]
    try:
        with contextlib.redirect_stdout(io.StringIO()), record() as trace:
            runpy.run_path(str(lesson.demo), run_name="__main__")
    finally:
        sys.argv = saved_argv
    return trace


def record_call(fn, *args, **kwargs):
    """``(trace, result)`` of ``fn(*args, **kwargs)`` run under ``trace.record()``."""
    from minigrad.trace import record

    with record() as trace:
        result = fn(*args, **kwargs)
    return trace, result


def as_array(snapshot) -> np.ndarray:
    """The values of a recorded Snapshot (an error when only a summary was recorded)."""
    if snapshot is None:
        raise ValueError("no value was recorded here")
    if snapshot.values is None:
        raise ValueError(f"only a summary of this {list(snapshot.shape)} value was recorded")
    return np.asarray(snapshot.values)


def pass_ids(trace, kind: str | None = None) -> list[int]:
    """The ids of the trace's backward()/grad() passes, in the order they started (``kind``: filter)."""
    return [e.pass_id for e in trace.events if e.kind == "pass_started" and kind in (None, e.pass_kind)]


def incoming_grads(trace, node, pass_id: int | None = None) -> list[np.ndarray]:
    """The complete gradient entering ``node`` (id or name) in each pass, from its ``node_entered`` events."""
    return [as_array(e.grad) for e in trace.find("node_entered", node, pass_id)]


def contributions_into(trace, node, pass_id: int | None = None, into: str | None = None) -> list:
    """The ``grad_accumulated`` events whose target is ``node`` (id or name), in order."""
    target = trace.node(node).id
    return [
        e
        for e in trace.events
        if e.kind == "grad_accumulated"
        and e.target == target
        and (pass_id is None or e.pass_id == pass_id)
        and (into is None or e.into == into)
    ]
