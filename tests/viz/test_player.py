"""Frames on disk and the HTML player: structure always, behaviour in headless Chromium when present."""

import html
import json
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import pytest

from minigrad.trace.describe import headline, step_text
from minigrad.viz.frames import parse_steps, write_frames
from minigrad.viz.notebook import movement
from minigrad.viz.options import Options
from minigrad.viz.player import _items, player_data, player_html, write_html
from minigrad.viz.steps import TraceIndex, graph_at_step

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
        self._in_data = tag == "script" and attrs.get("id") == "trace-data"

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
        active = [i for i, c in classes.items() if "state-active" in c and i.startswith("t")]
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
    for button in ("first", "prev", "play", "step", "next", "finish", "last", "zoom-in", "zoom-out", "zoom-fit"):
        assert ids[button][0] == "button"
    assert ids["slider"][0] == "input" and ids["slider"][1]["type"] == "range"
    for panel in ("diagram", "kind", "text", "details", "events", "counter"):
        assert panel in ids
    assert "<title>a*b + c</title>" in html
    data = json.loads(page.data_script)
    steps = data["steps"]
    assert [s["step"] for s in steps] == list(range(len(tr.events)))
    for s, ev in zip(steps, tr.events):
        assert s["kind"] == ev.kind and s["depth"] == ev.depth and s["pass"] == ev.pass_id
        assert s["text"] == headline(ev, tr)
    closure = next(s for s in steps if s["kind"] == "closure_called")
    assert "def backward" in closure["details"]
    # keyboard (the debugger's keys), slider, buttons and zoom are wired up
    for needle in ('"ArrowRight"', '"ArrowLeft"', '"Home"', '"End"', '"n"', '"s"', '"f"', '"+"', '"wheel"'):
        assert needle in html
    assert 'slider.addEventListener("input"' in html


def _replayed(data) -> list:
    """The state the page rebuilds at every step: the last full state, then the changes after it."""
    states, state = [], {}
    for s in data["steps"]:
        state = dict(s["items"]) if s["full"] else {**state, **s["items"]}
        states.append(state)
    return states


def test_each_step_replays_to_exactly_what_the_diagram_shows(example_trace):
    tr = example_trace
    options = Options()
    data = json.loads(json.dumps(player_data(tr, options=options)))
    index = TraceIndex(tr)
    for s, state in zip(data["steps"], _replayed(data)):
        expected = json.loads(json.dumps(_items(graph_at_step(tr, s["step"], options, index), options)))
        assert state == expected, f"step {s['step']}"
        scope = data["scopes"][s["scope"]]
        assert set(state) == set(scope["boxes"]) | set(scope["edges"])


def test_steps_store_only_what_changed(example_trace):
    data = player_data(example_trace)
    partial = [s for s in data["steps"] if not s["full"]]
    assert partial, "steps inside one scope carry changes only"
    changed = sum(len(s["items"]) for s in partial)
    whole = sum(len(data["scopes"][s["scope"]]["boxes"]) + len(data["scopes"][s["scope"]]["edges"]) for s in partial)
    assert changed < whole / 3
    assert len(data["scopes"]) < len(data["steps"]) / 3


def test_every_box_is_laid_out_once_per_scope_without_overlap(example_trace):
    for scope in player_data(example_trace)["scopes"]:
        boxes = list(scope["boxes"].values())
        for i, (x, y, w, h) in enumerate(boxes):
            assert w > 0 and h > 0
            for x2, y2, w2, h2 in boxes[i + 1 :]:
                assert x + w <= x2 + 0.5 or x2 + w2 <= x + 0.5 or y + h <= y2 + 0.5 or y2 + h2 <= y + 0.5


def test_a_toy_mlp_player_stays_small(tmp_path):
    import minigrad as mg
    from minigrad import nn
    from minigrad.trace import record

    mg.manual_seed(0)
    model = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, 1))
    opt = mg.optim.SGD(model.parameters(), lr=0.1)
    x, y = mg.randn(32, 2), mg.randn(32, 1)
    with record() as tr:
        for _ in range(3):
            opt.zero_grad()
            loss = ((model(x) - y) ** 2).mean()
            loss.backward()
            opt.step()
    path = write_html(tr, tmp_path / "mlp.html")
    size = os.path.getsize(path)
    assert size <= 2_000_000, f"the toy MLP player is {size / 1e6:.1f} MB"
    assert len(tr.events) > 100


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
    steps = json.loads(_page(html).data_script)["steps"]
    assert any("</script><b>" in s["text"] for s in steps)


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
    return m and html.unescape(m.group(1))


@pytest.mark.skipif(_chromium() is None, reason="needs a Chromium/Chrome binary")
def test_player_in_headless_chromium(tmp_path, example_trace):
    tr = example_trace
    path = write_html(tr, tmp_path / "run.html")
    browser = _chromium()
    dom = _dump_dom(browser, f"file://{path}#step=22")
    assert _panel(dom, "counter") == step_text(22, len(tr.events))
    assert _panel(dom, "text") == headline(tr.events[22], tr)
    assert re.search(r'<svg id="diagram"[^>]*><g><g class="edge"', dom)
    assert re.search(r'<g class="box" data-key="t\d+"><rect', dom)
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
      key("n"); at(); key("f"); at(); key("s"); at(); key("f"); at();
      var before = document.getElementById("diagram").getAttribute("viewBox");
      key("+");
      var after = document.getElementById("diagram").getAttribute("viewBox");
      document.body.setAttribute("data-zoom", before + "|" + after);
      document.body.setAttribute("data-log", log.join(","));
    </script></body>"""
    driven = tmp_path / "driven.html"
    driven.write_text(html.replace("</body>", driver), encoding="utf-8")
    dom = _dump_dom(browser, f"file://{driven}")
    last = len(tr.events) - 1
    log = re.search(r'data-log="([^"]*)"', dom).group(1).split(",")
    n = movement(tr, 7, "next")
    f = movement(tr, n, "finish")
    f2 = movement(tr, f + 1, "finish")
    assert log == ["1", "2", "1", str(last), str(last), "0", "0", "1", "7", str(n), str(f), str(f + 1), str(f2)]
    assert len({n, f, f + 1, f2}) == 4
    before, after = (list(map(float, v.split())) for v in re.search(r'data-zoom="([^"]*)"', dom).group(1).split("|"))
    assert after[2] < before[2] and after[3] < before[3]
