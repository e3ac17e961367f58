"""A Static that a step updates in place: the screen is laid out again only when the widget's height changes.

``Static.update`` lays out the whole screen, and every widget is placed again; on a step through a
1 000-node graph that, once per updated widget, cost more than drawing the step itself.
"""

from __future__ import annotations

from textual.widgets import Static

_NOTHING = object()


class InPlaceStatic(Static):
    """:meth:`show_content` draws new content without a screen layout unless the widget's height changes,
    and draws nothing when the content (or the ``key`` it was made from) is what the widget shows already."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._shown_key = _NOTHING

    def show_content(self, content, key=_NOTHING) -> None:
        """Show ``content``; ``key``: what it was made from, compared with ``==`` (the content itself if not given:
        a rich ``Text`` compares by its text and styles, other renderables by identity)."""
        key = content if key is _NOTHING else key
        if self._shown_key is not _NOTHING and self._shown_key == key:
            return
        self._shown_key = key
        if not self.display or not (self.styles.is_auto_height or self.styles.is_auto_width):
            self.update(content, layout=False)  # hidden (laid out when shown), or sized by the screen, not by content
            return
        size = self.content_size
        if not size.width:  # not laid out yet
            self.update(content)
            return
        before = self.get_content_height(size, size, size.width)
        self.update(content, layout=False)
        if self.get_content_height(size, size, size.width) != before:
            self.refresh(layout=True)
