"""Work arrays kept between calls (minigrad._workspace): per use and thread, up to a size, NumPy only."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import threading

import numpy as np
import pytest

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


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="glibc's dynamic thresholds")
@pytest.mark.skipif(
    any(k.startswith("MALLOC_") for k in os.environ), reason="glibc's thresholds set by the environment"
)
def test_arrays_freed_at_the_end_of_a_step_stay_with_the_process_for_the_next():
    # twenty 1 MB arrays made and freed per step: glibc gives their 20 MB back to the OS at each step's end (the
    # resident memory falls, and the next step faults their pages in again) unless its thresholds were raised, as
    # importing minigrad raises them; glibc's own setting in the environment still wins
    script = """
import os, sys
import numpy as np
if sys.argv[1] == "minigrad":
    import minigrad
def resident():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
def step():
    arrays = [np.ones(131072) for _ in range(20)]
    peak = resident()
    del arrays
    return peak - resident()
for _ in range(3):
    step()
print(min(step() for _ in range(5)))
"""

    def given_back(name, **env):
        run = subprocess.run(
            [sys.executable, "-c", script, name], capture_output=True, text=True, check=True, env={**os.environ, **env}
        )
        return int(run.stdout)

    assert given_back("numpy") > 10 << 20  # the pattern the test is about
    assert given_back("minigrad") < 1 << 20
    assert given_back("minigrad", MALLOC_TRIM_THRESHOLD_="131072") > 10 << 20  # as the README says
