"""Make the README's screenshots of the three ways to step through a backward pass.

    python docs/make_screenshots.py [OUTDIR]     (default: docs/screenshots)

- ``terminal.svg``: ``minigrad-tui`` on its built-in example, stopped inside the
  backward pass at a mul node's rule (Textual's own SVG screenshot, via a Pilot);
- ``notebook.png``: the notebook stepper (its real front-end module) on the same
  example, in headless Chromium;
- ``browser.png``: ``minigrad-tui --web`` in headless Chromium, driven over the
  DevTools protocol until the debugger has drawn itself.

Needs the dev extra (anywidget, textual-serve) and a Chromium binary for the two PNGs.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import io
import json
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

OUT = Path(__file__).resolve().parent / "screenshots"
SIZE = (120, 36)
STOP_AT = ["--break", "op:mul"]  # the built-in example's first mul: its rule is `g * b, g * a`


def chromium() -> str:
    """The Chromium/Chrome binary, or SystemExit naming what is missing."""
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    raise SystemExit("make_screenshots: needs a Chromium or Chrome binary (apt-get install chromium)")


async def _terminal(path: Path) -> None:
    from minigrad_tui.app import build_app
    from minigrad_tui.cli import parse_args

    app = build_app(parse_args(STOP_AT))
    async with app.run_test(size=SIZE) as pilot:
        await _settle(app, pilot)
        for key in ("c", "s"):
            await pilot.press(key)
            await _settle(app, pilot)
        app.save_screenshot(path.name, path=str(path.parent))
    app.source.stop()


async def _settle(app, pilot, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    await pilot.pause(0.05)
    while app.session.running or app.session.cursor < 0:
        if time.monotonic() > deadline:
            raise SystemExit("make_screenshots: the debugger did not stop where expected")
        await pilot.pause(0.05)
    await pilot.pause(0.2)


def terminal(path: Path) -> None:
    """``minigrad-tui`` stopped at a closure call, as Textual's SVG screenshot."""
    asyncio.run(_terminal(path))


def _example_trace():
    from minigrad import examples
    from minigrad.trace import record

    with record() as trace, contextlib.redirect_stdout(io.StringIO()):
        examples.run("demo")
    return trace


_HOST = """<!DOCTYPE html><html><head><meta charset="utf-8"><style>
body { margin: 16px; font-family: system-ui, sans-serif; } __CSS__
.cell { border-left: 4px solid #42a5f5; padding: 8px 12px; background: #fafafa; }
.prompt { color: #303f9f; font-family: monospace; margin-bottom: 6px; }
</style></head><body>
<div class="cell"><div class="prompt">[3]: trace</div><div id="out"></div></div>
<script type="module">
const state = __STATE__;
const model = { get: (k) => state[k], set: (k, v) => { state[k] = v; }, save_changes() {}, on() {}, send() {} };
const widget = (await import("data:text/javascript;base64,__ESM__")).default;
widget.render({ model, el: document.getElementById("out") });
</script></body></html>"""


def notebook(path: Path, browser: str) -> None:
    """The notebook stepper's front end at a closure call, rendered by Chromium."""
    from minigrad.viz.notebook import _CSS, _ESM, TraceStepper

    trace = _example_trace()
    w = TraceStepper(trace)
    w.breakpoint = "op:mul"
    w.move("continue")
    w.move("step")
    state = {k: getattr(w, k) for k in ("step", "total", "headline", "details", "svg", "breakpoint", "message")}
    state.update(headlines=list(w.headlines), all_details=list(w.all_details))
    page = (
        _HOST.replace("__CSS__", _CSS)
        .replace("__STATE__", json.dumps(state).replace("</", "<\\/"))
        .replace("__ESM__", base64.b64encode(_ESM.encode()).decode())
    )
    with tempfile.TemporaryDirectory() as tmp:
        host = Path(tmp) / "notebook.html"
        host.write_text(page, encoding="utf-8")
        subprocess.run(
            # the widget renders after an async import: the virtual time budget makes Chromium wait for it
            # (without it a loaded machine screenshots the page before the widget is drawn)
            [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1100,900",
             "--virtual-time-budget=10000", f"--screenshot={path}", host.as_uri()],
            check=True, capture_output=True, timeout=120,
        )  # fmt: skip


def _told(path: Path, pattern: str, process, what: str, timeout: float = 60.0) -> re.Match:
    """The first match of ``pattern`` in the file ``path`` once ``process`` has written it there (the port it
    bound, say); a ``process`` that exits first stops the wait with its exit status and the file's end."""
    deadline = time.monotonic() + timeout
    while True:
        text = path.read_text(errors="replace") if path.exists() else ""
        match = re.search(pattern, text)
        if match:
            return match
        if process.poll() is not None:
            raise SystemExit(f"make_screenshots: {what} exited ({process.returncode}) first\n{text[-2000:]}")
        if time.monotonic() > deadline:
            raise SystemExit(f"make_screenshots: {what} never wrote {pattern!r} to {path}")
        time.sleep(0.1)


def _wait_http(url: str, timeout: float = 60.0, process=None, log=None) -> str:
    """``url``'s body once it answers; a ``process`` that should be serving it and exits first stops the wait
    with its exit status and the end of its ``log`` (a refused connection alone says nothing of why)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return response.read().decode()
        except OSError as error:
            if process is not None and process.poll() is not None:
                told = Path(log).read_text(errors="replace")[-2000:] if log else ""
                exited = f"its server exited ({process.returncode})"
                raise SystemExit(f"make_screenshots: {url} never answered: {exited}\n{told}") from error
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


async def _devtools_screenshot(debug_port: int, url: str, path: Path, keys: str) -> None:
    import aiohttp

    new = urllib.request.Request(f"http://127.0.0.1:{debug_port}/json/new?{url}", method="PUT")
    with urllib.request.urlopen(new, timeout=30) as response:
        target = json.loads(response.read())
    async with aiohttp.ClientSession() as session, session.ws_connect(target["webSocketDebuggerUrl"]) as ws:
        counter = 0

        async def call(method, **params):
            nonlocal counter
            counter += 1
            await ws.send_json({"id": counter, "method": method, "params": params})
            async for message in ws:
                reply = json.loads(message.data)
                if reply.get("id") == counter:
                    return reply.get("result", {})
            raise SystemExit("make_screenshots: the browser closed the DevTools connection")

        async def screenshot() -> bytes:
            return base64.b64decode((await call("Page.captureScreenshot", format="png"))["data"])

        await call("Emulation.setDeviceMetricsOverride", width=1200, height=760, deviceScaleFactor=1, mobile=False)
        # Wait for what the page shows, not for a time: a loaded machine draws the terminal late, and a
        # screenshot taken before is blank (a 1200x760 blank PNG is about 4 KB; the debugger's, 60 KB).
        # textual-serve marks the body "-first-byte" when the app's first output arrives.
        started = "!!document.body && document.body.classList.contains('-first-byte')"
        deadline = time.monotonic() + 60
        while not (await call("Runtime.evaluate", expression=started))["result"].get("value") or (
            len(await screenshot()) < _DRAWN_BYTES
        ):
            if time.monotonic() > deadline:
                raise SystemExit("make_screenshots: the web debugger never drew itself")
            await asyncio.sleep(0.25)
        for kind in ("mousePressed", "mouseReleased"):  # focus the terminal so it receives the keys
            await call("Input.dispatchMouseEvent", type=kind, x=600, y=380, button="left", clickCount=1)
        for key in keys:
            await call("Input.dispatchKeyEvent", type="keyDown", text=key, key=key)
            await call("Input.dispatchKeyEvent", type="keyUp", key=key)
            await asyncio.sleep(1.0)
        shot, previous = await screenshot(), b""
        while shot != previous:  # settled: two screenshots half a second apart are the same
            if time.monotonic() > deadline + 30:
                raise SystemExit("make_screenshots: the web debugger never settled after the keys")
            await asyncio.sleep(0.5)
            shot, previous = await screenshot(), shot
        path.write_bytes(shot)


_DRAWN_BYTES = 10_000


def web_server_command(token: str) -> list[str]:
    """The ``minigrad-tui --web`` command line, stopped at the closure call, on a port the system picks
    (``--port 0``: the server prints it in its URL, so no other process can take it in between).

    The token goes as ``--token=VALUE``: a random token may begin with ``-``, which argparse
    would read as an option after a separate ``--token``.
    """
    return [sys.executable, "-m", "minigrad_tui.app", "--web", "--port", "0", f"--token={token}", *STOP_AT]


def browser_view(path: Path, browser: str) -> None:
    """``minigrad-tui --web`` in Chromium, stopped at the same closure call."""
    token = secrets.token_urlsafe(16)
    with tempfile.TemporaryDirectory() as profile:
        log = Path(profile) / "server.log"
        with log.open("wb") as sink:
            server = subprocess.Popen(web_server_command(token), stdout=sink, stderr=subprocess.STDOUT)
        chrome = subprocess.Popen(  # port 0: Chromium picks one and writes it to DevToolsActivePort
            [browser, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-port=0",
             f"--user-data-dir={profile}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            page = _told(log, r"open (http://\S+) in a browser", server, "the web debugger").group(1)
            debug_port = int(_told(Path(profile) / "DevToolsActivePort", r"^(\d+)\n", chrome, "Chromium").group(1))
            _wait_http(page, process=server, log=log)
            _wait_http(f"http://127.0.0.1:{debug_port}/json/version")
            asyncio.run(_devtools_screenshot(debug_port, page, path, "cs"))
        finally:
            chrome.terminate()
            server.terminate()
            chrome.wait(timeout=30)
            server.wait(timeout=30)


def main(argv=None) -> int:
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0]) if args else OUT
    out.mkdir(parents=True, exist_ok=True)
    terminal(out / "terminal.svg")
    browser = chromium()
    notebook(out / "notebook.png", browser)
    browser_view(out / "browser.png", browser)
    for name in ("terminal.svg", "notebook.png", "browser.png"):
        print(f"wrote {out / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
