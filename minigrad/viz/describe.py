"""One line of plain English per trace event, for diagram titles and the HTML player."""

from __future__ import annotations

from ..trace.text import reduction_text
from .values import format_value

__all__ = ["describe_event", "event_details"]


def _label(trace, nid) -> str:
    info = trace.nodes.get(nid)
    return info.label if info is not None else f"#{nid}"


def _labels(trace, ids) -> str:
    return ", ".join(_label(trace, i) for i in ids)


def describe_event(trace, ev, precision: int = 4) -> str:
    """What event ``ev`` of ``trace`` says, as a sentence naming nodes by label."""

    def v(x):
        return format_value(x, precision)

    kind = ev.kind
    if kind == "node_created":
        info = ev.info
        if info.op:
            text = f"created {info.label} = {info.op}({_labels(trace, info.parents)})"
        else:
            text = f"created leaf {info.label}" + (" (requires grad)" if info.requires_grad else "")
        return text + (" [made before recording]" if ev.late else "")
    if kind == "node_named":
        return f"node #{ev.node} is called {ev.name}"
    if kind == "pass_started":
        opts = ", ".join(f"{k}={val}" for k, val in ev.options.items())
        inputs = f" w.r.t. {_labels(trace, ev.inputs)}" if ev.inputs else ""
        return f"{ev.pass_kind}() pass {ev.pass_id} starts from {_labels(trace, ev.roots)}{inputs} ({opts})"
    if kind == "grads_saved":
        return f"grad() saves the .grad of {_labels(trace, [nid for nid, _ in ev.saved]) or 'no tensors'}"
    if kind == "seeded":
        return f"seed {_label(trace, ev.node)} with gradient {v(ev.grad)}"
    if kind == "node_entered":
        return f"enter {_label(trace, ev.node)} with incoming gradient {v(ev.grad)}"
    if kind == "closure_called":
        outs = ", ".join(v(o) for o in ev.outputs)
        info = trace.nodes.get(ev.node)
        op = info.op if info is not None else "?"
        return f"{op} backward of {_label(trace, ev.node)} returns ({outs})"
    if kind == "grad_reduced":
        src, dst = _label(trace, ev.node), _label(trace, ev.target)
        return f"{src} -> {dst}: {reduction_text(ev)}, {v(ev.contribution)} becomes {v(ev.reduced)}"
    if kind == "grad_accumulated":
        if ev.into == "grad":
            return f"{_label(trace, ev.target)}.grad: {v(ev.before)} + {v(ev.contribution)} = {v(ev.after)}"
        src, dst = _label(trace, ev.node), _label(trace, ev.target)
        if ev.before is None:
            return f"{src} sends {v(ev.contribution)} to {dst}"
        return f"{src} sends {v(ev.contribution)} to {dst}: {v(ev.before)} + {v(ev.contribution)} = {v(ev.after)}"
    if kind == "node_finished":
        return f"finished {_label(trace, ev.node)}"
    if kind == "graph_freed":
        return f"graph freed ({len(ev.nodes)} closures released; retain_graph=False)"
    if kind == "grads_restored":
        return f"grad() restores the .grad of {_labels(trace, [nid for nid, _ in ev.restored]) or 'no tensors'}"
    if kind == "pass_finished":
        if ev.results is None:
            return f"pass {ev.pass_id} finished"
        return f"pass {ev.pass_id} finished, returning ({', '.join(v(r) for r in ev.results)})"
    if kind == "error":
        where = f" at {_label(trace, ev.node)}" if ev.node is not None else ""
        return f"error{where}: {ev.error_type}: {ev.message}"
    return kind


def event_details(trace, ev) -> str:
    """Longer text shown beside a frame: the closure's source, or where a node was made."""
    if ev.kind == "closure_called" and ev.closure is not None:
        c = ev.closure
        return f"{c.name}  ({c.file}:{c.first_line})\n{c.source}"
    if ev.kind == "node_created" and ev.info.source is not None:
        s = ev.info.source
        return f"{s.file}:{s.line} in {s.function}\n    {s.text}"
    if ev.kind == "error":
        return f"{ev.error_type}: {ev.message}"
    return ""
