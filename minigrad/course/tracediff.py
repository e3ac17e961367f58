"""Feedback by trace: the first event where the learner's run parts from the reference's.

A check of an exercise that builds or changes an engine, a rule or a Function records the
learner's run and the reference's on the same inputs (:func:`explained_by_trace`) and, when it
fails, says where the two runs part, in the words the debugger uses for those events::

    step 32: your accumulation into `a` replaced 0.9993 with -0.008 — before + contribution should be 0.9913
    step 12: your rule for tanh returned -0.5 for `e`; the reference returns 0.7864
    step 20: the reference accumulates into `b` here; your run never does

``step`` is the learner's event (``seq``, as the debugger's header numbers it), so
``minigrad lesson check N --debug`` can open the learner's run there.

Node ids differ between two runs, so events are paired by what they are about: a node is known by
its op and its parents (a leaf by its name, else by the order leaves were made), and an event by its
kind, its node (and target), and how many such events came before it. Values are compared with a
tolerance; the order of a pass is not compared, so an engine that visits nodes in another valid
order parts from the reference only where a value differs (what a ``.grad`` held before an
accumulation into it is compared: both runs are minigrad's engine there, and a ``.grad`` left over
from before the pass is the difference that matters).
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from minigrad.trace import events as E
from minigrad.trace.describe import node_label
from minigrad.trace.values import format_value

__all__ = ["Divergence", "TraceDivergence", "first_divergence", "explained_by_trace", "record_run"]

#: the events compared (a node_created only where the node is an op's output or requires grad)
COMPARED = (
    E.PassStarted,
    E.Seeded,
    E.NodeCreated,
    E.NodeEntered,
    E.ClosureCalled,
    E.GradReduced,
    E.GradAccumulated,
    E.TangentComputed,
    E.ErrorEvent,
)


@dataclass(frozen=True)
class Divergence:
    """Where the learner's run (``mine``) first parts from the reference's: ``step`` (the learner's
    event seq) and ``message`` (``"step 12: ..."``)."""

    step: int
    message: str
    mine: object  # the learner's Trace
    reference: object  # the reference's Trace


class TraceDivergence(AssertionError):
    """A check's failure that carries the first difference between the learner's run and the
    reference's (``divergence``), for ``minigrad lesson check N --debug``."""

    def __init__(self, message: str, divergence: Divergence):
        super().__init__(message)
        self.divergence = divergence


# ---------------------------------------------------------------- pairing the events of two runs
class _Keys:
    """Node keys shared by two traces: a node is its op and its parents' keys; a leaf its name, or
    (requires grad, how many such leaves came before it) when it has none."""

    def __init__(self):
        self._table: dict = {}

    def of_trace(self, trace) -> dict:
        nodes = trace.nodes
        keys, leaves = {}, {}
        for nid, info in nodes.items():
            if info.op is None:
                if info.name:
                    raw = ("leaf", info.name)
                else:
                    n = leaves[info.requires_grad] = leaves.get(info.requires_grad, 0) + 1
                    raw = ("leaf", info.requires_grad, n)
                keys[nid] = self._table.setdefault(raw, len(self._table))
        # an op's key needs its parents' (a node made before recording joins the trace after its children)
        for nid in nodes:
            stack = [nid]
            while stack:
                top = stack[-1]
                if top in keys:
                    stack.pop()
                    continue
                info = nodes.get(top)
                waiting = [p for p in info.parents if p in nodes and p not in keys] if info is not None else []
                if waiting:
                    stack.extend(waiting)
                    continue
                stack.pop()
                parents = tuple(keys.get(p, "?") for p in info.parents) if info is not None else ()
                keys[top] = self._table.setdefault((info.op if info else "?", parents), len(self._table))
        return keys


def _signature(ev, key) -> tuple | None:
    if isinstance(ev, E.NodeCreated):
        return ("node_created", key(ev.node)) if ev.info.op is not None or ev.info.requires_grad else None
    if isinstance(ev, E.PassStarted):
        return ("pass_started", ev.pass_kind)
    if isinstance(ev, (E.GradReduced, E.GradAccumulated)):
        return (ev.kind, key(ev.node), key(ev.target), getattr(ev, "into", None))
    if isinstance(ev, E.TangentComputed):
        return (ev.kind, key(ev.node), ev.level)
    if isinstance(ev, E.ErrorEvent):
        return (ev.kind,)
    return (ev.kind, key(ev.node))


def _paired(trace, keys: dict) -> list:
    """``[(key, event)]`` for the compared events of ``trace``; a key is (signature, occurrence)."""
    seen: dict = {}
    out = []
    for ev in trace.events:
        if not isinstance(ev, COMPARED):
            continue
        sig = _signature(ev, lambda nid: keys.get(nid, "?"))  # a node the trace does not know: no id to go by
        if sig is None:
            continue
        n = seen[sig] = seen.get(sig, 0) + 1
        out.append(((sig, n), ev))
    return out


# ---------------------------------------------------------------- comparing values
def _array(snap):
    if snap is None:
        return None
    if getattr(snap, "values", None) is None:
        return ...  # a summary or a dropped value: not compared
    return np.asarray(snap.values)


def _same(a, b, rtol: float, atol: float) -> bool:
    x, y = _array(a), _array(b)
    if x is ... or y is ...:
        return True
    if x is None or y is None:
        return x is None and y is None
    return x.shape == y.shape and bool(np.allclose(x, y, rtol=rtol, atol=atol, equal_nan=True))


_text = format_value  # values as the debugger's headlines show them


class _Words:
    """The phrases of one comparison: labels in the learner's trace (what their debugger shows)."""

    def __init__(self, mine):
        self.mine = mine

    def label(self, nid, trace=None) -> str:
        return f"`{node_label(trace if trace is not None else self.mine, nid)}`"

    def grad_of(self, nid, trace=None) -> str:
        return f"`{node_label(trace if trace is not None else self.mine, nid)}.grad`"

    def made(self, nid, trace, depth: int = 1) -> str:
        """How a node was made, ``depth`` ops up, for telling two alike labels apart:
        ``(sum of `c`, made by add of `a` and `b`)``."""
        info = trace.nodes.get(nid)
        if info is None:
            return ""
        if not info.parents:
            return "(a leaf)"
        parts, level = [], [nid]
        for _ in range(depth):
            made_here = [trace.nodes.get(node) for node in level]
            made_here = [i for i in made_here if i is not None and i.parents]
            if not made_here:
                break
            parts.append(
                ", ".join(
                    f"{i.op or 'an op'} of {' and '.join(self.label(p, trace) for p in i.parents)}" for i in made_here
                )
            )
            level = [p for i in made_here for p in i.parents]
        return "(" + ", made by ".join(parts) + ")"

    def op(self, nid, trace=None) -> str:
        info = (trace if trace is not None else self.mine).nodes.get(nid)
        return (info.op if info is not None else None) or "backward"

    def doing(self, ev, trace) -> str:
        """What ``ev`` does, as a verb phrase: ``accumulates into b``, ``calls the rule of e (tanh)``."""
        lab = lambda nid: self.label(nid, trace)  # noqa: E731
        if isinstance(ev, E.GradAccumulated):
            return f"accumulates into {self.grad_of(ev.target, trace) if ev.into == 'grad' else lab(ev.target)}"
        if isinstance(ev, E.GradReduced):
            return f"reduces the gradient {lab(ev.node)} sends to {lab(ev.target)}"
        if isinstance(ev, E.ClosureCalled):
            return f"calls the {self.op(ev.node, trace)} rule of {lab(ev.node)}"
        if isinstance(ev, E.NodeEntered):
            return f"enters {lab(ev.node)}"
        if isinstance(ev, E.Seeded):
            return f"seeds {lab(ev.node)}"
        if isinstance(ev, E.NodeCreated):
            return f"makes {lab(ev.node)}"
        if isinstance(ev, E.PassStarted):
            return f"starts a {ev.pass_kind}() pass"
        if isinstance(ev, E.TangentComputed):
            return f"computes the tangent of {lab(ev.node)}"
        if isinstance(ev, E.ErrorEvent):
            first_line = ev.message.splitlines()[0] if ev.message else ""
            return f"raises {ev.error_type}: {first_line}" if first_line else f"raises {ev.error_type}"
        return ev.kind


_PACKAGE = Path(__file__).resolve().parents[1]


def _is_minigrads(closure) -> bool:
    """The rule is one of minigrad's own (not written in an exercise or a check)."""
    if closure is None:
        return False
    try:
        return _PACKAGE in Path(closure.file).resolve().parents
    except (OSError, ValueError):
        return False


def _value_difference(mine_ev, ref_ev, w: _Words, rtol: float, atol: float) -> str | None:
    """The words for where two paired events' values differ (None where they agree)."""
    if isinstance(mine_ev, E.GradAccumulated):
        before, c, after = (_array(mine_ev.before), _array(mine_ev.contribution), _array(mine_ev.after))
        target = w.label(mine_ev.target)
        if before is not ... and c is not ... and after is not ...:
            want = c if before is None else before + c
            if after is None or after.shape != want.shape or not np.allclose(after, want, rtol=rtol, atol=atol):
                if before is None:
                    return (
                        f"your first accumulation into {target} stored {_text(after)} for a contribution of {_text(c)}"
                    )
                return (
                    f"your accumulation into {target} replaced {_text(before)} with {_text(after)}"
                    f" — before + contribution should be {_text(want)}"
                )
        if mine_ev.into == "grad" and not _same(mine_ev.before, ref_ev.before, rtol, atol):
            return (
                f"{w.grad_of(mine_ev.target)} held {_text(mine_ev.before)} before your run's accumulation into it; "
                f"in the reference's run it held {_text(ref_ev.before)}"
            )
        if not _same(mine_ev.contribution, ref_ev.contribution, rtol, atol):
            source = w.label(mine_ev.node)
            return (
                f"your run sends {_text(mine_ev.contribution)} from {source} into {target}; "
                f"the reference sends {_text(ref_ev.contribution)}"
            )
        return None
    if isinstance(mine_ev, E.ClosureCalled):
        node = w.label(mine_ev.node)
        if not _same(mine_ev.grad, ref_ev.grad, rtol, atol):
            return (
                f"your run calls the rule of {node} with gradient {_text(mine_ev.grad)}; "
                f"the reference calls it with {_text(ref_ev.grad)}"
            )
        info = w.mine.nodes.get(mine_ev.node)
        parents = info.parents if info is not None else ()
        if len(mine_ev.outputs) != len(ref_ev.outputs):
            return (
                f"your rule for {w.op(mine_ev.node)} returned {len(mine_ev.outputs)} gradients for {node}'s parents; "
                f"the reference returns {len(ref_ev.outputs)}"
            )
        for i, (got, want) in enumerate(zip(mine_ev.outputs, ref_ev.outputs)):
            if not _same(got, want, rtol, atol):
                to = w.label(parents[i]) if i < len(parents) else f"parent {i}"
                if _is_minigrads(mine_ev.closure):
                    return (
                        f"in your run the {w.op(mine_ev.node)} rule of {node} returned {_text(got)} for {to}; "
                        f"in the reference's, {_text(want)}"
                    )
                return (
                    f"your rule for {w.op(mine_ev.node)} returned {_text(got)} for {to}; "
                    f"the reference returns {_text(want)}"
                )
        return None
    if isinstance(mine_ev, (E.NodeEntered, E.Seeded)):
        if _same(mine_ev.grad, ref_ev.grad, rtol, atol):
            return None
        verb = "enters" if isinstance(mine_ev, E.NodeEntered) else "seeds"
        what = "with gradient " if verb == "enters" else "with "
        return (
            f"your run {verb} {w.label(mine_ev.node)} {what}{_text(mine_ev.grad)}; "
            f"the reference {verb} it {what}{_text(ref_ev.grad)}"
        )
    if isinstance(mine_ev, E.NodeCreated):
        if _same(mine_ev.info.data, ref_ev.info.data, rtol, atol):
            return None
        node, got, want = w.label(mine_ev.node), _text(mine_ev.info.data), _text(ref_ev.info.data)
        if mine_ev.info.op is None:
            return f"your leaf {node} is {got}; the reference's is {want}"
        return f"your {mine_ev.info.op} made {node} = {got}; the reference makes {want}"
    if isinstance(mine_ev, E.GradReduced):
        if _same(mine_ev.reduced, ref_ev.reduced, rtol, atol):
            return None
        return (
            f"your run reduces what {w.label(mine_ev.node)} sends to {w.label(mine_ev.target)} to "
            f"{_text(mine_ev.reduced)}; the reference to {_text(ref_ev.reduced)}"
        )
    if isinstance(mine_ev, E.TangentComputed):
        if _same(mine_ev.tangent, ref_ev.tangent, rtol, atol):
            return None
        return (
            f"your forward rule for {mine_ev.op} returned the tangent {_text(mine_ev.tangent)}; "
            f"the reference returns {_text(ref_ev.tangent)}"
        )
    return None


# ---------------------------------------------------------------- the first difference
def first_divergence(mine, reference, rtol: float = 1e-6, atol: float = 1e-9) -> Divergence | None:
    """The first event (in the learner's order) where ``mine`` parts from ``reference``, or None.

    An event of one run with no counterpart in the other (an accumulation the learner's engine never
    makes, a rule called twice) parts the runs where it happens; a paired event parts them where a
    value differs beyond the tolerances.
    """
    keys = _Keys()
    mine_pairs = _paired(mine, keys.of_trace(mine))
    ref_pairs = _paired(reference, keys.of_trace(reference))
    mine_by_key = {k: ev for k, ev in mine_pairs}
    ref_by_key = {k: ev for k, ev in ref_pairs}
    w = _Words(mine)
    found = []  # (position in the learner's run, step, message)

    for k, ev in mine_pairs:
        ref = ref_by_key.get(k)
        if ref is None:
            if isinstance(ev, E.NodeCreated):
                continue  # a helper tensor of the learner's own: not an event of the pass
            found.append((ev.seq, ev.seq, f"your run {w.doing(ev, mine)} here; the reference does not"))
            break
        text = _value_difference(ev, ref, w, rtol, atol)
        if text is not None:
            found.append((ev.seq, ev.seq, text))
            break

    last_seq = mine.events[-1].seq if mine.events else 0
    previous = -1  # the learner's seq of the last reference event that has a counterpart
    for k, ref in ref_pairs:
        ev = mine_by_key.get(k)
        if ev is not None:
            previous = max(previous, ev.seq)
            continue
        if isinstance(ref, E.NodeCreated):
            continue
        # where the reference's event would be: the learner's next event of the pass, if any
        here = next(((hk, e) for hk, e in mine_pairs if e.seq > previous and not isinstance(e, E.NodeCreated)), None)
        theirs = w.doing(ref, reference)
        ours = w.doing(here[1], mine) if here is not None and here[0] not in ref_by_key else None
        if ours is not None and (ours == theirs or "#" in ours + theirs):
            # the same words (or ids no learner can compare): say how each node was made
            if hasattr(ref, "node") and hasattr(here[1], "node"):
                for depth in (1, 2, 3):
                    how_theirs, how_ours = w.made(ref.node, reference, depth), w.made(here[1].node, mine, depth)
                    if how_theirs != how_ours:
                        break
                theirs, ours = f"{theirs} {how_theirs}", f"{ours} {how_ours}"
        text = f"the reference {theirs} here; your run " + (f"{ours} instead" if ours is not None else "never does")
        found.append((previous + 0.5, here[1].seq if here is not None else last_seq, text))
        break

    if not found:
        return None
    _, step, text = min(found, key=lambda f: f[0])
    return Divergence(step, f"step {step}: {text}", mine, reference)


# ---------------------------------------------------------------- in a check
def record_run(run):
    """The trace of ``run()`` (a function of no arguments); an exception it raises ends the trace
    (its ``error`` event is part of the run) and is not raised."""
    from minigrad.trace import record

    with record() as trace:
        try:
            run()
        except Exception:  # noqa: BLE001 (the learner's run may raise anything: the trace shows where)
            pass
    return trace


@contextlib.contextmanager
def explained_by_trace(mine, reference, rtol: float = 1e-6, atol: float = 1e-9):
    """Run the block (a check's assertions); when it fails with an AssertionError, record ``mine()``
    and ``reference()`` (the learner's run and the reference's on the same inputs, functions of no
    arguments) and fail with their first difference above the block's own message, as a
    :class:`TraceDivergence`. Where the runs do not part, the block's message is left as it is."""
    try:
        yield
    except AssertionError as exc:
        if isinstance(exc, TraceDivergence):
            raise
        found = first_divergence(record_run(mine), record_run(reference), rtol, atol)
        if found is None:
            raise
        raise TraceDivergence(f"{found.message}\n      {exc}", found) from None
