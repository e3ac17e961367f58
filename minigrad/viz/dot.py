"""Turn a ``VGraph`` into Graphviz DOT text.

Tensor boxes are ``t<id>``, op nodes ``o<id>`` (the op that made tensor ``id``),
the elision marker ``elided`` and the legend ``legend``. Boxes carry HTML-like
labels so rows can be coloured; every node also gets a ``class`` attribute
(``tensor role-param state-active``...: the node's NodeStatus) that survives into the SVG.
"""

from __future__ import annotations

from ..trace.status import NodeStatus
from ..trace.values import format_value
from .model import VGraph, VNode
from .options import Options
from .style import (
    EDGE_STYLE,
    GRAD_COLOR,
    NESTED_FILL,
    RESTORED_FILL,
    ROLE_FILL,
    ROLE_TEXT,
    SAVED_FILL,
    STATE_STYLE,
    TANGENT_COLOR,
)

__all__ = ["DiagramWriter", "to_dot", "html_escape", "quote"]

_FONT = "Helvetica"
_TITLE_CHARS = 140  # a longer caption would widen the whole drawing
_OUTPUT_EDGE_STATE = {s: NodeStatus.DONE for s in (NodeStatus.ACTIVE, NodeStatus.DONE, NodeStatus.FAILED)}
_LEGEND_ORDER = (NodeStatus.ACTIVE, NodeStatus.PENDING, NodeStatus.DONE, NodeStatus.UNTOUCHED, NodeStatus.FAILED)


def html_escape(text: str) -> str:
    """Escape text for a Graphviz HTML-like label."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def quote(text: str) -> str:
    """A DOT double-quoted string."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


class _Html(str):
    """An HTML-like label, written to DOT between angle brackets instead of quotes."""


def _attrs(**attrs) -> str:
    parts = []
    for key, value in attrs.items():
        if value is None:
            continue
        if isinstance(value, _Html):
            parts.append(f"{key}={value}")
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            parts.append(f"{key}={value}")
        else:
            parts.append(f"{key}={quote(str(value))}")
    return "[" + ", ".join(parts) + "]"


def _shape_text(shape) -> str:
    if not shape:
        return "scalar"
    return "[" + ", ".join(str(int(s)) for s in shape) + "]"


class DiagramWriter:
    """What a diagram shows of a ``VGraph``: rows, styles and edges, and the DOT text made of them."""

    def __init__(self, graph: VGraph, options: Options):
        self.g = graph
        self.o = options

    def fmt(self, value) -> str:
        return format_value(value, self.o.precision, self.o.max_inline)

    # ------------------------------------------------------------ labels
    def _row(self, text: str, *, color=None, bg=None, bold=False, align="CENTER") -> str:
        body = html_escape(text)
        if bold:
            body = f"<B>{body}</B>"
        if color:
            body = f'<FONT COLOR="{color}">{body}</FONT>'
        bg_attr = f' BGCOLOR="{bg}"' if bg else ""
        return f'<TR><TD ALIGN="{align}"{bg_attr}>{body}</TD></TR>'

    def captured_rows(self, node: VNode) -> list[tuple]:
        """Rows (see :meth:`tensor_rows`) naming what ``node``'s backward closure captured."""
        rows = []
        for name, desc in node.captured:
            kind = desc[0]
            if kind == "tensor":
                ref = self.g.nodes.get(desc[1])
                if ref is not None and desc[1] == node.id:
                    text = f"{name} = this op's output"
                elif ref is not None:
                    text = f"{name} = tensor {ref.title}"
                else:
                    text = f"{name} = #{desc[1]} {self.fmt(desc[2])}"
            else:
                text = f"{name} = {self.fmt(desc[1]) if kind == 'value' else desc[1]}"
            rows.append((text, "#444444", None, False, "LEFT"))
        return rows

    def tensor_rows(self, node: VNode) -> list[tuple]:
        """The rows of a tensor's box: ``(text, colour, background, bold, align)`` each."""
        f = self.o.fields
        rows = []
        if "name" in f:
            rows.append((node.title, None, None, True, "CENTER"))
        if "op" in f and not self.o.op_nodes and node.op:
            rows.append((node.op + (" (freed)" if node.freed else ""), "#555555", None, False, "CENTER"))
        facts = []
        if "shape" in f:
            facts.append(_shape_text(node.shape))
        if "dtype" in f:
            facts.append(node.dtype)
        if "device" in f:
            facts.append(node.device)
        if facts:
            rows.append((" ".join(facts), "#555555", None, False, "CENTER"))
        if "data" in f:
            rows.append(("data " + self.fmt(node.data), None, None, False, "LEFT"))
        if "grad" in f and node.grad_update is not None:
            before, after = node.grad_update
            rows.append((f".grad {self.fmt(before)} → {self.fmt(after)}", GRAD_COLOR, "#fde2e2", True, "CENTER"))
        elif "grad" in f and node.grad is not None:
            rows.append(("grad " + self.fmt(node.grad), GRAD_COLOR, None, False, "LEFT"))
        if "grad" in f and node.pass_grad is not None:
            rows.append(("∂out/∂this " + self.fmt(node.pass_grad), GRAD_COLOR, None, False, "LEFT"))
        for level, tangent in node.tangents:
            label = f"tangent at level {level} " if level else "tangent "
            rows.append((label + self.fmt(tangent), TANGENT_COLOR, None, False, "LEFT"))
        if node.saved:
            rows.append(("saved .grad = " + self.fmt(node.saved_grad), None, SAVED_FILL, False, "LEFT"))
        if node.restored:
            rows.append((".grad restored to " + self.fmt(node.grad), None, RESTORED_FILL, False, "LEFT"))
        if self.o.captured and not self.o.op_nodes:
            rows.extend(self.captured_rows(node))
        if not rows:
            rows.append((node.title, None, None, True, "CENTER"))
        return rows

    def _table(self, rows: list[tuple]) -> _Html:
        cells = "".join(self._row(t, color=c, bg=bg, bold=b, align=a) for t, c, bg, b, a in rows)
        return _Html('<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="1">' + cells + "</TABLE>>")

    def tensor_label(self, node: VNode) -> str:
        return self._table(self.tensor_rows(node))

    def op_text(self, node: VNode) -> str:
        """The text of an op node: the op's name, marked when its closure was freed."""
        return node.op + (" (freed)" if node.freed else "")

    def op_label(self, node: VNode):
        text = self.op_text(node)
        if not (self.o.captured and node.captured):
            return text
        return self._table([(text, None, None, True, "CENTER"), *self.captured_rows(node)])

    # ------------------------------------------------------------ nodes and edges
    def node_style(self, node: VNode) -> tuple:
        """``(fill, border colour, pen width, style, font colour)`` of a tensor's box."""
        fill = NESTED_FILL if node.created_by_pass is not None and node.role != "output" else ROLE_FILL[node.role]
        return (fill, *STATE_STYLE.get(node.state, ("#333333", 1.0, "rounded,filled", "#000000")))

    def node_lines(self, node: VNode) -> list[str]:
        fill, color, pen, style, fontcolor = self.node_style(node)
        classes = ["tensor", f"role-{node.role}"]
        if node.state in STATE_STYLE:
            classes.append(f"state-{node.state}")
        if node.created_by_pass is not None:
            classes.append(f"pass-{node.created_by_pass}")
        lines = [
            f"t{node.id} "
            + _attrs(
                id=f"t{node.id}",
                label=self.tensor_label(node),
                fillcolor=fill,
                color=color,
                penwidth=pen,
                style=style,
                fontcolor=fontcolor,
                **{"class": " ".join(classes)},
            )
        ]
        if self.o.op_nodes and node.op:
            lines.append(
                f"o{node.id} "
                + _attrs(
                    id=f"o{node.id}",
                    label=self.op_label(node),
                    shape="ellipse",
                    style="filled,dashed" if node.freed else "filled",
                    fillcolor="#ffffff",
                    color=color,
                    penwidth=pen,
                    fontcolor=fontcolor,
                    margin="0.04,0.02",
                    height=0.3,
                    **{"class": "op" + (f" state-{node.state}" if node.state in STATE_STYLE else "")},
                )
            )
        return lines

    def target_of(self, child: int) -> str:
        """Where edges into tensor ``child`` end: its op node when op nodes are drawn."""
        node = self.g.nodes[child]
        return f"o{child}" if self.o.op_nodes and node.op else f"t{child}"

    def edges(self):
        """Each drawn edge as ``(tail, head, colour, pen width, label, class)`` (DOT node names)."""
        if self.o.op_nodes:
            for node in self.g.nodes.values():
                if node.op:
                    # the gradient crosses op -> tensor backwards when the tensor is entered
                    color, pen = EDGE_STYLE[_OUTPUT_EDGE_STATE.get(node.state)]
                    yield f"o{node.id}", f"t{node.id}", color, pen, None, None
        forward = self.g.pass_id is None  # outside a pass an active edge carries a tangent, not a gradient
        for e in self.g.edges:
            color, pen = EDGE_STYLE[e.state]
            if forward and e.state == NodeStatus.ACTIVE:
                color = TANGENT_COLOR
            yield f"t{e.parent}", self.target_of(e.child), color, pen, e.label, f"edge-{e.state}" if e.state else None

    def edge_lines(self) -> list[str]:
        lines = []
        for tail, head, color, pen, label, cls in self.edges():
            attrs = {"color": color, "penwidth": pen, "class": cls}
            if label:
                attrs.update(label=label, fontcolor=color, decorate="true")
            lines.append(f"{tail} -> {head} " + _attrs(**attrs))
        return lines

    def elision_lines(self) -> list[str]:
        if not self.g.hidden:
            return []
        n = self.g.hidden
        lines = [
            "elided "
            + _attrs(
                id="elided",
                label=f"… {n:,} node{'s' if n != 1 else ''} not shown",
                shape="note",
                style="filled,dashed",
                fillcolor="#f8f9fa",
                color="#888888",
                fontcolor="#555555",
            )
        ]
        for child in self.g.boundary:
            lines.append(f"elided -> {self.target_of(child)} " + _attrs(style="dashed", color="#aaaaaa"))
        return lines

    def legend_lines(self) -> list[str]:
        nodes = self.g.nodes.values()
        rows = []
        roles = {n.role for n in nodes}
        for role in ("param", "input", "intermediate", "output"):
            if role in roles:
                rows.append(
                    f'<TR><TD BGCOLOR="{ROLE_FILL[role]}" BORDER="1"> </TD><TD ALIGN="LEFT">{ROLE_TEXT[role]}</TD></TR>'
                )
        if any(n.created_by_pass is not None for n in nodes):
            rows.append(
                f'<TR><TD BGCOLOR="{NESTED_FILL}" BORDER="1"> </TD>'
                '<TD ALIGN="LEFT">built during a backward pass (create_graph, hooks)</TD></TR>'
            )
        states = {n.state for n in nodes}
        for state in _LEGEND_ORDER:
            if state in states:
                color = STATE_STYLE[state][0]
                rows.append(f'<TR><TD COLOR="{color}" BORDER="2"> </TD><TD ALIGN="LEFT">{state.meaning}</TD></TR>')
        if any(e.state == NodeStatus.ACTIVE for e in self.g.edges):
            if self.g.pass_id is None:
                arrow, meaning = TANGENT_COLOR, "tangent sent now, with the arrow (label: the parent's tangent)"
            else:
                arrow, meaning = EDGE_STYLE[NodeStatus.ACTIVE][0], "gradient sent now (label: contribution)"
            rows.append(f'<TR><TD><FONT COLOR="{arrow}"><B>→</B></FONT></TD><TD ALIGN="LEFT">{meaning}</TD></TR>')
        if any(n.saved for n in nodes):
            rows.append(
                f'<TR><TD BGCOLOR="{SAVED_FILL}" BORDER="1"> </TD><TD ALIGN="LEFT">.grad saved by grad()</TD></TR>'
            )
        if any(n.restored for n in nodes):
            rows.append(
                f'<TR><TD BGCOLOR="{RESTORED_FILL}" BORDER="1"> </TD><TD ALIGN="LEFT">.grad restored by grad()</TD></TR>'
            )
        if not rows:
            return []
        label = _Html(
            '<<TABLE BORDER="1" COLOR="#cccccc" CELLBORDER="0" CELLSPACING="2" CELLPADDING="2">'
            '<TR><TD COLSPAN="2"><B>legend</B></TD></TR>' + "".join(rows) + "</TABLE>>"
        )
        return ["legend " + _attrs(id="legend", shape="plain", style="solid", label=label, fontsize=9)]

    def write(self) -> str:
        title = self.o.title or self.g.title
        if title and len(title) > _TITLE_CHARS:
            title = title[: _TITLE_CHARS - 1] + "…"
        out = ["digraph minigrad {"]
        out.append(
            "  graph "
            + _attrs(
                rankdir=self.o.rankdir,
                fontname=_FONT,
                fontsize=11,
                nodesep=0.25,
                ranksep=0.3,
                label=title,
                labelloc="t" if title else None,
            )
        )
        out.append(
            "  node " + _attrs(fontname=_FONT, fontsize=10, shape="box", style="rounded,filled", margin="0.14,0.05")
        )
        out.append("  edge " + _attrs(fontname=_FONT, fontsize=9, arrowsize=0.7))
        clusters: dict = {}
        for node in self.g.nodes.values():
            if node.created_by_pass is not None:
                clusters.setdefault(node.created_by_pass, []).append(node)
            else:
                out.extend("  " + line for line in self.node_lines(node))
        for pass_id, members in clusters.items():
            label = self.g.passes.get(pass_id, f"built during backward pass {pass_id}")
            out.append(f"  subgraph cluster_pass{pass_id} {{")
            out.append("    graph " + _attrs(label=label, style="dashed,rounded", color="#8e6bbf", fontcolor="#6a4c93"))
            for node in members:
                out.extend("    " + line for line in self.node_lines(node))
            out.append("  }")
        out.extend("  " + line for line in self.edge_lines())
        out.extend("  " + line for line in self.elision_lines())
        if self.o.legend:
            out.extend("  " + line for line in self.legend_lines())
        out.append("}")
        return "\n".join(out) + "\n"


def to_dot(graph: VGraph, options: Options) -> str:
    """DOT text for ``graph`` drawn with ``options``."""
    return DiagramWriter(graph, options).write()
