"""``minigrad-tui --web``: the command each browser tab runs, and a real server answering over HTTP and websocket."""

from __future__ import annotations

import asyncio
import json
import re
import shlex
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from tui.cli import parse_args
from tui.web import debugger_command

ANSI = re.compile(r"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[()][A-Z0-9]|\x1b[=>]")


def test_each_tab_runs_the_same_debugger_without_web():
    options = parse_args(["--web", "--port", "9001", "--break", "loss", "--device", "cpu", "train.py", "--lr", "0.1"])
    argv = shlex.split(debugger_command(options))
    assert argv[:3] == [sys.executable, "-m", "tui.app"]
    again = parse_args(argv[3:])
    assert not again.web
    assert (again.script, again.script_args, again.device) == ("train.py", ["--lr", "0.1"], "cpu")
    assert again.break_specs == ["loss"]


def test_replay_is_served_too():
    argv = shlex.split(debugger_command(parse_args(["--web", "--replay", "run.jsonl"])))
    assert parse_args(argv[3:]).replay == "run.jsonl"


def test_host_and_port_need_web(capsys):
    with pytest.raises(SystemExit):
        parse_args(["--port", "9000", "x.py"])
    assert "--host and --port only apply with --web" in capsys.readouterr().err


def test_port_out_of_range_is_refused(capsys):
    with pytest.raises(SystemExit):
        parse_args(["--web", "--port", "70000"])
    assert "--port must be between 1 and 65535, got 70000" in capsys.readouterr().err


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str, deadline: float, server: subprocess.Popen) -> str:
    """The page at ``url`` once the server answers (it needs a moment to bind)."""
    while True:
        assert server.poll() is None, f"the server exited: {server.stdout.read()}"
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return response.read().decode()
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


async def _drive(url: str, script: list) -> list[str]:
    """Connect like a browser tab; for each (wanted text, key) wait until the screen shows it, then press the key.

    Returns the screen text seen up to each wanted text.
    """
    import aiohttp

    seen = []
    text = ""
    async with aiohttp.ClientSession() as session, session.ws_connect(url) as ws:
        steps = iter(script)
        wanted, key = next(steps)
        async for message in ws:
            if message.type == aiohttp.WSMsgType.BINARY:
                text += ANSI.sub("", message.data.decode("utf-8", "replace"))
            elif message.type != aiohttp.WSMsgType.TEXT:
                break
            if wanted in text:
                seen.append(text)
                text = ""
                await ws.send_str(json.dumps(["stdin", key]))
                wanted, key = next(steps, (None, None))
                if wanted is None:
                    break
    return seen


def test_the_debugger_answers_in_a_browser():
    pytest.importorskip("textual_serve")
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "tui.app", "--web", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        page = _get(f"http://127.0.0.1:{port}/", time.monotonic() + 60, server)
        assert "minigrad-tui" in page
        assert f"ws://127.0.0.1:{port}/ws" in page
        url = f"ws://127.0.0.1:{port}/ws?width=120&height=36"
        seen = asyncio.run(asyncio.wait_for(_drive(url, [("step 0 of", "n"), ("step 1 of", "q")]), 60))
        assert len(seen) == 2
        assert "built-in example" in seen[0]
    finally:
        server.terminate()
        server.wait(timeout=30)
