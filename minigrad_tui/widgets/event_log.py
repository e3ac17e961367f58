"""The event log: the events around the current step, one line each; clicking a line goes there.

Only the lines that fit the widget are made, at each step, from the recorded events:
a run of a million events costs the log what a short one does (no line is kept).
"""

from __future__ import annotations

from rich.text import Text
from textual.events import Click
from textual.message import Message

from .in_place_static import InPlaceStatic

CONTEXT_AFTER = 2  # lines shown after the current step when there are any


class EventLog(InPlaceStatic):
    """``show(events, cursor, line_of)`` draws the window of lines around ``cursor``."""

    # one row per event, cut with … at the pane's edge: a wrapped line would push the current step out of view
    DEFAULT_CSS = "EventLog { text-wrap: nowrap; text-overflow: ellipsis; }"

    class Jump(Message):
        """The user chose the line of step ``index``."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.first = 0  # index of the top line's event
        self.highlighted: int | None = None
        self._drawn: tuple | None = None

    def show(self, events, cursor: int, line_of) -> None:
        """Show the lines (``line_of(event)``) of the events around ``cursor``, the current one highlighted."""
        height = max(self.size.height, 1)
        total = len(events)
        first = max(0, min(cursor - height + 1 + CONTEXT_AFTER, total - height))
        last = min(total, first + height)
        key = (first, last, cursor, height)
        if key == self._drawn:
            return
        self._drawn = key
        self.first = first
        self.highlighted = cursor
        text = Text(no_wrap=True, overflow="ellipsis")
        for i in range(first, last):
            if i > first:
                text.append("\n")
            line = " ".join(line_of(events[i]).splitlines())
            text.append(line, style="reverse bold" if i == cursor else "")
        self.show_content(text, key)  # 1fr high: never a screen layout

    def on_resize(self) -> None:
        self._drawn = None

    def on_click(self, event: Click) -> None:
        offset = event.get_content_offset(self)
        if offset is not None and self.highlighted is not None:
            self.post_message(self.Jump(self.first + offset.y))
