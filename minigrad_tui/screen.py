"""The debugger's one screen: header, graph, inspector, pass stack, event log, output, errors."""

from __future__ import annotations

import dataclasses
import os

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, TabbedContent, TabPane

from minigrad.trace.breakpoints import Breakpoint, parse_breakpoint
from minigrad.trace.describe import headline

from . import console
from . import navigation as nav
from .layout import fit_width, layout_graph
from .model import StepModel, breakpoint_text, stop_reason
from .raster import rasterize
from .scope import GraphScope
from .session import Session
from .widgets.console_pane import ConsoleHistory, ConsolePane
from .widgets.error_panel import ErrorPanel
from .widgets.event_log import EventLog
from .widgets.graph_canvas import GraphCanvas
from .widgets.graph_tree import GraphTree
from .widgets.header import StepHeader
from .widgets.help_screen import HelpScreen
from .widgets.inspector import Inspector
from .widgets.pass_stack import PassStack
from .widgets.prompt import Prompt
from .widgets.script_output import ScriptOutput
from .widgets.value_view import ValuePicker, ValueView
from .widgets.watch_panel import WatchPanel

MAX_DRAWN_NODES = 3000
TREE_BELOW_COLUMNS = 40
LAYOUTS_KEPT = 8
COMPACT_BELOW = (100, 30)  # columns, rows: under either, the compact layout (tree graph, log on short tabs)
POLL_SECONDS = 0.05

KEYS = [
    ("n", "next", "next event (steps over nested passes)"),
    ("s", "step", "step into: the very next event"),
    ("N", "next_node", "next node: until the pass enters another node"),
    ("right", "forward", "forward one event"),
    ("left", "back", "back one event (replays the record)"),
    ("home", "first", "first step"),
    ("end", "last", "last recorded step"),
    ("c", "continue", "continue to a breakpoint (or an error, or the end)"),
    ("b", "break_node", "toggle a breakpoint on the selected node"),
    ("B", "break_op", "toggle a breakpoint on the selected node's op"),
    ("i", "break_if", "breakpoint on the selected node with a hit count or condition (hit 3 if |g| > 10)"),
    ("t", "run_to", "run to the selected node"),
    ("f", "finish", "finish the current node"),
    ("r", "return", "run to the end of the current pass"),
    ("u", "up", "up the pass stack (outer pass)"),
    ("d", "down", "down the pass stack (inner pass)"),
    ("p", "pause", "pause a running script"),
    ("e", "export", "export the current step as SVG (into a folder named at the first export: minigrad-exports/)"),
    ("[", "select_prev", "select the previous node"),
    ("]", "select_next", "select the next node"),
    ("g", "goto", "go to a step (12) or a pass (p2)"),
    ("slash", "search", "select a node by name (t then runs to it)"),
    ("w", "watch", "watch the selected node (value and grad at every step)"),
    ("x", "values", "a value of this step whole, with its indices (pick one; a slice for large ones)"),
    ("colon", "console", "console: evaluate a Python expression over this step (out, g, names, the script's)"),
    ("a", "toggle_all", "graph: this pass's nodes / all nodes"),
    ("v", "toggle_tree", "switch between the drawn graph and the tree"),
    ("F", "toggle_follow", "follow the current node on/off"),
    ("pageup", "panel_up", "scroll the step panel up"),
    ("pagedown", "panel_down", "scroll the step panel down (what does not fit under the rule)"),
    ("question_mark", "help", "this help"),
    ("q", "quit", "quit (ends the script)"),
]
FOOTER_KEYS = {"n", "s", "left", "c", "b", "f", "r", "g", "p", "question_mark", "q"}  # the rest: `?` and the palette
# the footer's words for its keys (the help and the palette use the long ones)
FOOTER_WORDS = {"b": "break", "g": "go to", "question_mark": "help", "left": "back"}
PRIORITY_KEYS = {"home", "end", "left", "right", "pageup", "pagedown"}
# keys that move the cursor or prompt for a place to go: nothing to do while the script runs
MOVING_ACTIONS = {"goto", "search", "up", "down"}


class DebuggerScreen(Screen):
    """Binds keys to movements of a :class:`~minigrad_tui.session.Session` and renders each step."""

    class RunStatusChanged(Message):
        """The script's :class:`~minigrad_tui.runner.RunStatus` changed: state word and error panel follow it together."""

        def __init__(self, status) -> None:
            super().__init__()
            self.status = status

    class LayoutDone(Message):
        """A layout worker finished. Sent to the screen, never to the app: a screen that is closing
        drops it, so a layout finishing as the debugger quits cannot draw into removed widgets."""

        def __init__(self, key, laid_out: tuple) -> None:
            super().__init__()
            self.key = key
            self.laid_out = laid_out

    class StraightDone(Message):
        """The straight layout of a graph whose plain one does not fit its pane is ready (as LayoutDone)."""

        def __init__(self, key, layout) -> None:
            super().__init__()
            self.key = key
            self.layout = layout

    class GraphvizUnusable(Message):
        """Graphviz could not be loaded (pygraphviz installed without the libraries it links): the tree shows graphs."""

        def __init__(self, reason: str) -> None:
            super().__init__()
            self.reason = reason

    BINDINGS = [
        Binding(
            key,
            action,
            FOOTER_WORDS.get(key, action.replace("_", " ")),
            show=key in FOOTER_KEYS,
            tooltip=desc,
            # scrolling panes bind home/end and the arrows themselves; the debugger's steps must win
            priority=key in PRIORITY_KEYS,
        )
        for key, action, desc in KEYS
    ] + [
        Binding("shift+left", "pan(-8, 0)", "pan left", show=False),
        Binding("shift+right", "pan(8, 0)", "pan right", show=False),
        Binding("shift+up", "pan(0, -4)", "pan up", show=False),
        Binding("shift+down", "pan(0, 4)", "pan down", show=False),
    ]

    def __init__(self, session: Session, title: str) -> None:
        super().__init__()
        self.session = session
        self.title_text = title
        self.model = None
        self.selected = None
        self.pass_pick: int | None = None
        self.follow = True
        self.tree_forced: bool | None = None
        self.show_all = False
        self.watched: list = []
        self._possible: tuple | None = None
        self.scope: GraphScope | None = None
        self._wanted_scope: tuple | None = None  # (key, node ids or None for all)
        self._drawn_scope = None
        self._drawn_raster = None  # (scope key, pane width) of the drawing on the canvas
        self._graphviz_unusable = False  # set by a layout worker that could not load Graphviz
        self._too_wide = False  # the drawing does not fit the pane even squeezed: the tree shows the graph
        self._layouts: dict = {}  # scope key -> laid-out graph, the last LAYOUTS_KEPT
        self._straights: dict = {}  # scope key -> its straight layout, laid out only where the plain one did not fit
        self._straight_busy = None  # the scope key whose straight layout a worker is laying out
        self._layout_busy = False
        self._named = 0
        self._names: dict = {}
        self._dropped = None  # the trace's Dropped when its events were last taken in
        self.shown_status = None
        self._posted_status = None
        self._told_error = None  # the title of the error last notified
        self._view = None  # the StepView last rendered
        self.console_history = ConsoleHistory()

    # ------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield StepHeader(self.title_text, id="header")
        with Horizontal(id="main"):
            with Vertical(id="graph-pane"):
                yield GraphCanvas(id="canvas")
                yield GraphTree(id="tree")
            with Vertical(id="side"):
                yield Inspector(id="inspector")
                yield WatchPanel(id="watch")
                yield PassStack(id="passes")
        with TabbedContent(id="bottom"):
            with TabPane("Events", id="tab-events"):
                yield EventLog(id="events")
            with TabPane("Output", id="tab-output"):
                yield ScriptOutput(id="output")
            with TabPane("Errors", id="tab-errors"):
                yield ErrorPanel(id="errors")
        yield Footer(compact=True)

    def on_resize(self, event) -> None:
        width, height = event.size
        compact = width < COMPACT_BELOW[0] or height < COMPACT_BELOW[1]
        self.set_class(compact, "compact")
        # at 80 columns the footer's keys need the whole line; ctrl+p still opens the palette
        self.query_one(Footer).show_command_palette = not compact
        self.call_after_refresh(self.render_step)  # the drawing is fitted to the graph pane's new width

    def on_mount(self) -> None:
        self.query_one("#graph-pane").border_title = "graph"
        self.query_one("#inspector").border_title = "step"
        self.query_one("#passes").border_title = "passes (u/d)"
        self.query_one("#watch").border_title = "watch (w)"
        self.query_one("#errors", ErrorPanel).show(None, None)
        self.set_interval(POLL_SECONDS, self.poll)
        self.poll()

    # ------------------------------------------------------------ polling the script
    def poll(self) -> None:
        """Take in new events, output and state changes; re-render if anything changed."""
        session = self.session
        if session.trace is None:
            return
        if self.model is None:
            self.model = StepModel(session.trace)
            self.scope = GraphScope(session.trace.nodes)
        grew = self._take_events()
        self.query_one("#output", ScriptOutput).sync(session.source.output)
        was_running = session.running
        status = session.source.status  # read once: the cursor moves to where this status says
        moved = session.sync(status)
        if status is not self._posted_status:
            # the message's handler renders the step, with the state word and the error panel
            self._posted_status = status
            self.post_message(self.RunStatusChanged(status))
        elif moved or was_running != session.running or (grew and not session.running):
            self.render_step()
        elif grew:  # the script runs on: the step shown is unchanged, only the count of steps grows
            self._show_progress()

    def _show_progress(self) -> None:
        header = self.query_one("#header", StepHeader)
        if self._view is not None:
            header.show(dataclasses.replace(self._view, total=self.session.total), self._state_word())

    def _take_events(self) -> bool:
        """Learn names and graph scopes from new events; True when any arrived.

        The graph is laid out again only once the script stops.
        """
        trace, session = self.session.trace, self.session
        if trace.dropped is not self._dropped:  # the memory budget dropped older passes: learn the rest anew
            shift = (trace.dropped.events if trace.dropped is not None else 0) - (
                self._dropped.events if self._dropped is not None else 0
            )
            if session.cursor >= 0:  # the kept events were renumbered from 0: follow the one shown
                session.cursor = max(session.cursor - shift, 0)
            self._dropped = trace.dropped
            self._named, self._names = 0, {}
            self.scope = GraphScope(trace.nodes)
            self._layouts.clear()
            self._straights.clear()
        events = self.session.events
        n = len(events)
        for e in events[self._named : n]:
            if e.kind == "node_created":
                self._names[e.node] = e.info.label
            elif e.kind == "node_named":
                self._names[e.node] = e.name
        grew = n != self._named
        if grew:
            self.scope.take(events[self._named : n])
        self._named = n
        if grew:
            self.model.forget()
        if not self.session.running:
            self._maybe_layout()
        return grew

    def _state_word(self) -> str:
        """The header's state, from the last RunStatus shown (never ahead of the error panel)."""
        state = self.shown_status.state if self.shown_status is not None else "starting"
        if state in ("replay", "finished", "error", "stopped"):
            return state
        return "running" if self.session.running else "paused"

    def on_debugger_screen_run_status_changed(self, message: RunStatusChanged) -> None:
        status = message.status
        if status is self.shown_status:
            return
        self.shown_status = status
        if status.error is not None:
            self.query_one("#errors", ErrorPanel).show(*status.error)
            self.query_one("#bottom", TabbedContent).active = "tab-errors"
            if status.error[0] != self._told_error:  # the stop at an error already said it
                self._told_error = status.error[0]
                self.notify(status.error[0], title="the script raised", severity="error", timeout=8)
        elif status.state == "finished" and not any(e.kind == "pass_started" for e in self.session.events):
            self.notify("The script ended without calling backward().", title="no backward pass", timeout=8)
        self.refresh_bindings()
        self.render_step()

    # ------------------------------------------------------------ the graph
    def _show_scope(self, index: int, event) -> None:
        """Draw the graph of this step's pass (or all nodes): a kept layout at once, else lay it out."""
        key, ids = self.scope.at(index, event, self.model.state(index).passes, self.show_all)
        self._wanted_scope = (key, ids)
        laid_out = self._layouts.get(key)
        if laid_out is None:
            self._maybe_layout()
            return
        layout, raster, labels, ops, parents, roots = laid_out
        if key != self._drawn_scope:
            self._drawn_scope = key
            self.query_one("#tree", GraphTree).set_graph(labels, ops, parents, roots)
        if raster is None:
            return
        canvas = self.query_one("#canvas", GraphCanvas)
        width = self.query_one("#graph-pane").scrollable_content_region.width or raster.width
        if self._drawn_raster == (key, width):
            return
        self._drawn_raster = (key, width)
        fitted = fit_width(layout, width)
        if fitted is None:  # the chain kept straight, its leaves beside it (the tree until it is laid out)
            straight = self._straights.get(key)
            if straight is None:
                self._lay_out_straight(key, labels, ops, parents)
            else:
                fitted = fit_width(straight, width)
        self._too_wide = fitted is None
        if fitted is None or fitted is layout:  # too wide even squeezed: drawn whole for v, the tree shown
            canvas.set_raster(raster)
        else:  # squeezed sideways into the pane, or the straight layout: drawn again for this width
            canvas.set_raster(rasterize(fitted, labels, ops))

    def _maybe_layout(self) -> None:
        if self._layout_busy or self.session.running or self._wanted_scope is None:
            return
        key, ids = self._wanted_scope
        if key == self._drawn_scope or key in self._layouts:
            return
        nodes = self.session.trace.nodes
        snapshot = {nid: nodes[nid] for nid in (list(nodes) if ids is None else sorted(ids)) if nid in nodes}
        if len(snapshot) > MAX_DRAWN_NODES:
            self.tree_forced = True if self.tree_forced is None else self.tree_forced
        self._layout_busy = True
        labels = {nid: self._names.get(nid, info.label) for nid, info in snapshot.items()}
        self.run_worker(lambda: self._layout(key, snapshot, labels), thread=True, exclusive=True, group="layout")

    def _layout(self, key, nodes: dict, labels: dict) -> None:
        ops = {nid: info.op for nid, info in nodes.items()}
        edges = [(p, nid) for nid, info in nodes.items() for p in info.parents if p in nodes]
        layout = None
        if len(nodes) <= MAX_DRAWN_NODES and not self._graphviz_unusable:
            try:
                layout = layout_graph(labels, edges, ops)
            except ImportError as exc:
                self._graphviz_unusable = True
                self.post_message(self.GraphvizUnusable(str(exc)))
        raster = rasterize(layout, labels, ops) if layout is not None else None
        parents = {nid: tuple(p for p in info.parents if p in nodes) for nid, info in nodes.items()}
        used = {p for ps in parents.values() for p in ps}
        roots = list(reversed([nid for nid in nodes if nid not in used]))
        self.post_message(self.LayoutDone(key, (layout, raster, labels, ops, parents, roots)))

    def _lay_out_straight(self, key, labels: dict, ops: dict, parents: dict) -> None:
        """Lay out ``key``'s graph with its chains straight, in a worker thread (once per graph, one at a time)."""
        if self._straight_busy is not None:
            return
        self._straight_busy = key
        edges = [(p, nid) for nid, ps in parents.items() for p in ps]

        def work() -> None:
            self.post_message(self.StraightDone(key, layout_graph(labels, edges, ops, straight=True)))

        self.run_worker(work, thread=True, group="straight")

    def on_debugger_screen_straight_done(self, message: StraightDone) -> None:
        self._straight_busy = None
        if len(self._straights) >= LAYOUTS_KEPT:
            self._straights.pop(next(iter(self._straights)))
        self._straights[message.key] = message.layout
        self._drawn_raster = None  # fitted again, now with the straight layout to try
        self.render_step()

    def on_debugger_screen_graphviz_unusable(self, message: GraphvizUnusable) -> None:
        self.tree_forced = True
        self.notify(
            f"{message.reason}. Graphs are shown as a tree; reinstall pygraphviz to draw them.",
            title="Graphviz could not be loaded",
            severity="warning",
            timeout=10,
        )
        self.render_step()

    def on_debugger_screen_layout_done(self, message: LayoutDone) -> None:
        key, laid_out = message.key, message.laid_out
        self._layout_busy = False
        if len(self._layouts) >= LAYOUTS_KEPT:
            self._layouts.pop(next(iter(self._layouts)))
        self._layouts[key] = laid_out
        self.render_step()
        self._maybe_layout()

    def _focus_graph(self, use_tree: bool) -> None:
        """Keep the focus on the graph as it switches between drawing and tree (never left to chance)."""
        canvas, tree = self.query_one("#canvas", GraphCanvas), self.query_one("#tree", GraphTree)
        if self.focused is None or self.focused in (canvas, tree):
            (tree if use_tree else canvas).focus()

    def _use_tree(self) -> bool:
        if self.tree_forced is not None:
            return self.tree_forced
        return self.query_one("#graph-pane").size.width < TREE_BELOW_COLUMNS or self._too_wide

    # ------------------------------------------------------------ rendering a step
    def render_step(self) -> None:
        session = self.session
        header = self.query_one("#header", StepHeader)
        if session.cursor < 0 or self.model is None:
            header.show(None, self._state_word())
            return
        inspector = self.query_one("#inspector", Inspector)
        self.model.width = inspector.scrollable_content_region.width or self.model.width
        view = self._view = self.model.step(session.cursor)
        header.show(view, self._state_word())
        passes = view.passes
        if self.pass_pick is not None and self.pass_pick >= len(passes):
            self.pass_pick = None
        self.query_one("#passes", PassStack).show(passes, self._picked_pass(passes))
        node = self.selected if self.selected is not None else view.node_id
        only_node = node != view.node_id  # another node selected: that node alone, not this step's rule
        bp_nodes = {bp.node for bp in session.breakpoints if isinstance(bp.node, int)}
        bp_names = {bp.node for bp in session.breakpoints if isinstance(bp.node, str)}  # --break NAME
        if bp_names:
            bp_nodes |= {nid for nid, name in self._names.items() if name in bp_names}
        inspector.show(
            self.model.node(session.cursor, node, bp_nodes),
            view.closure,
            view.accumulations,
            view.accumulation,
            self._stop_reason(),
            view.dropped,
            view.grad_stack,
            only_node,
        )
        pane = self.query_one("#graph-pane")
        self._show_scope(session.cursor, session.events[session.cursor])  # first: it says if the drawing fits
        use_tree = self._use_tree()
        if pane.has_class("tree") != use_tree:  # a class change restyles the screen: only when it changes
            pane.set_class(use_tree, "tree")
            self._focus_graph(use_tree)
        ids = self._wanted_scope[1]
        shown = len(session.trace.nodes) if ids is None else len(ids)
        title = f"graph · {shown} of {len(session.trace.nodes)}" if ids is not None else f"graph · all {shown}"
        if pane.border_title != title:
            pane.border_title = title
        canvas = self.query_one("#canvas", GraphCanvas)
        tree = self.query_one("#tree", GraphTree)
        if use_tree:
            tree.show(view.statuses, self.model.state(session.cursor).nodes, view.node_id)
        else:
            canvas.show(view.statuses, view.edge, node, bp_nodes, self.model.state(session.cursor).nodes)
        if self.follow and use_tree:
            tree.reveal(node)
        elif self.follow and node is not None:
            canvas.follow(node)
        self.query_one("#watch", WatchPanel).show(
            [(self._names.get(nid, f"#{nid}"), self.model.state(session.cursor).nodes.get(nid)) for nid in self.watched]
        )
        self.query_one("#events", EventLog).show(session.events, session.cursor, self._log_line)
        self._refresh_keys()

    def _refresh_keys(self) -> None:
        """Re-check the footer's keys only when what they can do changed (a refresh costs more than a step)."""
        session = self.session
        possible = (session.cursor <= 0, session.at_last, session.running)
        if possible != self._possible:
            self._possible = possible
            self.refresh_bindings()

    def _stop_reason(self) -> str | None:
        session = self.session
        bp = session.stopped_by()
        if bp is not None:
            return stop_reason(bp, session.events[session.cursor], session.hits)
        event = session.events[session.cursor]
        if event.kind != "error":
            return None
        if event.raised_at is None:
            return f"{event.error_type} in the pass"
        return f"{event.error_type} in the pass at {event.raised_at}\n{event.traceback}"

    def _log_line(self, e) -> str:
        return f"{e.seq:>6} {'  ' * max(e.depth - 1, 0)}{headline(e, self.session.trace)}"

    def _picked_pass(self, passes: list) -> int | None:
        if not passes:
            return None
        return len(passes) - 1 if self.pass_pick is None else self.pass_pick

    # ------------------------------------------------------------ actions
    def check_action(self, action: str, parameters) -> bool | None:
        """A key that cannot act now is disabled and left out of the footer (False)."""
        session = self.session
        # a stop not yet shown (its RunStatusChanged on its way) is still a run: no key moves from it unseen
        busy = session.running or self._posted_status is not self.shown_status
        if action in ("back", "first"):
            return session.cursor > 0 and not busy
        if action in ("forward", "step", "next", "next_node", "continue", "finish", "return", "run_to", "last"):
            return not (session.at_last or busy)
        if action == "pause":
            return session.running
        if action in MOVING_ACTIONS:
            return not busy
        return True

    def _moved(self) -> None:
        self.selected = None
        self.pass_pick = None
        self.render_step()

    def _go(self, movement) -> None:
        if self.session.running:
            return
        self.selected = None  # a step shows its own node, also when the script has to run to it
        self.pass_pick = None
        if self.session.move(movement):
            self._moved()
        else:
            self.render_step()

    def action_step(self) -> None:
        self._go(nav.step_into())

    action_forward = action_step

    def action_next(self) -> None:
        self._go(nav.next_event(self.session.current_depth()))

    def action_next_node(self) -> None:
        self._go(nav.next_node())

    def action_back(self) -> None:
        if self.session.cursor > 0 and not self.session.running:
            self.session.back()
            self._moved()

    def action_first(self) -> None:
        if not self.session.running:
            self.session.go(0)
            self._moved()

    def action_last(self) -> None:
        if not self.session.running:
            self.session.go(self.session.total - 1)
            self._moved()

    def action_continue(self) -> None:
        if self.session.trace is not None:
            self._go(self.session.continue_movement())

    def action_finish(self) -> None:
        node = self.session.current_node()
        if node is None:
            self.notify("not inside a node: nothing to finish", severity="warning")
            return
        self._go(nav.finish_node(node, self.session.events[self.session.cursor].pass_id))

    def _selected_node(self):
        if self.selected is not None:
            return self.selected
        if self.model is not None and self.session.cursor >= 0:
            return self.model.step(self.session.cursor).node_id
        return None

    def action_run_to(self) -> None:
        node = self._selected_node()
        if node is None:
            self.notify("select a node first ([ and ], or click it)", severity="warning")
            return
        self._go(nav.run_to(node))

    def _toggle(self, bp: Breakpoint) -> None:
        on = self.session.toggle(bp)
        self.notify(f"{breakpoint_text(bp, self.session.trace)} {'set' if on else 'removed'}")
        self.render_step()

    def action_break_node(self) -> None:
        node = self._selected_node()
        if node is not None:  # the node itself (its id), whatever name it is given later
            self._toggle(Breakpoint(node=node))

    def action_break_if(self) -> None:
        node = self._selected_node()
        if node is None:
            self.notify("select a node first ([ and ], / or click it)", severity="warning")
            return
        name = self._names.get(node, str(node))
        self.app.push_screen(
            Prompt(f"stop at {name} when (hit N, if CONDITION on g):", "hit 2 if |g| > 10"),
            lambda answer: self._break_if(node, answer),
        )

    def _break_if(self, node: int, answer: str | None) -> None:
        if answer is None:
            return
        try:  # the hit count and condition as --break reads them, on the node itself
            bp = dataclasses.replace(parse_breakpoint(f"node:{node} {answer}".strip()), node=node)
        except ValueError as exc:
            self.notify(
                str(exc).replace(f"node:{node}", self._names.get(node, str(node))),
                title="not a breakpoint",
                severity="error",
            )
            return
        self._toggle(bp)

    def action_break_op(self) -> None:
        node = self._selected_node()
        info = self.session.trace.nodes.get(node) if node is not None else None
        if info is None or not info.op:
            self.notify("the selected node is a leaf: no op to break on", severity="warning")
            return
        self._toggle(Breakpoint(op=info.op))

    def action_up(self) -> None:
        passes = self.model.step(self.session.cursor).passes if self.session.cursor >= 0 else []
        if passes:
            self.pass_pick = max(0, (self._picked_pass(passes) or 0) - 1)
            self.render_step()

    def action_down(self) -> None:
        passes = self.model.step(self.session.cursor).passes if self.session.cursor >= 0 else []
        if passes:
            self.pass_pick = min(len(passes) - 1, (self._picked_pass(passes) or 0) + 1)
            self.render_step()

    def action_pause(self) -> None:
        self.session.source.pause()

    def _cycle(self, delta: int) -> None:
        ids = list(self.session.trace.nodes) if self.session.trace is not None else []
        if not ids:
            return
        current = self._selected_node()
        i = ids.index(current) if current in ids else -1
        self.selected = ids[(i + delta) % len(ids)]
        self.render_step()

    def action_select_prev(self) -> None:
        self._cycle(-1)

    def action_select_next(self) -> None:
        self._cycle(1)

    def action_return(self) -> None:
        passes = self.model.state(self.session.cursor).passes if self.session.cursor >= 0 else ()
        pass_id = passes[-1].pass_id if passes else None
        self._go(nav.return_from(pass_id, len(passes)))

    def action_goto(self) -> None:
        self.app.push_screen(Prompt("go to step (as the header numbers it) or pass (p2):", "12 or p2"), self._goto)

    def _goto(self, answer: str | None) -> None:
        if not answer or self.session.running:
            return
        wanted = answer.lower().strip()
        number = wanted.removeprefix("pass").removeprefix("p").strip()
        if not number.isdigit():
            self.notify(f"no step or pass {answer!r}", severity="warning")
            return
        session = self.session
        if wanted.startswith("p"):
            pass_id = int(number)
            movement = nav.Movement("go to", lambda e: e.kind == "pass_started" and e.pass_id == pass_id)
        else:
            step = int(number)  # the trace's numbering, as the header, `minigrad trace show` and lesson texts use
            movement = nav.Movement("go to", lambda e: e.seq >= step)
        index = nav.search(session.events, 0, movement)
        if index is not None:
            session.go(index)
            self._moved()
        elif session.source.alive:
            self._go(movement)
        else:
            self.notify(f"no step or pass {answer!r}", severity="warning")

    def action_search(self) -> None:
        self.app.push_screen(Prompt("select a node by name:", "loss"), self._search)

    def _search(self, answer: str | None) -> None:
        if not answer:
            return
        names = self._names
        found = [nid for nid, name in names.items() if name == answer] or [
            nid for nid, name in names.items() if answer in name
        ]
        if not found:
            self.notify(f"no node named {answer!r}", severity="warning")
            return
        self.selected = found[0]  # the selection only: t runs to it, c to a breakpoint set on it with b
        self.notify(f"{names[self.selected]} selected: t runs to it")
        self.render_step()

    def action_watch(self) -> None:
        node = self._selected_node()
        if node is None:
            self.notify("select a node first ([ and ], / or click it)", severity="warning")
            return
        if node in self.watched:
            self.watched.remove(node)
        else:
            self.watched.append(node)
        self.render_step()

    def action_values(self) -> None:
        if self.model is None or self.session.cursor < 0:
            return
        values = self.model.values(self.session.cursor, self._selected_node())
        if not values:
            self.notify("no values recorded at this step", severity="warning")
            return

        def show(picked: int | None) -> None:
            if picked is not None:
                self.app.push_screen(ValueView(*values[picked]))

        self.app.push_screen(ValuePicker(values), show)

    def action_console(self) -> None:
        if self.model is None or self.session.cursor < 0:
            return
        if not getattr(self.app, "console_allowed", lambda: True)():
            self.notify(
                "the console runs Python: in a browser only when the server asks for its token (no --no-token)",
                title="console off",
                severity="warning",
            )
            return
        index, source = self.session.cursor, self.session.source
        nodes, rule = console.recorded_names(self.model, index)
        here = source.live and not self.session.running and source.status.paused_at == index
        frame = console.script_frame(source.path) if here else None
        script = console.script_names(frame) if frame is not None else None
        where = "the script's variables" if script is not None else "recorded values only (the script is not here)"
        rule_words = ", ".join(dict.fromkeys(rule)) or "no rule"
        title = f"step {self.session.events[index].seq} · {rule_words} · node names · {where} · escape closes"
        scope = console.build_scope(nodes, script, rule)
        self.app.push_screen(ConsolePane(scope, title, self.console_history))

    def action_panel_up(self) -> None:
        self.query_one("#inspector", Inspector).page_up()

    def action_panel_down(self) -> None:
        self.query_one("#inspector", Inspector).page_down()

    def action_toggle_all(self) -> None:
        self.show_all = not self.show_all
        self.render_step()

    def action_toggle_tree(self) -> None:
        self.tree_forced = not self._use_tree()
        self.render_step()

    def action_toggle_follow(self) -> None:
        self.follow = not self.follow
        self.render_step()

    def action_pan(self, dx: int, dy: int) -> None:
        self.follow = False
        canvas = self.query_one("#canvas", GraphCanvas)
        canvas.scroll_to(canvas.scroll_x + dx, canvas.scroll_y + dy, animate=False)
        self.render_step()

    def action_export(self) -> None:
        if self.session.cursor >= 0:
            self.app.with_export_dir(self._export_into)

    def _export_into(self, folder: str) -> None:
        from minigrad import viz

        path = os.path.join(folder, f"step-{self.session.cursor:05d}.svg")
        try:
            viz.draw(self.session.trace, step=self.session.cursor).save(path)
        except Exception as exc:  # a failed export must not end the session
            self.notify(f"{type(exc).__name__}: {exc}", title="export failed", severity="error")
            return
        self.notify(f"wrote {path}", title="exported")

    def action_quit(self) -> None:
        self.app.action_quit()

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen([(_key_name(k), d) for k, _, d in KEYS]))

    # ------------------------------------------------------------ messages from widgets
    def on_event_log_jump(self, message: EventLog.Jump) -> None:
        if not self.session.running:
            self.session.go(message.index)
            self._moved()

    def on_graph_canvas_node_clicked(self, message: GraphCanvas.NodeClicked) -> None:
        self.selected = message.node_id
        self.render_step()

    def on_tree_node_selected(self, message) -> None:
        if message.node.data is not None:
            self.selected = message.node.data
            self.render_step()


def _key_name(key: str) -> str:
    return {"question_mark": "?", "right": "→", "left": "←", "colon": ":", "pageup": "PgUp", "pagedown": "PgDn"}.get(
        key, key
    )
