"""Readable text for events: one headline per event and indented detail lines.

Used by ``minigrad trace show`` and by viewers' event logs.
"""

from __future__ import annotations

import os

from . import events as E
from .trace import Trace

__all__ = ["event_headline", "event_details", "format_event", "node_label", "reduction_text"]


def node_label(trace: Trace, nid) -> str:
    """The node's name (or ``op#id``) for an id; ``#id`` when the trace does not know it."""
    if nid is None:
        return "-"
    info = trace.nodes.get(nid)
    return info.label if info is not None else f"#{nid}"


def reduction_text(ev: E.GradReduced) -> str:
    """``reduced (4, 3) -> (1, 3), summed over dim 0``: what the engine did to a broadcast contribution."""
    dims = ", ".join(str(d) for d in ev.dims)
    over = f"dim {dims}" if len(ev.dims) == 1 else f"dims {dims}"
    return f"reduced {tuple(ev.from_shape)} -> {tuple(ev.to_shape)}, summed over {over}"


def _val(snap, width) -> str:
    return "None" if snap is None else snap.format(width)


def event_headline(ev: E.Event, trace: Trace) -> str:
    """One line: what happened, to which node, with the main value."""
    lbl = lambda nid: node_label(trace, nid)  # noqa: E731
    k = ev.kind
    if k == "node_created":
        i = ev.info
        what = f"{i.op}({', '.join(lbl(p) for p in i.parents)})" if i.op else "leaf"
        extra = " requires_grad" if i.requires_grad and i.is_leaf else ""
        late = " (made before recording)" if ev.late else ""
        version = f" version {i.version}" if i.version else ""
        return f"{lbl(ev.node)} = {what}  {i.dtype}{list(i.shape)} {i.device}{extra}{version}{late}"
    if k == "node_named":
        return f"#{ev.node} is called {ev.name!r}"
    if k == "pass_started":
        roots = ", ".join(lbl(r) for r in ev.roots)
        ins = "" if ev.inputs is None else " inputs=" + ", ".join(lbl(t) for t in ev.inputs)
        opts = " ".join(f"{key}={v}" for key, v in ev.options.items())
        return f"{ev.pass_kind} pass #{ev.pass_id} from {roots}{ins}  {opts}"
    if k == "grads_saved":
        return f"saved .grad of {', '.join(lbl(n) for n, _ in ev.saved) or 'nothing'}; {len(ev.edges)} edges"
    if k == "seeded":
        return f"{lbl(ev.node)} seeded"
    if k == "node_entered":
        return f"enter {lbl(ev.node)}"
    if k == "closure_called":
        name = ev.closure.name if ev.closure else "?"
        return f"{lbl(ev.node)}: called {name}"
    if k == "grad_reduced":
        return f"{lbl(ev.node)} -> {lbl(ev.target)}: {reduction_text(ev)}"
    if k == "grad_accumulated":
        where = ".grad" if ev.into == "grad" else "pass gradient"
        if ev.into == "grad":
            return f"{lbl(ev.target)}{where} += contribution"
        return f"{lbl(ev.node)} -> {lbl(ev.target)} ({where} += contribution)"
    if k == "node_finished":
        return f"finish {lbl(ev.node)}"
    if k == "graph_freed":
        return f"freed {len(ev.nodes)} graph edges"
    if k == "grads_restored":
        return f"restored .grad of {', '.join(lbl(n) for n, _ in ev.restored) or 'nothing'}"
    if k == "pass_finished":
        return f"pass #{ev.pass_id} finished"
    if k == "error":
        at = f" at {lbl(ev.node)}" if ev.node is not None else ""
        return f"{ev.error_type}{at}: {ev.message}"
    return k


def event_details(ev: E.Event, trace: Trace, width: int = 70) -> list:
    """Detail lines (values, source, captured values) for an event."""
    lbl = lambda nid: node_label(trace, nid)  # noqa: E731
    k = ev.kind
    out = []
    if k == "node_created":
        out.append(f"data = {_val(ev.info.data, width)}")
        src = ev.info.source
        if src is not None:
            out.append(f"at {os.path.basename(src.file)}:{src.line}: {src.text}")
    elif k == "pass_started":
        out += [f"seed {lbl(r)} = {_val(s, width)}" for r, s in zip(ev.roots, ev.seeds)]
    elif k in ("grads_saved", "grads_restored"):
        pairs = ev.saved if k == "grads_saved" else ev.restored
        out += [f"{lbl(n)}.grad = {_val(g, width)}" for n, g in pairs]
    elif k in ("seeded", "node_entered"):
        out.append(f"grad = {_val(ev.grad, width)}")
        if k == "node_entered" and ev.data is not None:
            out.append(f"data = {_val(ev.data, width)}")
    elif k == "closure_called":
        out.append(f"grad in = {_val(ev.grad, width)}")
        info = trace.nodes.get(ev.node)
        parents = info.parents if info is not None else ()
        for i, o in enumerate(ev.outputs):
            to = lbl(parents[i]) if i < len(parents) else f"parent {i}"
            out.append(f"out[{i}] -> {to} = {_val(o, width)}")
        if ev.closure is not None:
            c = ev.closure
            out.append(f"source {os.path.basename(c.file)}:{c.first_line}-{c.last_line}")
        for c in ev.captured:
            if c.value is not None:
                ref = f" (#{c.tensor_id})" if c.tensor_id is not None else ""
                out.append(f"captured {c.name}{ref} [{c.kind}] = {_val(c.value, width)}")
            else:
                out.append(f"captured {c.name} [{c.kind}] {c.text or ''}".rstrip())
    elif k == "grad_reduced":
        out.append(f"contribution = {_val(ev.contribution, width)}")
        out.append(f"reduced = {_val(ev.reduced, width)}")
    elif k == "grad_accumulated":
        out.append(f"contribution = {_val(ev.contribution, width)}")
        out.append(f"before = {_val(ev.before, width)}")
        out.append(f"after = {_val(ev.after, width)}")
    elif k == "graph_freed":
        out.append(", ".join(lbl(n) for n in ev.nodes))
    elif k == "pass_finished" and ev.results is not None:
        out += [f"result[{i}] = {_val(r, width)}" for i, r in enumerate(ev.results)]
    return out


def format_event(ev: E.Event, trace: Trace, details: bool = True, width: int = 70) -> str:
    """``step  kind  headline`` (indented by pass depth) and, with ``details``, the value lines."""
    indent = "  " * max(ev.depth - 1, 0)
    where = f"p{ev.pass_id}" if ev.pass_id is not None else "  "
    head = f"{ev.seq:>5} {where:>4} {indent}{ev.kind:<17} {event_headline(ev, trace)}"
    if not details:
        return head
    pad = " " * 11 + indent + " " * 18
    return "\n".join([head] + [pad + line for line in event_details(ev, trace, width)])
