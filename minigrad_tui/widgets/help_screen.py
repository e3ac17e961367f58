"""The help screen (``?``): every key and what it does."""

from __future__ import annotations

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

LEGEND = [
    (
        "graph colours",
        (
            "white: forward only · grey: no gradient yet · yellow: gradient arriving · "
            "black on yellow: being processed · green: finished · white on red: failed · "
            "magenta edge: gradient flowing now · red label: breakpoint"
        ),
    ),
]


class HelpScreen(ModalScreen):
    """A modal listing ``bindings`` ((keys, description) pairs); any of escape, q or ? closes it."""

    BINDINGS = [Binding("escape,q,question_mark", "dismiss", "close")]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 90; max-width: 95%; height: 85%; border: thick $accent; padding: 1 2;
                                  background: $panel; }
    """

    def __init__(self, bindings: list) -> None:
        super().__init__()
        self.key_rows = bindings

    def compose(self) -> ComposeResult:
        # how to leave and scroll goes first: on 24 rows the end of the list is out of sight
        table = Table(title="minigrad-tui keys  (↑/↓ scroll, escape closes)", expand=True, show_lines=False)
        table.add_column("key", style="bold cyan", no_wrap=True)
        table.add_column("what it does")
        for keys, description in self.key_rows + LEGEND:
            table.add_row(keys, description)
        with VerticalScroll():
            yield Static(table, id="help-table")
            yield Static("ctrl+p opens the command palette with every action.  escape closes this help.")
