"""Frames on disk and the HTML player: structure always, behaviour in headless Chromium when present."""

import json
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import pytest

from minigrad.viz.describe import describe_event
from minigrad.viz.frames import parse_steps, write_frames
from minigrad.viz.player import player_html, write_html

SVG_NS = "{http://www.w3.org/2000/svg}"


class _Page(HTMLParser):
    """Collects tags (with attributes) and the text of the JSON data script."""

    def __init__(self):
        super().__init__()
        self.tags = []
        self.data_script = None
        self._in_data = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append((tag, attrs))
        self._in_data = tag == "script" and attrs.get("id") == "frames-data"

    def handle_endtag(self, tag):
        self._in_data = False

    def handle_data(self, data):
        if self._in_data:
            self.data_script = (self.data_script or "") + data


def _page(html: str) -> _Page:
    p = _Page()
    p.feed(html)
    return p


def test_write_frames_one_valid_svg_per_step(tmp_path, example_trace):
    tr = example_trace
    paths = write_frames(tr, tmp_path / "frames")
    assert len(paths) == len(tr.events)
    assert [p.rsplit("/", 1)[1] for p in paths[:2]] == ["step_0000.svg", "step_0001.svg"]
    for k, path in enumerate(paths):
        root = ET.parse(path).getroot()
        assert root.tag == SVG_NS + "svg"
        state = tr.state_at(k)
        classes = {g.get("id"): g.get("class") or "" for g in root.iter(SVG_NS + "g")}
        if state.current_edge is not None:
            assert any("edge-active" in c for c in classes.values()), k
        active = [i for i, c in classes.items() if "state-current" in c and i.startswith("t")]
        if state.passes and state.nodes.get(state.current_node) and state.nodes[state.current_node].status == "active":
            assert active == [f"t{state.current_node}"], k


def test_write_frames_png_and_a_range(tmp_path, example_trace):
    paths = write_frames(example_trace, tmp_path, steps=range(10, 13), fmt="png")
    assert [p.rsplit("/", 1)[1] for p in paths] == ["step_0010.png", "step_0011.png", "step_0012.png"]
    for p in paths:
        with open(p, "rb") as fh:
            assert fh.read(8) == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(ValueError, match="unsupported frame format 'bmp'"):
        write_frames(example_trace, tmp_path, fmt="bmp")


def test_parse_steps():
    assert parse_steps(None, 5) == range(5)
    assert parse_steps("2:4", 10) == range(2, 4)
    assert parse_steps(":3", 10) == range(0, 3)
    assert parse_steps("-2:", 10) == range(8, 10)
    assert parse_steps("-1", 10) == range(9, 10)
    with pytest.raises(ValueError, match="steps must look like 'K' or 'START:STOP', got 'a:b'"):
        parse_steps("a:b", 10)
    with pytest.raises(IndexError, match="step 10 out of range for a trace of 10 events"):
        parse_steps("10", 10)


def test_html_structure(tmp_path, example_trace):
    tr = example_trace
    path = write_html(tr, tmp_path / "run.html", title="a*b + c")
    html = open(path, encoding="utf-8").read()
    page = _page(html)
    ids = {a.get("id"): (t, a) for t, a in page.tags if a.get("id")}
    for button in ("first", "prev", "play", "next", "last"):
        assert ids[button][0] == "button"
    assert ids["slider"][0] == "input" and ids["slider"][1]["type"] == "range"
    for panel in ("diagram", "kind", "text", "details", "events", "counter"):
        assert panel in ids
    assert "<title>a*b + c</title>" in html
    frames = json.loads(page.data_script)
    assert [f["step"] for f in frames] == list(range(len(tr.events)))
    for f, ev in zip(frames, tr.events):
        assert f["kind"] == ev.kind
        assert f["text"] == describe_event(tr, ev)
        svg = ET.fromstring(f["svg"])  # inline SVG without prolog is a well-formed element
        assert svg.tag == SVG_NS + "svg"
        assert not f["svg"].startswith("<?xml")
    closure = next(f for f in frames if f["kind"] == "closure_called")
    assert "def backward" in closure["details"]
    # keyboard, slider and buttons are wired up
    for needle in ('"ArrowRight"', '"ArrowLeft"', '"Home"', '"End"', 'slider.addEventListener("input"'):
        assert needle in html


def test_html_is_self_contained(tmp_path, example_trace):
    html = player_html(example_trace)
    page = _page(html)
    external = [
        (t, k, v)
        for t, a in page.tags
        for k, v in a.items()
        if k in ("src", "href", "xlink:href") and v and not v.startswith("#")
    ]
    assert external == []
    assert not re.search(r"<(link|img|iframe)\b", html)
    assert "@import" not in html and "url(" not in html
    assert len([t for t, a in page.tags if t == "script"]) == 2  # the JSON data and the player code
    without_namespaces = re.sub(r'xmlns(:\w+)?="[^"]*"|"-//W3C//[^"]*"|http://www\.w3\.org/[^"\s]*', "", html)
    assert "http://" not in without_namespaces and "https://" not in without_namespaces


def test_script_closing_tags_in_names_cannot_break_the_page(tmp_path):
    import minigrad as mg
    from minigrad.trace import record

    with record() as tr:
        a = mg.tensor(1.0, requires_grad=True, name="</script><b>")
        (a * 2.0).backward()
    html = player_html(tr)
    assert html.count("</script>") == 2
    frames = json.loads(_page(html).data_script)
    assert any("</script><b>" in f["text"] for f in frames)


def _chromium():
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def _dump_dom(browser, url):
    cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--dump-dom", url]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120).stdout


def _panel(dom, panel_id):
    m = re.search(rf'id="{panel_id}"[^>]*>(.*?)<', dom, re.S)
    return m and m.group(1)


@pytest.mark.skipif(_chromium() is None, reason="needs a Chromium/Chrome binary")
def test_player_in_headless_chromium(tmp_path, example_trace):
    tr = example_trace
    path = write_html(tr, tmp_path / "run.html")
    browser = _chromium()
    dom = _dump_dom(browser, f"file://{path}#step=22")
    assert _panel(dom, "counter") == f"step 22 (23 of {len(tr.events)})"
    assert _panel(dom, "text") == describe_event(tr, tr.events[22])
    assert re.search(r'<div id="diagram"><svg', dom)
    # drive it: arrow keys, a button and the slider, then record where it ended up
    html = open(path, encoding="utf-8").read()
    driver = """<script>
      function key(k) { document.dispatchEvent(new KeyboardEvent("keydown", {key: k, bubbles: true})); }
      var log = [];
      function at() { log.push(document.getElementById("counter").textContent.split(" ")[1]); }
      key("ArrowRight"); at(); key("ArrowRight"); at(); key("ArrowLeft"); at();
      key("End"); at(); key("ArrowRight"); at(); key("Home"); at(); key("ArrowLeft"); at();
      document.getElementById("next").click(); at();
      var s = document.getElementById("slider"); s.value = "7"; s.dispatchEvent(new Event("input")); at();
      document.body.setAttribute("data-log", log.join(","));
    </script></body>"""
    driven = tmp_path / "driven.html"
    driven.write_text(html.replace("</body>", driver), encoding="utf-8")
    dom = _dump_dom(browser, f"file://{driven}")
    last = len(tr.events) - 1
    log = re.search(r'data-log="([^"]*)"', dom).group(1).split(",")
    assert log == ["1", "2", "1", str(last), str(last), "0", "0", "1", "7"]
