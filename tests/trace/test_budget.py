"""A recording's memory budget: summaries, then outlines, one message, and steps that say so."""

import tracemalloc
import warnings

import numpy as np
import pytest

import minigrad as mg
from minigrad.trace import Trace, TraceBudgetWarning, record
from minigrad.trace.budget import event_bytes


def _train(steps, n=32):
    w = mg.tensor(np.linspace(-1, 1, n * n).reshape(n, n), dtype=mg.float64, requires_grad=True)
    for _ in range(steps):
        (w @ w).tanh().sum().backward()
        w.data -= 0.01 * w.grad.data
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
    assert tr.summarised_before is None and tr.outlined_before is None
    assert tr.state_at(-1).dropped is None


def test_summaries_first_then_outlines_with_one_message():
    with pytest.warns(TraceBudgetWarning) as caught:
        with record(max_bytes=400_000) as tr:
            w = _train(40)
    assert len(caught) == 1
    message = str(caught[0].message)
    assert "memory budget of 400.0 kB" in message and "summaries" in message and "outline" in message
    assert 0 < tr.summarised_before <= tr.outlined_before < len(tr)
    assert _recorded_bytes(tr) <= 400_000
    old = tr.state_at(0)
    assert "outline" in old.dropped and "max_bytes" in old.dropped
    with pytest.raises(ValueError, match="dropped"):
        old.nodes[w.id].data.array()
    assert "value dropped" in old.nodes[w.id].data.format()
    last = tr.state_at(-1)
    assert "summaries" in last.dropped
    assert last.nodes[w.id].grad is None or last.nodes[w.id].grad.summarised
    kinds = [e.kind for e in tr.events]
    assert kinds.count("pass_started") == 40  # every event is still there, only values went


def test_summaries_alone_when_they_fit():
    with pytest.warns(TraceBudgetWarning, match="summaries") as caught:
        with record(max_bytes=1_500_000) as tr:
            _train(40)
    assert "outline" not in str(caught[0].message)
    assert tr.outlined_before is None and tr.summarised_before is not None
    assert not any(s.values is not None for e in tr.events if e.kind == "node_entered" for s in (e.grad,))


def test_reduced_trace_round_trips(tmp_path):
    with pytest.warns(TraceBudgetWarning):
        with record(max_bytes=300_000) as tr:
            _train(30)
    tr.save(tmp_path / "t.jsonl.gz")
    back = Trace.load(tmp_path / "t.jsonl.gz")
    assert back.events == tr.events
    assert (back.summarised_before, back.outlined_before) == (tr.summarised_before, tr.outlined_before)
    assert back.budget_message == tr.budget_message is not None
    assert back.state_at(0).dropped == tr.state_at(0).dropped


def test_the_budget_bounds_what_the_recording_holds():
    tracemalloc.start()
    try:
        with pytest.warns(TraceBudgetWarning):
            with record(max_bytes=4_000_000) as tr:
                _train(150)  # about 14 MB without a budget
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert held <= 8_000_000, f"the recording holds {held / 1e6:.1f} MB"
    assert len(tr) > 3000


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
    assert s.trace.state_at(0).dropped is not None
