"""Errors: a script that could not start, raised, or whose backward pass failed."""

from __future__ import annotations

from rich.console import Group
from rich.text import Text

from .in_place_static import InPlaceStatic


class ErrorPanel(InPlaceStatic):
    """The error message in bold and the traceback below it; empty when all is well."""

    def show(self, title: str | None, traceback_text: str | None) -> None:
        if not title:
            self.show_content(Text("no errors", style="italic dim"))
            return
        parts = [Text(title, style="bold red")]
        if traceback_text:
            parts.append(Text(traceback_text.rstrip(), style="red"))
        self.show_content(Group(*parts), (title, traceback_text))
