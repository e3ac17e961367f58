"""One vocabulary: every event kind has a row in each viewer's dispatch table; one status enum serves all."""

import pytest

from minigrad.trace import EVENT_TYPES, NodeStatus, record
from minigrad.trace.describe import DETAILS, HEADLINES
from minigrad.trace.state import APPLY
from minigrad.viz.steps import INDEXED
from minigrad.viz.style import STATE_STYLE


@pytest.mark.parametrize(
    "table", [HEADLINES, DETAILS, APPLY, INDEXED], ids=["headline", "details", "replay", "diagram"]
)
def test_every_event_kind_has_a_handler(table):
    assert set(table) == set(EVENT_TYPES.values())


def test_one_status_enum_for_the_trace_the_diagrams_and_the_debugger():
    pytest.importorskip("textual")
    from minigrad_tui.widgets.graph_canvas import NODE_STYLES
    from minigrad_tui.widgets.graph_tree import STATUS_MARKS

    assert set(NODE_STYLES) == set(STATUS_MARKS) == set(NodeStatus)
    assert set(STATE_STYLE) == set(NodeStatus) - {NodeStatus.FORWARD}
    assert all(s.meaning for s in NodeStatus) and NodeStatus.DONE == "done" and f"{NodeStatus.DONE}" == "done"


def test_trace_states_are_node_statuses():
    import minigrad as mg

    x = mg.tensor([1.0, 2.0], requires_grad=True, name="x")
    with record() as tr:
        (x * x).sum().backward()
    seen = {ns.status for k in range(len(tr.events)) for ns in tr.state_at(k).nodes.values()}
    assert seen <= set(NodeStatus) and {NodeStatus.ACTIVE, NodeStatus.DONE} <= seen
