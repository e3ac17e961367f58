"""The graph drawn with box-drawing characters, re-coloured per step.

The raster (characters and who owns each cell) is built once per layout; a step
only changes the owner -> style map, and only visible rows are rendered, so a
step costs the same on a 1 000-node graph as on a 10-node one.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from textual.events import Click
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from minigrad.trace.status import NodeStatus

from ..labels import short_value, value_key
from ..raster import Raster

NODE_STYLES = {
    NodeStatus.UNTOUCHED: Style(color="grey50"),
    NodeStatus.PENDING: Style(color="yellow", bold=True),
    NodeStatus.ACTIVE: Style(color="black", bgcolor="yellow", bold=True),
    NodeStatus.DONE: Style(color="green"),
    NodeStatus.FAILED: Style(color="white", bgcolor="red", bold=True),
    NodeStatus.FORWARD: Style(color="bright_white"),
}
EDGE_STYLE = Style(color="grey42")
ACTIVE_EDGE_STYLE = Style(color="magenta", bold=True)
SELECTED_STYLE = Style(underline=True, color="bright_cyan")
BREAKPOINT_STYLE = Style(color="red", bold=True)


class GraphCanvas(ScrollView, can_focus=True):
    """A scrollable view of a :class:`~minigrad_tui.raster.Raster` with per-node status colours."""

    DEFAULT_CSS = "GraphCanvas { background: $surface; }"

    class NodeClicked(Message):
        """The user clicked a node box."""

        def __init__(self, node_id) -> None:
            super().__init__()
            self.node_id = node_id

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.raster = Raster()
        self.statuses: dict = {}
        self.active_edges: set = set()
        self.selected = None
        self.breakpoints: set = set()
        self.node_states: dict = {}
        self._bottoms: dict = {}  # row -> boxes whose bottom border it is: (node id, col, width)
        self._values: dict = {}  # node id -> (value_key, short text), filled for boxes drawn

    def set_raster(self, raster: Raster) -> None:
        self.raster = raster
        self.virtual_size = Size(raster.width, raster.height)
        self._bottoms = {}
        self._values = {}  # only this raster's boxes: the cache stays as small as the graph drawn
        for node_id, (col, row, w, h) in raster.boxes.items():
            self._bottoms.setdefault(row + h - 1, []).append((node_id, col, w))
        self.refresh()

    def show(self, statuses: dict, edge: tuple | None, selected, breakpoints: set, node_states=None) -> None:
        """Re-colour for a step: node statuses, the edge carrying the gradient, the selection; with
        ``node_states`` (id -> NodeState) each box's bottom border shows its short value and gradient."""
        node_states = node_states or {}
        # events name an edge in the gradient's direction (child -> parent); the drawing in the forward one
        wanted = set() if edge is None else {tuple(edge), (edge[1], edge[0])}
        active_edges = {i for i, e in enumerate(self.raster.edges) if e in wanted} if wanted else set()
        values_come_or_go = bool(node_states) != bool(self.node_states)
        changed = (
            None
            if values_come_or_go
            else self._changed_rows(statuses, active_edges, selected, breakpoints, node_states)
        )
        self.statuses, self.node_states, self.active_edges = statuses, node_states, active_edges
        self.selected, self.breakpoints = selected, breakpoints
        if changed is None:
            self.refresh()
            return
        for row, count in changed:  # only what this step changed is drawn again (a scroll redraws all)
            self.refresh_lines(row, count)

    def _changed_rows(self, statuses, active_edges, selected, breakpoints, node_states) -> list:
        """The visible rows ``(first, count)`` whose drawing differs with these statuses, edges, selection,
        breakpoints and values from the drawing on screen."""
        top = self.scroll_offset.y
        bottom = min(top + self.scrollable_content_region.height, self.raster.height)
        nodes = set()
        if statuses != self.statuses:
            nodes |= {k for k in statuses.keys() | self.statuses.keys() if statuses.get(k) != self.statuses.get(k)}
        if selected != self.selected:
            nodes |= {selected, self.selected}
        if breakpoints != self.breakpoints:
            nodes |= set(breakpoints) ^ set(self.breakpoints)
        rows = []
        for node_id in nodes:
            box = self.raster.boxes.get(node_id)
            if box is not None and box[1] < bottom and box[1] + box[3] > top:
                rows.append((box[1], box[3]))
        edges = active_edges ^ self.active_edges
        for row in range(top, bottom):
            for node_id, _, _ in self._bottoms.get(row, ()):
                old, new = self.node_states.get(node_id), node_states.get(node_id)
                if old is not new and (old is None or new is None or value_key(old) != value_key(new)):
                    rows.append((row, 1))
            if edges and any(
                owner is not None and owner[0] == "e" and owner[1] in edges for *_, owner in self.raster.spans[row]
            ):
                rows.append((row, 1))
        return rows

    def follow(self, node_id) -> None:
        """Scroll so that ``node_id``'s box is visible (centred when it was off screen)."""
        box = self.raster.boxes.get(node_id)
        if box is None:
            return
        col, row, w, h = box
        self.scroll_to_region(Region(col, row, w, h), animate=False, center=True, immediate=True)

    def _style(self, owner) -> Style:
        if owner is None:
            return Style()
        kind, key = owner
        if kind == "e":
            return ACTIVE_EDGE_STYLE if key in self.active_edges else EDGE_STYLE
        style = NODE_STYLES.get(self.statuses.get(key, NodeStatus.FORWARD), NODE_STYLES[NodeStatus.FORWARD])
        if key in self.breakpoints:
            style = style + BREAKPOINT_STYLE
        if key == self.selected:
            style = style + SELECTED_STYLE
        return style

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        row = scroll_y + y
        width = self.scrollable_content_region.width
        if row >= self.raster.height:
            return Strip.blank(width)
        text = self.raster.rows[row]
        if row in self._bottoms and self.node_states:
            text = self._with_values(text, self._bottoms[row])
        segments = [Segment(text[start:end], self._style(owner)) for start, end, owner in self.raster.spans[row]]
        return Strip(segments, self.raster.width).crop_extend(scroll_x, scroll_x + width, Style())

    def _with_values(self, text: str, boxes: list) -> str:
        """``text`` (a row of bottom borders) with each box's short value written into its border."""
        chars = list(text)
        for node_id, col, w in boxes:
            ns = self.node_states.get(node_id)
            if ns is None:
                continue
            key = value_key(ns)
            cached = self._values.get(node_id)
            if cached is None or cached[0] != key:
                cached = self._values[node_id] = (key, short_value(ns))
            value = f" {cached[1]} "[: w - 2]
            chars[col + 1 : col + 1 + len(value)] = value
        return "".join(chars)

    def on_click(self, event: Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        owner = self.raster.owner_at(offset.x + self.scroll_offset.x, offset.y + self.scroll_offset.y)
        if owner is not None and owner[0] == "n":
            self.post_message(self.NodeClicked(owner[1]))
