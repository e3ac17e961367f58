"""Watched tensors (``w``): each one's value and gradient at the current step."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from .in_place_static import InPlaceStatic

WIDTH = 40


class WatchPanel(InPlaceStatic):
    """One row per watched node: name, value, gradient; hidden while nothing is watched."""

    def show(self, rows: list) -> None:
        """``rows``: (name, NodeState or None when the node does not exist yet at this step)."""
        self.display = bool(rows)
        if not rows:
            return
        table = Table.grid(padding=(0, 1))
        table.add_column(style="bold cyan", no_wrap=True)
        table.add_column(overflow="fold")
        for name, ns in rows:
            if ns is None:
                table.add_row(name, Text("not made yet", style="dim"))
                continue
            g = ns.pass_grad if ns.pass_grad is not None else ns.grad
            value = Text(ns.data.format(WIDTH))
            value.append("  g=" + (g.format(WIDTH) if g is not None else "None"), style="yellow")
            table.add_row(name, value)
        self.show_content(table)
