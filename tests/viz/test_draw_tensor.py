"""draw(tensor): the DOT text of small known graphs, asserted structurally."""

import subprocess
import sys

import numpy as np
import pytest

import minigrad as mg
from minigrad import viz
from tests.viz.helpers import label_text, parse, tensor_nodes


def _abc():
    a = mg.tensor(2.0, requires_grad=True, name="a")
    b = mg.tensor(-3.0, requires_grad=True, name="b")
    c = mg.tensor(10.0, name="c")
    out = a * b + c
    out.name = "out"
    return a, b, c, out


def test_a_times_b_plus_c_structure():
    a, b, c, out = _abc()
    nodes, edges = parse(viz.draw(out, legend=False).source)
    prod = out.parents[0]
    assert set(nodes) == {f"t{t.id}" for t in (a, b, c, prod, out)} | {f"o{prod.id}", f"o{out.id}"}
    pairs = sorted((t, h) for t, h, _ in edges)
    expected = sorted(
        [
            (f"t{a.id}", f"o{prod.id}"),
            (f"t{b.id}", f"o{prod.id}"),
            (f"o{prod.id}", f"t{prod.id}"),
            (f"t{prod.id}", f"o{out.id}"),
            (f"t{c.id}", f"o{out.id}"),
            (f"o{out.id}", f"t{out.id}"),
        ]
    )
    assert pairs == expected
    assert label_text(nodes[f"o{prod.id}"]) == "mul"
    assert label_text(nodes[f"o{out.id}"]) == "add"
    assert label_text(nodes[f"t{a.id}"]) == "a | scalar | data 2"
    assert label_text(nodes[f"t{prod.id}"]) == f"mul#{prod.id} | scalar | data -6"
    assert label_text(nodes[f"t{out.id}"]) == "out | scalar | data 4"


def test_roles_get_their_classes_and_colours():
    a, b, c, out = _abc()
    nodes, _ = parse(viz.draw(out).source)
    prod = out.parents[0]
    role = {k: v["class"].split()[1] for k, v in tensor_nodes(nodes).items()}
    assert role == {
        f"t{a.id}": "role-param",
        f"t{b.id}": "role-param",
        f"t{c.id}": "role-input",
        f"t{prod.id}": "role-intermediate",
        f"t{out.id}": "role-output",
    }
    fills = {nodes[f"t{t.id}"]["fillcolor"] for t in (a, c, prod, out)}
    assert len(fills) == 4, "each role has its own colour"
    legend = label_text(nodes["legend"])
    for word in ("leaf parameter", "input", "intermediate", "output"):
        assert word in legend


def test_grad_shown_after_backward():
    a, b, c, out = _abc()
    out.backward()
    nodes, _ = parse(viz.draw(out).source)
    assert label_text(nodes[f"t{a.id}"]) == "a | scalar | data 2 | grad -3"
    assert label_text(nodes[f"t{b.id}"]) == "b | scalar | data -3 | grad 2"
    assert "grad" not in label_text(nodes[f"t{c.id}"])


def test_seed_example_sum_of_squares():
    # lucid's example: y = sum(x * x) with x = [1, -2, 3]; dx = [2, -4, 6]
    x = mg.tensor([1.0, -2.0, 3.0], requires_grad=True, name="x")
    y = (x * x).sum()
    (dx,) = mg.autograd.grad(y, x, retain_graph=True)
    sq = y.parents[0]
    nodes, edges = parse(viz.draw(y, fields=("name", "shape", "data")).source)
    assert sorted(tensor_nodes(nodes)) == sorted([f"t{x.id}", f"t{sq.id}", f"t{y.id}"])
    # x feeds mul twice (x * x): two edges, one per argument
    assert [(t, h) for t, h, _ in edges].count((f"t{x.id}", f"o{sq.id}")) == 2
    assert label_text(nodes[f"t{x.id}"]) == "x | [3] | data [1, -2, 3]"
    assert label_text(nodes[f"t{sq.id}"]) == f"mul#{sq.id} | [3] | data [1, 4, 9]"
    assert label_text(nodes[f"o{y.id}"]) == "sum"
    np.testing.assert_allclose(dx.numpy(), [2.0, -4.0, 6.0])


def test_seed_example_two_outputs():
    # lucid's multiple-output example: out1 = sum(a * b), out2 = sum(a * a)
    a = mg.tensor([2.0, -1.0, 0.5], requires_grad=True, name="a")
    b = mg.tensor([3.0, 4.0, -2.0], requires_grad=True, name="b")
    out1 = (a * b).sum()
    out2 = (a * a).sum()
    nodes, edges = parse(viz.draw([out1, out2]).source)
    outputs = [k for k, v in tensor_nodes(nodes).items() if "role-output" in v["class"]]
    assert sorted(outputs) == sorted([f"t{out1.id}", f"t{out2.id}"])
    heads_from_a = sorted(h for t, h, _ in edges if t == f"t{a.id}")
    assert heads_from_a == sorted([f"o{out1.parents[0].id}", f"o{out2.parents[0].id}", f"o{out2.parents[0].id}"])
    assert len(tensor_nodes(nodes)) == 6


def test_merged_op_mode_puts_op_in_the_box():
    a, b, c, out = _abc()
    nodes, edges = parse(viz.draw(out, op_nodes=False, fields=("name", "op", "data")).source)
    assert not [k for k in nodes if k.startswith("o")]
    prod = out.parents[0]
    assert label_text(nodes[f"t{prod.id}"]) == f"mul#{prod.id} | mul | data -6"
    assert sorted((t, h) for t, h, _ in edges) == sorted(
        [
            (f"t{a.id}", f"t{prod.id}"),
            (f"t{b.id}", f"t{prod.id}"),
            (f"t{prod.id}", f"t{out.id}"),
            (f"t{c.id}", f"t{out.id}"),
        ]
    )


def test_fields_dtype_device_and_rankdir():
    a, b, c, out = _abc()
    d = viz.draw(out, fields=("name", "shape", "dtype", "device"), rankdir="TB")
    nodes, _ = parse(d.source)
    assert label_text(nodes[f"t{a.id}"]) == "a | scalar float32 cpu"
    assert 'rankdir="TB"' in d.source


def test_captured_values_are_shown():
    a = mg.tensor([1.0, 2.0], requires_grad=True, name="a")
    y = (a * 2.5).tanh()
    nodes, _ = parse(viz.draw(y, captured=True).source)
    scaled = y.parents[0]
    assert label_text(nodes[f"o{scaled.id}"]) == "mul | b = 2.5"
    assert label_text(nodes[f"o{y.id}"]) == "tanh | out_ref = this op's output"
    a2 = mg.tensor([1.0, 2.0], requires_grad=True, name="a2")
    w = mg.tensor([3.0, 4.0], requires_grad=True, name="w")
    z = a2 * w
    nodes, _ = parse(viz.draw(z, captured=True, op_nodes=False).source)
    rows = label_text(nodes[f"t{z.id}"]).split(" | ")
    assert rows[:4] == [f"mul#{z.id}", "mul", "[2]", "data [3, 8]"]
    assert {"a = tensor a2", "b = tensor w"} <= set(rows[4:])  # the closure captured both operands


def test_large_values_are_summarised_and_precision_applies():
    x = mg.tensor(np.arange(100, dtype=np.float64) / 3, requires_grad=True, name="x")
    y = x.sum()
    nodes, _ = parse(viz.draw(y, precision=3).source)
    assert label_text(nodes[f"t{x.id}"]) == "x | [100] | data mean 16.5 std 9.62 min 0 max 33"
    assert label_text(nodes[f"t{y.id}"]) == f"sum#{y.id} | scalar | data 1.65e+03"
    bad = mg.tensor([np.nan] + [1.0] * 9, name="bad")
    nodes, _ = parse(viz.draw(bad).source)
    assert "1 nan" in label_text(nodes[f"t{bad.id}"])


def test_freed_graph_is_marked():
    a = mg.tensor(2.0, requires_grad=True, name="a")
    y = a.exp()
    y.backward()
    nodes, _ = parse(viz.draw(y).source)
    assert label_text(nodes[f"o{y.id}"]) == "exp (freed)"
    assert "dashed" in nodes[f"o{y.id}"]["style"]


def test_title_and_special_characters_are_escaped():
    a = mg.tensor(1.0, requires_grad=True, name='<a & "b">')
    d = viz.draw(a * 2.0, title='loss "L"')
    nodes, _ = parse(d.source)
    assert label_text(nodes[f"t{a.id}"]).startswith('<a & "b">')
    assert "svg" in d.svg()


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"rankdir": "XY"}, "rankdir must be one of"),
        ({"fields": ("name", "colour")}, "unknown field(s) 'colour'"),
        ({"max_nodes": 0}, "max_nodes must be a positive int"),
        ({"precision": 0}, "precision must be an int"),
    ],
)
def test_bad_options_raise_clear_errors(kwargs, message):
    a = mg.tensor(1.0, requires_grad=True)
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        viz.draw(a * 2.0, **kwargs)


def test_bad_root_raises():
    with pytest.raises(TypeError, match="expected a Tensor, a list of Tensors or a recorded Trace, got int"):
        viz.draw(3)
    a = mg.tensor(1.0, requires_grad=True)
    with pytest.raises(TypeError, match="step= applies to a recorded trace"):
        viz.draw(a, step=2)


def test_import_minigrad_does_not_import_viz_or_pygraphviz():
    code = "import sys, minigrad; print('pygraphviz' in sys.modules, 'minigrad.viz' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]
    code = "import sys, minigrad.viz; print('pygraphviz' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False"]
