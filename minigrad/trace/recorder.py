"""listen() and record(): subscribe to typed events, or collect them into a Trace."""

from __future__ import annotations

import threading
import warnings
from contextlib import contextmanager

from .. import _events
from .budget import DEFAULT_MAX_BYTES, Budget
from .convert import Converter, claim_thread, release_thread
from .snapshot import DEFAULT_MAX_VALUES
from .trace import Trace

__all__ = ["listen", "record", "TraceBudgetWarning"]


def _thread_filter(all_threads: bool):
    return None if all_threads else {threading.get_ident()}


@contextmanager
def listen(callback, *, max_values=DEFAULT_MAX_VALUES, sources=True, names=True, all_threads=False):
    """Call ``callback(event)`` with each typed event while the block runs.

    Options as for :func:`record`. Yields the :class:`~minigrad.trace.convert.Converter`.
    """
    conv = Converter(max_values=max_values, sources=sources, names=names, threads=_thread_filter(all_threads))

    def listener(kind, values):
        for ev in conv.handle(kind, values):
            callback(ev)

    claim_thread(conv)
    _events.add_listener(listener)
    try:
        yield conv
    finally:
        _events.remove_listener(listener)
        release_thread(conv)
        for ev in conv.flush():
            callback(ev)


class TraceBudgetWarning(RuntimeWarning):
    """A recording reached its memory budget and kept less than it was asked to (the message says what)."""


@contextmanager
def record(
    *,
    max_values=DEFAULT_MAX_VALUES,
    max_bytes=DEFAULT_MAX_BYTES,
    sources=True,
    names=True,
    all_threads=False,
    meta=None,
):
    """Record the events of the block into a :class:`~minigrad.trace.trace.Trace` (yielded at entry).

    ``max_values``: tensors with more elements are kept as summaries (default 1024).
    ``max_bytes``: the memory budget of the recording (default 256 MB). Beyond it, full
    values give way to summaries, then the oldest passes are dropped whole, so the trace
    stays within it however long the run (see :mod:`~minigrad.trace.budget`); one
    :class:`TraceBudgetWarning` at the end of the block says what was dropped,
    ``Trace.dropped`` which passes, and ``state_at`` says it for each step.
    ``sources``: record the user's file/line/text for each new node.
    ``names``: learn node names from the variables the user's code binds them to.
    ``all_threads``: record events from every thread, not only the one entering the block
    (except threads inside a recording of their own: each event goes to the recording of
    the thread that made it).
    ``meta``: a dict stored with the trace (and in its file header).
    """
    trace = Trace(meta=meta)
    conv = Converter(max_values=max_values, sources=sources, names=names, threads=_thread_filter(all_threads))
    budget = Budget(trace, conv, max_bytes)
    conv.record_sink = budget.append_record  # events built when the trace is read
    claim_thread(conv)
    _events.add_listener(conv)
    try:
        yield trace
    finally:
        _events.remove_listener(conv)
        release_thread(conv)
        conv.flush()
        budget.close()
        if trace.budget_message is not None:
            warnings.warn(f"minigrad.trace: {trace.budget_message}", TraceBudgetWarning, stacklevel=3)
