"""The node inspector: the selected node, the closure being run and the last accumulation."""

from __future__ import annotations

from rich.console import Group
from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from ..view import AccumulationView, ClosureView, NodeView


def _fields(rows: list) -> Table:
    table = Table.grid(padding=(0, 1))
    table.add_column(style="bold cyan", no_wrap=True)
    table.add_column(overflow="fold")
    for key, value in rows:
        table.add_row(key, value)
    return table


def node_renderable(node: NodeView | None):
    if node is None:
        return Text("no node selected", style="italic dim")
    rows = [
        ("name", Text(node.name + ("  ● breakpoint" if node.breakpoint else ""), style="bold")),
        ("op", node.op or "leaf"),
        ("shape", node.shape),
        ("dtype", node.dtype),
        ("device", node.device),
        ("status", node.status),
        ("data", node.data),
    ]
    if node.parents:
        rows.append(("parents", ", ".join(node.parents)))
    rows.append(("incoming grad", node.pass_grad if node.pass_grad is not None else Text("none yet", style="dim")))
    rows.append((".grad", node.grad if node.grad is not None else Text("None", style="dim")))
    if node.created_at:
        rows.append(("made at", node.created_at))
    return _fields(rows)


def closure_renderable(closure: ClosureView | None):
    if closure is None:
        return Text("no backward closure at this step", style="italic dim")
    parts = []
    if closure.source:
        code = "\n".join(closure.source)
        highlight = {closure.highlight} if closure.highlight is not None else set()
        parts.append(
            Syntax(
                code,
                "python",
                line_numbers=True,
                start_line=closure.first_line,
                highlight_lines=highlight,
                theme="ansi_dark",
                word_wrap=True,
            )
        )
    else:
        parts.append(Text("source not available", style="italic dim"))
    if closure.captured:
        parts.append(Text("captured", style="bold"))
        parts.append(_fields(closure.captured))
    return Group(*parts)


def accumulation_renderable(acc: AccumulationView | None):
    if acc is None:
        return Text("no accumulation yet in this pass", style="italic dim")
    where = f"{acc.target}.grad" if acc.into == "grad" else f"{acc.target} (pass buffer)"
    return Group(
        Text(f"{acc.source} -> {where}", style="bold"),
        _fields(
            [
                ("before", acc.before if acc.before is not None else Text("None (first)", style="dim")),
                ("+ contribution", acc.contribution),
                ("= after", acc.after),
            ]
        ),
    )


class Inspector(VerticalScroll):
    """Three sections stacked: node, closure, accumulation."""

    def compose(self):
        yield Static(id="node-info", classes="section")
        yield Static("closure", classes="section-title")
        yield Static(id="closure-info", classes="section")
        yield Static("last accumulation", classes="section-title")
        yield Static(id="accumulation-info", classes="section")

    def show(self, node: NodeView | None, closure: ClosureView | None, acc: AccumulationView | None) -> None:
        self.query_one("#node-info", Static).update(node_renderable(node))
        self.query_one("#closure-info", Static).update(closure_renderable(closure))
        self.query_one("#accumulation-info", Static).update(accumulation_renderable(acc))
