"""Forward-mode passes are recorded: one tangent_computed event per op, with its rule's source, replayable."""

import numpy as np

import minigrad as mg
from minigrad.autograd import forward_ad as fwAD
from minigrad.trace import Trace, record
from minigrad.trace.describe import details, headline


def _forward_run():
    with record() as tr:
        with fwAD.dual_level():
            x = fwAD.make_dual(mg.tensor([0.5, -1.0]), mg.tensor([1.0, 0.5]))
            h = x * x
            y = h.tanh().sum()
            tangent = fwAD.unpack_dual(y).tangent
    return tr, tangent


def test_each_op_of_a_forward_mode_run_records_its_tangent():
    tr, tangent = _forward_run()
    events = tr.find("tangent_computed")
    assert [e.op for e in events] == ["mul", "tanh", "sum", "unpack_dual"]
    mul = events[0]
    np.testing.assert_allclose(mul.tangents[0].array(), [1.0, 0.5])
    np.testing.assert_allclose(mul.tangent.array(), [1.0, -1.0])  # d(x*x) = 2 x dx
    assert "ta * b + a * tb" in mul.rule.source
    np.testing.assert_allclose(events[-2].tangent.array(), tangent.numpy())


def test_tangent_events_have_words_and_survive_a_file(tmp_path):
    tr, _ = _forward_run()
    ev = tr.find("tangent_computed")[0]
    assert headline(ev, tr).startswith("tangent of ") and "mul's forward rule gives [1, -1]" in headline(ev, tr)
    assert "rule: return ta * b + a * tb" in details(ev, tr)
    path = tmp_path / "fwd.jsonl"
    tr.save(path)
    loaded = Trace.load(path)
    again = loaded.find("tangent_computed")[0]
    np.testing.assert_allclose(again.tangent.array(), ev.tangent.array())
    assert again.rule.source == ev.rule.source
    for k in range(len(loaded)):
        loaded.state_at(k)


def test_a_diagram_of_a_forward_mode_step_draws_the_tangents_with_the_arrows():
    from minigrad import viz

    tr, _ = _forward_run()
    ev = tr.find("tangent_computed")[1]  # tanh: h's tangent flows into t
    dot = viz.draw(tr, step=ev.seq).source
    assert "tangent [1, -1]" in dot  # h's box
    assert "tangent [0.94, -0.42]" in dot  # the result's box
    assert 'label="[1, -1]"' in dot and "#1f5fbf" in dot  # the edge h -> t carries h's tangent, in the tangent colour
    assert "tangent sent now" in dot


def test_a_forward_only_node_is_labelled_by_its_op_not_as_a_leaf(tmp_path):
    tr, _ = _forward_run()
    tanh = tr.find("tangent_computed")[1]
    info = tr.nodes[tanh.node]
    assert (info.op, info.is_leaf) == ("tanh", False) and info.parents == tanh.parents
    assert headline(tanh, tr).startswith(f"tangent of tanh#{tanh.node}:")
    assert tr.nodes[tr.find("tangent_computed")[0].node].name == "h"  # the variable's name, as backward nodes
    path = tmp_path / "fwd.jsonl"
    tr.save(path)
    assert Trace.load(path).nodes[tanh.node].op == "tanh"


def test_a_nested_forward_run_records_the_level_of_each_tangent(tmp_path):
    from minigrad import func, viz

    def inner(x):
        return func.jvp(lambda y: (y * x).sin(), (x,), (mg.tensor([1.0]),))[1]

    with record() as tr:
        func.jvp(inner, (mg.tensor([0.5]),), (mg.tensor([1.0]),))
    events = tr.find("tangent_computed")
    assert {e.level for e in events} == {0, 1}
    sin = [e for e in events if e.op == "sin"]
    assert [e.level for e in sin] == [0, 1]  # the outer level's tangent first: the inner rule reads it
    assert " at level 1: sin's forward rule" in headline(sin[1], tr)
    assert " at level" not in headline(sin[0], tr)
    path = tmp_path / "nested.jsonl"
    tr.save(path)
    loaded = Trace.load(path)
    assert [e.level for e in loaded.find("tangent_computed")] == [e.level for e in events]
    for ev in events:  # every step of the nested run draws
        assert "tangent" in viz.draw(loaded, step=ev.seq).source
    dot = viz.draw(loaded, step=sin[1].seq).source
    assert "tangent at level 1 " in dot and "tangent [" in dot  # the sin node's box shows both of its tangents
