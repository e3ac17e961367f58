"""Exact event sequences for the seed examples, names, sources, nesting and errors."""

import inspect
import textwrap
import weakref

import numpy as np
import pytest

import minigrad as mg
from minigrad import _events
from minigrad.tensor import make
from minigrad.trace import NodeCreated, listen, record


def shape_of(tr):
    """(kind, node, target-or-into) per event, with node ids replaced by labels."""
    out = []
    for e in tr.events:
        lbl = tr.nodes[e.node_id].label if e.node_id is not None else None
        extra = None
        if e.kind == "grad_accumulated":
            extra = (tr.nodes[e.target].label, e.into)
        out.append((e.kind, lbl, extra))
    return out


def test_sum_of_squares_exact_sequence():
    with record() as tr:
        x = mg.tensor([1.0, -2.0, 3.0], requires_grad=True)
        mg.sum(x * x).backward()
    mul = f"mul#{x.id + 1}"
    total = f"sum#{x.id + 2}"
    assert shape_of(tr) == [
        ("node_created", "x", None),
        ("node_named", "x", None),
        ("node_created", mul, None),
        ("node_created", total, None),
        ("pass_started", None, None),
        ("seeded", total, None),
        ("node_entered", total, None),
        ("closure_called", total, None),
        ("grad_accumulated", total, (mul, "pass")),
        ("node_finished", total, None),
        ("node_entered", mul, None),
        ("closure_called", mul, None),
        ("grad_accumulated", mul, ("x", "pass")),
        ("grad_accumulated", mul, ("x", "pass")),
        ("node_finished", mul, None),
        ("node_entered", "x", None),
        ("grad_accumulated", "x", ("x", "grad")),
        ("node_finished", "x", None),
        ("graph_freed", None, None),
        ("pass_finished", None, None),
    ]
    ev = tr.events
    assert [e.seq for e in ev] == list(range(len(ev)))
    assert all(e.pass_id is None and e.depth == 0 for e in ev[:4])
    assert {e.pass_id for e in ev[4:]} == {ev[4].pass_id} and all(e.depth == 1 for e in ev[4:])
    assert ev[4].pass_kind == "backward" and ev[4].options["retain_graph"] is False
    np.testing.assert_array_equal(ev[4].seeds[0].array(), 1.0)
    first, second = ev[12], ev[13]
    np.testing.assert_array_equal(first.contribution.array(), [1, -2, 3])
    assert first.before is None
    np.testing.assert_array_equal(second.before.array(), [1, -2, 3])
    np.testing.assert_array_equal(second.after.array(), [2, -4, 6])
    np.testing.assert_array_equal(ev[16].after.array(), x.grad.array)
    closure = ev[11]
    assert closure.closure.name == "mul.<locals>.backward"
    assert "def backward" in closure.closure.source
    assert closure.closure.first_line <= closure.closure.last_line
    assert any(c.kind == "tensor" and c.tensor_id == x.id for c in closure.captured)
    assert len(closure.outputs) == 2
    assert set(ev[18].nodes) == {x.id + 1}  # only the rule that saved values (sum saved none), as in PyTorch


def test_two_outputs_two_inputs_grad_saves_and_restores():
    with record() as tr:
        a = mg.tensor([1.0, 2.0], requires_grad=True)
        b = mg.tensor([3.0, 4.0], requires_grad=True)
        a.grad = mg.tensor([10.0, 10.0])
        ga, gb = mg.autograd.grad((mg.sum(a * b), mg.sum(a * a)), (a, b))
    np.testing.assert_array_equal(ga.array, [5, 8])
    np.testing.assert_array_equal(gb.array, [1, 2])
    ab, s1, aa, s2 = (f"{op}#{a.id + k}" for op, k in (("mul", 3), ("sum", 4), ("mul", 5), ("sum", 6)))
    kinds = shape_of(tr)
    start = next(i for i, k in enumerate(kinds) if k[0] == "pass_started")
    assert kinds[start:] == [
        ("pass_started", None, None),
        ("grads_saved", None, None),
        ("seeded", s1, None),
        ("seeded", s2, None),
        ("node_entered", s2, None),
        ("closure_called", s2, None),
        ("grad_accumulated", s2, (aa, "pass")),
        ("node_finished", s2, None),
        ("node_entered", aa, None),
        ("closure_called", aa, None),
        ("grad_accumulated", aa, ("a", "pass")),
        ("grad_accumulated", aa, ("a", "pass")),
        ("node_finished", aa, None),
        ("node_entered", s1, None),
        ("closure_called", s1, None),
        ("grad_accumulated", s1, (ab, "pass")),
        ("node_finished", s1, None),
        ("node_entered", ab, None),
        ("closure_called", ab, None),
        ("grad_accumulated", ab, ("a", "pass")),
        ("grad_accumulated", ab, ("b", "pass")),
        ("node_finished", ab, None),
        ("node_entered", "b", None),
        ("grad_accumulated", "b", ("b", "grad")),
        ("node_finished", "b", None),
        ("node_entered", "a", None),
        ("grad_accumulated", "a", ("a", "grad")),
        ("node_finished", "a", None),
        ("grads_restored", None, None),
        ("graph_freed", None, None),
        ("pass_finished", None, None),
    ]
    ev = tr.events[start:]
    assert ev[0].pass_kind == "grad" and ev[0].inputs == (a.id, b.id)
    saved = dict(ev[1].saved)
    np.testing.assert_array_equal(saved[a.id].array(), [10, 10])
    assert saved[b.id] is None
    assert set(ev[1].edges) == {a.id + k for k in (3, 4, 5, 6)}
    restored = dict(ev[-3].restored)
    np.testing.assert_array_equal(restored[a.id].array(), [10, 10])
    assert restored[b.id] is None
    np.testing.assert_array_equal(a.grad.array, [10, 10])
    results = ev[-1].results
    np.testing.assert_array_equal(results[0].array(), [5, 8])
    np.testing.assert_array_equal(results[1].array(), [1, 2])


def scaled_square(a, scale):
    """a * a * scale, with a closure that captures a tensor, a weak reference, an array and a number."""
    factor = np.float64(scale)
    mask = np.ones(a.array.shape)

    def backward(g):
        assert out_ref() is not None
        return (g * a * (2 * factor) * mg.tensor(mask),)

    out = make(a.array * a.array * factor, (a,), backward, "scaled_square")
    out_ref = weakref.ref(out)
    return out


def test_closure_source_and_captured_values():
    with record() as tr:
        a = mg.tensor([1.0, 2.0], dtype=mg.float64, requires_grad=True)
        y = scaled_square(a, 3)
        y.sum().backward()
    (ev,) = [e for e in tr.find("closure_called") if e.node == y.id]
    c = ev.closure
    assert c.name == "scaled_square.<locals>.backward" and c.file == __file__
    lines, first = inspect.getsourcelines(scaled_square)
    assert first < c.first_line < c.last_line < first + len(lines)
    assert c.source == textwrap.dedent("".join(lines[c.first_line - first : c.last_line - first + 1]))
    assert c.source.startswith("def backward(g):")
    cap = {x.name: x for x in ev.captured}
    assert set(cap) == {"a", "factor", "mask", "out_ref"}
    assert (cap["a"].kind, cap["a"].tensor_id) == ("tensor", a.id)
    np.testing.assert_array_equal(cap["a"].value.array(), [1.0, 2.0])
    assert (cap["out_ref"].kind, cap["out_ref"].tensor_id) == ("weakref", y.id)
    np.testing.assert_array_equal(cap["out_ref"].value.array(), [3.0, 12.0])
    assert cap["mask"].kind == "array" and cap["mask"].value.shape == (2,)
    assert (cap["factor"].kind, cap["factor"].text) == ("value", repr(np.float64(3)))
    np.testing.assert_array_equal(ev.outputs[0].array(), [6.0, 12.0])


def test_sources_and_names():
    with record() as tr:
        w = mg.tensor([[1.0, 2.0]], requires_grad=True)
        given = mg.tensor([3.0], requires_grad=True, name="bias")
        out = (w * 2 + given).tanh()
        loss = out.sum()
        loss.backward()
    assert tr.node(w.id).name == "w"
    assert tr.node(given.id).name == "bias"
    assert tr.node(out.id).name == "out"
    assert tr.node(loss.id).name == "loss"
    src = tr.node(out.id).source
    assert (
        src.file == __file__ and src.text == "out = (w * 2 + given).tanh()" and src.function == "test_sources_and_names"
    )
    assert tr.node("out").id == out.id
    with pytest.raises(KeyError, match="nope"):
        tr.node("nope")


def test_name_set_later_and_nodes_made_before_recording():
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    b = a * 3
    with record() as tr:
        c = b.sum()
        c.name = "total"
        c.backward()
    created = [e for e in tr.events if isinstance(e, NodeCreated)]
    assert [(e.node, e.late) for e in created] == [(a.id, True), (b.id, True), (c.id, False)]
    assert created[0].info.source is None
    assert tr.node(c.id).name == "total"


def test_engine_arithmetic_is_not_a_node_but_user_constants_are():
    with record() as tr:
        k = mg.tensor(2.0)
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        (x * k).sum().backward()
    ids = set(tr.nodes)
    assert k.id in ids and x.id in ids
    assert all(tr.nodes[i].requires_grad or i == k.id for i in ids)


def test_large_values_are_summarised():
    with record(max_values=4) as tr:
        x = mg.tensor(np.arange(10.0), requires_grad=True)
        (x * x).sum().backward()
    snap = tr.node(x.id).data
    assert snap.summarised and snap.shape == (10,)
    s = snap.stats
    assert (s.min, s.max, s.mean, s.nan_count, s.inf_count) == (0.0, 9.0, 4.5, 0, 0)
    assert s.head == (0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0)
    assert s.norm == pytest.approx(np.linalg.norm(np.arange(10.0)))
    with pytest.raises(ValueError, match=r"shape \[10\] was summarised"):
        snap.array()
    seeded = tr.find("seeded")[0]
    assert not seeded.grad.summarised


def test_create_graph_consecutive_passes():
    with record() as tr:
        x = mg.tensor(2.0, dtype=mg.float64, requires_grad=True)
        y = x**3
        (g,) = mg.autograd.grad(y, x, create_graph=True)
        g.backward()
    passes = tr.find("pass_started")
    assert [p.pass_kind for p in passes] == ["grad", "backward"]
    assert [p.depth for p in passes] == [1, 1]
    made_in_pass = [e for e in tr.events if e.kind == "node_created" and e.info.pass_id == passes[0].pass_id]
    assert made_in_pass and all(e.pass_id == passes[0].pass_id for e in made_in_pass)
    assert passes[1].roots == (g.id,)
    assert tr.node(g.id).name == "g"
    entered = [e.node for e in tr.find("node_entered", pass_id=passes[1].pass_id)]
    assert entered[0] == g.id and entered[-1] == x.id
    np.testing.assert_allclose(tr.find("grad_accumulated", pass_id=passes[1].pass_id)[-1].after.array(), 12.0)


def _with_inner_grad(a):
    """a * 1 whose backward runs a grad() pass of its own (a nested pass, depth 2)."""

    def backward(g):
        with mg.enable_grad():
            (inner,) = mg.autograd.grad(mg.sum(a * a), a)
        return (g * inner.detach(),)

    return make(a.array.copy(), (a,), backward, "inner")


def test_nested_pass_depth():
    with record() as tr:
        a = mg.tensor([1.0, 3.0], requires_grad=True)
        mg.sum(_with_inner_grad(a)).backward()
    np.testing.assert_array_equal(a.grad.array, [2, 6])
    passes = tr.find("pass_started")
    assert [p.depth for p in passes] == [1, 2]
    outer, inner = passes[0].pass_id, passes[1].pass_id
    inner_events = [e for e in tr.events if e.pass_id == inner and e.kind != "node_created"]
    assert all(e.depth == 2 for e in inner_events)
    assert inner_events[-1].kind == "pass_finished"
    closure_outer = [e for e in tr.find("closure_called", pass_id=outer) if tr.nodes[e.node].op == "inner"][0]
    assert closure_outer.seq > inner_events[-1].seq
    mid = tr.find("node_entered", pass_id=inner)[0].seq
    state = tr.state_at(mid)
    assert [p.pass_id for p in state.passes] == [outer, inner]
    assert state.shown_pass == inner
    assert [s.pass_id for s in state.save_stack] == [inner]


def test_error_mid_pass_then_restore():
    def boom(a):
        def backward(g):
            raise RuntimeError("closure failed")

        return make(a.array * 2, (a,), backward, "boom")

    with record() as tr:
        a = mg.tensor([1.0], requires_grad=True)
        a.grad = mg.tensor([7.0])
        y = mg.sum(boom(a))
        with pytest.raises(RuntimeError, match="closure failed"):
            mg.autograd.grad(y, a)
    kinds = [e.kind for e in tr.events]
    i = kinds.index("error")
    assert kinds[i - 1] == "node_entered" and kinds[i + 1 :] == ["grads_restored"]
    err = tr.events[i]
    assert (err.error_type, err.message) == ("RuntimeError", "closure failed")
    assert tr.nodes[err.node].op == "boom"
    np.testing.assert_array_equal(dict(tr.events[-1].restored)[a.id].array(), [7.0])
    state = tr.state_at(-1)
    assert state.passes == () and state.save_stack == ()
    assert state.nodes[err.node].status == "failed" and state.error == err
    np.testing.assert_array_equal(state.nodes[a.id].grad.array(), [7.0])


def test_listen_callback_and_no_listener_left():
    seen = []
    with listen(seen.append):
        x = mg.tensor([1.0], requires_grad=True)
        (x * 2).sum().backward()
    assert [e.seq for e in seen] == list(range(len(seen)))
    assert seen[-1].kind == "pass_finished"
    assert _events.listeners == []
    n = len(seen)
    (mg.tensor([1.0], requires_grad=True) * 2).sum().backward()
    assert len(seen) == n


def test_other_threads_are_not_recorded_unless_asked():
    import threading

    def work():
        (mg.tensor([1.0], requires_grad=True) * 2).sum().backward()

    with record() as mine, record(all_threads=True) as everything:
        t = threading.Thread(target=work)
        t.start()
        t.join()
    assert len(mine) == 0
    assert any(e.kind == "pass_finished" for e in everything.events)


def test_library_temporaries_are_not_nodes_and_earlier_tensors_get_their_names():
    w = mg.tensor([1.0, 2.0], requires_grad=True)
    opt = mg.optim.SGD([w], lr=0.1, momentum=0.9)
    with record() as tr:
        for _ in range(2):
            opt.zero_grad()
            loss = (w * w).sum()
            loss.backward()
            opt.step()
    assert all(info.requires_grad for info in tr.nodes.values())
    assert len(tr.nodes) == 5  # w, then mul and sum for each of the two steps
    assert tr.node(w.id).name == "w"
    entered_w = [e for e in tr.find("node_entered", node=w.id)]
    assert not np.array_equal(entered_w[0].data.array(), entered_w[1].data.array())
    np.testing.assert_array_equal(tr.state_at(-1).nodes[w.id].data.array(), entered_w[1].data.array())


def test_unknown_raw_kinds_are_ignored():
    with record() as tr:
        _events.emit("some_future_kind", (1, 1))
        x = mg.tensor([1.0], requires_grad=True)
    assert [e.kind for e in tr.events] == ["node_created", "node_named"] and tr.events[0].node == x.id


def _raw_events(run):
    """(kind, values) of every raw event ``run()`` makes."""
    seen = []

    def listener(kind, values):
        seen.append((kind, values))

    _events.add_listener(listener)
    try:
        run()
    finally:
        _events.remove_listener(listener)
    return seen


def test_a_plain_pass_sends_no_node_created_for_its_gradient_arithmetic():
    x = mg.tensor([0.5, -1.0], requires_grad=True)
    seen = _raw_events(lambda: (x * 2.0).tanh().sum().backward())
    made = [values for kind, values in seen if kind == "node_created"]
    assert [t.op for t, _ in made][:3] == ["mul", "tanh", "sum"]  # then backward()'s seed, made before its pass
    assert len(made) == 4 and all(depth == 0 for _, depth in made)
    assert [kind for kind, _ in seen].count("closure_called") == 3
    # under create_graph the gradient arithmetic is a graph: its nodes are sent, at the pass's depth
    y = (x * x).sum()
    seen = _raw_events(lambda: mg.autograd.grad(y, x, create_graph=True))
    in_pass = [values[0] for kind, values in seen if kind == "node_created" and values[1] == 1]
    assert in_pass and all(t.requires_grad for t in in_pass)


def test_closure_called_shows_each_parents_gradient_resolved():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    k = mg.tensor([3.0, 4.0])  # needs no gradient: its entry shows None
    seen = _raw_events(lambda: (x * k).sum().backward())
    called = [values for kind, values in seen if kind == "closure_called"]
    outputs = called[-1][5]
    assert isinstance(outputs, tuple) and outputs[1] is None
    np.testing.assert_array_equal(outputs[0].array, [3.0, 4.0])


def test_a_forward_summary_is_shown_again_in_its_pass_and_taken_afresh_after_it():
    data = np.ones(2000)
    x = mg.from_numpy(data)
    w = mg.tensor(np.full(2000, 2.0), requires_grad=True)
    with record() as tr:
        (x * w).sum().backward()
        data[:] = 5.0  # a data loader refilling its buffer by hand (no version change)
        (x * w).sum().backward()
    created = tr.node(x.id).data
    captured = [c.value for e in tr.find("closure_called") for c in e.captured if c.tensor_id == x.id]
    assert len(captured) == 2 and created.summarised
    assert captured[0].stats == created.stats and captured[0].stats.mean == 1.0
    assert captured[1].stats.mean == 5.0  # the second step's value, not the first's summary


def test_a_leafs_first_gradient_is_kept_without_a_copy_while_watched():
    w = mg.tensor(np.ones((3, 2)), requires_grad=True)
    x = mg.tensor(np.ones((4, 3)))
    seen = _raw_events(lambda: (x @ w).sum().backward())
    (stored,) = [values for kind, values in seen if kind == "grad_accumulated" and values[7] == "grad"]
    contribution, before, after = stored[4:7]
    assert before is None and after is contribution and w.grad is after  # as when nobody watches


def test_a_captured_group_shows_its_large_tensors_by_dtype_and_shape():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    big, small = mg.tensor(np.zeros((8, 64, 128), np.float32)), mg.tensor([1.0, 2.0])
    held = {"big": big, "small": small}

    def backward(g):
        assert held  # the rule keeps the dict, as split's hub keeps the gradients waiting for it
        return (g,)

    with record() as tr:
        make(x.array.copy(), (x,), backward, "holder").sum().backward()
    (called,) = [e for e in tr.find("closure_called") if tr.nodes[e.node].op == "holder"]
    (shown,) = [c for c in called.captured if c.name == "held"]
    assert shown.text == "{'big': tensor(float32[8, 64, 128]), 'small': tensor([1., 2.])}"


def test_summaries_kept_for_values_shown_again_are_bounded_without_passes():
    from minigrad.trace import convert

    with record(max_values=4):
        for _ in range(convert._SUMMARIES_KEPT + 10):
            mg.tensor(np.zeros(8), requires_grad=True)
        kept = len(_events.emit._summaries)  # the recording is the one listener
    assert 0 < kept <= convert._SUMMARIES_KEPT


def test_captured_plain_values_are_their_repr_cut_to_a_short_text():
    """Numbers, strings, booleans and None a rule keeps are shown as their repr, cut at 80 characters like
    any other value's text (a plain value's repr is taken without NumPy's print options)."""
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    huge, ratio, flag, label, nothing = 10**100, 0.9, True, "a" * 100, None

    def backward(g):
        assert len((huge, ratio, flag, label, nothing)) == 5  # the rule keeps them
        return (g,)

    with record() as tr:
        make(x.array.copy(), (x,), backward, "keeper").sum().backward()
    (called,) = [e for e in tr.find("closure_called") if tr.nodes[e.node].op == "keeper"]
    text = {c.name: (c.kind, c.text) for c in called.captured}
    assert text["ratio"] == ("value", "0.9") and text["flag"] == ("value", "True")
    assert text["nothing"] == ("value", "None")
    assert text["huge"] == ("value", repr(huge)[:77] + "...")
    assert text["label"] == ("value", repr(label)[:77] + "...")


def test_a_node_record_is_one_tuple_of_plain_values():
    """A recording keeps a new node as one record: NodeInfo's fields and its source line sit in the event's
    record itself (nested tuples were two more objects a node for the garbage collector to track), and
    build the same NodeInfo when read."""
    with record() as tr:
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        y = x * 3
    (record_of_y,) = [r for r in tr._records if r[0] == "node_created" and r[4] == y.id]
    nested = [v for v in record_of_y if type(v) is tuple]
    assert nested == [(x.id,), (2,), record_of_y[14]]  # parents, shape, the value's snapshot record
    info = tr.nodes[y.id]
    assert (info.op, info.parents, info.shape, info.dtype, info.requires_grad, info.is_leaf) == (
        "mul",
        (x.id,),
        (2,),
        "float32",
        True,
        False,
    )
    assert info.name == "y" and info.source.line > 0 and info.source.text == "y = x * 3"
    np.testing.assert_array_equal(info.data.array(), [3.0, 6.0])


def test_a_reshape_of_a_summarised_value_shares_its_summary_while_its_memory_is_unchanged(monkeypatch):
    from minigrad.trace import convert

    summarised = []
    take = convert.snapshot_record

    def counted(t, max_values):
        snap = take(t, max_values)
        if snap[5] is not None:
            summarised.append(snap[1])
        return snap

    monkeypatch.setattr(convert, "snapshot_record", counted)
    x = mg.tensor(np.arange(4096.0).reshape(64, 64), requires_grad=True)
    with record() as tr:
        flat = x.reshape(4096)  # x's array, another shape: one summary for both
        with mg.no_grad():
            x.add_(1.0)  # written in place: the memory's summary is taken again
        rows = x.reshape(16, 256)
        gone = (x * 2.0).reshape(4096)
        gone_id = gone.id
        del gone  # its memory freed: a new array there has its own summary
        fresh = mg.tensor(np.full((64, 64), 7.0), requires_grad=True).reshape(4096)
    # x; add_'s result (before it is written into x); rows (x's memory written since); x * 2.0 (its reshape:
    # none); the fresh tensor (in memory that may be gone's: its own)
    assert summarised == [(64, 64), (64, 64), (16, 256), (64, 64), (64, 64)]
    before, after = tr.node(x.id).data.stats, tr.node(rows.id).data.stats
    assert tr.node(flat.id).data.stats == before and tr.node(flat.id).data.shape == (4096,)
    assert before.mean == 2047.5 and after.mean == 2048.5 and tr.node(rows.id).data.shape == (16, 256)
    assert tr.node(gone_id).data.stats.mean == 4097.0 and tr.node(fresh.id).data.stats.mean == 7.0
