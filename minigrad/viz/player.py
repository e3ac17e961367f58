"""One self-contained HTML page that steps through a recorded trace, drawing each step on demand.

No step is pre-rendered. The page embeds, compactly:

- one Graphviz layout per *scope* (the set of boxes and edges shown, which changes
  only between passes), with each box sized for the longest text it ever holds;
- for every step, the event in words (short and long form), where it sits in the
  pass stack (for ``n``/``s``/``f`` as in the debugger), and only what changed since
  the step before: a box's rows, fill and border, an edge's colour and label.

The page's script replays those changes from the nearest full state and draws
the step as SVG; the diagram zooms (wheel, ``+``/``-``, ``0`` to fit) and pans (drag).
Text outside the diagram is at the browser's default size.
"""

from __future__ import annotations

import html
import json
import os
from importlib import resources

from ..trace import events as E
from ..trace.describe import details, headline
from .dot import DiagramWriter
from .layout import layout_graph
from .options import Options
from .steps import TraceIndex, graph_at_step

__all__ = ["player_data", "player_html", "write_html"]

CHAR_WIDTH = 6.0  # px per character of the diagram's 11 px font, for sizing boxes
ROW_HEIGHT = 14.0
PADDING = 8.0
FULL_STATE_EVERY = 200  # a full state every so many steps keeps a jump to any step short


def _items(graph, options: Options) -> dict:
    """What the page draws of one step's graph: boxes and edges by key, each with its look and text."""
    w = DiagramWriter(graph, options)
    items = {}
    for node in graph.nodes.values():
        fill, color, pen, style, fontcolor = w.node_style(node)
        rows = [[t, c or fontcolor, bg, 1 if bold else 0, align[0]] for t, c, bg, bold, align in w.tensor_rows(node)]
        items[f"t{node.id}"] = ["box", fill, color, pen, 1 if "dashed" in style else 0, rows]
        if options.op_nodes and node.op:
            rows = [[w.op_text(node), fontcolor, None, 1, "C"]]
            rows += (
                [[t, c, bg, 1 if b else 0, a[0]] for t, c, bg, b, a in w.captured_rows(node)]
                if options.captured
                else []
            )
            items[f"o{node.id}"] = ["op", "#ffffff", color, pen, 1 if node.freed else 0, rows]
    if graph.hidden:
        n = graph.hidden
        rows = [[f"… {n:,} node{'s' if n != 1 else ''} not shown", "#555555", None, 0, "C"]]
        items["elided"] = ["box", "#f8f9fa", "#888888", 1.0, 1, rows]
    for tail, head, color, pen, label, _cls in w.edges():
        key, k = f"{tail}>{head}", 1
        while key in items:  # the same tensor twice in one op (x * x): one edge each
            key, k = f"{tail}>{head}#{k}", k + 1
        items[key] = ["edge", color, pen, label]
    if graph.hidden:
        for child in graph.boundary:
            items[f"elided>{w.target_of(child)}"] = ["edge", "#aaaaaa", 1.0, None]
    return items


def _focus(ev, items) -> str | None:
    """The box the event is about (kept in view by the page), if it is drawn."""
    node = ev.target if isinstance(ev, E.GradAccumulated) else getattr(ev, "node", None)
    key = f"t{node}" if isinstance(node, int) else None
    return key if key in items else None


def _box_size(item) -> tuple[float, float]:
    rows = item[5]
    width = max(len(r[0]) for r in rows) * CHAR_WIDTH + 2 * PADDING
    return width, len(rows) * ROW_HEIGHT + PADDING


def _layout_scope(keys: tuple, sizes: dict, rankdir: str) -> dict:
    boxes = {k: sizes[k] for k in keys if ">" not in k}
    edge_keys = [k for k in keys if ">" in k]
    edges = [(k.split(">")[0], k.split(">")[1].split("#")[0]) for k in edge_keys]
    lay = layout_graph(boxes, edges, rankdir=rankdir, nodesep=14, ranksep=22, unit=1 / 72)
    r = lambda v: round(v, 1)  # noqa: E731
    return {
        "w": r(lay.width),
        "h": r(lay.height),
        "boxes": {k: [r(b.x), r(b.y), r(b.width), r(b.height)] for k, b in lay.nodes.items()},
        "edges": {k: [[r(x), r(y)] for x, y in p.points] for k, p in zip(edge_keys, lay.edges)},
    }


def player_data(trace, steps=None, options: Options | None = None) -> dict:
    """What the player page embeds for ``trace`` (every step, or those in ``steps``): scopes and steps."""
    options = options or Options()
    index = TraceIndex(trace)
    chosen = list(range(len(trace.events)) if steps is None else steps)
    per_step = []
    scope_keys: dict = {}
    sizes: dict = {}
    for step in chosen:
        graph = graph_at_step(trace, step, options, index)
        items = _items(graph, options)
        keys = tuple(sorted(items))
        scope = scope_keys.setdefault(keys, len(scope_keys))
        for key, item in items.items():
            if item[0] != "edge":
                w, h = _box_size(item)
                old = sizes.get((scope, key), (0.0, 0.0))
                sizes[(scope, key)] = (max(old[0], w), max(old[1], h))
        per_step.append((step, scope, items))
    scopes = [None] * len(scope_keys)
    for keys, scope in scope_keys.items():
        scope_sizes = {k: sizes[(scope, k)] for k in keys if ">" not in k}
        scopes[scope] = _layout_scope(keys, scope_sizes, options.rankdir)
    out = []
    previous_scope, previous = None, {}
    for n, (step, scope, items) in enumerate(per_step):
        ev = trace.events[step]
        full = scope != previous_scope or n % FULL_STATE_EVERY == 0
        changed = items if full else {k: v for k, v in items.items() if previous.get(k) != v}
        out.append(
            {
                "step": step,
                "kind": ev.kind,
                "text": headline(ev, trace),
                "details": "\n".join(details(ev, trace)),
                "depth": ev.depth,
                "pass": ev.pass_id,
                "node": ev.node if isinstance(ev, (E.NodeEntered, E.NodeFinished)) else None,
                "scope": scope,
                "focus": _focus(ev, items),
                "full": full,
                "items": changed,
            }
        )
        previous_scope, previous = scope, items
    return {"scopes": scopes, "steps": out, "last": len(trace.events) - 1}


def _script_json(data) -> str:
    """JSON safe inside a ``<script>`` element (no ``</`` that could close it early)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")


def player_html(trace, steps=None, options: Options | None = None, title: str | None = None) -> str:
    """The player page for ``trace`` (every step, or those in ``steps``) as a string."""
    data = player_data(trace, steps, options)
    if title is None:
        script = trace.meta.get("script") if isinstance(trace.meta, dict) else None
        title = f"minigrad trace: {os.path.basename(str(script))}" if script else "minigrad trace"
    template = resources.files(__package__).joinpath("player.html").read_text(encoding="utf-8")
    return template.replace("__TITLE__", html.escape(title)).replace("__DATA__", _script_json(data))


def write_html(trace, path, steps=None, options: Options | None = None, title: str | None = None) -> str:
    """Write the player page for ``trace`` to ``path``; returns the path."""
    path = os.fspath(path)
    page = player_html(trace, steps, options, title)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(page)
    return path
