"""The step numbers the lesson texts quote are the ones the debugger's `g` goes to."""

from __future__ import annotations

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
