"""The top line: where we are (step k of n) and what is happening, in words."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from minigrad.trace.describe import step_text

from ..view import StepView


class StepHeader(Static):
    """``minigrad-tui · script.py · step 12 of 40 · mul#3 -> a: ... · paused`` (steps numbered as the trace's seq)."""

    def __init__(self, source: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.source = source

    def show(self, view: StepView | None, state: str) -> None:
        text = Text()
        text.append(" minigrad-tui ", style="bold reverse")
        text.append(f" {self.source} ", style="bold")
        if view is None:
            text.append("  waiting for the first event", style="italic")
        else:
            text.append(f"  {step_text(view.index, view.total)}  ", style="bold cyan")
            text.append(view.title, style="bold" if view.kind != "error" else "bold red")
        text.append(f"   [{state}]", style="red" if state in ("error", "crashed") else "dim")
        text.no_wrap = True
        text.overflow = "ellipsis"
        self.update(text)
