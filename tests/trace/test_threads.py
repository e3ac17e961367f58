"""Recording from several threads: each event goes to the recording of the thread that made it."""

import threading

import numpy as np

import minigrad as mg
from minigrad.trace import record

STEPS = 30


def _train(w, steps=STEPS):
    for _ in range(steps):
        (w @ w).tanh().sum().backward()
        w.array -= 0.01 * w.grad.array
        w.grad = None


def _run_together(*jobs):
    barrier = threading.Barrier(len(jobs))
    errors = []

    def wrap(job):
        try:
            job(barrier)
        except BaseException as exc:  # reported in the main thread
            errors.append(exc)

    threads = [threading.Thread(target=wrap, args=(job,)) for job in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


def _check_replays(tr, own_ids):
    assert len(tr) > 0
    assert set(tr.nodes) >= own_ids
    for k in range(len(tr)):
        tr.state_at(k)
    for ev in tr.events:
        if ev.kind == "pass_started":
            assert set(ev.roots) <= set(tr.nodes)


def _recorder_job(name, out, all_threads, keep_recording_until=None):
    def job(barrier):
        with record(all_threads=all_threads) as tr:
            barrier.wait()  # both threads are recording from here on
            w = mg.tensor(np.eye(3) * (1 + len(name)), dtype=mg.float64, requires_grad=True)
            _train(w)
            if keep_recording_until is not None:  # another thread's work must land in this recording
                keep_recording_until.wait()
        out[name] = (tr, w)

    return job


def test_two_recording_threads_keep_separate_traces():
    for all_threads in (False, True):
        out = {}
        _run_together(_recorder_job("a", out, all_threads), _recorder_job("bb", out, all_threads))
        (tr_a, w_a), (tr_b, w_b) = out["a"], out["bb"]
        assert w_a.id in tr_a.nodes and w_a.id not in tr_b.nodes
        assert w_b.id in tr_b.nodes and w_b.id not in tr_a.nodes
        assert sum(e.kind == "pass_started" for e in tr_a.events) == STEPS
        assert sum(e.kind == "pass_started" for e in tr_b.events) == STEPS
        _check_replays(tr_a, {w_a.id})
        _check_replays(tr_b, {w_b.id})


def test_all_threads_recording_takes_a_loader_threads_passes_without_mixing_them_up():
    out = {}
    loader_w = mg.tensor(np.eye(3), dtype=mg.float64, requires_grad=True)
    loader_done = threading.Event()

    def loader(barrier):
        barrier.wait()
        try:
            _train(loader_w)
        finally:
            loader_done.set()

    _run_together(_recorder_job("main", out, True, keep_recording_until=loader_done), loader)
    tr, w = out["main"]
    assert {w.id, loader_w.id} <= set(tr.nodes)
    assert sum(e.kind == "pass_started" for e in tr.events) == 2 * STEPS
    _check_replays(tr, {w.id, loader_w.id})
    np.testing.assert_allclose(tr.state_at(-1).nodes[w.id].data.array(), w.array, atol=0.1)
