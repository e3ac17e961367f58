"""draw(trace, step=k): highlighting matches trace.state_at(k) at every step."""

import pygraphviz
import pytest

from minigrad import viz
from minigrad.trace import Trace
from minigrad.trace.values import format_value
from minigrad.viz.frames import frames
from tests.viz.helpers import label_text, parse, tensor_nodes


def _state_class(attrs):
    return next((c[6:] for c in attrs["class"].split() if c.startswith("state-")), None)


def _step(trace, kind, **match):
    for ev in trace.events:
        if ev.kind == kind and all(getattr(ev, k) == v for k, v in match.items()):
            return ev.seq
    raise AssertionError(f"no {kind} event with {match}")


def _passes(trace):
    """The trace's pass ids in order (pass ids are global to the process)."""
    return [e.pass_id for e in trace.events if e.kind == "pass_started"]


def test_every_step_matches_the_trace_state(example_trace):
    tr = example_trace
    seen_active = 0
    for frame in frames(tr):
        state = tr.state_at(frame.step)
        nodes, edges = parse(frame.diagram.source)
        in_pass = frame.diagram.graph.pass_id is not None
        if in_pass:
            assert frame.diagram.graph.pass_id == state.shown_pass
        else:
            assert not state.passes
        for name, attrs in tensor_nodes(nodes).items():
            nid = int(name[1:])
            assert nid in state.nodes, f"step {frame.step}: drew #{nid}, which did not exist yet"
            got = _state_class(attrs)
            if in_pass:
                assert got == state.nodes[nid].status, (frame.step, nid)
            elif got is not None:
                assert got == "active" and nid == state.current_node
        active = [(t, h, a) for t, h, a in edges if a.get("class") == "edge-active"]
        if state.current_edge is not None:
            src, dst = state.current_edge
            assert len(active) == 1, frame.step
            tail, head, attrs = active[0]
            assert (tail, head) == (f"t{dst}", f"o{src}")
            assert attrs["label"] == format_value(state.event.contribution)
            seen_active += 1
        else:
            assert not active
        assert frame.diagram.graph.title.startswith(f"step {frame.step} of {len(tr.events) - 1}")
    assert seen_active == sum(1 for e in tr.events if e.kind == "grad_accumulated" and e.into == "pass")


def test_edge_sending_to_b(example_trace):
    tr = example_trace
    a, b, e = (tr.node(n).id for n in ("a", "b", "e"))
    k = _step(tr, "grad_accumulated", node=e, target=b)
    d = viz.draw(tr, step=k)
    nodes, edges = parse(d.source)
    states = {t: a.get("class") for t, h, a in edges if h == f"o{e}"}
    assert states[f"t{b}"] == "edge-active"
    assert states[f"t{a}"] == "edge-done"  # a's contribution was sent one event before
    assert _state_class(nodes[f"t{e}"]) == "active"
    assert _state_class(nodes[f"t{tr.node('L').id}"]) == "done"
    assert _state_class(nodes[f"t{b}"]) == "pending"
    assert "e -> b: " in d.graph.title
    legend = label_text(nodes["legend"])
    for words in ("being processed now", "gradient waiting", "finished", "gradient sent now"):
        assert words in legend


def test_before_the_pass_nodes_are_unstyled_and_the_new_one_current(example_trace):
    tr = example_trace
    e = tr.node("e").id
    k = _step(tr, "node_created", node=e)
    nodes, _ = parse(viz.draw(tr, step=k).source)
    assert set(tensor_nodes(nodes)) == {f"t{tr.node(n).id}" for n in ("a", "b", "c", "e")}
    assert _state_class(nodes[f"t{e}"]) == "active"
    assert [n for n, a in tensor_nodes(nodes).items() if _state_class(a) is not None] == [f"t{e}"]


def test_leaf_grad_update_is_shown(example_trace):
    tr = example_trace
    a = tr.node("a").id
    k = _step(tr, "grad_accumulated", node=a, into="grad")
    nodes, _ = parse(viz.draw(tr, step=k).source)
    text = label_text(nodes[f"t{a}"])
    ev = tr.events[k]
    assert f".grad None → {format_value(ev.after)}" in text


def test_grad_saved_and_restored_rows(example_trace):
    tr = example_trace
    x = tr.node("x").id
    k_saved = _step(tr, "grads_saved")
    nodes, _ = parse(viz.draw(tr, step=k_saved).source)
    assert "saved .grad = None" in label_text(nodes[f"t{x}"])
    assert ".grad saved by grad()" in label_text(nodes["legend"])
    nodes, _ = parse(viz.draw(tr, step=_step(tr, "grads_restored")).source)
    text = label_text(nodes[f"t{x}"])
    assert ".grad restored to None" in text and "saved .grad" not in text
    assert ".grad restored by grad()" in label_text(nodes["legend"])
    nodes, _ = parse(viz.draw(tr, step=_step(tr, "pass_finished", pass_id=_passes(tr)[1])).source)
    assert "saved .grad" not in label_text(nodes[f"t{x}"])


def test_create_graph_nodes_are_grouped_by_their_pass(example_trace):
    tr = example_trace
    g_id = tr.node("g").id
    k = _step(tr, "node_entered", node=g_id)
    d = viz.draw(tr, step=k)
    p2 = _passes(tr)[1]
    ag = pygraphviz.AGraph(string=d.source)
    (cluster,) = ag.subgraphs()
    assert cluster.name == f"cluster_pass{p2}"
    assert f"built during grad() pass {p2}, create_graph=True" == cluster.graph_attr["label"]
    made = {f"t{nid}" for nid, info in tr.nodes.items() if info.pass_id == p2}
    assert made and made <= set(cluster.nodes())
    nodes, _ = parse(d.source)
    assert all(f"pass-{p2}" in nodes[n]["class"] for n in made)
    assert "built during a backward pass (create_graph, hooks)" in label_text(nodes["legend"])


def test_captured_values_at_a_step(example_trace):
    tr = example_trace
    L = tr.node("L").id
    k = _step(tr, "closure_called", node=L)
    nodes, _ = parse(viz.draw(tr, step=k, captured=True).source)
    assert label_text(nodes[f"o{L}"]) == "tanh | out_ref = this op's output"
    nodes, _ = parse(viz.draw(tr, step=k - 1, captured=True).source)
    assert label_text(nodes[f"o{L}"]) == "tanh", "captured values are known once the closure ran"


def test_default_step_and_errors(example_trace):
    tr = example_trace
    assert viz.draw(tr).graph.title.startswith(f"step {len(tr.events) - 1} ")
    assert viz.draw(tr, step=-1).source == viz.draw(tr).source
    with pytest.raises(IndexError, match=r"step 5000 out of range for a trace of \d+ events"):
        viz.draw(tr, step=5000)
    with pytest.raises(TypeError, match="step must be an int, got str"):
        viz.draw(tr, step="3")
    with pytest.raises(ValueError, match="the trace has no events"):
        viz.draw(Trace())


def test_elision_keeps_the_current_node(example_trace):
    tr = example_trace
    x = tr.node("x").id
    k = _step(tr, "node_entered", node=x, pass_id=_passes(tr)[2])
    d = viz.draw(tr, step=k, max_nodes=2)
    nodes, _ = parse(d.source)
    assert f"t{x}" in nodes and len(tensor_nodes(nodes)) == 2
    assert "nodes not shown" in label_text(nodes["elided"])


def test_loaded_trace_draws_the_same(example_trace, trace_file):
    loaded = Trace.load(trace_file)
    for k in (0, len(loaded.events) // 2, len(loaded.events) - 1):
        assert viz.draw(loaded, step=k).source == viz.draw(example_trace, step=k).source


def test_a_pass_nested_in_a_hook_is_labelled_with_its_depth():
    import minigrad as mg
    from minigrad.trace import record

    with record() as tr:
        w = mg.tensor(3.0, requires_grad=True, name="w")
        x = mg.tensor(2.0, requires_grad=True, name="x")
        h = x * w

        def hook(g):
            with mg.enable_grad():
                z = w * w
                z.name = "z"
                (gw,) = mg.autograd.grad(z, w)
            return g * gw

        h.register_hook(hook)
        h.tanh().backward()
    outer, inner = _passes(tr)
    k = _step(tr, "seeded", pass_id=inner)
    d = viz.draw(tr, step=k)
    assert f"grad() pass {inner}, depth 2 (inside pass {outer})" in d.graph.title
    assert d.graph.pass_id == inner
    nodes, _ = parse(d.source)
    z = tr.node("z").id
    assert _state_class(nodes[f"t{z}"]) == "pending" and f"pass-{outer}" in nodes[f"t{z}"]["class"]
    assert "saved .grad = None" in label_text(nodes[f"t{w.id}"])
    # back in the outer pass, its own graph and statuses are shown again
    k_after = _step(tr, "pass_finished", pass_id=inner) + 1
    assert viz.draw(tr, step=k_after).graph.pass_id == outer
