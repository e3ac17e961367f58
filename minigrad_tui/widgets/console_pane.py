"""The expression console (``:``): a prompt, its history (↑/↓) and every answer, scrollable.

What it evaluates and over which names is :mod:`minigrad_tui.console`; this is only the pane.
Answers and errors are written to a transcript the debugger keeps, so the console
opens again, at another step, with what was asked before.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, RichLog

from .. import console

MAX_TRANSCRIPT = 2000  # lines kept between openings


@dataclass
class ConsoleHistory:
    """What the console asked and answered, kept while the debugger runs."""

    asked: list = field(default_factory=list)
    transcript: list = field(default_factory=list)  # rich Texts
    last: object = None


class ConsolePane(ModalScreen):
    """Evaluates each expression typed in ``scope`` (see :func:`minigrad_tui.console.build_scope`) in a worker thread,
    so a slow one never freezes the debugger; an error is printed, never raised."""

    BINDINGS = [
        Binding("escape", "dismiss", "close"),
        Binding("up", "history(-1)", "earlier", show=False, priority=True),
        Binding("down", "history(1)", "later", show=False, priority=True),
        Binding("pageup", "scroll(-1)", "scroll up", show=False),
        Binding("pagedown", "scroll(1)", "scroll down", show=False),
    ]
    DEFAULT_CSS = """
    ConsolePane { align: center bottom; }
    ConsolePane > Vertical { width: 100%; height: 70%; border: thick $accent; background: $panel; padding: 0 1; }
    ConsolePane #console-title { height: 1; color: $text-muted; }
    ConsolePane RichLog { height: 1fr; }
    """

    def __init__(self, scope: dict, title: str, history: ConsoleHistory) -> None:
        super().__init__()
        self.scope = scope
        self.title_text = title
        self.history = history
        self._at = len(history.asked)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.title_text, id="console-title")
            yield RichLog(wrap=True, id="console-log")
            yield Input(
                placeholder="a Python expression: out, 1 - out**2, g * (1 - out**2), w.grad ...", id="console-input"
            )

    def on_mount(self) -> None:
        log = self.query_one(RichLog)
        for line in self.history.transcript:
            log.write(line)
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        expression = event.value.strip()
        event.input.value = ""
        if not expression:
            return
        self.history.asked.append(expression)
        self._at = len(self.history.asked)
        self._say(Text(f">>> {expression}", style="bold"))
        width = max(self.query_one(RichLog).size.width - 2, 20)
        self.scope["_"] = self.history.last
        self.run_worker(lambda: self._evaluate(expression, width), thread=True, group="console")

    def _evaluate(self, expression: str, width: int) -> None:
        try:
            value = console.evaluate(expression, self.scope)
            text = Text(console.answer_text(value, width))
            self.history.last = value
        except (
            Exception,
            SystemExit,
        ) as exc:  # the expression's own error (SyntaxError, exit()): printed, nothing ends
            text = Text(f"{type(exc).__name__}: {exc}", style="red")
        self.app.call_from_thread(self._say, text)

    def _say(self, text: Text) -> None:
        transcript = self.history.transcript
        transcript.append(text)
        del transcript[:-MAX_TRANSCRIPT]
        self.query_one(RichLog).write(text)

    def action_scroll(self, pages: int) -> None:
        log = self.query_one(RichLog)
        (log.scroll_page_down if pages > 0 else log.scroll_page_up)(animate=False)

    def action_history(self, delta: int) -> None:
        asked = self.history.asked
        if not asked:
            return
        self._at = min(max(self._at + delta, 0), len(asked))
        field_ = self.query_one(Input)
        field_.value = asked[self._at] if self._at < len(asked) else ""
        field_.cursor_position = len(field_.value)
