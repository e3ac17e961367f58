"""``minigrad-tui --web``: the command each browser tab runs, and a real server answering over HTTP and websocket."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import re
import shlex
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from urllib.parse import parse_qs, urlsplit

import pytest

from minigrad_tui.child_python import python_running
from minigrad_tui.cli import parse_args
from minigrad_tui.web import debugger_command

ANSI = re.compile(r"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[()][A-Z0-9]|\x1b[=>]")


def test_each_tab_runs_the_same_debugger_without_web():
    options = parse_args(["--web", "--port", "9001", "--break", "loss", "--device", "cpu", "train.py", "--lr", "0.1"])
    argv = shlex.split(debugger_command(options))
    # no cwd on the script's sys.path
    assert argv[:3] == python_running("import minigrad_tui; sys.exit(minigrad_tui.main())")
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
    for port in ("70000", "-1"):
        with pytest.raises(SystemExit):
            parse_args(["--web", "--port", port])
        assert f"--port must be between 0 (a free port) and 65535, got {port}" in capsys.readouterr().err
    assert parse_args(["--web", "--port", "0"]).port == 0


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


async def _drive(url: str, script: list, token: str | None = None) -> list[str]:
    """Connect like a browser tab (opening the page with ``token`` first, which sets its cookie); for each
    (wanted text, key) wait until the screen shows it, then press the key.

    Returns the screen text seen up to each wanted text.
    """
    import aiohttp

    origin = "http://" + urlsplit(url).netloc
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
        if token is not None:
            async with session.get(f"{origin}/?token={token}") as page:
                assert page.status == 200
        async with session.ws_connect(url, origin=origin) as ws:
            return await _press_keys(ws, script)


async def _press_keys(ws, script: list) -> list[str]:
    import aiohttp

    seen = []
    text = ""
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


def _served_url(server: subprocess.Popen) -> str:
    """The URL the server printed (its first line of output)."""
    line = server.stdout.readline()
    match = re.search(r"open (http://\S+) in a browser", line)
    assert match, f"no URL in {line!r}"
    return match.group(1)


def test_the_debugger_answers_in_a_browser():
    pytest.importorskip("textual_serve")
    import aiohttp

    server = subprocess.Popen(
        [sys.executable, "-m", "minigrad_tui.app", "--web", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        url = _served_url(server)
        token, port = parse_qs(urlsplit(url).query)["token"][0], urlsplit(url).port
        assert port and url == f"http://127.0.0.1:{port}/?token={token}" and len(token) >= 40
        page = _get(url, time.monotonic() + 60, server)
        assert "minigrad-tui" in page
        assert f"ws://127.0.0.1:{port}/ws" in page
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5)
        assert refused.value.code == 403
        ws_url = f"ws://127.0.0.1:{port}/ws?width=120&height=36"
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused_ws:
            asyncio.run(asyncio.wait_for(_drive(ws_url, [("step 0 of", "q")]), 60))
        assert refused_ws.value.status == 403
        seen = asyncio.run(asyncio.wait_for(_drive(ws_url, [("step 0 of", "n"), ("step 1 of", "q")], token=token), 60))
        assert len(seen) == 2
        assert "built-in example" in seen[0]
    finally:
        server.terminate()
        server.wait(timeout=30)


# ---------------------------------------------------------------- the guard, in-process (aiohttp's test server)

# Stands in for the debugger each tab runs: it waits for textual-serve's quit message and ends.
STAND_IN = "head -c 1 > /dev/null"


@contextlib.asynccontextmanager
async def _guarded(token="right-token", max_sessions=4):
    """A client of a GuardedServer on a free port of 127.0.0.1, and the server."""
    pytest.importorskip("textual_serve")
    import aiohttp
    from aiohttp.test_utils import TestClient, TestServer

    from minigrad_tui.web_server import GuardedServer

    server = GuardedServer(STAND_IN, host="127.0.0.1", port=8000, token=token, max_sessions=max_sessions)
    client = TestClient(TestServer(await server._make_app()), cookie_jar=aiohttp.CookieJar(unsafe=True))
    await client.start_server()
    try:
        yield client, server
        await _until(lambda: server.live_sessions == 0)
    finally:
        await client.close()
        gc.collect()  # textual-serve leaves each debugger's stdin pipe open: close it while its loop runs


def _origin(client) -> str:
    return f"http://{client.host}:{client.port}"


async def _until(condition) -> None:
    """Return once ``condition()`` holds (the server's handlers run on this loop)."""

    async def poll():
        while not condition():
            await asyncio.sleep(0.01)

    await asyncio.wait_for(poll(), 30)


async def test_a_request_without_the_token_is_forbidden():
    import aiohttp

    async with _guarded() as (client, server):
        for path in ("/", "/?token=wrong-token", "/static/js/textual.js"):
            response = await client.get(path)
            assert response.status == 403, path
            assert "?token=" in await response.text()
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await client.ws_connect("/ws", origin=_origin(client))
        assert refused.value.status == 403
        assert server.live_sessions == 0


async def test_the_token_opens_the_page_and_its_cookie_the_assets_and_the_websocket():
    async with _guarded() as (client, server):
        page = await client.get("/?token=right-token")
        assert page.status == 200
        cookie = page.cookies["minigrad-tui-token-8000"]
        assert cookie["httponly"] and cookie["samesite"] == "Strict"
        assert (await client.get("/static/js/textual.js")).status == 200  # the cookie, no query
        async with client.ws_connect("/ws", origin=_origin(client)) as ws:
            assert server.live_sessions == 1
            await ws.close()
        await _until(lambda: server.live_sessions == 0)


async def test_a_page_of_another_site_cannot_open_the_websocket():
    import aiohttp

    async with _guarded() as (client, server):
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await client.ws_connect("/ws?token=right-token", origin="http://evil.example")
        assert refused.value.status == 403
        with pytest.raises(aiohttp.WSServerHandshakeError):  # the same host on another port is another site
            await client.ws_connect("/ws?token=right-token", origin=f"http://{client.host}:{client.port + 1}")
        assert server.live_sessions == 0


async def test_no_token_lets_every_request_in():
    async with _guarded(token=None) as (client, server):
        assert (await client.get("/")).status == 200


async def test_sessions_past_the_limit_are_refused_with_a_message():
    import aiohttp

    async with _guarded(max_sessions=2) as (client, server):
        first = await client.ws_connect("/ws?token=right-token", origin=_origin(client))
        second = await client.ws_connect("/ws?token=right-token", origin=_origin(client))
        assert server.live_sessions == 2
        async with client.ws_connect("/ws?token=right-token", origin=_origin(client)) as third:
            message = await third.receive()
            assert message.type == aiohttp.WSMsgType.BINARY
            assert (
                "2 debugger sessions are open" in message.data.decode() and "--max-sessions 2" in message.data.decode()
            )
            assert (await third.receive()).type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
        assert server.live_sessions == 2  # the refused tab started nothing
        await first.close()
        await _until(lambda: server.live_sessions == 1)
        async with client.ws_connect("/ws?token=right-token", origin=_origin(client)):
            assert server.live_sessions == 2  # a freed place is taken again
        await second.close()


def test_the_server_prints_a_url_with_a_new_random_token(monkeypatch, capsys):
    pytest.importorskip("textual_serve")
    from minigrad_tui import web
    from minigrad_tui.web_server import GuardedServer

    served = []
    monkeypatch.setattr(GuardedServer, "listen", lambda self: (self.host, self.port))
    monkeypatch.setattr(GuardedServer, "serve", lambda self: served.append(self))
    assert web.serve(parse_args(["--web", "--port", "9002"])) == 0
    assert web.serve(parse_args(["--web", "--port", "9002"])) == 0
    urls = re.findall(r"open (\S+) in a browser", capsys.readouterr().out)
    tokens = [parse_qs(urlsplit(url).query)["token"][0] for url in urls]
    assert [server.token for server in served] == tokens
    assert tokens[0] != tokens[1] and all(len(t) >= 40 for t in tokens)
    assert urls[0] == f"http://127.0.0.1:9002/?token={tokens[0]}"
    assert served[0].max_sessions == 4


def test_token_and_max_sessions_from_the_command_line(monkeypatch, capsys):
    pytest.importorskip("textual_serve")
    from minigrad_tui import web
    from minigrad_tui.web_server import GuardedServer

    served = []
    monkeypatch.setattr(GuardedServer, "listen", lambda self: (self.host, self.port))
    monkeypatch.setattr(GuardedServer, "serve", lambda self: served.append(self))
    web.serve(parse_args(["--web", "--token", "s3cret", "--max-sessions", "2"]))
    web.serve(parse_args(["--web", "--no-token"]))
    out, err = capsys.readouterr()
    assert (served[0].token, served[0].max_sessions, served[1].token) == ("s3cret", 2, None)
    assert "open http://127.0.0.1:8000/?token=s3cret in" in out and "open http://127.0.0.1:8000/ in" in out
    assert "warning" not in err


def test_listening_on_every_address_warns(monkeypatch, capsys):
    pytest.importorskip("textual_serve")
    from minigrad_tui import web
    from minigrad_tui.web_server import GuardedServer

    monkeypatch.setattr(GuardedServer, "serve", lambda self: None)
    web.serve(parse_args(["--web", "--host", "0.0.0.0"]))
    err = capsys.readouterr().err
    assert "warning: listening on 0.0.0.0: anyone on the network who has the token can run this script" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--web", "--host", "0.0.0.0", "--no-token"], "--no-token is refused with --host 0.0.0.0"),
        (["--web", "--host", "192.168.1.5", "--no-token"], "--no-token is refused with --host 192.168.1.5"),
        (["--web", "--token", "a", "--no-token"], "give either --token or --no-token, not both"),
        (["--web", "--token", ""], "--token must not be empty"),
        (["--web", "--max-sessions", "0"], "--max-sessions must be at least 1, got 0"),
        (["--token", "a", "x.py"], "--token, --no-token and --max-sessions only apply with --web"),
        (["--max-sessions", "2"], "--token, --no-token and --max-sessions only apply with --web"),
    ],
)
def test_unsafe_or_meaningless_web_options_are_refused(argv, message, capsys):
    with pytest.raises(SystemExit):
        parse_args(argv)
    assert message in capsys.readouterr().err


def test_no_token_is_allowed_on_loopback():
    assert parse_args(["--web", "--no-token"]).no_token
    assert parse_args(["--web", "--host", "::1", "--no-token"]).no_token


async def test_the_page_points_its_websocket_at_the_address_the_browser_used():
    """Served on 0.0.0.0 and opened as http://lab.example:9000, the page must not send the browser to ws://0.0.0.0."""
    async with _guarded() as (client, server):
        page = await client.get("/?token=right-token", headers={"Host": "lab.example:9000"})
        text = await page.text()
        assert "ws://lab.example:9000/ws" in text
        assert "http://lab.example:9000/static/" in text


def test_the_printed_url_names_a_host_a_browser_can_open():
    from minigrad_tui.web import server_url

    assert server_url("127.0.0.1", 8000, "t") == "http://127.0.0.1:8000/?token=t"
    assert server_url("::1", 8000, None) == "http://[::1]:8000/"
    assert server_url("0.0.0.0", 9000, "t") == f"http://{socket.gethostname()}:9000/?token=t"


def test_port_0_serves_on_a_free_port_named_in_the_url(monkeypatch, capsys):
    pytest.importorskip("textual_serve")
    from minigrad_tui import web
    from minigrad_tui.web_server import GuardedServer

    served = []
    monkeypatch.setattr(GuardedServer, "serve", lambda self: served.append(self))
    assert web.serve(parse_args(["--web", "--port", "0", "--token", "s3cret"])) == 0
    (server,) = served
    with server.socket:
        port = server.socket.getsockname()[1]
        assert port != 0 and server.port == port and server.cookie == f"minigrad-tui-token-{port}"
        assert f"open http://127.0.0.1:{port}/?token=s3cret in a browser" in capsys.readouterr().out
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass  # bound and listening before the URL was printed


def test_an_address_in_use_is_said_in_one_line_and_nothing_is_served(monkeypatch, capsys):
    pytest.importorskip("textual_serve")
    from minigrad_tui import web
    from minigrad_tui.web_server import GuardedServer

    monkeypatch.setattr(GuardedServer, "serve", lambda self: pytest.fail("served on an address it could not bind"))
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        assert web.serve(parse_args(["--web", "--port", str(port)])) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"minigrad-tui: cannot listen on 127.0.0.1:{port}: ") and err.count("\n") == 1
    assert "--port 0" in err and "Traceback" not in err


def test_the_network_warning_follows_the_address_bound(monkeypatch, capsys):
    pytest.importorskip("textual_serve")
    from minigrad_tui import web
    from minigrad_tui.web_server import GuardedServer

    served = []
    monkeypatch.setattr(GuardedServer, "serve", lambda self: served.append(self))
    for host in ("localhost", "0.0.0.0"):
        assert web.serve(parse_args(["--web", "--host", host, "--port", "0"])) == 0
        served.pop().socket.close()
        warned = "warning: listening on" in capsys.readouterr().err
        assert warned is (host == "0.0.0.0"), host
