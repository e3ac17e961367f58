"""The event log: one line per recorded event; choosing a line jumps there."""

from __future__ import annotations

from textual.message import Message
from textual.widgets import OptionList


class EventLog(OptionList):
    """Lines are appended as events arrive; the current step's line is highlighted."""

    class Jump(Message):
        """The user chose the line of step ``index``."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def append_lines(self, lines: list) -> None:
        if lines:
            self.add_options(lines)

    def follow(self, index: int) -> None:
        if 0 <= index < self.option_count and self.highlighted != index:
            self.highlighted = index

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(self.Jump(event.option_index))
