"""Events in words, for the header and the event log: ``accumulate: mul#3 -> a``."""

from __future__ import annotations

from minigrad.trace.text import reduction_text


def describe(event, names: dict, width: int = 48) -> str:
    """One line for ``event``; ``names`` maps node ids to their labels."""

    def n(node_id) -> str:
        return names.get(node_id, f"#{node_id}")

    def value(snap) -> str:
        return snap.format(width) if snap is not None else "None"

    kind = event.kind
    if kind == "node_created":
        info = event.info
        if info.op:
            return f"create: {n(event.node)} = {info.op}({', '.join(n(p) for p in info.parents)})"
        return f"create: {n(event.node)} (leaf)"
    if kind == "node_named":
        return f"name: #{event.node} is {event.name}"
    if kind == "pass_started":
        roots = ", ".join(n(r) for r in event.roots)
        if event.pass_kind == "grad":
            inputs = ", ".join(n(i) for i in event.inputs or ())
            return f"grad() of {roots} w.r.t. {inputs}"
        return f"backward() from {roots}"
    if kind == "grads_saved":
        return "grad() saves .grad of " + (", ".join(n(i) for i, _ in event.saved) or "nothing")
    if kind == "seeded":
        return f"seed: {n(event.node)} <- {value(event.grad)}"
    if kind == "node_entered":
        return f"enter: {n(event.node)} with grad {value(event.grad)}"
    if kind == "closure_called":
        name = event.closure.name if event.closure is not None else "backward"
        return f"closure: {name} of {n(event.node)}"
    if kind == "grad_reduced":
        return f"reduce: {n(event.node)} -> {n(event.target)}, {reduction_text(event)}"
    if kind == "grad_accumulated":
        if event.into == "grad":
            return f"store: {n(event.target)}.grad = {value(event.after)}"
        return f"accumulate: {n(event.node)} -> {n(event.target)}"
    if kind == "node_finished":
        return f"finish: {n(event.node)}"
    if kind == "graph_freed":
        return f"free graph ({len(event.nodes)} closures)"
    if kind == "grads_restored":
        return "grad() restores .grad of " + (", ".join(n(i) for i, _ in event.restored) or "nothing")
    if kind == "pass_finished":
        return "pass finished"
    if kind == "error":
        where = f" at {n(event.node)}" if event.node is not None else ""
        message = event.message.splitlines()[0] if event.message else ""
        if len(message) > width:
            message = message[: width - 1] + "…"
        return f"error{where}: {event.error_type}: {message}"
    return kind
