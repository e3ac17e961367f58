"""The graph as a tree, for when the pane is too small for the drawing.

Rooted at the outputs, each node's children are its parents (the way gradients
flow). Branches are filled in only when expanded, so a 1 000-node graph costs
nothing until the user looks at it.

In a narrow pane (80 columns) the labels make room for what the step is about:
values are shown only on the current path (the current node, its parents, and the
nodes its gradient came through from the outputs), and the names of the current
node, its parents and its children are never cut to ``…`` (their op and value go
first; a name too long for its line is shown whole, and the tree scrolls sideways to
it). A narrow pane indents each level by two columns instead of four.
"""

from __future__ import annotations

from collections import deque

from rich.text import Text
from textual.widgets import Tree

from minigrad.trace.status import NodeStatus

from ..labels import short_value, value_key

EXPANDED_NODES = 300  # a graph this small opens fully; larger ones open a branch at a time
NARROW = 40  # a pane narrower than this indents each level by 2 columns, not 4

STATUS_MARKS = {
    NodeStatus.ACTIVE: ("▶", "black on yellow"),
    NodeStatus.PENDING: ("●", "yellow"),
    NodeStatus.DONE: ("✓", "green"),
    NodeStatus.FAILED: ("✗", "white on red"),
    NodeStatus.UNTOUCHED: ("·", "grey50"),
    NodeStatus.FORWARD: (" ", ""),
}


class GraphTree(Tree):
    """A lazily expanded tree of the graph with a status mark per node."""

    def __init__(self, **kwargs) -> None:
        super().__init__("graph", **kwargs)
        self.show_root = False
        self.labels: dict = {}
        self.ops: dict = {}
        self.parents: dict = {}
        self.statuses: dict = {}
        self.values: dict = {}  # node id -> short value text
        self._value_keys: dict = {}
        self._shown: dict = {}
        self.consumers: dict = {}  # node id -> the nodes made from it (its children in the graph)
        self.current = None  # the step's node
        self.near: set = set()  # the current node, its parents and children: names never cut
        self.on_path: set | None = None  # nodes whose values are shown (None: every node's)

    def set_graph(self, labels: dict, ops: dict, parents: dict, roots: list) -> None:
        """Show a new graph: ``parents`` maps a node id to its parents' ids; ``roots`` are the outputs.

        Up to EXPANDED_NODES tree entries are opened breadth-first; a node met again is not opened twice.
        """
        self.labels, self.ops, self.parents = labels, ops, parents
        self._shown = {}
        self._value_keys = {}
        self.consumers = {}
        for node_id, node_parents in parents.items():
            for parent in node_parents:
                self.consumers.setdefault(parent, []).append(node_id)
        self.current, self.near, self.on_path = None, set(), None
        self.clear()
        queue = deque((self.root, root) for root in roots)
        opened: set = set()
        budget = EXPANDED_NODES
        while queue:
            tree_parent, node_id = queue.popleft()
            tree_node = self._add(tree_parent, node_id)
            budget -= 1
            if budget > 0 and node_id not in opened and self.parents.get(node_id):
                opened.add(node_id)
                tree_node.expand()
                queue.extend((tree_node, p) for p in self.parents[node_id])
        self.root.expand()

    def _label(self, node_id, value: bool = True, op: bool = True) -> Text:
        mark, style = STATUS_MARKS.get(self.statuses.get(node_id, NodeStatus.FORWARD), STATUS_MARKS[NodeStatus.FORWARD])
        text = Text(mark + " ", style=style)
        text.append(self.labels.get(node_id, f"#{node_id}"), style=style)
        op_name = self.ops.get(node_id) if op else None
        if op_name:
            text.append(f" {op_name}", style="dim")
        shown = self.values.get(node_id) if value and (self.on_path is None or node_id in self.on_path) else None
        if shown:
            text.append(f" {shown}", style="cyan")
        return text

    def render_label(self, node, base_style, style) -> Text:
        """The label, cut with ``…`` where the pane ends (a value cut short must not read as another value);
        near the current node only after the name: one too long for its line is shown alone, whole."""
        text = super().render_label(node, base_style, style)
        depth, up = 0, node
        while up.parent is not None and up.parent is not self.root:
            up, depth = up.parent, depth + 1
        room = self.scrollable_content_region.width - depth * self.guide_depth
        if not 0 < room < text.cell_len:
            return text
        if node.data in self.near:
            icon = text[: len(text) - len(node.label)]  # the toggle icon, as Tree drew it
            name = self._label(node.data, value=False, op=False)
            name.stylize(style)
            name = Text.assemble(icon, name)
            if name.cell_len >= room:  # no room for the name and a "…" after it: the name alone, whole
                return name
        text.truncate(room, overflow="ellipsis")
        return text

    def _add(self, parent_tree_node, node_id):
        has_children = bool(self.parents.get(node_id))
        tree_node = parent_tree_node.add(self._label(node_id), data=node_id, allow_expand=has_children)
        self._shown.setdefault(node_id, []).append(tree_node)
        return tree_node

    def on_tree_node_expanded(self, event: Tree.NodeExpanded) -> None:
        tree_node = event.node
        if tree_node.data is None or tree_node.children:
            return
        for parent in self.parents.get(tree_node.data, ()):
            self._add(tree_node, parent)

    def show(self, statuses: dict, node_states=None, current=None) -> None:
        """Update the labels whose status, value or place near ``current`` changed (only the entries shown).

        ``node_states``: node id -> :class:`~minigrad.trace.state.NodeState` at this step;
        ``current``: the step's node (None: no node, every value shown).
        """
        changed = {k for k in set(statuses) | set(self.statuses) if statuses.get(k) != self.statuses.get(k)}
        self.statuses = statuses
        if current != self.current:
            near, on_path = self._around(current)
            changed |= (near ^ self.near) | ((on_path or set()) ^ (self.on_path or set()))
            if (on_path is None) != (self.on_path is None):
                changed |= set(self._shown)
            self.current, self.near, self.on_path = current, near, on_path
        if node_states is not None:
            for node_id in self._shown:
                ns = node_states.get(node_id)
                key = value_key(ns) if ns is not None else None
                if self._value_keys.get(node_id) != key:
                    self._value_keys[node_id] = key
                    self.values[node_id] = short_value(ns) if ns is not None else ""
                    changed.add(node_id)
        for node_id in changed:
            for tree_node in self._shown.get(node_id, ()):
                tree_node.set_label(self._label(node_id))

    def _around(self, current) -> tuple:
        """(``current``, its parents and children; those and every node its gradient came through)."""
        if current is None or current not in self.parents:
            return set(), None
        near = {current, *self.parents.get(current, ()), *self.consumers.get(current, ())}
        on_path = set(near)
        queue = deque(self.consumers.get(current, ()))
        while queue:
            node_id = queue.popleft()
            for consumer in self.consumers.get(node_id, ()):
                if consumer not in on_path:
                    on_path.add(consumer)
                    queue.append(consumer)
        return near, on_path

    def reveal(self, node_id) -> None:
        """Move the cursor to ``node_id`` if its branch is shown (once the tree has placed new entries on lines)."""
        self.call_after_refresh(self._reveal_now, node_id)

    def on_resize(self) -> None:
        self.guide_depth = 2 if self.size.width < NARROW else 4

    def _reveal_now(self, node_id) -> None:
        if node_id is None:  # a step about no node: no cursor, whatever was shown before
            self.cursor_line = -1
            return
        for tree_node in self._shown.get(node_id, ()):
            self.move_cursor(tree_node)
            self.scroll_to_node(tree_node, animate=False)
            depth, up = 0, tree_node
            while up.parent is not None and up.parent is not self.root:
                up, depth = up.parent, depth + 1
            end = depth * self.guide_depth + self.get_label_width(tree_node)
            # sideways only as far as the node's whole name needs (Tree itself never scrolls sideways)
            self.scroll_to(x=max(0, end - self.scrollable_content_region.width), animate=False, immediate=True)
            return
