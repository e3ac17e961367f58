"""Drive the debugger in tests: open it on a script, press keys, wait for the script, read widgets."""

from __future__ import annotations

import asyncio
import io
from contextlib import asynccontextmanager
from pathlib import Path

from rich.console import Console

from minigrad_tui.app import build_app
from minigrad_tui.cli import parse_args

SCRIPTS = Path(__file__).parent / "scripts"


def script(name: str) -> str:
    return str(SCRIPTS / name)


async def wait_until(pilot, condition, timeout: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError("timed out waiting for the debugger")
        await pilot.pause(0.02)


def laid_out(app) -> bool:
    """The graph the current step wants is laid out (in a worker thread) and drawn, with the straight layout
    where the plain one did not fit its pane."""
    screen = debugger_screen(app)
    wanted = screen._wanted_scope
    return wanted is not None and screen._drawn_scope == wanted[0] and screen._straight_busy is None


def debugger_screen(app):
    """The DebuggerScreen, also while a prompt or the help is open over it."""
    return next((s for s in app.screen_stack if hasattr(s, "shown_status")), None)


def status_shown(app) -> bool:
    """The screen has handled the RunStatusChanged message for the script's current status."""
    screen = debugger_screen(app)
    return screen is not None and screen.shown_status is app.source.status


def settled(app) -> bool:
    """The script stopped where the last key asked, and the screen shows that status (state and errors together)."""
    s = app.session
    return (
        not s.running and (s.cursor >= 0 or app.source.state in ("error", "finished", "stopped")) and status_shown(app)
    )


@asynccontextmanager
async def debugger(*argv, size=(160, 48)):
    app = build_app(parse_args(list(argv)))
    async with app.run_test(size=size) as pilot:
        await wait_until(pilot, lambda: settled(app) and (app.screen.model is not None or app.source.error))
        await pilot.pause(0.05)
        yield app, pilot
    app.source.stop()


async def press(app, pilot, *keys) -> None:
    """Press keys one at a time, each time waiting until the script stopped where the key asked."""
    for key in keys:
        await pilot.press(key)
        await pilot.pause(0.02)
        await wait_until(pilot, lambda: settled(app))
        debugger_screen(app).poll()
    await pilot.pause(0.02)


def text(widget) -> str:
    """What a Static-like widget shows, as plain text."""
    console = Console(width=150, record=True, file=io.StringIO(), color_system=None)
    content = getattr(widget, "content", None)
    console.print(content if content is not None and not isinstance(content, str) or content else widget.render())
    return console.export_text()


def header(app) -> str:
    return text(app.screen.query_one("#header"))


def current_event(app):
    return app.session.events[app.session.cursor]
