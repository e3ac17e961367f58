"""A recording's memory budget: summaries, then the oldest passes dropped whole, one message, steps that say so."""

import tracemalloc
import warnings

import numpy as np
import pytest

import minigrad as mg
from minigrad.trace import Trace, TraceBudgetWarning, record
from minigrad.trace.budget import KEPT_WHOLE, event_bytes


def _train(steps, n=32):
    w = mg.tensor(np.linspace(-1, 1, n * n).reshape(n, n), dtype=mg.float64, requires_grad=True)
    for _ in range(steps):
        (w @ w).tanh().sum().backward()
        w.array -= 0.01 * w.grad.array
        w.grad = None
    return w


def _recorded_bytes(tr):
    seen = {}
    return sum(event_bytes(ev, seen) for ev in tr.events)


def test_within_budget_nothing_changes():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with record() as tr:
            _train(3)
    assert tr.summarised_before is None and tr.dropped is None
    assert tr.state_at(-1).dropped is None and tr.state_at(-1).reduced is None


def test_summaries_first_then_the_oldest_passes_dropped_with_one_message():
    with pytest.warns(TraceBudgetWarning) as caught:
        with record(max_bytes=400_000) as tr:
            w = _train(40)
    assert len(caught) == 1
    message = str(caught[0].message)
    assert "memory budget of 400.0 kB" in message and "summaries" in message
    assert f"the {tr.dropped.passes} earliest passes (passes {tr.dropped.first_pass}.." in message
    assert _recorded_bytes(tr) <= 400_000
    kinds = [e.kind for e in tr.events]
    assert 0 < kinds.count("pass_started") < 40
    assert kinds.count("pass_started") + tr.dropped.passes == 40  # whole passes went, oldest first
    assert tr.dropped.pass_ids[-1] < min(e.pass_id for e in tr.events if e.kind == "pass_started")
    assert [e.seq for e in tr.events] == list(range(len(tr)))  # renumbered from 0
    first = tr.events[0]  # the parameter's creation is kept: later events still refer to it
    assert first.kind == "node_created" and first.node == w.id and first.late
    for step in (0, len(tr) - 1):
        state = tr.state_at(step)
        assert state.dropped == tr.dropped and "summaries" in state.reduced
        assert w.id in state.nodes
    last = tr.state_at(-1)
    assert last.nodes[w.id].grad is None or last.nodes[w.id].grad.summarised


def test_summaries_alone_when_they_fit():
    with pytest.warns(TraceBudgetWarning, match="summaries") as caught:
        with record(max_bytes=1_500_000) as tr:
            _train(40)
    assert "dropped" not in str(caught[0].message)
    assert tr.dropped is None and tr.summarised_before is not None
    grads = [e.grad for e in tr.events if e.kind == "node_entered"]
    assert not any(g.values is not None and g.values.size > KEPT_WHOLE for g in grads)
    assert any(g.values is not None for g in grads)  # a scalar's value takes less than its summary: kept


def test_reduced_trace_round_trips(tmp_path):
    with pytest.warns(TraceBudgetWarning):
        with record(max_bytes=300_000) as tr:
            _train(30)
    tr.save(tmp_path / "t.jsonl.gz")
    back = Trace.load(tmp_path / "t.jsonl.gz")
    assert back.events == tr.events
    assert back.summarised_before == tr.summarised_before and back.dropped == tr.dropped is not None
    assert back.budget_message == tr.budget_message is not None
    assert back.state_at(0) == tr.state_at(0) and back.state_at(0).dropped == tr.dropped


def _small_steps(steps):
    w = mg.tensor(np.linspace(-1, 1, 16).reshape(4, 4), dtype=mg.float64, requires_grad=True)
    for _ in range(steps):
        (w * w).sum().backward()
        w.grad = None


@pytest.mark.parametrize("steps", [1000, pytest.param(6000, marks=pytest.mark.slow)])
def test_the_budget_bounds_memory_however_long_the_run(steps):
    budget = 2_000_000
    with pytest.warns(TraceBudgetWarning), record(max_bytes=budget):
        _small_steps(300)  # imports, caches and free lists: what any recording makes once
    tracemalloc.start()
    try:
        with pytest.warns(TraceBudgetWarning), record(max_bytes=budget) as tr:
            _small_steps(steps)
        held, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak <= 1.5 * budget, f"the recording peaked at {peak / 1e6:.2f} MB for a budget of 2 MB"
    assert held <= budget, f"the recording holds {held / 1e6:.2f} MB"
    assert tr.dropped.passes + sum(e.kind == "pass_started" for e in tr.events) == steps
    assert tr.dropped.passes > steps // 2


def test_bad_budget():
    with pytest.raises(ValueError, match="max_bytes must be a positive int"):
        with record(max_bytes=0):
            pass


def test_stepper_keeps_its_budget_too():
    from minigrad.trace import Stepper

    s = Stepper(lambda: _train(30), start_paused=False, max_bytes=300_000).start()
    assert s.wait(timeout=60) == "finished"
    assert s.trace.summarised_before is not None and "memory budget" in s.trace.budget_message
    assert _recorded_bytes(s.trace) <= 300_000
    assert s.trace.state_at(0).dropped == s.trace.dropped is not None


def test_nodes_later_events_refer_to_outlive_the_passes_dropped_around_them(tmp_path):
    with pytest.warns(TraceBudgetWarning), record(max_bytes=300_000) as tr:
        w = mg.tensor(np.linspace(-1, 1, 32 * 32).reshape(32, 32), dtype=mg.float64, requires_grad=True)
        early = w * 2  # made before the first pass, used by every pass
        for i in range(30):
            y = (w @ w).tanh()
            if i == 1:
                old = y
            (y.sum() + early.sum()).backward(retain_graph=True)
        old.sum().backward()  # made in a pass dropped long ago: created again, late
    assert tr.dropped.passes > 1
    assert {w.id, early.id, old.id} <= set(tr.nodes)
    created = [e for e in tr.events if e.kind == "node_created" and e.node == old.id]
    assert len(created) == 1 and created[0].late
    tr.save(tmp_path / "t.jsonl")
    back = Trace.load(tmp_path / "t.jsonl")  # every id a kept event names is created before it
    assert back.events == tr.events and back.dropped == tr.dropped
    assert back.state_at(-1).nodes[old.id].status.name == "DONE"


def test_a_paused_stepper_points_at_its_event_after_passes_were_dropped():
    from minigrad.trace import Stepper

    s = Stepper(lambda: _train(30), start_paused=True, max_bytes=300_000).start()
    checked = 0
    while s.wait(timeout=60) == "paused":
        ev = s.paused_at
        assert s.trace.events[ev.seq] is ev  # renumbered in place: the pause and the trace agree
        checked += 1
        s.step_node()
    assert s.status == "finished" and s.trace.dropped is not None and checked > 30


def test_a_hit_count_counts_the_hits_in_passes_dropped_since():
    from minigrad.trace import Stepper, parse_breakpoint

    s = Stepper(lambda: _train(30), start_paused=False, max_bytes=300_000)
    s.breakpoints.append(parse_breakpoint("op:tanh hit 25"))
    s.start()
    assert s.wait(timeout=60) == "paused"
    ev = s.paused_at
    assert ev.kind == "node_entered" and s.trace.nodes[ev.node].op == "tanh"
    assert s.trace.dropped is not None
    passes = s.trace.dropped.passes + sum(e.kind == "pass_started" for e in s.trace.events)
    assert passes == 25  # the 25th tanh entered, in the 25th pass
    s.stop()
