"""What the script printed (the last lines kept by the capture buffer)."""

from __future__ import annotations

from textual.widgets import Log

from ..capture import OutputBuffer


class ScriptOutput(Log):
    """Mirrors an :class:`~tui.capture.OutputBuffer` (which bounds the lines); refreshed on a timer."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._version = -1

    def sync(self, buffer: OutputBuffer) -> bool:
        """Redraw if the buffer changed; True when it did."""
        if buffer.version == self._version:
            return False
        self._version = buffer.version
        lines = buffer.lines()
        self.clear()
        if buffer.dropped:
            self.write_line(f"[... {buffer.dropped} earlier lines not kept ...]")
        self.write_lines(lines)
        return True
