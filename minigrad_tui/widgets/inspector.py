"""The inspector: the mathematics of the step (the rule, its values, the accumulation) and the node.

Pinned at the top, whatever the step: why we stopped, the node's header line and
the rule being run with the running line highlighted. Below them, scrolled with
PgUp/PgDn when a busy step does not fit: the node's value and gradients, the values
beside the rule (incoming gradient ``g``, each captured value, what the rule returned
for each parent and the broadcast reduction) and the accumulation into each parent
(before + contribution = after).
"""

from __future__ import annotations

from rich.console import Group
from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from ..view import AccumulationView, ClosureView, NodeView
from .in_place_static import InPlaceStatic

ONE_LINE_WIDTH = 48  # the inspector's width at 80 columns, before it is first laid out
PINNED_REASON_LINES = (
    2  # a stop said in this many lines stays pinned whole; else its first (an error's traceback scrolls)
)


def _fields(rows: list) -> Table:
    table = Table.grid(padding=(0, 1))
    table.add_column(style="bold cyan", no_wrap=True)
    table.add_column(overflow="fold")
    for key, value in rows:
        table.add_row(key, value)
    return table


def node_header(node: NodeView | None) -> Text:
    """The node's one header line: ``d = mul(a, b)  [3] float32 cpu  active``."""
    if node is None:
        return Text("no node selected", style="italic dim")
    head = Text(node.name, style="bold")
    head.append(f" = {node.op}({', '.join(node.parents)})" if node.op else " (leaf)")
    head.append(f"  {node.shape} {node.dtype} {node.device}", style="dim")
    head.append(f"  {node.status}", style="italic")
    if node.breakpoint:
        head.append("  ● bp", style="bold red")
    return head


def node_fields(node: NodeView | None, brief: bool = False):
    """The node's value and gradients; ``brief`` (a rule is shown) leaves out the incoming gradient
    (the rule's ``g``) and where it was made."""
    if node is None:
        return Text()  # hidden: the header says there is none
    rows = [("data", node.data)]
    if node.pass_grad is not None and not brief:
        rows.append(("incoming g", node.pass_grad))
    rows.append((".grad", node.grad if node.grad is not None else Text("None", style="dim")))
    if node.created_at and not brief:
        rows.append(("made at", Text(node.created_at, style="dim")))
    return _fields(rows)


def rule_renderable(closure: ClosureView | None):
    """The rule's source, the running line highlighted (pinned above the values)."""
    if closure is None:
        return Text("no backward rule at this step", style="italic dim")
    if not closure.source:
        return Text("rule source not available", style="italic dim")
    highlight = {closure.highlight} if closure.highlight is not None else set()
    return Syntax(
        "\n".join(closure.source),
        "python",
        line_numbers=True,
        start_line=closure.first_line,
        highlight_lines=highlight,
        theme="ansi_dark",
        word_wrap=True,
    )


def rule_values_renderable(closure: ClosureView | None):
    """The values beside the rule: ``g``, each captured value, what it returned for each parent."""
    if closure is None:
        return Text()
    rows = []
    if closure.incoming is not None:
        rows.append(("g", closure.incoming))
    rows.extend(closure.captured)
    for r in closure.returned:
        value = Text(r.value if r.value is not None else "None (needs no grad)")
        if r.reduced is not None:
            value.append(f"  ⇒ {r.reduced}", style="bold")
            value.append(f"  ({r.reduction})", style="dim")
        rows.append((f"→ {r.parent}", value))
    return _fields(rows) if rows else Text()


def accumulation_line(acc: AccumulationView, width: int = ONE_LINE_WIDTH):
    """``d -> a: before + contribution = after`` (``a.grad: ...`` for a leaf's .grad): one line when
    it fits ``width``, else the sum on one line and ``= after`` below it, else one row per term."""
    where = f"{acc.target}.grad" if acc.into == "grad" else f"{acc.source} -> {acc.target}"
    before = acc.before if acc.before is not None else "0"
    sum_text = f"{where}: {before} + {acc.contribution}"
    result = f" = {acc.after}"
    if len(sum_text) + len(result) <= width or max(len(sum_text), len(where) + len(result)) <= width:
        text = Text(f"{where}: ", style="bold")
        text.append(before, style="dim" if acc.before is None else "")
        text.append(" + ")
        text.append(acc.contribution, style="yellow")
        if len(sum_text) + len(result) > width:
            text.append("\n" + " " * len(where))
        text.append(" = ")
        text.append(acc.after, style="bold green")
        return text
    return Group(
        Text(f"{where}:", style="bold"),
        _fields(
            [
                ("  before", Text("0 (first)", style="dim") if acc.before is None else acc.before),
                ("+ contribution", Text(acc.contribution, style="yellow")),
                ("= after", Text(acc.after, style="bold green")),
            ]
        ),
    )


def accumulation_renderable(accumulations: list, last: AccumulationView | None, width: int = ONE_LINE_WIDTH):
    if accumulations:
        return Group(*(accumulation_line(a, width) for a in accumulations))
    if last is None:
        return Text("no accumulation yet in this pass", style="italic dim")
    return Group(Text(f"last, from {last.source}:", style="dim"), accumulation_line(last, width))


class Inspector(Vertical):
    """Why we stopped, the node's header and the rule pinned; the node's values, the rule's values and the
    accumulations scroll below them (PgUp/PgDn: :meth:`page_up`, :meth:`page_down`)."""

    def compose(self):
        with Vertical(id="step-head"):
            yield InPlaceStatic(id="budget")
            yield InPlaceStatic(id="stop-reason")
            yield InPlaceStatic(id="node-head")
            yield InPlaceStatic(id="closure-info", classes="step-part")
        with VerticalScroll(id="step-body"):
            yield InPlaceStatic(id="stop-detail")
            yield InPlaceStatic(id="grad-stack")
            yield InPlaceStatic(id="node-info", classes="section")
            yield InPlaceStatic(id="closure-values", classes="section step-part")
            yield Static("accumulate", classes="section-title step-part")
            yield InPlaceStatic(id="accumulation-info", classes="section step-part")

    @property
    def body(self) -> VerticalScroll:
        """The part under the pinned head that scrolls."""
        return self.query_one("#step-body", VerticalScroll)

    def page_up(self) -> None:
        self.body.scroll_page_up(animate=False)

    def page_down(self) -> None:
        self.body.scroll_page_down(animate=False)

    def show(
        self,
        node: NodeView | None,
        closure: ClosureView | None,
        accumulations: list,
        last: AccumulationView | None = None,
        reason: str | None = None,
        dropped: str | None = None,
        grad_stack: tuple | None = None,
        only_node: bool = False,
    ) -> None:
        """Show the step; ``only_node``: another node than the step's is selected, shown alone and whole."""
        budget = self.query_one("#budget", InPlaceStatic)
        budget.display = dropped is not None
        if dropped is not None:
            budget.show_content(Text(f"⚠ {dropped}", style="yellow", no_wrap=True, overflow="ellipsis"))
        self._show_reason(reason)
        stack = self.query_one("#grad-stack", InPlaceStatic)
        stack.display = grad_stack is not None
        if grad_stack is not None:  # what grad() stashes (or puts back), as the event's long form says it
            words, pairs = grad_stack
            lines = Group(Text(f"{words}:", style="bold"), _fields([(f"  {k} =", v) for k, v in pairs]))
            stack.show_content(lines, grad_stack)
        # each part is drawn again only when what it shows changed (a key: what it is made from)
        self.query_one("#node-head", InPlaceStatic).show_content(node_header(node))
        fields = self.query_one("#node-info", InPlaceStatic)
        fields.display = node is not None  # the pinned header says "no node selected"
        brief = closure is not None and not only_node
        fields.show_content(node_fields(node, brief), (node, brief))
        self.set_class(only_node, "only-node")
        rule_key = None if closure is None else (tuple(closure.source), closure.first_line, closure.highlight)
        self.query_one("#closure-info", InPlaceStatic).show_content(rule_renderable(closure), rule_key)
        values = self.query_one("#closure-values", InPlaceStatic)
        values.set_class(closure is None, "empty")
        values.show_content(rule_values_renderable(closure), closure)
        width = self.scrollable_content_region.width or ONE_LINE_WIDTH
        self.query_one("#accumulation-info", InPlaceStatic).show_content(
            accumulation_renderable(accumulations, last, width), (list(accumulations), last, width)
        )
        if accumulations and not only_node:  # the step's newest value is the accumulation: keep it on screen
            self.body.call_after_refresh(self.body.scroll_end, animate=False)
        else:
            self.body.scroll_home(animate=False)

    def _show_reason(self, reason: str | None) -> None:
        """A stop's first lines pinned (``● stopped: ...``); the rest (an error's traceback) in the body."""
        stop, detail = self.query_one("#stop-reason", InPlaceStatic), self.query_one("#stop-detail", InPlaceStatic)
        lines = reason.split("\n") if reason is not None else []
        cut = len(lines) if len(lines) <= PINNED_REASON_LINES else 1
        pinned, rest = lines[:cut], lines[cut:]
        stop.display = bool(pinned)
        detail.display = bool(rest)
        if pinned:
            text = Text(f"● stopped: {pinned[0]}", style="bold red")
            for line in pinned[1:]:
                text.append("\n" + line, style="red")
            stop.show_content(text)
        if rest:
            detail.show_content(Text("\n".join(rest), style="red"))
