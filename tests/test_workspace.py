"""Work arrays kept between calls (minigrad._workspace): per use and thread, up to a size, NumPy only."""

from __future__ import annotations

import threading

import numpy as np

from minigrad import _workspace
from minigrad._workspace import work_array


def test_a_use_gets_its_kept_memory_back_and_grows_it_when_asked_for_more():
    a = work_array(np, "test-kept", (4, 3), np.float32)
    assert a.shape == (4, 3) and a.dtype == np.float32
    b = work_array(np, "test-kept", (2, 3), np.float64)
    assert np.shares_memory(a, b)
    c = work_array(np, "test-kept", (100, 100), np.float64)
    assert not np.shares_memory(a, c)
    assert np.shares_memory(c, work_array(np, "test-kept", (7,), np.int64))
    assert not np.shares_memory(c, work_array(np, "test-other", (7,), np.int64))


def test_an_array_over_the_limit_is_made_for_the_call(monkeypatch):
    monkeypatch.setattr(_workspace, "LIMIT", 64)
    a = work_array(np, "test-large", (100,), np.float32)
    assert not np.shares_memory(a, work_array(np, "test-large", (100,), np.float32))


def test_each_thread_has_its_own_arrays():
    mine = work_array(np, "test-thread", (8,), np.float32)
    theirs = []
    worker = threading.Thread(target=lambda: theirs.append(work_array(np, "test-thread", (8,), np.float32)))
    worker.start()
    worker.join()
    assert not np.shares_memory(mine, theirs[0])
