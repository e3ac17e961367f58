"""``minigrad render`` through minigrad.cli.main."""

import json
import os
import xml.etree.ElementTree as ET

from minigrad.cli import main
from tests.viz.helpers import label_text, parse

SVG_NS = "{http://www.w3.org/2000/svg}"


def test_step_to_svg(tmp_path, trace_file, example_trace, capsys):
    out = tmp_path / "step.svg"
    assert main(["render", str(trace_file), "--step", "22", "-o", str(out)]) == 0
    root = ET.parse(out).getroot()
    assert root.tag == SVG_NS + "svg"
    title = " ".join(t.text or "" for t in root.iter(SVG_NS + "text"))
    assert "step 22 of" in title
    assert "wrote step 22" in capsys.readouterr().out


def test_step_to_png_dot_and_last_step_by_default(tmp_path, trace_file, example_trace):
    png = tmp_path / "s.png"
    assert main(["render", str(trace_file), "-o", str(png)]) == 0
    assert png.read_bytes()[:4] == b"\x89PNG"
    dot = tmp_path / "s.dot"
    assert main(["render", str(trace_file), "--step", "-1", "-o", str(dot), "--rankdir", "TB", "--merge-ops"]) == 0
    source = dot.read_text()
    assert 'rankdir="TB"' in source
    nodes, _ = parse(source)
    assert not [n for n in nodes if n.startswith("o")]
    assert f"step {len(example_trace.events) - 1} of" in source


def test_options_reach_the_diagram(tmp_path, trace_file, example_trace):
    dot = tmp_path / "s.dot"
    L = example_trace.node("L").id
    k = next(e.seq for e in example_trace.events if e.kind == "closure_called" and e.node == L)
    args = ["render", str(trace_file), "--step", str(k), "-o", str(dot), "--captured", "--fields", "name,dtype"]
    assert main([*args, "--no-legend", "--precision", "2"]) == 0
    nodes, _ = parse(dot.read_text())
    assert "legend" not in nodes
    assert label_text(nodes[f"t{L}"]) == "L | float32"
    assert label_text(nodes[f"o{L}"]) == "tanh | out_ref = this op's output"


def test_frames_directory(tmp_path, trace_file, example_trace, capsys):
    out = tmp_path / "frames"
    assert main(["render", str(trace_file), "--frames", str(out)]) == 0
    names = sorted(os.listdir(out))
    assert len(names) == len(example_trace.events)
    assert names[0] == "step_0000.svg"
    assert f"wrote {len(names)} frames" in capsys.readouterr().out
    out2 = tmp_path / "some"
    assert main(["render", str(trace_file), "--frames", str(out2), "--steps", "3:5", "--format", "png"]) == 0
    assert sorted(os.listdir(out2)) == ["step_0003.png", "step_0004.png"]


def test_html_player(tmp_path, trace_file, example_trace):
    out = tmp_path / "run.html"
    assert main(["render", str(trace_file), "--html", str(out), "--title", "lesson 3"]) == 0
    html = out.read_text(encoding="utf-8")
    assert "<title>lesson 3</title>" in html
    opening = '<script type="application/json" id="trace-data">'
    start = html.index(opening) + len(opening)
    steps = json.loads(html[start : html.index("</script>", start)])["steps"]
    assert len(steps) == len(example_trace.events)


def test_errors(tmp_path, trace_file, capsys):
    assert main(["render", str(trace_file)]) == 2
    assert "nothing to write" in capsys.readouterr().err
    assert main(["render", str(tmp_path / "missing.jsonl"), "-o", str(tmp_path / "x.svg")]) == 1
    assert "no such trace file" in capsys.readouterr().err
    bad = tmp_path / "bad.jsonl"
    bad.write_text("hello\n")
    assert main(["render", str(bad), "-o", str(tmp_path / "x.svg")]) == 1
    assert "not a minigrad trace" in capsys.readouterr().err
    assert main(["render", str(trace_file), "--step", "9999", "-o", str(tmp_path / "x.svg")]) == 1
    assert "step 9999 out of range" in capsys.readouterr().err
    assert main(["render", str(trace_file), "-o", str(tmp_path / "x.txt")]) == 1
    assert "can't tell the diagram format" in capsys.readouterr().err
    assert main(["render", str(trace_file), "-o", str(tmp_path / "x.svg"), "--rankdir", "up"]) == 2
    assert "rankdir must be one of" in capsys.readouterr().err
    assert main(["render", str(trace_file), "--frames", str(tmp_path / "f"), "--steps", "x"]) == 1
    assert "steps must look like" in capsys.readouterr().err
