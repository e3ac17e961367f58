"""Breakpoints: one type for live stepping (the Stepper) and for replay (the viewers' ``continue``).

A :class:`Breakpoint` names one criterion — a node entered (by id, name or label),
any node of an op entered, a pass of a kind started, or a gradient holding NaN or
Inf — and optionally a ``condition`` on the gradient the event carries
(``"|g| > 10"``, ``"g.max() > 1"``) and a ``hit_count`` (stop from the Nth hit on).

``bp.matches(event, state)`` decides a stop. ``state`` is a :class:`HitCounter`
over the trace: it knows the nodes and counts each breakpoint's hits from the
start of the trace, so a live run and a replay of its saved trace stop at the
same events. Breakpoints are immutable values (equal when their settings are);
their text form (``str(bp)``, :func:`parse_breakpoint`) is what ``--break`` and the
notebook's breakpoint field take::

    NAME | node:NAME | op:OP | pass:backward | pass:grad | nonfinite   [hit N]   [if CONDITION]
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

import numpy as np

from . import events as E
from .condition import ConditionError, Summarised, parse_condition

__all__ = ["Breakpoint", "HitCounter", "parse_breakpoint", "gradients_of", "nonfinite_born", "SPEC_HELP"]

SPEC_HELP = "a node name, node:NAME, op:OP, pass:KIND or nonfinite, then optionally 'hit N' and 'if CONDITION'"
PASS_KINDS = ("backward", "grad")
_SPEC = re.compile(r"^(?P<what>.*?)(?:\s+hit\s+(?P<hit>\d+))?(?:\s+if\s+(?P<cond>.+))?$")


def gradients_of(ev: E.Event) -> tuple:
    """The gradient snapshots ``ev`` shows (what ``nonfinite`` and conditions look at), first the main one."""
    if isinstance(ev, (E.Seeded, E.NodeEntered)):
        return (ev.grad,)
    if isinstance(ev, E.ClosureCalled):
        return tuple(o for o in ev.outputs if o is not None)
    if isinstance(ev, E.GradReduced):
        return (ev.reduced, ev.contribution)
    if isinstance(ev, E.GradAccumulated):
        return (ev.after, ev.contribution)
    return ()


@dataclass(frozen=True)
class Breakpoint:
    """Stop when the pass enters ``node`` (an id, a name or a label such as ``mul#3``), enters a
    node made by ``op``, starts a pass of kind ``pass_kind`` ("backward" or "grad"), or, with
    ``nonfinite``, where a gradient holding NaN or Inf is born (:func:`nonfinite_born`: once, not at
    each event it flows through). Set exactly one of these.

    ``condition``: an expression over the event's gradient ``g`` in the small language of
    :mod:`minigrad.trace.condition` (arithmetic, comparisons, ``and``/``or``/``not``, ``|x|``
    the norm of ``x``, and reductions such as ``max(g)`` or ``g.max()``), e.g. ``"|g| > 10"``;
    the breakpoint stops only where it is true. It is parsed, never run as Python: anything
    else is a ValueError here. A gradient the recorder kept as a summary offers ``|g|``,
    ``g.max()``, ``g.min()`` and ``g.mean()``. ``hit_count``: stop from the ``hit_count``-th hit on (1: every hit).
    """

    node: int | str | None = None
    op: str | None = None
    pass_kind: str | None = None
    nonfinite: bool = False
    condition: str | None = None
    hit_count: int = 1

    def __post_init__(self):
        given = sum(x is not None for x in (self.node, self.op, self.pass_kind)) + bool(self.nonfinite)
        if given != 1:
            raise ValueError("a Breakpoint needs exactly one of node=, op=, pass_kind=, nonfinite=True")
        if self.pass_kind is not None and self.pass_kind not in PASS_KINDS:
            raise ValueError(f"pass_kind must be 'backward' or 'grad', got {self.pass_kind!r}")
        if not isinstance(self.hit_count, int) or self.hit_count < 1:
            raise ValueError(f"hit_count must be a positive int, got {self.hit_count!r}")
        if self.condition is not None:
            parse_condition(self.condition)

    @property
    def kind(self) -> str:
        """``"node"``, ``"op"``, ``"pass"`` or ``"nonfinite"``."""
        if self.node is not None:
            return "node"
        if self.op is not None:
            return "op"
        return "pass" if self.pass_kind is not None else "nonfinite"

    @property
    def value(self) -> str:
        """The node, op or pass kind it names (``""`` for nonfinite)."""
        v = self.node if self.node is not None else self.op if self.op is not None else self.pass_kind
        return "" if v is None else str(v)

    def __str__(self) -> str:
        text = self.value if self.kind == "node" else "nonfinite" if self.nonfinite else f"{self.kind}:{self.value}"
        if self.hit_count != 1:
            text += f" hit {self.hit_count}"
        if self.condition is not None:
            text += f" if {self.condition}"
        return text

    def hit(self, ev: E.Event, nodes) -> bool:
        """True when ``ev`` meets the criterion and the condition (``nodes``: id -> NodeInfo, as ``Trace.nodes``)."""
        if not self._criterion(ev, nodes):
            return False
        return self.condition is None or _holds(self.condition, ev)

    def matches(self, ev: E.Event, state: HitCounter) -> bool:
        """True when the viewer or the Stepper should stop at ``ev``: a hit, and at least the ``hit_count``-th."""
        if not self.hit(ev, state.nodes):
            return False
        return self.hit_count == 1 or state.hits(self, ev.seq) >= self.hit_count

    def reason(self, ev: E.Event, state: HitCounter) -> str:
        """Why it stops at ``ev``, for a viewer's status line: ``op:mul (hit 3): entered mul#3``,
        ``nonfinite: the gradient of w has inf at [1, 0]``."""
        hits = state.hits(self, ev.seq)
        head = str(self) + (f" (hit {hits})" if hits > 1 else "")
        if self.nonfinite:
            return f"{head}: {_nonfinite_text(ev, state.nodes)}"
        if isinstance(ev, E.PassStarted):
            return f"{head}: {ev.pass_kind}() pass {ev.pass_id} started"
        info = state.nodes.get(ev.node_id)
        return f"{head}: entered {info.label if info is not None else f'#{ev.node_id}'}"

    def _criterion(self, ev: E.Event, nodes) -> bool:
        if self.nonfinite:
            return nonfinite_born(ev)
        if self.pass_kind is not None:
            return isinstance(ev, E.PassStarted) and ev.pass_kind == self.pass_kind
        if not isinstance(ev, E.NodeEntered):
            return False
        if isinstance(self.node, int):
            return ev.node == self.node
        info = nodes.get(ev.node)
        if info is None:
            return False
        if self.op is not None:
            return info.op == self.op
        return self.node in (info.name, info.label, str(info.id))


def nonfinite_born(ev: E.Event) -> bool:
    """True where ``ev`` makes a NaN or Inf gradient out of finite ones: a seed, a rule returning one for a finite
    incoming gradient, a reduction or an accumulation of finite terms that overflows. Where one only flows on
    (the accumulation of a NaN contribution, the next node entered with it, its rule) is no birth: the
    ``nonfinite`` breakpoint stops once per NaN, where anomaly mode would raise."""
    if isinstance(ev, E.Seeded):
        return ev.grad.has_nonfinite()
    if isinstance(ev, E.ClosureCalled):
        return not ev.grad.has_nonfinite() and any(o is not None and o.has_nonfinite() for o in ev.outputs)
    if isinstance(ev, E.GradReduced):
        return ev.reduced.has_nonfinite() and not ev.contribution.has_nonfinite()
    if isinstance(ev, E.GradAccumulated):
        before = ev.before is not None and ev.before.has_nonfinite()
        return ev.after.has_nonfinite() and not (before or ev.contribution.has_nonfinite())
    return False


def _nonfinite_text(ev: E.Event, nodes) -> str:
    """``the gradient of w has inf at [1, 0]``: the first non-finite gradient the event shows."""
    if isinstance(ev, E.ClosureCalled):
        parents = nodes[ev.node].parents if ev.node in nodes else ()
        owners = [parents[i] if i < len(parents) else None for i, o in enumerate(ev.outputs) if o is not None]
    else:
        owner = ev.target if isinstance(ev, (E.GradReduced, E.GradAccumulated)) else ev.node_id
        owners = [owner] * len(gradients_of(ev))
    for snap, nid in zip(gradients_of(ev), owners):
        if not snap.has_nonfinite():
            continue
        info = nodes.get(nid)
        whose = f"the gradient of {info.label if info is not None else f'#{nid}'}"
        if snap.values is None:
            counts = [f"{n} {w}" for n, w in ((snap.stats.nan_count, "NaN"), (snap.stats.inf_count, "inf")) if n]
            return f"{whose} has {' and '.join(counts)}"
        bad = np.argwhere(~np.isfinite(snap.values))[0]
        value = snap.values[tuple(bad)]
        return f"{whose} has {'nan' if np.isnan(value) else value} at {list(int(i) for i in bad)}"
    return "a non-finite gradient"


class HitCounter:
    """The ``state`` a :meth:`Breakpoint.matches` reads: the trace's nodes and each breakpoint's hits.

    Hits are counted over ``trace.events`` from the start (the trace may grow, as a
    running Stepper's does), so the count at an event is the same live and in replay.
    When the recording's memory budget drops its oldest passes, the hits counted in
    them still count (at negative positions).
    """

    def __init__(self, trace):
        self.trace = trace
        self._seqs: dict = {}  # Breakpoint -> (events scanned, seqs of its hits)
        self._shifted = 0  # the events the trace had dropped when the seqs were last renumbered

    @property
    def nodes(self) -> dict:
        return self.trace.nodes

    def hits(self, bp: Breakpoint, upto: int | None = None) -> int:
        """How often ``bp`` was hit at events ``0..upto`` (all recorded events when None)."""
        dropped = self.trace.dropped.events if self.trace.dropped is not None else 0
        if dropped != self._shifted:  # the trace was renumbered from its first kept event
            shift, self._shifted = dropped - self._shifted, dropped
            self._seqs = {b: (max(n - shift, 0), [s - shift for s in seqs]) for b, (n, seqs) in self._seqs.items()}
        events = self.trace.events
        end = len(events) if upto is None else min(upto + 1, len(events))
        scanned, seqs = self._seqs.get(bp, (0, []))
        nodes = self.trace.nodes
        for ev in events[scanned:end]:
            if bp.hit(ev, nodes):
                seqs.append(ev.seq)
        self._seqs[bp] = (max(scanned, end), seqs)
        return bisect.bisect_right(seqs, end - 1)

    def first(self, breakpoints, ev: E.Event) -> Breakpoint | None:
        """The first of ``breakpoints`` that matches ``ev``, or None."""
        for bp in breakpoints:
            if bp.matches(ev, self):
                return bp
        return None


def parse_breakpoint(spec: str) -> Breakpoint:
    """The Breakpoint a text names: ``NAME``, ``node:NAME``, ``op:OP``, ``pass:KIND`` or ``nonfinite``,
    then optionally ``hit N`` and ``if CONDITION`` (``op:mul hit 2 if |g| > 10``). ValueError when invalid."""
    m = _SPEC.match(spec.strip())
    what = m.group("what").strip() if m else ""
    if not what:
        raise ValueError(f"empty breakpoint: expected {SPEC_HELP}")
    extra = {"condition": m.group("cond"), "hit_count": int(m.group("hit") or 1)}
    if what == "nonfinite":
        return _make(spec, nonfinite=True, **extra)
    kind, sep, value = what.partition(":")
    if not sep:
        return _make(spec, node=what, **extra)
    if kind not in ("node", "op", "pass") or not value:
        raise ValueError(f"invalid breakpoint {spec!r}: expected {SPEC_HELP}")
    if kind == "pass" and value not in PASS_KINDS:
        raise ValueError(f"invalid breakpoint {spec!r}: the pass kind must be backward or grad")
    key = {"node": "node", "op": "op", "pass": "pass_kind"}[kind]
    return _make(spec, **{key: value}, **extra)


def _make(spec: str, **kw) -> Breakpoint:
    try:
        return Breakpoint(**kw)
    except ValueError as exc:
        raise ValueError(f"invalid breakpoint {spec!r}: {exc}") from None


def _holds(condition: str, ev: E.Event) -> bool:
    """The condition over the event's main gradient; False when it has none or the condition cannot be
    evaluated there (a shape it does not expect, a summary where it needs the values)."""
    grads = gradients_of(ev)
    if not grads:
        return False
    g = grads[0].values if grads[0].values is not None else Summarised(grads[0].stats)
    try:
        return parse_condition(condition).holds({"g": g})
    except ConditionError:
        return False
