"""The pass stack: nested backward()/grad() passes and what grad() saved and restored."""

from __future__ import annotations

from rich.console import Group
from rich.text import Text

from ..view import PassView
from .in_place_static import InPlaceStatic


class PassStack(InPlaceStatic):
    """One block per pass, outermost first; the one picked with u/d is marked."""

    def show(self, passes: list, selected: int | None) -> None:
        if not passes:
            self.show_content(Text("no pass running (forward)", style="italic dim"))
            return
        blocks = Group(*(self._block(p, i == selected) for i, p in enumerate(passes)))
        self.show_content(blocks, (list(passes), selected))

    @staticmethod
    def _block(p: PassView, picked: bool) -> Group:
        head = Text("▶ " if picked else "  ", style="bold yellow")
        head.append(f"{p.kind}() #{p.pass_id}", style="bold")
        head.append(f"  depth {p.depth}  {p.state}", style="dim")
        if p.node:
            head.append(f"  at {p.node}")
        lines = [head]
        for name, value in p.saved:
            line = Text("    saved    ", style="cyan")
            line.append(f"{name}.grad = {value}")
            lines.append(line)
        for name, value in p.restored:
            line = Text("    restored ", style="green")
            line.append(f"{name}.grad = {value}")
            lines.append(line)
        return Group(*lines)
