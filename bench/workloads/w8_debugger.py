"""W8 debugger: the time per step (key ``s``) through a replayed 1 000-node trace, driven by a
Textual Pilot at 160x48; each run opens the app (not timed) and takes 100 steps, so the default
five timed runs make 500 steps."""

from __future__ import annotations

import asyncio
import os
import tempfile
import time

from . import Skip
from .w7_diagrams import chain_trace

NAME = "W8"
TITLE = "debugger: per step on a 1 000-node replayed trace (Pilot, 100 steps a run)"
UNIT = "ms/step"
PEERS = ("minigrad",)
LIMITS = {"minigrad": 50.0}  # ms per step


def params(quick: bool) -> dict:
    return {"nodes": 60 if quick else 1000, "steps": 10 if quick else 100}


def per_unit(p: dict) -> float:
    return p["steps"] / 1e3


async def _settle(app, pilot, timeout: float = 30.0) -> None:
    deadline = time.perf_counter() + timeout
    while app.session.running or app.screen.model is None:
        if time.perf_counter() > deadline:
            raise TimeoutError("the debugger did not settle")
        await pilot.pause(0.01)


async def _drive(path: str, steps: int) -> dict:
    from minigrad_tui.app import build_app
    from minigrad_tui.cli import parse_args

    app = build_app(parse_args(["--replay", path]))
    async with app.run_test(size=(160, 48)) as pilot:
        await _settle(app, pilot)
        await pilot.press("home")
        await _settle(app, pilot)
        start, start_cpu = time.perf_counter(), time.process_time()
        for _ in range(steps):
            await pilot.press("s")
            await _settle(app, pilot)
            app.screen.poll()
        wall, cpu = time.perf_counter() - start, time.process_time() - start_cpu
        cursor = app.session.cursor
    app.source.stop()
    return {"check": float(cursor), "wall": wall, "cpu": cpu}


def build(peer: str, p: dict):
    try:
        import textual  # noqa: F401

        import minigrad_tui.app  # noqa: F401
    except ImportError as exc:
        raise Skip(f"the debugger (minigrad_tui/, textual) is not importable ({exc})") from None
    trace = chain_trace(p["nodes"])
    fd, path = tempfile.mkstemp(suffix=".jsonl", prefix="bench-w8-")
    os.close(fd)
    trace.save(path)
    return lambda: asyncio.run(_drive(path, p["steps"])), {"events_in_trace": len(trace.events)}
