"""What the screen shows at one step, as plain data (no Textual, no live tensors).

:mod:`minigrad_tui.model` builds these from a trace; the widgets only render them, so
they can be tested and reasoned about without a running script.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class NodeView:
    """One tensor as the inspector shows it."""

    id: int
    name: str
    op: str | None = None
    shape: str = ""
    dtype: str = ""
    device: str = ""
    data: str = ""
    grad: str | None = None
    pass_grad: str | None = None
    status: str = "untouched"
    parents: tuple = ()
    created_at: str | None = None
    breakpoint: bool = False


@dataclass
class ReturnedView:
    """What a rule returned for one parent and, for a broadcast, what the engine reduced it to."""

    parent: str
    value: str | None
    reduced: str | None = None
    reduction: str | None = None


@dataclass
class ClosureView:
    """The backward rule being run: its source, the line to highlight, the incoming gradient,
    the values it captured ((name, text) pairs) and what it returned per parent."""

    source: list = field(default_factory=list)
    first_line: int = 1
    highlight: int | None = None
    captured: list = field(default_factory=list)
    filename: str | None = None
    incoming: str | None = None
    returned: list = field(default_factory=list)


@dataclass
class AccumulationView:
    """A gradient accumulation along ``source -> target``: before + contribution = after."""

    source: str
    target: str
    contribution: str
    before: str | None
    after: str
    into: str = "pass"


@dataclass
class PassView:
    """One backward()/grad() pass on the stack, outermost first."""

    pass_id: int
    kind: str
    depth: int
    node: str | None = None
    saved: list = field(default_factory=list)
    restored: list = field(default_factory=list)
    state: str = "running"


@dataclass
class StepView:
    """Everything the screen needs at step ``index`` (0-based) of ``total`` recorded steps."""

    index: int
    total: int
    title: str
    kind: str = ""
    node_id: int | None = None
    edge: tuple | None = None
    closure: ClosureView | None = None
    accumulation: AccumulationView | None = None
    accumulations: list = field(default_factory=list)
    passes: list = field(default_factory=list)
    statuses: dict = field(default_factory=dict)
    error: str | None = None
    dropped: str | None = None  # one line when the recording's memory budget reduced this step's values
    grad_stack: tuple | None = None  # at grads_saved/grads_restored: (words, [(``x.grad``, value text)])
