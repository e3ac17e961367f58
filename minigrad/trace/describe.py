"""Events in words: the one describer every viewer uses.

- :func:`headline` is the short form: one line naming what happened, to which
  node, with its values shortened (the debugger's header and event log, diagram
  titles, the HTML player, the notebook stepper, ``minigrad trace show``).
- :func:`details` is the long form: the lines an inspector shows under it (full
  values, the closure's source and captured values, where a node was made).
- :func:`step_text` numbers steps the trace's way: ``step k of last``, where ``k``
  is the event's ``seq`` (from 0) and ``last`` the seq of the last recorded event.

Each form is one table from event class to handler (:data:`HEADLINES`,
:data:`DETAILS`): adding an event kind means adding a row to each.
"""

from __future__ import annotations

import os
import re

from . import events as E
from .values import format_value

__all__ = [
    "HEADLINES",
    "DETAILS",
    "headline",
    "details",
    "event_values",
    "format_event",
    "node_label",
    "reduction_text",
    "rule_name",
    "rule_source",
    "step_text",
]

LONG_WIDTH = 70


def node_label(trace, nid) -> str:
    """The node's label (its name, else ``op#id``) in ``trace`` (a Trace or an id -> NodeInfo mapping).

    ``#id`` when the trace does not know the node, ``-`` for None.
    """
    if nid is None:
        return "-"
    info = _nodes(trace).get(nid)
    return info.label if info is not None else f"#{nid}"


def step_text(step: int, total: int) -> str:
    """``step 3 of 41``: the trace's numbering (the event's seq, from 0; ``41`` is the last step)."""
    return f"step {step} of {max(total - 1, 0)}"


#: How the describer writes the names a rule's source uses for the engine's plumbing: an op keeps
#: its own output through a weak reference (``out_ref``), which lessons write as ``out``.
RULE_NAMES = {"out_ref": "out"}
_RULE_CALLS = re.compile(r"\b(" + "|".join(RULE_NAMES) + r")\(\)")


def rule_name(name: str) -> str:
    """A captured name as lessons write it (``out_ref`` -> ``out``)."""
    return RULE_NAMES.get(name, name)


def rule_source(source: str) -> str:
    """A rule's source as lessons write it: ``g * (1 - out_ref().square())`` -> ``g * (1 - out.square())``."""
    return _RULE_CALLS.sub(lambda m: RULE_NAMES[m.group(1)], source)


def reduction_text(ev: E.GradReduced) -> str:
    """``reduced (4, 3) -> (1, 3), summed over dim 0``: what the engine did to a broadcast contribution."""
    dims = ", ".join(str(d) for d in ev.dims)
    over = f"dim {dims}" if len(ev.dims) == 1 else f"dims {dims}"
    return f"reduced {tuple(ev.from_shape)} -> {tuple(ev.to_shape)}, summed over {over}"


def headline(ev: E.Event, trace) -> str:
    """The short form of ``ev``: one line, values as diagrams show them (small arrays inline, else a summary)."""
    return HEADLINES[type(ev)](ev, _Words(trace, LONG_WIDTH))


def details(ev: E.Event, trace, width: int = LONG_WIDTH) -> list:
    """The long form of ``ev``: its values, sources and captured values, one line each."""
    return DETAILS[type(ev)](ev, _Words(trace, width))


def format_event(ev: E.Event, trace, with_details: bool = True, width: int = LONG_WIDTH) -> str:
    """A log line: ``seq pass kind headline`` (indented by pass depth), then the detail lines."""
    indent = "  " * max(ev.depth - 1, 0)
    where = f"p{ev.pass_id}" if ev.pass_id is not None else "  "
    head = f"{ev.seq:>5} {where:>4} {indent}{ev.kind:<17} {headline(ev, trace)}"
    if not with_details:
        return head
    pad = " " * 11 + indent + " " * 18
    return "\n".join([head] + [pad + line for line in details(ev, trace, width)])


def _nodes(trace) -> dict:
    nodes = getattr(trace, "nodes", trace)
    return nodes if nodes is not None else {}


class _Words:
    """Labels and values for one call: ``w.label(id)``, ``w.labels(ids)``, ``w.short(snapshot)`` (short
    form) and ``w.value(snapshot)`` (long form: NumPy's text up to ``width`` characters)."""

    __slots__ = ("nodes", "width")

    def __init__(self, trace, width: int):
        self.nodes = _nodes(trace)
        self.width = width

    def label(self, nid) -> str:
        return node_label(self.nodes, nid)

    def labels(self, ids) -> str:
        return ", ".join(self.label(i) for i in ids)

    def value(self, snap) -> str:
        return "None" if snap is None else snap.format(self.width)

    def short(self, snap) -> str:
        return format_value(snap)

    def op(self, nid) -> str:
        info = self.nodes.get(nid)
        return (info.op if info is not None else None) or "backward"


# ---------------------------------------------------------------- short form
def _created(ev: E.NodeCreated, w: _Words) -> str:
    i = ev.info
    late = " (made before recording)" if ev.late else ""
    if i.op:
        return f"create {w.label(ev.node)} = {i.op}({w.labels(i.parents)}){late}"
    grad = " (requires grad)" if i.requires_grad else ""
    return f"create leaf {w.label(ev.node)}{grad}{late}"


def _pass_started(ev: E.PassStarted, w: _Words) -> str:
    inputs = f" w.r.t. {w.labels(ev.inputs)}" if ev.inputs else ""
    opts = ", ".join(f"{k}={v}" for k, v in ev.options.items() if v)
    return f"{ev.pass_kind}() pass {ev.pass_id} from {w.labels(ev.roots)}{inputs}" + (f" ({opts})" if opts else "")


def _accumulated(ev: E.GradAccumulated, w: _Words) -> str:
    c = w.short(ev.contribution)
    where = f"{w.label(ev.target)}.grad" if ev.into == "grad" else f"{w.label(ev.node)} -> {w.label(ev.target)}"
    if ev.before is None:
        return f"{where}: {c} (first contribution)"
    return f"{where}: {w.short(ev.before)} + {c} = {w.short(ev.after)}"


def _pass_finished(ev: E.PassFinished, w: _Words) -> str:
    if ev.results is None:
        return f"pass {ev.pass_id} finished"
    return f"pass {ev.pass_id} finished, returning ({', '.join(w.short(r) for r in ev.results)})"


def _at_level(ev: E.TangentComputed) -> str:
    """`` at level 1`` for a tangent of a nested dual level; nothing for the outermost (the usual case)."""
    return f" at level {ev.level}" if ev.level else ""


def _error(ev: E.ErrorEvent, w: _Words) -> str:
    where = f" at {w.label(ev.node)}" if ev.node is not None else ""
    message = ev.message.splitlines()[0] if ev.message else ""
    return f"error{where}: {ev.error_type}: {message}"


#: Event class -> short form.
HEADLINES = {
    E.NodeCreated: _created,
    E.NodeNamed: lambda ev, w: f"#{ev.node} is named {ev.name}",
    E.PassStarted: _pass_started,
    E.GradsSaved: lambda ev, w: f"grad() saves the .grad of {w.labels(n for n, _ in ev.saved) or 'nothing'}",
    E.Seeded: lambda ev, w: f"seed {w.label(ev.node)} with {w.short(ev.grad)}",
    E.NodeEntered: lambda ev, w: f"enter {w.label(ev.node)} with gradient {w.short(ev.grad)}",
    E.ClosureCalled: lambda ev, w: (
        f"{w.op(ev.node)} rule of {w.label(ev.node)} returns ({', '.join(w.short(o) for o in ev.outputs)})"
    ),
    E.GradReduced: lambda ev, w: f"{w.label(ev.node)} -> {w.label(ev.target)}: {reduction_text(ev)}",
    E.GradAccumulated: _accumulated,
    E.NodeFinished: lambda ev, w: f"finish {w.label(ev.node)}",
    E.GraphFreed: lambda ev, w: f"free the graph ({len(ev.nodes)} closures; retain_graph=False)",
    E.GradsRestored: lambda ev, w: f"grad() restores the .grad of {w.labels(n for n, _ in ev.restored) or 'nothing'}",
    E.PassFinished: _pass_finished,
    E.ErrorEvent: _error,
    E.TangentComputed: lambda ev, w: (
        f"tangent of {w.label(ev.node)}{_at_level(ev)}: {ev.op}'s forward rule gives {w.short(ev.tangent)}"
    ),
}


# ---------------------------------------------------------------- long form
def _created_details(ev: E.NodeCreated, w: _Words) -> list:
    i = ev.info
    out = [f"{i.dtype}{list(i.shape)} on {i.device}", f"data = {w.value(i.data)}"]
    if i.source is not None:
        s = i.source
        out.append(f"made at {os.path.basename(s.file)}:{s.line} in {s.function}: {s.text}")
    return out


def _pass_details(ev: E.PassStarted, w: _Words) -> list:
    return [f"seed {w.label(r)} = {w.value(s)}" for r, s in zip(ev.roots, ev.seeds)]


def _grads_listed(pairs, w: _Words) -> list:
    return [f"{w.label(n)}.grad = {w.value(g)}" for n, g in pairs]


def _entered_details(ev: E.NodeEntered, w: _Words) -> list:
    out = [f"gradient = {w.value(ev.grad)}"]
    if ev.data is not None:
        out.append(f"data = {w.value(ev.data)}")
    return out


def _closure_details(ev: E.ClosureCalled, w: _Words) -> list:
    out = [f"gradient in = {w.value(ev.grad)}"]
    info = w.nodes.get(ev.node)
    parents = info.parents if info is not None else ()
    for i, o in enumerate(ev.outputs):
        to = w.label(parents[i]) if i < len(parents) else f"parent {i}"
        out.append(f"returned for {to} = {w.value(o)}")
    for c in ev.captured:
        if c.value is not None:
            ref = f" ({w.label(c.tensor_id)})" if c.tensor_id is not None else ""
            out.append(f"captured {rule_name(c.name)}{ref} = {w.value(c.value)}")
        elif c.kind == "dead":
            out.append(f"captured {rule_name(c.name)} = dead weak reference")
        else:
            out.append(f"captured {rule_name(c.name)} = {c.text or '(not assigned)'}")
    if ev.closure is not None:
        c = ev.closure
        out.append(f"rule {c.name} at {os.path.basename(c.file)}:{c.first_line}-{c.last_line}:")
        out.extend("    " + line for line in rule_source(c.source).rstrip("\n").splitlines())
    return out


def _accumulated_details(ev: E.GradAccumulated, w: _Words) -> list:
    into = f"{w.label(ev.target)}.grad" if ev.into == "grad" else f"the pass's gradient of {w.label(ev.target)}"
    return [
        f"into {into}",
        f"before = {w.value(ev.before)}",
        f"contribution = {w.value(ev.contribution)}",
        f"after = {w.value(ev.after)}",
    ]


def _rule_body(source: str) -> str:
    """A short rule's body on one line (``return ta * b + a * tb``), without its ``def`` line."""
    lines = [line.strip() for line in source.strip().splitlines()]
    body = [line for line in lines[1:] if line] if lines and lines[0].startswith("def ") else lines
    return "; ".join(body)


def _none(ev, w) -> list:
    return []


#: Event class -> long form.
DETAILS = {
    E.NodeCreated: _created_details,
    E.NodeNamed: _none,
    E.PassStarted: _pass_details,
    E.GradsSaved: lambda ev, w: _grads_listed(ev.saved, w) + [f"{len(ev.edges)} graph edges saved"],
    E.Seeded: lambda ev, w: [f"gradient = {w.value(ev.grad)}"],
    E.NodeEntered: _entered_details,
    E.ClosureCalled: _closure_details,
    E.GradReduced: lambda ev, w: [f"contribution = {w.value(ev.contribution)}", f"reduced = {w.value(ev.reduced)}"],
    E.GradAccumulated: _accumulated_details,
    E.NodeFinished: _none,
    E.GraphFreed: lambda ev, w: [f"freed: {w.labels(ev.nodes)}"] if ev.nodes else [],
    E.GradsRestored: lambda ev, w: _grads_listed(ev.restored, w),
    E.PassFinished: lambda ev, w: [f"result[{i}] = {w.value(r)}" for i, r in enumerate(ev.results or ())],
    # the user's folded traceback ends with the error itself (traces recorded before it was kept: the error alone)
    E.ErrorEvent: lambda ev, w: ev.traceback.splitlines() or [f"{ev.error_type}: {ev.message}"],
    E.TangentComputed: lambda ev, w: (
        [f"tangent of {w.label(p)} = {w.value(t)}" for p, t in zip(ev.parents, ev.tangents)]
        + [f"tangent of {w.label(ev.node)} = {w.value(ev.tangent)}"]
        + ([f"rule: {_rule_body(rule_source(ev.rule.source))}"] if ev.rule is not None else [])
    ),
}


def event_values(ev: E.Event, trace) -> list:
    """The values ``ev`` recorded, as (what it is, Snapshot) pairs in the words of its long form
    (``gradient in``, ``captured out (h)``, ``returned for a``, ``x.grad``): what a whole-value view
    and ``minigrad trace show --values`` print. Values not recorded (None) are left out."""
    w = _Words(trace, LONG_WIDTH)
    pairs = VALUES[type(ev)](ev, w) if type(ev) in VALUES else []
    return [(what, snap) for what, snap in pairs if snap is not None]


def _closure_values(ev: E.ClosureCalled, w: _Words) -> list:
    info = w.nodes.get(ev.node)
    parents = info.parents if info is not None else ()
    out = [("gradient in (g)", ev.grad)]
    for c in ev.captured:
        if c.value is not None:
            who = w.label(c.tensor_id) if c.tensor_id is not None else rule_name(c.name)
            ref = f" ({who})" if who != rule_name(c.name) else ""
            out.append((f"captured {rule_name(c.name)}{ref}", c.value))
    for i, o in enumerate(ev.outputs):
        out.append((f"returned for {w.label(parents[i]) if i < len(parents) else f'parent {i}'}", o))
    return out


#: Event class -> its values, named (see :func:`event_values`).
VALUES = {
    E.NodeCreated: lambda ev, w: [(f"{w.label(ev.node)} data", ev.info.data)],
    E.PassStarted: lambda ev, w: [(f"seed of {w.label(r)}", s) for r, s in zip(ev.roots, ev.seeds)],
    E.GradsSaved: lambda ev, w: [(f"saved {w.label(n)}.grad", g) for n, g in ev.saved],
    E.Seeded: lambda ev, w: [(f"seed of {w.label(ev.node)}", ev.grad)],
    E.NodeEntered: lambda ev, w: [(f"gradient of {w.label(ev.node)}", ev.grad), (f"{w.label(ev.node)} data", ev.data)],
    E.ClosureCalled: _closure_values,
    E.GradReduced: lambda ev, w: [("contribution", ev.contribution), ("reduced", ev.reduced)],
    E.GradAccumulated: lambda ev, w: [("before", ev.before), ("contribution", ev.contribution), ("after", ev.after)],
    E.GradsRestored: lambda ev, w: [(f"restored {w.label(n)}.grad", g) for n, g in ev.restored],
    E.PassFinished: lambda ev, w: [(f"result[{i}]", r) for i, r in enumerate(ev.results or ())],
    E.TangentComputed: lambda ev, w: [
        *((f"tangent of {w.label(p)}", t) for p, t in zip(ev.parents, ev.tangents)),
        (f"tangent of {w.label(ev.node)}", ev.tangent),
    ],
}
