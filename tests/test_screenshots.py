"""The README's screenshots are made by a command: it runs and writes all three."""

from __future__ import annotations

import importlib.util
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "docs" / "make_screenshots.py"


def _script_module():
    """docs/make_screenshots.py as a module (docs/ is no package)."""
    spec = importlib.util.spec_from_file_location("make_screenshots", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_screenshot_command_writes_the_three_views(tmp_path):
    for module in ("anywidget", "textual_serve"):
        pytest.importorskip(module)
    if not any(shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")):
        pytest.skip("needs a Chromium/Chrome binary")
    module = _script_module()
    assert module.main([str(tmp_path)]) == 0
    svg = (tmp_path / "terminal.svg").read_text()
    assert svg.lstrip().startswith("<svg") and "return" in svg  # the rule being run
    for name in ("notebook.png", "browser.png"):
        data = (tmp_path / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000


def test_the_readme_shows_all_three():
    readme = (SCRIPT.parents[1] / "README.md").read_text()
    for name in ("terminal.svg", "notebook.png", "browser.png"):
        assert f"docs/screenshots/{name}" in readme
        assert (SCRIPT.parent / "screenshots" / name).exists()


def test_a_server_that_exits_before_answering_is_reported_with_its_output(tmp_path):
    module = _script_module()
    log = tmp_path / "server.log"
    with log.open("wb") as sink:
        server = subprocess.Popen([sys.executable, "-c", "print('address in use'); raise SystemExit(3)"], stdout=sink)
    with (
        socket.socket() as held,
        pytest.raises(SystemExit, match=r"never answered: its server exited \(3\)\naddress in use"),
    ):
        held.bind(("127.0.0.1", 0))  # bound, never listening: its port refuses every connection while held
        module._wait_http(f"http://127.0.0.1:{held.getsockname()[1]}/", timeout=60, process=server, log=log)


def test_the_web_server_command_passes_a_token_that_begins_with_a_dash():
    from minigrad_tui.cli import parse_args

    module = _script_module()
    argv = module.web_server_command("-DVkDaaN_1FNwKedC8ImTA")  # a token_urlsafe CI once drew
    assert argv[1:3] == ["-m", "minigrad_tui.app"]
    options = parse_args(argv[3:])
    assert (options.web, options.port, options.token) == (True, 0, "-DVkDaaN_1FNwKedC8ImTA")


def test_a_port_a_process_writes_is_waited_for_and_one_that_exits_first_is_reported(tmp_path):
    module = _script_module()
    told = tmp_path / "told.log"
    writer = subprocess.Popen(
        [sys.executable, "-c", f"import time; time.sleep(0.5); open({str(told)!r}, 'w').write('open http://h:41 in a')"]
    )
    assert module._told(told, r"open (http://\S+) in", writer, "the writer").group(1) == "http://h:41"
    writer.wait()
    quitter = subprocess.Popen([sys.executable, "-c", "raise SystemExit(4)"])
    with pytest.raises(SystemExit, match=r"the quitter exited \(4\) first"):
        module._told(tmp_path / "never.log", r"\d+", quitter, "the quitter")
