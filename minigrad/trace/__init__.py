"""Execution events, trace recording and live stepping.

Typed events
------------
:func:`listen` and :func:`record` turn the engine's raw events into immutable
records (:mod:`minigrad.trace.events`). Every event has ``seq`` (its index in
the trace), ``pass_id`` (the backward()/grad() call it belongs to, None outside
passes), ``depth`` (1 for a top-level pass, 2+ for a pass inside a closure, 0
outside) and refers to nodes by stable integer ids (``Tensor.id``). Kinds:

====================  ===================================================================
``node_created``      ``node``, ``info`` (:class:`NodeInfo`), ``late`` (made before recording)
``node_named``        ``node``, ``name`` (variable the user's code bound it to, or ``name`` set later)
``pass_started``      ``pass_kind`` ("backward"/"grad"), ``roots``, ``seeds``, ``inputs``, ``options``
``grads_saved``       ``saved`` ((id, Snapshot or None) pairs), ``edges`` (ids) — grad() only
``seeded``            ``node``, ``grad``
``node_entered``      ``node``, ``grad`` (complete incoming gradient), ``data`` (leaves only)
``closure_called``    ``node``, ``grad``, ``outputs`` (one per parent), ``closure`` (:class:`ClosureInfo`:
                      name, file, first_line, last_line, source), ``captured`` (:class:`Captured`)
``grad_reduced``      ``node`` -> ``target``, ``from_shape``, ``to_shape``, ``dims`` (summed), ``contribution``,
                      ``reduced`` — a broadcast contribution summed to the target's shape
``grad_accumulated``  ``node`` -> ``target``, ``contribution``, ``before``, ``after``, ``into`` ("pass"/"grad")
``node_finished``     ``node``
``graph_freed``       ``nodes``
``grads_restored``    ``restored`` ((id, Snapshot or None) pairs) — grad() only, also after an error
``pass_finished``     ``results`` (grad()'s gradients, None for backward())
``error``             ``node`` (or None), ``error_type``, ``message``, ``raised_at`` and ``traceback`` (the
                      user's line and frames, minigrad's folded; None and "" in older traces)
``tangent_computed``  ``node``, ``op``, ``parents``, ``tangents`` (one per parent), ``tangent``, ``rule``
                      (:class:`ClosureInfo`), ``level`` (0 outermost; 1 in a nested ``func.jvp``, ...) —
                      forward mode (``autograd.forward_ad``, ``func.jvp``), outside passes
====================  ===================================================================

``Event.node_id`` is the node an event is about; ``GradAccumulated.edge`` and ``GradReduced.edge`` its edge.

Values are :class:`Snapshot` objects: NumPy copies taken at that moment
(``values``, read-only), or, above ``max_values`` elements, a summary only
(``stats``: min, max, mean, norm, NaN/Inf counts, first values). ``format()``
gives a one-line text, ``has_nonfinite()`` checks for NaN/Inf.

Nodes
-----
:class:`NodeInfo`: ``id, name, op, parents`` (ids), ``shape, dtype, device``
(strings), ``requires_grad, is_leaf, data`` (Snapshot at creation), ``source``
(:class:`SourceLocation`: file, line, text, function of the user's code; frames
inside minigrad are skipped), ``pass_id`` (made inside a pass, e.g. create_graph), ``version``
(the version counter: an in-place op such as ``add_`` is its own node, at the version it made),
and ``label`` (name, else ``op#id``). Recorded: every tensor that requires grad,
and tensors that do not when the user's code makes them directly (creation
functions, ops) outside a pass. Temporaries made inside minigrad (gradient
arithmetic, seeds, optimizer updates) are not nodes — their values are in the
events — unless a recorded node uses one as a parent: tensors first seen that way,
or made before recording began, arrive as ``node_created`` with ``late=True``
(parents first, no source) just before the event that needs them. Names come from
``name=``, else the variable the user's statement bound the tensor to (found when
the statement's frame moves on), else ``label`` falls back to ``op#id``.

Trace
-----
``record(max_values=1024, max_bytes=256 MB, sources=True, names=True, all_threads=False, meta=None)``
yields a :class:`Trace`: ``events`` (list, ``events[k].seq == k``), ``nodes``
(id -> NodeInfo with the latest name), ``node(id_or_name)``, ``find(kind, node, pass_id)``,
``state_at(k)`` and ``save(path)`` / ``Trace.load(path, max_bytes=1 GiB)`` (JSON Lines,
schema version 3 in the header, a CRC-32 per record, values as base64 of little-endian
bytes, gzip when the name ends ``.gz``; version 1 and 2 files, without checksums, still
load). Loading treats the file as untrusted: a regular file only, memory bounded while
reading (see :mod:`~minigrad.trace.files`), every checksum and field checked, and any
damage is one :class:`TraceFormatError` (an ``UnsafeFileError``) naming the line.

Memory budget: beyond ``max_bytes``, full values give way to summaries, then the oldest
passes are dropped whole (the trace keeps the creation of the nodes later events refer
to, and is numbered from 0 again), so memory stays within the budget however long the
run; a :class:`TraceBudgetWarning` says what was dropped, ``Trace.summarised_before``
where values became summaries, ``Trace.dropped`` (a :class:`Dropped`) which passes went,
and ``State.reduced`` / ``State.dropped`` say it at each step.
Recording from several threads: each event goes to the recording of the thread that
made it (an ``all_threads`` recording takes the threads that have none of their own).

``state_at(k)`` -> :class:`State` after event k, derived from the events alone:
``nodes`` (id -> :class:`NodeState`: ``data``, ``grad`` (.grad), ``pass_grad``
(the shown pass's gradient for it), ``status`` (:class:`NodeStatus`: FORWARD,
UNTOUCHED, PENDING, ACTIVE, DONE, FAILED — every viewer's one vocabulary), ``freed``), ``event``, ``current_node``, ``current_edge``
((source, target)), ``shown_pass``, ``passes`` (active :class:`PassState`,
outermost first), ``save_stack`` (grad()'s :class:`SavedGrads`, outermost first),
``error``, ``reduced``, ``dropped``. Replays start from checkpoints that share unchanged values
(memory grows with the events, not with their square). ``.grad``/``.data`` changes the user makes outside the engine
(zero_grad, optimizer steps) appear at the next event that shows them.

Stepping
--------
:class:`Stepper` runs a script (path + argv) or a callable in a worker thread and
blocks it at each event until released: ``start()``, ``wait(timeout)`` -> status
("running", "paused", "finished", "failed", "stopped"), ``step()``, ``step_node()``,
``finish_node()``, ``continue_()``, ``run_to(node)``, ``pause()``, ``stop()``;
``add_breakpoint(node=|op=|pass_kind=|nonfinite=True, condition=, hit_count=)``. It exposes ``trace``
(growing), ``paused_at`` (event), ``hit`` (Breakpoint), ``output`` (the script's
stdout/stderr, :class:`OutputCapture`), ``exception``; callbacks ``on_pause``,
``on_end``, ``on_event``, ``on_output`` run in the worker thread. ``stop()`` raises
:class:`StepperStopped` (a BaseException) in the script. See :mod:`minigrad.trace.stepper`.

Breakpoints and words
---------------------
:class:`Breakpoint` (``matches(event, state)`` with a :class:`HitCounter` as the
state; :func:`parse_breakpoint` reads ``--break`` texts) serves the Stepper and every
replaying viewer alike. :mod:`minigrad.trace.describe` turns an event into words:
``headline`` (short form), ``details`` (long form), ``node_label``, ``step_text``.

Your own engine
---------------
:mod:`minigrad.trace.emit` (``node``, ``backward_pass``, ``entered``, ``rule``, ``accumulated``,
``finished``) lets an engine that is not minigrad's emit the same events, so it can be recorded,
stepped in the debugger and drawn (lesson 10 builds a micrograd that does).
"""

from . import emit
from .breakpoints import Breakpoint, HitCounter, parse_breakpoint
from .events import (
    BACKWARD_KINDS,
    EVENT_TYPES,
    Captured,
    ClosureCalled,
    ClosureInfo,
    ErrorEvent,
    Event,
    GradAccumulated,
    GradReduced,
    GradsRestored,
    GradsSaved,
    GraphFreed,
    NodeCreated,
    NodeEntered,
    NodeFinished,
    NodeInfo,
    NodeNamed,
    PassFinished,
    PassStarted,
    Seeded,
    SourceLocation,
    TangentComputed,
)
from .output import OutputCapture
from .recorder import TraceBudgetWarning, listen, record
from .snapshot import DEFAULT_MAX_VALUES, Snapshot, Stats, snapshot
from .state import NodeState, PassState, SavedGrads, State
from .status import NodeStatus
from .stepper import Stepper, StepperStopped
from .trace import SCHEMA_VERSION, Dropped, Trace, TraceFormatError

__all__ = [
    "BACKWARD_KINDS",
    "DEFAULT_MAX_VALUES",
    "EVENT_TYPES",
    "SCHEMA_VERSION",
    "Breakpoint",
    "Captured",
    "Dropped",
    "ClosureCalled",
    "ClosureInfo",
    "ErrorEvent",
    "Event",
    "GradAccumulated",
    "GradReduced",
    "GradsRestored",
    "GradsSaved",
    "GraphFreed",
    "HitCounter",
    "NodeCreated",
    "NodeEntered",
    "NodeFinished",
    "NodeInfo",
    "NodeNamed",
    "NodeState",
    "NodeStatus",
    "OutputCapture",
    "PassFinished",
    "TangentComputed",
    "PassStarted",
    "PassState",
    "SavedGrads",
    "Seeded",
    "Snapshot",
    "SourceLocation",
    "State",
    "Stats",
    "Stepper",
    "StepperStopped",
    "Trace",
    "TraceBudgetWarning",
    "TraceFormatError",
    "emit",
    "listen",
    "parse_breakpoint",
    "record",
    "snapshot",
]
