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


def test_a_left_array_is_given_back_to_its_owner_until_the_use_is_taken_again():
    owner, stranger = np.ones(2), np.ones(2)
    a = work_array(np, "test-left", (3, 4), np.float32)
    _workspace.leave("test-left", a, owner, note="sums")
    found = _workspace.left("test-left", owner)
    assert found[0] is a and found[1] == "sums"
    assert _workspace.left("test-left", stranger) is None
    seen_by_thread = []
    worker = threading.Thread(target=lambda: seen_by_thread.append(_workspace.left("test-left", owner)))
    worker.start()
    worker.join()
    assert seen_by_thread == [None]
    work_array(np, "test-left", (3, 4), np.float32)
    assert _workspace.left("test-left", owner) is None


def test_a_left_array_is_not_given_back_once_its_owner_is_gone_or_when_it_was_not_kept(monkeypatch):
    owner = np.ones(2)
    _workspace.leave("test-left-owner", work_array(np, "test-left-owner", (4,), np.float64), owner)
    del owner
    assert _workspace.left("test-left-owner", np.ones(2)) is None
    monkeypatch.setattr(_workspace, "LIMIT", 8)
    owner = np.ones(2)
    _workspace.leave("test-left-large", work_array(np, "test-left-large", (100,), np.float64), owner)
    assert _workspace.left("test-left-large", owner) is None


def test_an_identity_given_back_is_taken_again_while_it_holds_the_identity():
    a = _workspace.identity(np, 5, np.float64)
    np.testing.assert_array_equal(a, np.eye(5))
    assert _workspace.identity(np, 5, np.float64) is not a  # not given back yet: another caller's own
    _workspace.give_back_identity(a, [])
    assert _workspace.identity(np, 5, np.float64) is a
    _workspace.give_back_identity(a, [])
    assert _workspace.identity(np, 5, np.float32) is not a  # another dtype
    for written in ((1, 2, 1e-300), (3, 3, 2.0), (0, 0, -0.0)):
        _workspace.give_back_identity(a, [])
        a[written[:2]] = written[2]
        fresh = _workspace.identity(np, 5, np.float64)
        assert fresh is not a
        np.testing.assert_array_equal(fresh, np.eye(5))
        a = fresh


def test_an_identity_a_result_shares_is_not_kept_and_at_most_a_few_are():
    a = _workspace.identity(np, 3, np.float32)
    _workspace.give_back_identity(a, [np.ones(2), a.reshape(-1)[2:5]])
    assert _workspace.identity(np, 3, np.float32) is not a
    kept = [_workspace.identity(np, n, np.float64) for n in range(2, 3 + _workspace.IDENTITIES)]
    for b in kept:
        _workspace.give_back_identity(b, [])
    assert _workspace.identity(np, 2, np.float64) is not kept[0]  # the oldest went
    assert _workspace.identity(np, 3, np.float64) is kept[1]
