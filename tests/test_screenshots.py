"""The README's screenshots are made by a command: it runs and writes all three."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "docs" / "make_screenshots.py"


def test_the_screenshot_command_writes_the_three_views(tmp_path):
    for module in ("anywidget", "textual_serve"):
        pytest.importorskip(module)
    if not any(shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")):
        pytest.skip("needs a Chromium/Chrome binary")
    spec = importlib.util.spec_from_file_location("make_screenshots", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
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
    spec = importlib.util.spec_from_file_location("make_screenshots", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    log = tmp_path / "server.log"
    with log.open("wb") as sink:
        server = subprocess.Popen([sys.executable, "-c", "print('address in use'); raise SystemExit(3)"], stdout=sink)
    with pytest.raises(SystemExit, match=r"never answered: its server exited \(3\)\naddress in use"):
        module._wait_http(f"http://127.0.0.1:{module._free_port()}/", timeout=60, process=server, log=log)


def test_the_web_server_command_passes_a_token_that_begins_with_a_dash():
    from minigrad_tui.cli import parse_args

    spec = importlib.util.spec_from_file_location("make_screenshots", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    argv = module.web_server_command(8123, "-DVkDaaN_1FNwKedC8ImTA")  # a token_urlsafe CI once drew
    assert argv[1:3] == ["-m", "minigrad_tui.app"]
    options = parse_args(argv[3:])
    assert (options.web, options.port, options.token) == (True, 8123, "-DVkDaaN_1FNwKedC8ImTA")
