"""What the script printed, taken from the Stepper's output capture as it grows."""

from __future__ import annotations

from textual.widgets import Log

MAX_LINES = 2000


class ScriptOutput(Log):
    """The script's stdout and stderr, the last MAX_LINES lines; fed on a timer, not per write."""

    def __init__(self, **kwargs) -> None:
        super().__init__(max_lines=MAX_LINES, **kwargs)
        self._seen = 0

    def sync(self, capture) -> bool:
        """Append what ``capture`` (an OutputCapture) received since the last call; True when anything did."""
        count = capture.count
        if count == self._seen:
            return False
        chunks = capture.chunks_since(self._seen)
        self._seen = count
        text = "".join(t for _, t in chunks)
        # only the tail can be shown: skip formatting what would be trimmed at once
        lines = text.split("\n")
        if len(lines) > MAX_LINES:
            text = "\n".join(lines[-MAX_LINES:])
        self.write(text)
        return True
