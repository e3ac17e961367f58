"""Rendering: SVG/PNG files are valid, save() picks the format, Jupyter display, big graphs."""

import xml.etree.ElementTree as ET

import numpy as np
import pytest

import minigrad as mg
from minigrad import viz
from tests.viz.helpers import label_text, parse, tensor_nodes

SVG_NS = "{http://www.w3.org/2000/svg}"


def _graph():
    a = mg.tensor([1.0, 2.0], requires_grad=True, name="a")
    b = mg.tensor([3.0, -1.0], requires_grad=True, name="b")
    loss = (a * b).tanh().sum()
    loss.backward(retain_graph=True)
    return a, b, loss


def test_svg_is_valid_xml_with_one_group_per_node():
    a, b, loss = _graph()
    d = viz.draw(loss)
    root = ET.fromstring(d.svg())
    assert root.tag == SVG_NS + "svg"
    ids = {g.get("id") for g in root.iter(SVG_NS + "g")}
    assert {f"t{a.id}", f"t{b.id}", f"t{loss.id}", f"o{loss.id}", "legend"} <= ids
    classes = {g.get("id"): g.get("class") for g in root.iter(SVG_NS + "g")}
    assert "role-param" in classes[f"t{a.id}"]
    texts = " ".join(t.text or "" for t in root.iter(SVG_NS + "text"))
    assert "grad [0.0296, -0.07065]" in texts


def test_png_is_a_real_image():
    _, _, loss = _graph()
    png = viz.draw(loss).png()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    assert width > 100 and height > 50


@pytest.mark.parametrize(
    "suffix, magic", [(".svg", b"<?xml"), (".png", b"\x89PNG"), (".pdf", b"%PDF"), (".dot", b"digraph")]
)
def test_save_picks_format_from_suffix(tmp_path, suffix, magic):
    _, _, loss = _graph()
    path = viz.draw(loss).save(tmp_path / f"g{suffix}")
    with open(path, "rb") as fh:
        assert fh.read().startswith(magic)


def test_save_errors(tmp_path):
    _, _, loss = _graph()
    d = viz.draw(loss)
    with pytest.raises(ValueError, match="can't tell the diagram format from"):
        d.save(tmp_path / "g.txt")
    with pytest.raises(ValueError, match="unsupported diagram format 'bmpx'"):
        d.save(tmp_path / "g.svg", format="bmpx")
    d.save(tmp_path / "g.out", format="svg")
    assert (tmp_path / "g.out").read_bytes().startswith(b"<?xml")


def test_jupyter_display():
    _, _, loss = _graph()
    d = viz.draw(loss)
    bundle = d._repr_mimebundle_()
    assert bundle["image/svg+xml"].lstrip().startswith("<?xml")
    assert bundle["text/plain"] == "<Diagram: 5 tensors, 4 edges>"
    assert d._repr_svg_() == bundle["image/svg+xml"]
    assert set(d._repr_mimebundle_(include=["text/plain"])) == {"text/plain"}
    assert set(d._repr_mimebundle_(exclude=["text/plain"])) == {"image/svg+xml"}


def _mlp_like(n_layers: int, width: int):
    """A graph of about n_layers * width * 4 tensors: sums of products of scalars."""
    xs = [mg.tensor(float(i), requires_grad=True) for i in range(width)]
    for _ in range(n_layers):
        ws = [mg.tensor(0.5, requires_grad=True) for _ in range(width)]
        xs = [(x * w + xs[(i + 1) % width]).tanh() for i, (x, w) in enumerate(zip(xs, ws))]
    return xs


def test_thousand_node_graph_renders_every_node():
    # Its speed is measured in the benchmarks (bench W7), not asserted here.
    outs = _mlp_like(25, 10)  # 10 inputs + 25 * 10 * (w, mul, add, tanh) = 1010 tensors
    d = viz.draw(outs, max_nodes=None)
    assert len(d.graph.nodes) == 1010
    svg = d.svg()
    assert svg.count('class="node tensor') == 1010


def test_ten_thousand_nodes_are_elided():
    x = mg.tensor(1.0, requires_grad=True, name="x")
    y = x
    for _ in range(5000):
        y = y * 1.0001 + 0.0
    d = viz.draw(y)  # a 10 001-tensor chain, default max_nodes=500
    svg = d.svg()
    nodes, edges = parse(d.source)
    assert len(tensor_nodes(nodes)) == 500
    assert label_text(nodes["elided"]) == "… 9,501 nodes not shown"
    oldest = min(int(k[1:]) for k in tensor_nodes(nodes))
    assert ("elided", f"o{oldest}") in [(t, h) for t, h, _ in edges]
    assert f"t{y.id}" in nodes and f"t{x.id}" not in nodes
    assert "9,501 nodes not shown" in svg
    d = viz.draw(y, max_nodes=50, op_nodes=False)
    nodes, edges = parse(d.source)
    assert len(tensor_nodes(nodes)) == 50 and label_text(nodes["elided"]) == "… 9,951 nodes not shown"


def test_default_limit_keeps_wide_graphs_small():
    parts = [mg.tensor(np.ones(2), requires_grad=True) * float(i) for i in range(3000)]
    total = mg.stack(parts).sum()
    d = viz.draw(total)
    assert len(d.graph.nodes) == 500 and d.graph.hidden == 6002 - 500
    assert "not shown" in d.svg()


def test_a_graphviz_that_cannot_load_says_what_to_install(monkeypatch):
    import builtins
    import sys

    real_import = builtins.__import__

    def no_glib(name, *args, **kwargs):
        if name == "pygraphviz":
            raise ImportError("libgobject-2.0.so.0: cannot open shared object file: No such file or directory")
        return real_import(name, *args, **kwargs)

    monkeypatch.delitem(sys.modules, "pygraphviz", raising=False)
    monkeypatch.setattr(builtins, "__import__", no_glib)
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(ImportError, match=r"Graphviz could not be loaded \(libgobject-2\.0.*apt install libglib2\.0-0"):
        viz.draw(x * 2).svg()
    with pytest.raises(ImportError, match="Graphviz could not be loaded"):
        viz.layout_graph({"a": (1, 1), "b": (1, 1)}, [("a", "b")])
