"""The value view (``x``): pick one of the step's values, then read it whole, with its indices.

A value is printed by :func:`minigrad.trace.values.indexed_lines` (NumPy's number
format, each line led by where its values lie), up to ``VIEW_LIMIT`` values at a
time; a larger one opens on its first rows, and the index field takes a NumPy-style
slice (``0:10, :``), parsed by :func:`~minigrad.trace.values.parse_index`, never run.
"""

from __future__ import annotations

import math

import numpy as np
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Log, OptionList, Static
from textual.widgets.option_list import Option

from minigrad.tensor import shape_str
from minigrad.trace.values import VIEW_LIMIT, indexed_lines, parse_index


def first_rows(shape: tuple, limit_: int = VIEW_LIMIT) -> str:
    """The index of the first rows of a value of ``shape`` holding at most ``limit_`` values (``""``: all of it)."""
    if math.prod(shape) <= limit_:
        return ""
    index = []
    for axis in range(len(shape)):
        rest = math.prod(shape[axis + 1 :])
        if rest <= limit_:
            index.append(f"0:{max(1, limit_ // rest)}")
            break
        index.append("0")
    return ", ".join(index)


class ValuePicker(ModalScreen):
    """The step's values, one a line (what it is, dtype and shape); dismissed with the index picked, or None."""

    BINDINGS = [Binding("escape", "cancel", "cancel")]
    DEFAULT_CSS = """
    ValuePicker { align: center middle; }
    ValuePicker > Vertical { width: 76; max-width: 95%; height: auto; max-height: 90%; border: thick $accent;
                             padding: 0 1; }
    ValuePicker OptionList { height: auto; max-height: 18; }
    """

    def __init__(self, values: list) -> None:
        super().__init__()
        self.values = values

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("which value? (enter shows it whole, escape closes)")
            yield OptionList(
                *(Option(f"{what}  {snap.dtype}{shape_str(snap.shape)}") for what, snap in self.values),
                id="value-choices",
            )

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option_index)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ValueView(ModalScreen):
    """One value whole: its name, dtype and shape, an index field, and the values (scroll with the arrows,
    PgUp/PgDn, home/end). Escape closes."""

    BINDINGS = [Binding("escape", "dismiss", "close")]
    DEFAULT_CSS = """
    ValueView { align: center middle; }
    ValueView > Vertical { width: 100%; height: 100%; border: thick $accent; padding: 0 1; background: $panel; }
    ValueView #value-title { height: 1; text-style: bold; }
    ValueView Horizontal { height: auto; }
    ValueView Horizontal Label { width: auto; padding: 1 1 0 0; }
    ValueView Input { width: 1fr; }
    ValueView #value-note { height: auto; color: $warning; }
    ValueView Log { height: 1fr; }
    """

    def __init__(self, what: str, snap) -> None:
        super().__init__()
        self.what = what
        self.snap = snap
        self.index_text = first_rows(snap.shape) if snap.values is not None else ""

    def compose(self) -> ComposeResult:
        snap = self.snap
        with Vertical():
            yield Static(f"{self.what}  {snap.dtype}{shape_str(snap.shape)}  {snap.size} values", id="value-title")
            with Horizontal():
                yield Label("index [", id="index-label")
                yield Input(self.index_text, placeholder="all, or a slice: 0:10, :", id="value-index")
                yield Label("]  tab: edit, enter: show · escape closes")
            yield Static(id="value-note")
            yield Log(auto_scroll=False, id="value-lines")

    def on_mount(self) -> None:
        self.call_after_refresh(self.show, self.index_text)  # once laid out: lines as wide as the view
        self.query_one(Log).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.show(event.value)
        self.query_one(Log).focus()

    def show(self, index_text: str) -> None:
        """Print the values ``index_text`` selects, or say why not (a summary only, a bad or too large index)."""
        note, log = self.query_one("#value-note", Static), self.query_one(Log)
        log.clear()
        note.update("")
        try:
            values = self.snap.array()
        except ValueError as exc:  # only a summary was recorded
            note.update(str(exc))
            log.write_line(self.snap.format(summary_width=None))
            return
        try:
            index = parse_index(index_text, values.ndim)
            count = np.asarray(values)[index].size if index else values.size
            if count > VIEW_LIMIT:
                note.update(
                    f"{count} values: the view prints at most {VIEW_LIMIT} at a time; "
                    f"choose a slice such as {first_rows(values.shape)}"
                )
                return
            width = max((self.query_one(Log).size.width or self.app.size.width - 6) - 2, 20)
            lines = indexed_lines(values, width, index)
        except (ValueError, IndexError) as exc:
            note.update(f"{type(exc).__name__}: {exc}")
            return
        log.write_lines(lines)
        log.scroll_home(animate=False)
