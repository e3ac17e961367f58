"""Trace.state_at(k) against the live tensors captured while the run happened."""

import numpy as np
import pytest

import minigrad as mg
from minigrad import _events
from minigrad.trace import record


def _host(t):
    return None if t is None else np.array(t.array, copy=True)


class LiveProbe:
    """A raw listener registered after the recorder: at each raw event, the step the recorder
    has reached and a copy of every recorded tensor's live data and .grad, plus the raw gradient."""

    def __init__(self, trace):
        self.trace = trace
        self.tensors = {}
        self.at = {}

    def __call__(self, kind, values):
        fields = _events.fields(kind, values)
        if kind == "node_created":
            self.tensors[fields["node"].id] = fields["node"]
        step = len(self.trace.events) - 1
        live = {nid: (_host(t), _host(t._grad)) for nid, t in self.tensors.items() if nid in self.trace.nodes}
        raw = None
        if kind in ("node_entered", "seeded"):
            raw = (fields["node"].id, _host(fields["grad"]))
        elif kind == "grad_accumulated" and fields["into"] == "pass":
            raw = (fields["target"].id, _host(fields["after"]))
        self.at[step] = (live, raw)


def _script():
    w = mg.tensor([[0.5, -1.0], [2.0, 0.25]], dtype=mg.float64, requires_grad=True)
    x = mg.tensor([1.0, 3.0], dtype=mg.float64, requires_grad=True)
    h = (w @ x).tanh()
    loss = (h * h + x).sum()
    loss.backward(retain_graph=True)
    gw, gx = mg.autograd.grad(loss, (w, x), retain_graph=True)
    loss.backward()
    return w, x, gw, gx


def test_state_at_matches_live_values_at_every_step():
    with record() as tr:
        probe = LiveProbe(tr)
        _events.add_listener(probe)
        try:
            w, x, _, _ = _script()
        finally:
            _events.remove_listener(probe)
    assert len(probe.at) > 40
    checked_pass_grads = 0
    for step, (live, raw) in probe.at.items():
        state = tr.state_at(step)
        for nid, (data, grad) in live.items():
            ns = state.nodes[nid]
            np.testing.assert_array_equal(ns.data.array(), data, err_msg=f"data of #{nid} at step {step}")
            if grad is None:
                assert ns.grad is None, f".grad of #{nid} at step {step}"
            else:
                np.testing.assert_array_equal(ns.grad.array(), grad, err_msg=f".grad of #{nid} at step {step}")
        if raw is not None:
            nid, g = raw
            np.testing.assert_array_equal(state.nodes[nid].pass_grad.array(), g)
            checked_pass_grads += 1
    assert checked_pass_grads > 10
    np.testing.assert_array_equal(tr.state_at(-1).nodes[x.id].grad.array(), x.grad.array)


def test_statuses_current_node_and_edge():
    with record() as tr:
        x = mg.tensor([1.0, -2.0, 3.0], requires_grad=True)
        mg.sum(x * x).backward()
    mul, total = x.id + 1, x.id + 2
    seq = {(e.kind, e.node_id): e.seq for e in tr.events}
    st = tr.state_at(seq[("pass_started", None)])
    assert {st.nodes[i].status for i in (x.id, mul, total)} == {"untouched"}
    st = tr.state_at(seq[("seeded", total)])
    assert st.nodes[total].status == "pending" and st.current_node == total
    st = tr.state_at(seq[("node_entered", mul)])
    assert (st.nodes[total].status, st.nodes[mul].status, st.nodes[x.id].status) == ("done", "active", "untouched")
    acc = tr.find("grad_accumulated", node=mul)[0]
    st = tr.state_at(acc.seq)
    assert st.current_edge == (mul, x.id) and st.event is acc
    assert st.nodes[x.id].status == "pending"
    last = tr.state_at(-1)
    assert {last.nodes[i].status for i in (x.id, mul, total)} == {"done"}
    assert last.nodes[mul].freed and not last.nodes[x.id].freed
    assert last.passes == () and last.shown_pass == acc.pass_id
    with pytest.raises(IndexError, match="out of range"):
        tr.state_at(len(tr))


def test_state_at_is_consistent_with_checkpoints(monkeypatch):
    from minigrad.trace import trace as trace_module

    monkeypatch.setattr(trace_module, "_CHECKPOINT_EVERY", 7)
    with record() as tr:
        _script()
    forward = [tr.state_at(k) for k in range(len(tr))]
    backward = [tr.state_at(k) for k in reversed(range(len(tr)))][::-1]
    assert len(tr._checkpoints) > 3
    assert forward == backward


def _from_scratch(trace, step):
    """The state after ``step`` replayed from the first event, with no checkpoint and no shared copy."""
    from minigrad.trace.state import Replay

    replay = Replay()
    for ev in trace.events[: step + 1]:
        replay.apply(ev)
    return replay.state(step, trace.events[step])


@pytest.fixture(scope="module")
def training_trace():
    w = mg.tensor([[0.5, -1.0], [2.0, 0.25]], dtype=mg.float64, requires_grad=True)
    x = mg.tensor([1.0, 3.0], dtype=mg.float64)
    with record() as tr:
        for _ in range(6):
            (w @ x).tanh().sum().backward()
            w.array -= 0.1 * w.grad.array
            w.grad = None
        _script()
    return tr


def test_stepping_in_any_order_matches_a_replay_from_scratch(training_trace):
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from minigrad.trace import Trace
    from minigrad.trace import trace as trace_module

    n = len(training_trace)

    @settings(max_examples=25, deadline=None)
    @given(every=st.integers(1, 40), steps=st.lists(st.integers(0, n - 1), min_size=1, max_size=30))
    def check(every, steps):
        saved = trace_module._CHECKPOINT_EVERY
        trace_module._CHECKPOINT_EVERY = every
        try:
            fresh = Trace(training_trace.events)
            held = [(k, fresh.state_at(k)) for k in steps]
        finally:
            trace_module._CHECKPOINT_EVERY = saved
        for k, state in held:  # states taken earlier do not change as later ones are replayed
            assert state == _from_scratch(training_trace, k), f"step {k}"

    check()


@pytest.mark.slow
def test_states_of_a_4000_step_trace_fit_in_100_mb():
    import tracemalloc

    w = mg.tensor([1.0, 1.0, 1.0], dtype=mg.float64, requires_grad=True)
    x = mg.tensor([0.0, 1.0, 2.0], dtype=mg.float64)
    with record(sources=False, names=False) as tr:
        for _ in range(4000):
            (w * x).sum().backward()
            before_update = w.array.copy()
            w.array -= 0.1 * w.grad.array
            w.grad = None
    tracemalloc.start()
    try:
        held = []
        for k in range(len(tr) - 1, -1, -(len(tr) // 100)):  # step back through the run, as a viewer does
            held = [*held[-63:], tr.state_at(k)]  # the debugger caches up to 64 states
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak <= 100e6, f"stepping back through 4000 steps took {peak / 1e6:.0f} MB"
    np.testing.assert_array_equal(tr.state_at(-1).nodes[w.id].data.array(), before_update)


def test_node_in_progress_is_the_entered_node_until_it_finishes():
    import minigrad as mg
    from minigrad.trace import record

    x = mg.tensor([1.0, 2.0], requires_grad=True, name="x")
    with record() as tr:
        loss = (x * x).sum()
        loss.backward()
    for k, ev in enumerate(tr.events):
        node = tr.node_in_progress(k)
        if ev.kind in ("node_entered", "closure_called", "node_finished"):
            assert node == ev.node
        elif ev.pass_id is None or ev.kind in ("pass_started", "seeded", "pass_finished", "graph_freed"):
            assert node is None
    assert tr.node_in_progress(-1) is None and tr.node_in_progress(len(tr.events)) is None
