"""Run ``async def`` tests with asyncio (Textual's Pilot is async; no plugin needed); ids that do not
depend on what ran before."""

from __future__ import annotations

import asyncio
import inspect
import itertools
import sys

import pytest

import minigrad._state
import minigrad._versions
import minigrad.autograd.engine


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem):
    if inspect.iscoroutinefunction(pyfuncitem.obj):
        names = pyfuncitem._fixtureinfo.argnames
        asyncio.run(pyfuncitem.obj(**{n: pyfuncitem.funcargs[n] for n in names}))
        return True
    return None


@pytest.fixture
def fresh_ids(monkeypatch):
    """Node and pass ids (shown as ``#id`` and ``pass N``, so they set a label's width) count from the same
    start, and the in-place write clock starts at 0, whatever ran before in the worker."""
    monkeypatch.setattr(sys.modules["minigrad.tensor"], "_ids", itertools.count(10_000))
    # an in-place write in an earlier test stamps the clock past these ids: the engine would then check each
    # node's saved values (one more frame folded into an error's traceback, "5 frames inside minigrad")
    monkeypatch.setattr(minigrad._versions.clock, "last", 0)
    pass_ids = itertools.count(1)
    monkeypatch.setattr(minigrad._state, "pass_ids", pass_ids)
    monkeypatch.setattr(minigrad.autograd.engine, "_pass_ids", pass_ids)
