"""The top lines: where we are (step k of n), the script's state, and what is happening, in words."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from minigrad.trace.describe import step_text

from ..view import StepView

TWO_LINES_BELOW = 100  # columns: under this the event's words always get a line of their own


class StepHeader(Static):
    """``minigrad-tui · script.py · step 12 of 40 · [paused]``, then the event in words
    (``mul#3 -> a: ...``) on the same line when it fits, else on a second line."""

    def __init__(self, source: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.source = source
        self._shown: tuple = (None, "starting")

    def show(self, view: StepView | None, state: str) -> None:
        self._shown = (view, state)
        where = Text()
        where.append(" minigrad-tui ", style="bold reverse")
        where.append(f" {self.source} ", style="bold")
        if view is not None:
            where.append(f"  {step_text(view.index, view.total)}", style="bold cyan")
        status = Text(f"  [{state}]", style="red" if state in ("error", "crashed") else "dim")
        if view is None:
            words = Text("  waiting for the first event", style="italic")
        else:
            words = Text(f"  {view.title}", style="bold" if view.kind != "error" else "bold red")
        width = self.size.width or TWO_LINES_BELOW
        one_line = width >= TWO_LINES_BELOW and where.cell_len + words.cell_len + status.cell_len <= width
        text = Text.assemble(where, words, status) if one_line else Text.assemble(where, status, "\n", words)
        text.no_wrap = True
        text.overflow = "ellipsis"
        self.update(text)
        self.styles.height = 1 if one_line else 2

    def on_resize(self) -> None:
        self.show(*self._shown)
