"""Whole values as text: NumPy-style indices parsed (never run), arrays printed with where each line lies,
each event's values named, and ``minigrad trace show --values``."""

import numpy as np
import pytest

import minigrad as mg
from minigrad.cli import main
from minigrad.trace import record
from minigrad.trace.describe import event_values
from minigrad.trace.values import VIEW_LIMIT, indexed_lines, parse_index


@pytest.mark.parametrize(
    ("text", "index"),
    [
        ("", ()),
        ("0:10, :", (slice(0, 10), slice(None))),
        ("[2:]", (slice(2, None),)),
        ("-1, ::2", (-1, slice(None, None, 2))),
        ("..., 0", (Ellipsis, 0)),
        (" 3 ", (3,)),
    ],
)
def test_an_index_is_parsed_as_numpy_reads_it(text, index):
    assert parse_index(text, 2) == index
    a = np.arange(20.0).reshape(4, 5)
    np.testing.assert_array_equal(a[parse_index(text, 2)], a[index])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("__import__('os').system('x')", "expected an integer"),
        ("1e3", "expected an integer"),
        ("len(a)", "expected an integer"),
        ("::0", "slice step cannot be zero"),
        ("1:2:3:4", "at most start:stop:step"),
        ("0, 0, 0", "too many indices for array: array is 2-dimensional, but 3 were indexed"),
        ("..., ...", "single ellipsis"),
    ],
)
def test_anything_else_is_refused_naming_what_was_wrong(text, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        parse_index(text, 2)


def test_each_line_says_where_its_values_lie():
    a = np.arange(12, dtype=np.float32).reshape(3, 4) / 4
    assert indexed_lines(a, width=80) == [
        "[0, 0:4] 0.   0.25 0.5  0.75",
        "[1, 0:4] 1.   1.25 1.5  1.75",
        "[2, 0:4] 2.   2.25 2.5  2.75",
    ]
    # a narrow view splits each row; an index keeps the indices of the whole array
    assert indexed_lines(a, width=20)[:2] == ["[0, 0:2] 0.   0.25", "[0, 2:4] 0.5  0.75"]
    assert indexed_lines(a, 80, parse_index("1:3, ::2", 2)) == ["[1, 0:3:2] 1.  1.5", "[2, 0:3:2] 2.  2.5"]
    assert indexed_lines(a, 80, parse_index("..., -1", 2)) == ["[0:3, 3] 0.75 1.75 2.75"]
    assert indexed_lines(a, 80, parse_index("2, 1", 2)) == ["[2, 1]  2.25"]
    assert indexed_lines(np.float64(0.5)) == ["0.5"]
    with pytest.raises(IndexError):
        indexed_lines(a, 80, parse_index("5", 2))


def test_ten_thousand_values_print_every_one():
    a = np.arange(VIEW_LIMIT, dtype=np.float64).reshape(100, 100)
    lines = indexed_lines(a, width=100)
    words = [w for line in lines for w in line.split("]", 1)[1].split()]
    assert len(words) == VIEW_LIMIT and float(words[-1]) == 9999
    assert lines[-1].startswith("[99, ")


def _trace():
    a = mg.tensor([[2.0, -1.0, 0.5], [1.0, 0.0, 3.0]], requires_grad=True, name="a")
    with record() as tr:
        out = a.tanh()
        out.sum().backward()
    return tr


def test_each_event_names_its_values():
    tr = _trace()
    rule = next(e for e in tr.events if e.kind == "closure_called" and tr.nodes[e.node].op == "tanh")
    named = dict(event_values(rule, tr))
    assert [w.split(" (")[0] for w in named] == ["gradient in", "captured out", "returned for a"]
    np.testing.assert_allclose(named["returned for a"].values, 1 - np.tanh(tr.node("a").data.values) ** 2, rtol=1e-6)
    acc = next(e for e in tr.events if e.kind == "grad_accumulated")
    assert [w for w, _ in event_values(acc, tr)] == ["contribution", "after"]  # no before: the first one


def test_trace_show_values_prints_every_recorded_value(tmp_path, capsys):
    path = tmp_path / "run.jsonl"
    _trace().save(path)
    assert main(["trace", "show", str(path), "--values", "--kind", "closure_called"]) == 0
    out = capsys.readouterr().out
    assert "returned for a, float32[2, 3]:" in out
    assert "[1, 0:3] 0.41997433 1.         0.009866" in out  # 1 - tanh(a)**2, in NumPy's float32 digits


def test_trace_show_values_says_when_only_a_summary_was_kept(tmp_path, capsys):
    a = mg.tensor(np.linspace(-1, 1, 50), requires_grad=True, name="a")
    with record(max_values=10) as tr:
        (a * a).sum().backward()
    path = tmp_path / "run.jsonl"
    tr.save(path)
    assert main(["trace", "show", str(path), "--values", "--kind", "closure_called"]) == 0
    assert "was summarised (more values than the recorder's max_values)" in capsys.readouterr().out
