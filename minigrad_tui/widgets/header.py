"""The top lines: where we are (step k of n), the script's state, and what is happening, in words."""

from __future__ import annotations

from rich.text import Text

from minigrad.trace.describe import step_text

from ..view import StepView
from .in_place_static import InPlaceStatic

TWO_LINES_BELOW = 100  # columns: under this the event's words always get a line of their own


class StepHeader(InPlaceStatic):
    """``minigrad-tui · script.py · step 12 of 40 · [paused]``, then the event in words
    (``mul#3 -> a: ...``) on the same line when it fits, else on a second line."""

    def __init__(self, source: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.source = source
        self._shown: tuple = (None, "starting")

    def show(self, view: StepView | None, state: str) -> None:
        self._shown = (view, state)
        width = self.size.width or TWO_LINES_BELOW
        step = Text(f"  {step_text(view.index, view.total)}", style="bold cyan") if view is not None else Text()
        status = Text(f"  [{state}]", style="red" if state in ("error", "crashed") else "dim")
        where = Text()
        where.append(" minigrad-tui ", style="bold reverse")
        # the step and the state always show: a long path gives up its start (…/01_chain_rule/demo.py)
        where.append(f" {_tail(self.source, width - 16 - step.cell_len - status.cell_len)} ", style="bold")
        where.append_text(step)
        if view is None:
            words = Text("  waiting for the first event", style="italic")
        else:
            words = Text(f"  {view.title}", style="bold" if view.kind != "error" else "bold red")
            inner = view.passes[-1] if view.passes else None
            if inner is not None and inner.kind == "grad":  # inside grad(): which pass, how deep
                words = Text.assemble((f"  grad() p{inner.pass_id}, depth {inner.depth} · ", "magenta"), words[2:])
        one_line = width >= TWO_LINES_BELOW and where.cell_len + words.cell_len + status.cell_len <= width
        if one_line:
            text = Text.assemble(where, words, status)
        else:
            words.truncate(width, overflow="ellipsis")  # a line each: the words must not push the state off
            text = Text.assemble(where, status, "\n", words)
        text.no_wrap = True
        self.show_content(text)  # its height is set here, not by its content: no screen layout
        self.styles.height = 1 if one_line else 2

    def on_resize(self) -> None:
        self.show(*self._shown)


def _tail(path: str, room: int) -> str:
    """``path``, or its end after ``…`` when it is longer than ``room`` (at least its file name)."""
    if len(path) <= room:
        return path
    name = path.rsplit("/", 1)[-1]
    return "…" + path[-max(room - 1, len(name)) :]
