"""Turn the engine's raw events (live objects) into typed, immutable records.

A :class:`Converter` is registered on the raw bus (``minigrad._events``). For
each raw event it snapshots the values, registers nodes it has not seen yet
(tensors made before recording began arrive as ``node_created`` with
``late=True``, parents first), looks up the user's source line for new nodes,
and learns variable names: a node made by a statement is matched against the
statement's frame locals once that frame has moved to another line. What must be
taken at once (values, lines, names) is taken while the event happens; a recording
keeps it as compact records (:mod:`~minigrad.trace.records`) that become typed
events when they are read.
"""

from __future__ import annotations

import dataclasses
import inspect
import math
import os
import sys
import textwrap
import threading
import types
import weakref
from threading import get_ident

import numpy as np

from .. import _state, _versions
from .. import backend as B
from ..ops.declare import declared_saves
from ..tensor import Tensor, shape_str
from . import events as E
from .budget import EVENT_BYTES, NODE_BYTES, SNAPSHOT_BYTES, STATS_BYTES
from .function_names import input_names, saved_names
from .records import CAPTURED_TAG
from .records import build as build_record
from .snapshot import DEFAULT_MAX_VALUES, snapshot_record, type_name
from .tracebacks import live_frames, stack_ids, user_traceback

__all__ = ["Converter", "claim_thread", "release_thread"]

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_EXAMPLES_DIR = os.path.join(_PACKAGE_DIR, "examples") + os.sep  # the built-in examples are user code
# the lessons a wheel carries are the learner's code too (demos, exercises), not minigrad's machinery
_LESSONS_DIR = os.path.join(_PACKAGE_DIR, "course", "_lessons") + os.sep
# tensors made through these (creation functions, ops, and this recorder's own frames) count as the user's
_USER_FACING_DIRS = frozenset({_PACKAGE_DIR} | {os.path.join(_PACKAGE_DIR, d) + os.sep for d in ("ops", "trace")})
_PENDING_MAX_AGE = 256  # events after which an unresolved statement's frame is released
_SUMMARIES_KEPT = 4096  # summaries kept for a value shown again (Converter._summary_record) at most
_REPR_CHARS = 80
_closure_cache: dict = {}  # id(code) -> (code, its ClosureInfo) (closure_info)
# engines of the user's own that emit through minigrad.trace.emit: the code of their node types' methods
# (and of whatever calls emit.node) is skipped like minigrad's own when looking for the user's line.
# SHADOWS maps id(their node) to the Tensor standing for it, SHADOW_OWNERS id(that Tensor) to their node
# (a weak reference to it, where it takes one).
ENGINE_CODES: set = set()
SHADOWS: dict = {}
SHADOW_OWNERS: dict = {}


_clock = _versions.clock  # clock.last: the stamp of the latest in-place write anywhere


_claims: dict = {}  # thread ident -> the converters recording that thread as their own
_claims_lock = threading.Lock()


def claim_thread(conv, ident: int | None = None) -> None:
    """Make thread ``ident`` (default: this one) ``conv``'s own: a converter recording every
    thread leaves that thread's events to the converters that claim it."""
    ident = threading.get_ident() if ident is None else ident
    with _claims_lock:
        _claims[ident] = (*_claims.get(ident, ()), conv)


def release_thread(conv, ident: int | None = None) -> None:
    """Undo :func:`claim_thread`."""
    ident = threading.get_ident() if ident is None else ident
    with _claims_lock:
        owners = tuple(c for c in _claims.get(ident, ()) if c is not conv)
        if owners:
            _claims[ident] = owners
        else:
            _claims.pop(ident, None)


def _is_internal(filename: str) -> bool:
    return filename.startswith(_PACKAGE_DIR) and not filename.startswith((_EXAMPLES_DIR, _LESSONS_DIR))


# Tables per code object are keyed by its id and hold (the code, its value): a code object hashes its
# constants, names and bytecode at every lookup (about 0.6 us; several a recorded op).
_internal_codes: dict = {}  # id(code) -> (code, _is_internal(its file)), once per code


def _by_code(table: dict, code):
    """``table``'s value for ``code`` (a table keyed as above), or None."""
    hit = table.get(id(code))
    return hit[1] if hit is not None and hit[0] is code else None


_TRACE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep
_BUS_FILE = os.path.join(_PACKAGE_DIR, "_events.py")


def _emitting_frame(frame):
    """The innermost frame at or above ``frame`` outside the event bus and the listeners of minigrad.trace
    (a recording, ``listen``, the debugger's stepper): the frame that emitted the event being handled."""
    while frame is not None and (
        frame.f_code.co_filename.startswith(_TRACE_DIR) or frame.f_code.co_filename == _BUS_FILE
    ):
        frame = frame.f_back
    return frame


def foreign_shadow(obj):
    """The Tensor standing for a node of another engine (minigrad.trace.emit), or None."""
    t = SHADOWS.get(id(obj))
    if t is None:
        return None
    owner = SHADOW_OWNERS[id(t)]
    return t if (owner() if isinstance(owner, weakref.ref) else owner) is obj else None


def user_frame(start):
    """The innermost frame at or above ``start`` whose code is not inside the minigrad package
    (nor inside an engine emitting through minigrad.trace.emit)."""
    f, internal_codes = start, _internal_codes
    while f is not None:
        code = f.f_code
        hit = internal_codes.get(id(code))
        if hit is not None and hit[0] is code:
            internal = hit[1]
        else:
            internal = _is_internal(code.co_filename)
            internal_codes[id(code)] = (code, internal)
        if not internal and (not ENGINE_CODES or code not in ENGINE_CODES):
            return f
        f = f.f_back
    return None


def _made_by_library(frame) -> bool:
    """True when a tensor is made inside minigrad's own machinery (engine, nn, optim, ...),
    not directly by the user's call of a creation function or an op."""
    f = frame
    while f is not None:
        place = _place(f.f_code)
        if place != "facing":
            return place == "library"
        f = f.f_back
    return True


_places: dict = {}  # id(code) -> (code, its place) (see _place)


def _place(code) -> str:
    """Where a function lives: "user" code, "facing" the user (creation functions, ops, the recorder) or
    minigrad's "library" machinery (cached per code object)."""
    place = _by_code(_places, code)
    if place is None:
        name = code.co_filename
        if not _is_internal(name):
            place = "user"
        elif os.path.dirname(name) + os.sep in _USER_FACING_DIRS:
            place = "facing"
        else:
            place = "library"
        _places[id(code)] = (code, place)
    return place


def closure_info(fn) -> E.ClosureInfo | None:
    """Source, name and line range of a backward closure (cached per code object).

    A custom Function's closure is one wrapper for every Function, pointing at the user's
    ``backward`` through ``__wrapped__``: the cache key is the code that runs, unwrapped."""
    code = getattr(fn if getattr(fn, "__wrapped__", None) is None else inspect.unwrap(fn), "__code__", None)
    if code is None:
        return None
    info = _by_code(_closure_cache, code)
    if info is None:
        try:
            lines, first = inspect.getsourcelines(fn)
            source = textwrap.dedent("".join(lines))
        except (OSError, TypeError):
            lines, first, source = [""], code.co_firstlineno, ""
        info = E.ClosureInfo(fn.__qualname__, code.co_filename, first, first + len(lines) - 1, source)
        _closure_cache[id(code)] = (code, info)
    return info


_FIELDS: dict = {}


def _own_fields(cls) -> tuple:
    """The names of an event class's fields after ``seq``, ``pass_id`` and ``depth``, in order."""
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls))[3:]
    return names


# id(code) of a rule -> (code, (whether it may be a custom Function's backward wrapper, ((cell index, name), ...) of
# the values its rules saved: saved_items's, and its ClosureInfo when read from a function without __wrapped__
# (or None): found once per code))
_rule_plans: dict = {}


def _rule_plan(fn, code) -> tuple:
    declared = declared_saves(fn)
    shown = tuple((i, name) for i, name in enumerate(code.co_freevars) if declared is None or name in declared)
    info = closure_info(fn) if getattr(fn, "__wrapped__", None) is None else None
    plan = {"args", "cls", "ctx"} <= set(code.co_freevars), shown, info
    _rule_plans[id(code)] = (code, plan)
    return plan


def _kept(table: dict, arr, key=None):
    """The snapshot record ``table`` keeps for this array object (under ``key``, its id by default) while its version
    holds, or None. No write anywhere since it was kept (the clock of in-place writes has not moved) answers without
    reading the version."""
    entry = table.get(id(arr) if key is None else key)
    if entry is None:
        return None
    held = entry[0]
    if held is not arr and (type(held) is not weakref.ref or held() is not arr):
        return None
    if entry[1] != _clock.last and entry[2] != _versions.version(arr):
        return None
    return entry[3]


def _keep(table: dict, arr, snap: tuple, key=None) -> None:
    """Keep ``snap`` in ``table`` for this array object at its version (under ``key``, its id by default). A value copied whole that owns its
    memory is held (it is no larger than its copy, and a weak reference is an object the garbage collector
    tracks: a pass's thousands of them made its collections walk them all); a summarised one, or a view that
    would keep a larger array alive, by a weak reference (a recording must not keep a model's activations
    alive)."""
    key = id(arr) if key is None else key
    if snap[4] is not None and arr.base is None:
        table[key] = (arr, _clock.last, _versions.version(arr), snap)
        return
    try:
        table[key] = (weakref.ref(arr), _clock.last, _versions.version(arr), snap)
    except TypeError:  # an array type without weak references: not kept
        pass


def _whole_memory(arr) -> tuple:
    """``(key, owner)`` of a C-contiguous NumPy array over all of its owner's memory, C-contiguous too, else
    ``(None, None)``: any two such arrays of one owner and dtype hold the same values in the same order (each is a
    reshape of the other), so they have one summary, kept for the owner under that key (``_kept``, ``_keep``)."""
    if type(arr) is not np.ndarray or not arr.flags.c_contiguous:
        return None, None
    owner = arr if arr.base is None else _versions.owner_of(arr)
    if type(owner) is not np.ndarray or owner.nbytes != arr.nbytes or not owner.flags.c_contiguous:
        return None, None
    return ("memory", id(owner), arr.dtype), owner


def _unknown_ancestors(node, known: set) -> list:
    """``node`` and its ancestors whose ids are not in ``known``, parents before children."""
    order = []
    stack = [(node, iter(node.parents))]
    seen = {node.id}
    while stack:
        n, parents = stack[-1]
        for p in parents:
            if p.id not in known and p.id not in seen:
                seen.add(p.id)
                stack.append((p, iter(p.parents)))
                break
        else:
            stack.pop()
            order.append(n)
    return order


def _captured_record(name, kind, tensor_id=None, value=None, text=None) -> tuple:
    """A compact record of an :class:`~minigrad.trace.events.Captured` (built with its event)."""
    return (CAPTURED_TAG, name, kind, tensor_id, value, text)


_PLAIN_REPR = frozenset({int, float, bool, complex, str, type(None)})  # repr not touched by NumPy's print options
_OWN_REPR = (np.dtype, B.Device)  # nor are these reprs (NumPy's print options as a context cost 10-20 us a value)
_GROUPS = (dict, list, tuple)


def _short_repr(v) -> str:
    try:
        if (
            type(v) in _PLAIN_REPR
            or isinstance(v, _OWN_REPR)
            or (type(v) is tuple and all(type(x) in _PLAIN_REPR for x in v))
        ):
            text = repr(v)  # (a shape, say)
        elif type(v) in _GROUPS and any(_large(x) for x in (v.values() if type(v) is dict else v)):
            text = _group_text(v)
        else:
            with np.printoptions(threshold=_REPR_CHARS // 4, edgeitems=3):  # no full text of a large array
                text = repr(v)
    except Exception as exc:  # a broken __repr__ must not break recording
        text = f"<{type(v).__name__}: repr failed: {exc}>"
    return text if len(text) <= _REPR_CHARS else text[: _REPR_CHARS - 3] + "..."


def _large(x) -> bool:
    return isinstance(x, Tensor) and x.array.size > _REPR_CHARS // 4


def _group_text(v) -> str:
    """A dict, list or tuple holding a tensor of more values than a short text shows (a split's gradients
    waiting for its hub, say), written as its repr but with each such tensor as its dtype and shape: a
    tensor's repr formats every value it prints to find their common width (about 1 ms for one of
    [8, 64, 128]), only for the text to be cut after its first few."""
    parts, length = [], 0
    items = v.items() if type(v) is dict else ((None, x) for x in v)
    for key, x in items:
        item = f"tensor({type_name(x.array.dtype)}{shape_str(x.array.shape)})" if _large(x) else _short_repr(x)
        parts.append(item if type(v) is not dict else f"{_short_repr(key)}: {item}")
        length += len(parts[-1]) + 2
        if length > _REPR_CHARS:  # the rest is cut anyway
            parts.append("...")
            break
    body = ", ".join(parts)
    if type(v) is dict:
        return "{" + body + "}"
    if type(v) is list:
        return "[" + body + "]"
    return "(" + body + ("," if len(v) == 1 else "") + ")"


_HANDLERS: dict = {}  # converter class -> {raw kind: its _on_<kind> function}


def _handlers_of(cls) -> dict:
    handlers = _HANDLERS.get(cls)
    if handlers is None:
        handlers = _HANDLERS[cls] = {
            name[len("_on_") :]: getattr(cls, name) for name in dir(cls) if name.startswith("_on_")
        }
    return handlers


class Converter:
    """Raw-event listener producing :mod:`~minigrad.trace.events` records.

    A converter is a raw-bus listener (``converter(kind, values)``, :mod:`minigrad._events`): each raw event
    becomes its typed events (possibly several: late nodes and names come first), passed to ``sink``;
    ``handle(kind, values)`` also returns them. It is safe to call from several threads. ``threads``: a set
    of thread idents to record, or None for every thread not claimed by another converter
    (:func:`claim_thread`). With ``record_sink`` set, each event goes there as a compact record instead
    (:mod:`~minigrad.trace.records`: built into its typed event when read) and ``handle`` returns nothing.
    """

    def __init__(self, sink=None, *, max_values=DEFAULT_MAX_VALUES, sources=True, names=True, threads=None):
        if not isinstance(max_values, int) or max_values < 0:
            raise ValueError(f"max_values must be a non-negative int, got {max_values!r}")
        self.max_values = max_values
        self.sources = sources
        self.names = names
        self.threads = threads
        self.sink = sink
        self.record_sink = None  # given compact records instead (minigrad.trace.records): handle() returns none
        # the bytes the events delivered so far hold, as the memory budget counts them: a fixed cost per event
        # and per node record, and each snapshot once however often shared
        self.recorded_bytes = 0
        self.marks = None  # a memory budget's array: recorded_bytes is appended to it after each event
        self.byte_limit = math.inf  # and when recorded_bytes passes this, over_budget() is called
        self.over_budget = None
        self._recording_began = stack_ids()  # an error's traceback leaves out the callers of the recording
        self._count = 0
        self._known: set = set()
        self._name_of: dict = {}
        self._passes_of: dict = {}  # thread ident -> ids of its active passes, outermost first
        self._pending: dict = {}  # frame -> [line, first seq, [weakref to node]]
        self._lock = threading.RLock()
        self._out: list | None = None  # the events handle() returns (None outside it: nothing collects them)
        self._depth = 0
        self._shared: dict = {}  # id(array) -> (it or a weak reference to it, clock, version, snapshot record)
        self._built: dict = {}  # the snapshots built for _shared's records (events delivered built)
        self._summaries: dict = {}  # id(array) -> as _shared's, of summaries (_summary_record)
        # kind -> the function handling it (the class's, not bound methods: those would hold the converter, and
        # the trace its budget reaches, in a cycle that only a full garbage collection frees)
        self._handlers = _handlers_of(type(self))

    # ------------------------------------------------------------ entry points
    def handle(self, kind: str, values: tuple) -> list:
        """Handle one raw event; returns the typed events it made (none when they go to ``record_sink``)."""
        outer, out = self._out, []
        self._out = out  # a repr() of a captured value may make tensors: nested calls get their own list
        try:
            self(kind, values)
        finally:
            self._out = outer
        return out

    def __call__(self, kind: str, values: tuple) -> None:
        """The raw-bus listener: handle one event, its typed events going to ``sink`` or ``record_sink``."""
        threads = self.threads
        if threads is None:
            owners = _claims.get(get_ident())
            if owners is not None and self not in owners:
                return  # that thread records itself elsewhere
        elif get_ident() not in threads:
            return
        handler = self._handlers.get(kind)
        if handler is None:
            return  # a kind this recorder does not know (a newer engine); nothing to record
        if kind == "node_created" and values[1] and not values[0]._rg and not self._pending:
            return  # gradient arithmetic in a pass, and no name waiting: all _handle would do is nothing
        if threads is None or len(threads) > 1:  # events of several threads: one at a time
            with self._lock:
                self._handle(kind, handler, values)
        else:  # one thread's events come one at a time already
            self._handle(kind, handler, values)

    def _handle(self, kind, handler, values) -> None:
        outer_depth = self._depth
        depth = self._depth = values[1]  # the pass depth the event happened at
        try:
            if not depth or depth == 1 and kind == "pass_started":
                if self._shared:
                    self._shared.clear()
                if self._built:
                    self._built.clear()
            if self._pending:
                self._resolve_pending(force=False)
            handler(self, *values)
        finally:
            self._depth = outer_depth

    def flush(self) -> list:
        """Resolve every pending name now (call at the end of recording); returns the new records."""
        with self._lock:
            outer, out = self._out, []
            self._out = out
            try:
                self._resolve_pending(force=True)
            finally:
                self._out = outer
            return out

    # ------------------------------------------------------------ helpers
    @property
    def _passes(self) -> list:
        """This thread's active pass ids, outermost first (threads run passes independently)."""
        ident = threading.get_ident()
        passes = self._passes_of.get(ident)
        if passes is None:
            passes = self._passes_of[ident] = []
        return passes

    def _pass_at(self, depth: int):
        """The id of this thread's pass running at ``depth``, or None (outside passes)."""
        passes = self._passes
        return passes[depth - 1] if 0 < depth <= len(passes) else None

    def _pass_ended(self, depth: int) -> None:
        passes = self._passes
        del passes[depth - 1 :]
        if depth == 1:
            self._summaries.clear()  # a summary is not taken again past the end of a top-level pass
        if not passes:
            del self._passes_of[threading.get_ident()]  # a finished thread leaves nothing behind

    def _deliver(self, cls, pass_id, depth, **fields) -> None:
        """:meth:`_deliver_values` with the event's fields by name."""
        self._deliver_values(cls, pass_id, depth, *[fields[name] for name in _own_fields(cls)])

    def _deliver_values(self, cls, pass_id, depth, *values) -> None:
        """Number the next event and pass it on: its values in the order of the record's own fields."""
        record = (cls.kind, self._count, pass_id, depth) + values  # a concatenation: no list in between
        self._count += 1
        self.recorded_bytes += EVENT_BYTES
        record_sink = self.record_sink
        if record_sink is not None:  # a recording: the typed event is built when a viewer reads it
            record_sink(record)
        else:
            ev = build_record(record, self._built)
            if self._out is not None:
                self._out.append(ev)
            if self.sink is not None:
                self.sink(ev)
        marks = self.marks
        if marks is not None:  # a memory budget counts: the count after each event, a call past its limit
            recorded = self.recorded_bytes
            marks.append(recorded)
            if recorded > self.byte_limit:
                self.over_budget()

    def forget(self, nodes, count: int) -> None:
        """The trace dropped its oldest events and the records of ``nodes``, and now holds ``count`` events:
        number the next event ``count``, and register any of those nodes again (late) if it is seen again."""
        with self._lock:
            shift = self._count - count
            self._count = count
            for entry in self._pending.values():
                entry[1] -= shift
            self._known.difference_update(nodes)
            for nid in nodes:
                self._name_of.pop(nid, None)

    def _snap(self, t):
        """A snapshot record (:func:`~minigrad.trace.snapshot.snapshot_record`) of a tensor or array, shared
        with earlier events while it cannot have changed.

        Within one top-level pass the engine changes no value it has shown; only a hook or a custom
        Function could, and an in-place op there bumps the tensor's version. So the values (or summary)
        of the same array object at the same version are taken once and shared until the pass ends;
        any event outside a pass starts afresh (the user's code may have written to ``.array``), but for
        the summaries of large values (:meth:`_summary_record`).
        """
        if t is None:
            return None
        if type(t) is Tensor or isinstance(t, Tensor):
            arr, tensor_id = t.array, t.id
        else:
            arr, tensor_id = t, None
        depth = self._depth
        if depth:  # within a pass: shared with the pass's earlier events while the array is unchanged
            shared = self._shared
            entry = shared.get(id(arr))
            if entry is not None:
                # _kept's common case (held, and no write anywhere since) without its call
                snap = entry[3] if entry[0] is arr and entry[1] == _clock.last else _kept(shared, arr)
                if snap is not None:
                    if snap[6] == tensor_id:
                        return snap
                    snap = (*snap[:6], tensor_id)  # another tensor on the same array
                    self.recorded_bytes += SNAPSHOT_BYTES
                    _keep(shared, arr, snap)
                    return snap
        if arr.size > self.max_values:
            snap = self._summary_record(t, arr, tensor_id)
        else:
            snap = snapshot_record(t, self.max_values)
            self.recorded_bytes += SNAPSHOT_BYTES + snap[4].nbytes
        if depth:
            _keep(self._shared, arr, snap)
        return snap

    def _summary_record(self, t, arr, tensor_id) -> tuple:
        """:func:`~minigrad.trace.snapshot.snapshot_record` of a value above ``max_values``: its summary,
        taken once for the same array at the same version from its first event to the end of the next
        top-level pass.

        A summary is a pass over the values; the forward values a rule saved (its input, its weight, its
        output) are shown again by ``closure_called`` in the backward pass, and the array has not changed
        since unless its version moved (a write through minigrad) or the user's code wrote ``.array`` by
        hand in between, which the rule would then read too (as PyTorch's ``.data``). Nothing is kept past
        a top-level pass: a data loader may refill the same array by hand for the next step.
        """
        snap = _kept(self._summaries, arr)
        memory, owner = (None, None) if snap is not None else _whole_memory(arr)
        if memory is not None:
            snap = _kept(self._summaries, owner, memory)
            if snap is not None:  # another shape of the same values (a rule's reshape of its input, say)
                snap = (snap[0], arr.shape, *snap[2:])
                _keep(self._summaries, arr, snap)
        if snap is not None:
            self.recorded_bytes += SNAPSHOT_BYTES
            return snap if snap[6] == tensor_id else (*snap[:6], tensor_id)
        snap = snapshot_record(t, self.max_values)
        self.recorded_bytes += SNAPSHOT_BYTES + STATS_BYTES
        if len(self._summaries) >= _SUMMARIES_KEPT:  # a long run with no pass: no table growing with it
            self._summaries.clear()
        _keep(self._summaries, arr, snap)
        if memory is not None:
            _keep(self._summaries, owner, snap, memory)
        return snap

    def _ref(self, node) -> int:
        """Id of ``node``, registering it (and unknown ancestors) first; reports a ``name`` set later."""
        nid = node.id
        if nid not in self._known:
            self._register(node, late=True)
        elif node.name is not None and self._name_of.get(nid) != node.name:
            self._name_of[nid] = node.name
            self._deliver_values(E.NodeNamed, None, 0, nid, node.name)
        return nid

    def _register(self, node, late: bool) -> None:
        known = self._known
        for p in node.parents:
            if p.id not in known:
                order = _unknown_ancestors(node, known)
                break
        else:  # the common case: every parent is known
            order = (node,)
        depth = self._depth
        pass_id = self._pass_at(depth) if depth else None
        frame = None
        if (not late and self.sources) or self.names:
            # at or below the emitting frame: the handler, _handle and __call__ (_ref too, when late) are this
            # converter's, and each frame looked at is made a Python object (a cost per node)
            frame = user_frame(sys._getframe(4))
        line = None if frame is None else frame.f_lineno  # read once: a frame works its line out at each read
        name_of = self._name_of
        for n in order:
            is_new = n is node and not late
            data = self._snap(n)
            parents = n.parents
            known.add(n.id)
            if n.name is not None:
                name_of[n.id] = n.name
            self.recorded_bytes += NODE_BYTES
            # the record's fields: the node's id, late, then NodeInfo's fields after its id with its source line as
            # file, line and function (minigrad.trace.records builds them); no tuple of its own for the NodeInfo
            # nor its source line (a long recording's tracked objects are what the garbage collector walks)
            if is_new and frame is not None and self.sources:
                code = frame.f_code
                file, function = code.co_filename, code.co_name
            else:
                file = function = None
            self._deliver_values(
                E.NodeCreated,
                pass_id if is_new else None,
                depth if is_new else 0,
                n.id,
                not is_new,
                n.name,
                n.op,
                (parents[0].id,) if len(parents) == 1 else tuple([p.id for p in parents]),
                data[1],  # the shape, the snapshot's tuple (numpy makes one at each read)
                data[2],  # the dtype's and device's names, as the snapshot has them
                data[3],
                n._rg,
                n._backward is None,
                data,
                file,
                line if file is not None else None,
                function,
                pass_id if is_new else None,
                _versions.version(n.array),
            )
            if is_new and n.name is None and self.names and frame is not None:
                entry = self._pending.get(frame)
                if entry is None:
                    entry = self._pending[frame] = [line, self._count, []]
                entry[2].append(weakref.ref(n))
        if self.names and frame is not None and len(order) > (0 if late else 1):
            # tensors made before recording: the variables of the code that uses them now
            self._name_from_locals(frame, order if late else order[:-1])

    # ------------------------------------------------------------ names
    def _resolve_pending(self, force: bool) -> None:
        pending = self._pending
        if len(pending) == 1 and not force:  # one statement waiting (the common case): no list of them made
            ((frame, (line, first, refs)),) = pending.items()
            if frame.f_lineno == line and self._count - first < _PENDING_MAX_AGE:
                return
            del pending[frame]
            if len(refs) == 1 and not SHADOWS:
                self._name_one(frame, refs[0]())
            else:
                self._name_from_locals(frame, [r() for r in refs])
            return
        for frame, (line, first, refs) in list(pending.items()):
            if not force and frame.f_lineno == line and self._count - first < _PENDING_MAX_AGE:
                continue
            del pending[frame]
            self._name_from_locals(frame, [refs[0]()] if len(refs) == 1 else [r() for r in refs])

    def _name_one(self, frame, node) -> None:
        """:meth:`_name_from_locals` of one node of minigrad's (the common case: no tables)."""
        if type(node) is not Tensor or node.name is not None or self._name_of.get(node.id) is not None:
            return  # (a subclass's, a Parameter's, variable does not name it, as below; nor a dead node's)
        for var, value in frame.f_locals.items():
            if value is node and var != "_" and not var.startswith("__"):
                if node.id in self._known:
                    self._name_of[node.id] = var
                    self._deliver_values(E.NodeNamed, None, 0, node.id, var)
                return

    def _name_from_locals(self, frame, nodes) -> None:
        if len(nodes) == 1 and not SHADOWS:
            self._name_one(frame, nodes[0])
            return
        name_of = self._name_of
        wanted = {n.id: n for n in nodes if n is not None and n.name is None and name_of.get(n.id) is None}
        if not wanted:
            return
        by_object = {id(n): nid for nid, n in wanted.items()}
        if SHADOWS:
            for nid, n in wanted.items():
                owner = SHADOW_OWNERS.get(id(n))
                owner = owner() if isinstance(owner, weakref.ref) else owner
                if owner is not None:
                    by_object[id(owner)] = nid
        for var, value in frame.f_locals.items():
            if id(value) in by_object and var != "_" and not var.startswith("__"):
                if type(value) is not Tensor and foreign_shadow(value) is None:
                    continue
                nid = by_object.pop(id(value))
                if nid in self._known:
                    self._name_of[nid] = var
                    self._deliver_values(E.NodeNamed, None, 0, nid, var)
                if not by_object:
                    break

    # ------------------------------------------------------------ raw kinds
    def _on_node_created(self, node, depth) -> None:
        if not node._rg and (self._depth or _state.forward.in_rule or _made_by_library(sys._getframe(1))):
            return  # gradient arithmetic, seeds, optimizer updates: not part of a graph (recorded if one uses it)
        if node.id not in self._known:
            self._register(node, late=False)

    def _on_pass_started(self, pass_id, depth, kind, roots, seeds, inputs, options) -> None:
        del self._passes[depth - 1 :]
        self._passes.append(pass_id)
        root_ids = tuple(self._ref(r) for r in roots)
        input_ids = None if inputs is None else tuple(self._ref(t) for t in inputs)
        if self.names:
            frame = user_frame(sys._getframe(2))
            if frame is not None:
                self._name_from_locals(frame, list(roots) + list(inputs or ()))
        self._deliver(
            E.PassStarted,
            pass_id,
            depth,
            pass_kind=kind,
            roots=root_ids,
            seeds=tuple(self._snap(s) for s in seeds),
            inputs=input_ids,
            options=types.MappingProxyType(dict(options)),
        )

    def _on_grads_saved(self, pass_id, depth, saved, edges) -> None:
        saved = tuple((self._ref(t), self._snap(g)) for t, g in saved)
        edges = tuple(self._ref(n) for n in edges)
        self._deliver(E.GradsSaved, pass_id, depth, saved=saved, edges=edges)

    def _on_seeded(self, pass_id, depth, node, grad) -> None:
        nid = self._ref(node)
        self._deliver_values(E.Seeded, pass_id, depth, nid, self._snap(grad))

    # The four events of each node of a pass (node_entered, closure_called, grad_accumulated, node_finished)
    # take _ref's common case written out: a node known, with no name set since (a call less a node each).

    def _on_node_entered(self, pass_id, depth, node, grad) -> None:
        nid = node.id
        if nid not in self._known or node.name is not None:
            nid = self._ref(node)
        data = self._snap(node) if node._backward is None else None
        self._deliver_values(E.NodeEntered, pass_id, depth, nid, self._snap(grad), data)

    def _on_closure_called(self, pass_id, depth, node, fn, grad, outputs) -> None:
        nid = node.id
        if nid not in self._known or node.name is not None:
            nid = self._ref(node)
        snap = self._snap
        if len(outputs) == 1:  # a unary op's: no list made
            shown = (snap(outputs[0]) if isinstance(outputs[0], Tensor) else None,)
        else:
            shown = tuple([snap(o) if isinstance(o, Tensor) else None for o in outputs])
        code = getattr(fn, "__code__", None)
        if code is None:
            info, captured = closure_info(fn), ()
        else:  # the rule's source and what it saved: one lookup per call (a plan per code)
            hit = _rule_plans.get(id(code))
            wrapper, cells_shown, info = hit[1] if hit is not None and hit[0] is code else _rule_plan(fn, code)
            if info is None or getattr(fn, "__wrapped__", None) is not None:
                info = closure_info(fn)
            cells = getattr(fn, "__closure__", None)
            captured = self._captured(fn, code, cells, wrapper, cells_shown) if cells else ()
        self._deliver_values(E.ClosureCalled, pass_id, depth, nid, snap(grad), shown, info, captured)

    def _captured(self, fn, code, cells, wrapper, shown) -> tuple:
        """The captured records of a rule's cells ``shown`` (its plan's)."""
        if wrapper and getattr(fn, "__wrapped__", None) is not None:
            cell = dict(zip(code.co_freevars, cells))
            return self._function_captured(
                cell["cls"].cell_contents, cell["ctx"].cell_contents, cell["args"].cell_contents
            )
        out = []
        for index, name in shown:  # what the op declared its rule saves
            try:
                v = cells[index].cell_contents
            except ValueError:  # a cell not assigned yet
                continue
            kind = type(v)
            if kind is Tensor:  # the common cases first
                out.append((CAPTURED_TAG, name, "tensor", v.id, self._snap(v), None))
            elif kind in _PLAIN_REPR:  # a number, say: _short_repr's first case
                text = repr(v)
                out.append(
                    (CAPTURED_TAG, name, "value", None, None, text if len(text) <= _REPR_CHARS else _short_repr(v))
                )
            else:
                out.append(self._captured_other(name, v))
        return tuple(out)

    def _captured_other(self, name, v) -> tuple:
        if isinstance(v, weakref.ref):
            target = v()
            if target is None:
                return _captured_record(name, "dead")
            if isinstance(target, Tensor):
                return _captured_record(name, "weakref", target.id, self._snap(target))
            return _captured_record(name, "value", text=_short_repr(target))
        if isinstance(v, Tensor):
            return _captured_record(name, "tensor", v.id, self._snap(v))
        if SHADOWS and (shadow := foreign_shadow(v)) is not None:
            return _captured_record(name, "tensor", shadow.id, self._snap(shadow))
        if isinstance(v, np.ndarray) or B.is_cupy_array(v):
            return _captured_record(name, "array", value=self._snap(v))
        return _captured_record(name, "value", text=_short_repr(v))

    def _function_captured(self, cls, ctx, args) -> tuple:
        """What a custom Function's backward reads, by the names its source gives them: the saved tensors
        as ``backward`` unpacks them, what ``forward`` set on ``ctx`` (``ctx.k``), and the inputs by
        ``forward``'s parameter names (an input that is also saved is listed once, as saved)."""
        out, shown = [], set()
        saved = ctx._saved  # not ctx.saved_tensors: unpacking a saved output may make a node while recording
        names = saved_names(cls.backward)
        for i, t in enumerate(saved):
            name = names[i] if i < len(names) and names[i] else f"saved_tensors[{i}]"
            if isinstance(t, Tensor):
                out.append(_captured_record(name, "tensor", t.id, self._snap(t)))
                shown.add(t.id)
            else:
                out.append(_captured_record(name, "value", text="a saved output" if callable(t) else _short_repr(t)))
        for key, v in vars(ctx).items():
            if not key.startswith("_") and key not in ("needs_input_grad", "materialize_grads"):
                if isinstance(v, Tensor):
                    out.append(_captured_record(f"ctx.{key}", "tensor", v.id, self._snap(v)))
                else:
                    out.append(_captured_record(f"ctx.{key}", "value", text=_short_repr(v)))
        for name, v in zip(input_names(cls.forward, len(args)), args):
            if isinstance(v, Tensor):
                if v.id not in shown:
                    out.append(_captured_record(name, "tensor", v.id, self._snap(v)))
            else:
                out.append(_captured_record(name, "value", text=_short_repr(v)))
        return tuple(out)

    def _on_tangent_computed(self, node, depth, op, parents, tangents, tangent, fn, level) -> None:
        if node.id not in self._known:
            self._register(node, late=False)
        depth = self._depth
        self._deliver(
            E.TangentComputed,
            self._pass_at(depth),
            depth,
            node=node.id,
            op=op,
            parents=tuple(self._ref(p) for p in parents),
            tangents=tuple(self._snap(t) for t in tangents),
            tangent=self._snap(tangent),
            rule=closure_info(fn),
            level=level,
        )

    def _on_grad_reduced(self, pass_id, depth, node, target, from_shape, to_shape, dims, contribution, reduced):
        self._deliver(
            E.GradReduced,
            pass_id,
            depth,
            node=self._ref(node),
            target=self._ref(target),
            from_shape=tuple(from_shape),
            to_shape=tuple(to_shape),
            dims=tuple(dims),
            contribution=self._snap(contribution),
            reduced=self._snap(reduced),
        )

    def _on_grad_accumulated(self, pass_id, depth, node, target, contribution, before, after, into) -> None:
        known = self._known
        nid = node.id
        if nid not in known or node.name is not None:
            nid = self._ref(node)
        tid = target.id
        if tid not in known or target.name is not None:
            tid = self._ref(target)
        snap = self._snap
        self._deliver_values(
            E.GradAccumulated, pass_id, depth, nid, tid, snap(contribution), snap(before), snap(after), into
        )

    def _on_node_finished(self, pass_id, depth, node) -> None:
        nid = node.id
        if nid not in self._known or node.name is not None:
            nid = self._ref(node)
        self._deliver_values(E.NodeFinished, pass_id, depth, nid)

    def _on_graph_freed(self, pass_id, depth, nodes) -> None:
        self._deliver(E.GraphFreed, pass_id, depth, nodes=tuple(self._ref(n) for n in nodes))

    def _on_grads_restored(self, pass_id, depth, restored) -> None:
        restored = tuple((self._ref(t), self._snap(g)) for t, g in restored)
        self._deliver(E.GradsRestored, pass_id, depth, restored=restored)

    def _on_pass_finished(self, pass_id, depth, results) -> None:
        self._pass_ended(depth)
        if results is not None:
            results = tuple(self._snap(r) for r in results)
        self._deliver(E.PassFinished, pass_id, depth, results=results)

    def _on_error(self, pass_id, depth, node, exc) -> None:
        self._pass_ended(depth)
        error_type, message = type(exc).__name__, str(exc)
        # the engine reports from its handler (or just before raising): the user's frames are on this stack,
        # from the frame that emitted the event out (the bus's and the listeners' own frames are no part of it)
        frames = live_frames(self._recording_began, _emitting_frame(sys._getframe(1)))
        raised_at, folded = user_traceback(frames, f"{error_type}: {message}", short=True)
        self._deliver(
            E.ErrorEvent,
            pass_id,
            depth,
            node=None if node is None else self._ref(node),
            error_type=error_type,
            message=message,
            raised_at=raised_at,
            traceback=folded if raised_at is not None else "",
        )
