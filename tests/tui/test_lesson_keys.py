"""The step numbers the lesson texts quote are the ones the debugger's `g` goes to."""

from __future__ import annotations

import numpy as np

from minigrad.course import find_lesson

from .helpers import current_event, debugger, press, settled, wait_until


def demo(number: int) -> str:
    return str(find_lesson(number).demo)


async def answer(app, pilot, key: str, text: str) -> None:
    """Press ``key`` (g or /), type ``text`` at its prompt, and wait until the debugger stopped where it asked."""
    await press(app, pilot, key)
    await pilot.press(*text, "enter")
    await pilot.pause(0.1)
    await wait_until(pilot, lambda: settled(app) and current_event(app) is not None)


async def test_lesson_2_goto_the_transcripts_step_9_is_the_first_accumulation_into_b():
    async with debugger(demo(2)) as (app, pilot):
        await answer(app, pilot, "g", "9")
        ev = current_event(app)
        assert ev.seq == 9 and ev.kind == "grad_accumulated" and app.screen._names[ev.target] == "b"


async def test_lesson_8_conditional_breakpoint_stops_where_its_transcript_says():
    """`minigrad-tui --break "op:sigmoid if |g| < 1e-2" demo.py`, then `c`: the stops the vanishing transcript
    quotes (s3, s2, s1, each gradient's norm below 0.01), at its step numbers."""
    readme = (find_lesson(8).path / "README.md").read_text()
    block = readme.split("<!-- transcript: vanishing -->")[1].split("<!-- /transcript -->")[0]
    quoted = [int(line.split()[1]) for line in block.splitlines() if line.startswith("step ")][1:]  # after s12's
    async with debugger("--break", "op:sigmoid if |g| < 1e-2", demo(8)) as (app, pilot):
        stops = []
        for _ in quoted:
            await press(app, pilot, "c")
            ev = current_event(app)
            assert ev.kind == "node_entered" and np.linalg.norm(ev.grad.values) < 1e-2
            stops.append((ev.seq, app.screen._names[ev.node]))
        assert stops == list(zip(quoted, ["s3", "s2", "s1"]))
