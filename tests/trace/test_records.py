"""A recording keeps compact records and builds the typed events when a viewer reads them: what it builds
is what the events delivered one by one are, whenever it is read."""

import gc
import weakref

import numpy as np

import minigrad as mg
from minigrad.trace import Trace, listen, record


class Cube(mg.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        ctx.power = 3
        return x**3

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * 3 * x**2


def _program(w, x):
    h = (x @ w).tanh()
    h = h + mg.tensor([0.5, -0.5])  # a broadcast: a reduction event
    loss = Cube.apply(h).sum()
    loss.backward()
    (gw,) = mg.autograd.grad((w * w).sum(), w)  # a grad() pass: its save and restore events
    h2 = w * 1.0
    h2 += 1  # an in-place op: a node with its version
    h2.sum().backward()
    return loss, gw


def _inputs():
    return mg.tensor(np.arange(6.0).reshape(3, 2) / 6, requires_grad=True), mg.tensor(np.ones((4, 3)))


def test_the_events_built_from_the_records_are_the_events_delivered_one_by_one():
    w, x = _inputs()
    delivered = []
    with record(max_values=4) as trace, listen(delivered.append, max_values=4):
        _program(w, x)
    assert len(trace) == len(delivered) > 50
    assert trace.events == delivered
    assert trace.nodes == Trace(delivered).nodes  # with the names learned later


def test_a_trace_read_while_it_records_gives_the_same_events():
    w, x = _inputs()
    delivered = []
    with record() as trace, listen(delivered.append):
        loss = (x @ w).relu().sum()
        before = len(trace.events)  # read in the middle: builds what was recorded so far
        loss.backward()
        (w * 2).sum().backward()
    assert 0 < before < len(trace.events)
    assert trace.events == delivered
    entered = {e.node: e for e in trace.find("node_entered")}
    for called in trace.find("closure_called"):
        assert called.grad is entered[called.node].grad  # still one snapshot per value within a pass


def test_a_recording_leaves_the_garbage_collector_little_to_walk():
    """Records of plain values are untracked by the cyclic GC once it has seen them (a typed event, its
    snapshots and node records were a handful of tracked objects each)."""
    x = mg.tensor(np.ones((4, 4)), requires_grad=True)
    gc.collect()
    with record() as trace:
        y = x
        for _ in range(300):
            y = (y * 0.9).tanh()
        y.sum().backward()
        del y
    for _ in range(3):  # a collection untracks a tuple whose items are untracked: one level of nesting each
        gc.collect()
    records = trace._records  # not read yet: nothing built
    assert len(records) == len(trace) > 1500
    still_tracked = sum(1 for r in records if gc.is_tracked(r))
    assert still_tracked < len(records) // 3, (still_tracked, len(records))


def test_a_recording_of_summarised_values_leaves_the_garbage_collector_little_to_walk():
    """A value too large to copy is kept as its summary; the record keeps the summary's plain numbers, so it
    is untracked as a copied value's (a Stats object in it kept it and every event record holding it
    tracked: a long recording made each full collection walk them all)."""
    x = mg.tensor(np.ones((64, 64)), requires_grad=True)
    gc.collect()
    with record(max_values=16) as trace:
        y = x
        for _ in range(100):
            y = (y * 0.9).tanh()
        y.sum().backward()
        del y
    for _ in range(5):  # a summary's first values sit two levels deeper than a copied value
        gc.collect()
    records = trace._records
    assert len(records) == len(trace) > 500
    still_tracked = sum(1 for r in records if gc.is_tracked(r))
    assert still_tracked < len(records) // 3, (still_tracked, len(records))
    summarised = [s for s in trace.find("node_entered") if s.grad is not None and s.grad.stats is not None]
    assert summarised and summarised[0].grad.stats.max == summarised[0].grad.stats.min  # built when read


def _recorded_step(x):
    with record() as trace:
        (x * 2).sum().backward()
    return trace


def test_a_recordings_trace_is_freed_as_soon_as_nobody_holds_it():
    """No reference cycle holds a trace: dropped, it goes at once, not at the next full collection (the
    converter's handlers were its bound methods, and it held its budget, which holds the trace). The
    recording happens in a function of its own: reading a frame's variables for names makes Python 3.11
    keep them in the frame until it returns."""
    x = mg.tensor(np.ones(3), requires_grad=True)
    gc.collect()
    gc.disable()
    try:
        trace = _recorded_step(x)
        built = len(trace.events)  # (not in an assert: pytest's rewriting keeps what an assert reads)
        gone = weakref.ref(trace)
        del trace
        assert gone() is None and built > 3
    finally:
        gc.enable()


def test_a_pass_leaves_the_garbage_collector_nothing_to_walk_for_the_values_it_shares():
    """The values a pass shows again are kept for the pass by the array itself when copied whole (a weak
    reference, one for each value of a pass, stays tracked by the collector: thousands of them for a long
    chain, walked by each collection)."""
    from minigrad import _events

    x = mg.tensor(np.ones((4, 4)), requires_grad=True)
    with record():
        y = x
        for _ in range(300):
            y = (y * 0.9).tanh()
        y.sum().backward()
        shared = _events.emit._shared  # the recording is the one listener; its table until the next event
        for _ in range(3):
            gc.collect()
        assert len(shared) > 600
        still_tracked = sum(1 for entry in shared.values() if gc.is_tracked(entry))
        assert still_tracked < len(shared) // 10, (still_tracked, len(shared))
