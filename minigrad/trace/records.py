"""Compact event records: what a recording keeps while the program runs, built into typed events when read.

Making a frozen dataclass per event (and per node, and per value) while the program runs was most of
what ``record()`` cost on a chain of small ops. A recording keeps instead one tuple per event,
``(kind, seq, pass_id, depth, *values)``: the event's kind, its numbering and its fields' values in
their order, with node ids, shapes and the values' snapshots as the converter took them (each value is
copied, or summarised, when the event happens: later writes must not change what was recorded). A value travels as a
snapshot record (:func:`~minigrad.trace.snapshot.snapshot_record`), a captured value as
``("$cap", name, kind, tensor_id, value, text)``; a ``node_created`` record holds the node's id, ``late``, then
:class:`~minigrad.trace.events.NodeInfo`'s fields after its id, its source line as file, line and function, all
in the record itself.
Records are tuples of plain values (strings, numbers, arrays), not dicts or lists, so that the cyclic
garbage collector stops tracking them the first time it sees them: a long recording's records add
nothing to the full collections that walk every tracked object. :attr:`~minigrad.trace.trace.Trace.events`
builds the typed events the first time a viewer asks for them; what it builds is what an eager
recording would have made.
"""

from __future__ import annotations

import linecache

from . import events as E
from .snapshot import SNAPSHOT_TAG, built_snapshot

__all__ = ["build", "CAPTURED_TAG"]

CAPTURED_TAG = "$cap"


def _source(where) -> E.SourceLocation | None:
    if where is None:
        return None
    file, line, function = where
    return E.SourceLocation(file, line, linecache.getline(file, line).strip(), function)


def _value(v, memo: dict):
    """A field's value with its snapshot and captured records built."""
    if type(v) is tuple and v:
        tag = v[0]
        if tag is SNAPSHOT_TAG:
            return built_snapshot(v, memo)
        if tag is CAPTURED_TAG:
            _, name, what, tensor_id, value, text = v
            return E.Captured(name, what, tensor_id, None if value is None else built_snapshot(value, memo), text)
        for x in v:
            if type(x) is tuple:
                return tuple([_value(x, memo) for x in v])
    return v


def build(record, memo: dict | None = None) -> E.Event:
    """The typed event of one compact record. ``memo`` (a dict, empty at first): records built with the
    same one share the snapshots their events shared when they were recorded."""
    kind, seq, pass_id, depth, *values = record
    memo = {} if memo is None else memo
    if kind == "node_created":
        # the node's id, late, then NodeInfo's fields after its id, the source line as file, line, function
        nid, late, name, op, parents, shape, dtype, device, rg, leaf, data, file, line, function, info_pass, version = (
            values
        )
        source = None if file is None else _source((file, line, function))
        data = built_snapshot(data, memo)
        info = E.NodeInfo(nid, name, op, parents, shape, dtype, device, rg, leaf, data, source, info_pass, version)
        return E.NodeCreated(seq, pass_id, depth, nid, info, late)
    values = [_value(v, memo) for v in values]
    return E.EVENT_TYPES[kind](seq, pass_id, depth, *values)
