"""Trace.save/Trace.load: lossless, compact JSON Lines with a schema version, clear errors."""

import base64
import gzip
import json
import zlib

import numpy as np
import pytest

import minigrad as mg
from minigrad.trace import SCHEMA_VERSION, Snapshot, Trace, TraceFormatError, record, snapshot
from minigrad.trace.files import checked_record

pytestmark = pytest.mark.filterwarnings("ignore:divide by zero:RuntimeWarning")


def _recorded(max_values=1024):
    with record(max_values=max_values, meta={"run": "test"}) as tr:
        a = mg.tensor([1.0, 2.0], requires_grad=True)
        b = mg.tensor(np.arange(12.0).reshape(3, 4), dtype=mg.float64, requires_grad=True)
        h = mg.tensor([0.5, 1.5], dtype=mg.float16)
        c = (b * 2).sum() + (a * a).sum() + h.float().sum()
        (ga,) = mg.autograd.grad(c, a, retain_graph=True)
        c.backward()
        z = mg.tensor([0.0, 4.0], requires_grad=True)
        z.sqrt().sum().backward()
    return tr


@pytest.mark.parametrize("max_values,name", [(1024, "run.jsonl"), (3, "run.jsonl"), (1024, "run.jsonl.gz")])
def test_round_trip_is_lossless(tmp_path, max_values, name):
    tr = _recorded(max_values)
    path = tmp_path / name
    tr.save(path)
    back = Trace.load(path)
    assert back.events == tr.events
    assert back.nodes == tr.nodes
    assert back.meta == {"run": "test"}
    for k in (0, len(tr) // 2, len(tr) - 1):
        assert back.state_at(k) == tr.state_at(k)
    inf_grad = [e for e in back.events if e.kind == "node_entered" and e.grad.has_nonfinite()]
    assert inf_grad, "the sqrt(0) gradient is infinite and must survive the round trip"
    text = gzip.decompress(path.read_bytes()).decode() if name.endswith(".gz") else path.read_text()
    header = _unchecked(text.splitlines())[0]
    assert header["format"] == "minigrad-trace" and header["version"] == SCHEMA_VERSION == 3


def _unchecked(lines) -> list:
    """The header and events of a version 3 file's lines, without their checksums."""
    records = [json.loads(line) for line in lines]
    return [records[0]["header"]] + [r["event"] for r in records[1:]]


def _as_version_1(value):
    """A version 2 JSON value rewritten as version 1 wrote it (values as nested lists)."""
    if isinstance(value, list):
        return [_as_version_1(v) for v in value]
    if not isinstance(value, dict):
        return value
    if "b64" in value:
        dtype = np.dtype(value["dtype"]).newbyteorder("<")
        arr = np.frombuffer(base64.b64decode(value["b64"]), dtype=dtype).reshape(value["shape"])
        return {**{k: v for k, v in value.items() if k != "b64"}, "values": arr.tolist()}
    return {k: _as_version_1(v) for k, v in value.items()}


def test_version_1_files_still_load(tmp_path):
    tr = _recorded()
    path = tmp_path / "run.jsonl"
    tr.save(path)
    lines = _unchecked(path.read_text().splitlines())
    lines[0]["version"] = 1
    old = tmp_path / "old.jsonl"
    old.write_text("\n".join(json.dumps(_as_version_1(d)) for d in lines) + "\n")
    assert '"values"' in old.read_text() and '"b64"' not in old.read_text()
    back = Trace.load(old)
    assert back.events == tr.events
    assert back.state_at(-1) == tr.state_at(-1)


def test_snapshot_json_keeps_dtype_and_exact_values():
    for arr in (
        np.array([0.1, -1e-30, np.nan, np.inf], dtype=np.float32),
        np.array(3, dtype=np.int64),
        np.array([[True, False]]),
        np.array([1.0009765625, 65504.0], dtype=np.float16),
        np.random.default_rng(0).standard_normal((2, 3)),
    ):
        snap = snapshot(arr)
        back = Snapshot.from_json(json.loads(json.dumps(snap.to_json())))
        assert back == snap
        assert back.values.dtype == arr.dtype and not back.values.flags.writeable
        np.testing.assert_array_equal(back.values, arr)


def _saved_lines(tmp_path):
    tr = _recorded()
    path = tmp_path / "run.jsonl"
    tr.save(path)
    return path, path.read_text().splitlines()


def test_wrong_version_names_line_one(tmp_path):
    path, lines = _saved_lines(tmp_path)
    header = _unchecked(lines)[0]
    header["version"] = SCHEMA_VERSION + 1
    path.write_text("\n".join([checked_record("header", header).decode().strip()] + lines[1:]) + "\n")
    with pytest.raises(TraceFormatError, match=r"line 1: trace schema version 4 is not supported"):
        Trace.load(path)


def test_not_a_trace(tmp_path):
    path = tmp_path / "x.jsonl"
    path.write_text('{"hello": 1}\n')
    with pytest.raises(TraceFormatError, match="line 1: not a minigrad trace"):
        Trace.load(path)
    path.write_text("garbage\n")
    with pytest.raises(TraceFormatError, match="line 1"):
        Trace.load(path)


@pytest.mark.parametrize(
    "damage",
    [
        lambda line: line[: len(line) // 2],
        lambda line: line.replace('"kind":"', '"kind":"no_such_'),
        lambda line: json.dumps({**json.loads(line), "seq": 999}),
        lambda line: line.replace('"node"', '"nod"', 1),
    ],
)
def test_damaged_line_is_named(tmp_path, damage):
    path, lines = _saved_lines(tmp_path)
    idx = next(i for i, line in enumerate(lines) if '"kind":"node_entered"' in line)
    lines[idx] = damage(lines[idx])
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(TraceFormatError, match=rf"line {idx + 1}: damaged event"):
        Trace.load(path)


def test_truncated_file(tmp_path):
    path, lines = _saved_lines(tmp_path)
    path.write_text("\n".join(lines[:-3]) + "\n")
    with pytest.raises(TraceFormatError, match="truncated"):
        Trace.load(path)


@pytest.mark.slow
def test_w2_trace_file_size_is_bounded(tmp_path):
    from bench.workloads import w2_mlp as w2

    params = w2.params(False)
    run, _ = w2.build_minigrad(*w2.problem(params))
    with record() as tr:
        run()
    assert sum(e.kind == "pass_started" for e in tr.events) == params["steps"]
    plain, packed = tmp_path / "w2.jsonl", tmp_path / "w2.jsonl.gz"
    tr.save(plain)
    tr.save(packed)
    assert plain.stat().st_size <= 6_000_000  # 32 SGD steps of a 256-512-512-10 MLP
    assert packed.stat().st_size <= 1_200_000
    assert Trace.load(packed).events == tr.events


FAILING_BACKWARD = """\
import minigrad as mg
from minigrad.autograd import Function


class Broken(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        raise ValueError("my backward is wrong")


Broken.apply(mg.tensor([1.0], requires_grad=True)).sum().backward()
"""


def _recorded_error(tmp_path):
    from minigrad.cli import main

    script, out = tmp_path / "broken.py", tmp_path / "broken.jsonl"
    script.write_text(FAILING_BACKWARD)
    assert main(["trace", str(script), "-o", str(out)]) == 1
    return out


def test_error_events_keep_the_users_folded_traceback(tmp_path, capsys):
    out = _recorded_error(tmp_path)
    (error,) = Trace.load(out).find("error")
    assert error.raised_at == "broken.py:12 in backward"
    lines = error.traceback.splitlines()
    assert 'raise ValueError("my backward is wrong")' in lines[-2] and lines[-1] == "ValueError: my backward is wrong"
    assert "inside minigrad" in error.traceback and "engine.py" not in error.traceback
    capsys.readouterr()
    from minigrad.cli import main

    main(["trace", "show", str(out), "--kind", "error"])
    assert "broken.py:12 in backward" in capsys.readouterr().out


def test_error_events_saved_before_tracebacks_were_kept_still_load(tmp_path):
    out = _recorded_error(tmp_path)
    lines = _unchecked(out.read_text().splitlines())
    lines[0]["version"] = 2
    for d in lines[1:]:
        if d["kind"] == "error":
            del d["raised_at"], d["traceback"]
    old = tmp_path / "old.jsonl"
    old.write_text("\n".join(json.dumps(d) for d in lines) + "\n")
    (error,) = Trace.load(old).find("error")
    assert (error.raised_at, error.traceback) == (None, "")
    assert error.message == "my backward is wrong"


def test_every_record_carries_the_crc32_of_its_json(tmp_path):
    path, lines = _saved_lines(tmp_path)
    for i, line in enumerate(lines):
        record = json.loads(line)
        (key,) = set(record) - {"crc"}
        assert key == ("header" if i == 0 else "event")
        body = line[line.index(f'"{key}":') + len(key) + 3 : -1].encode()
        assert record["crc"] == f"{zlib.crc32(body):08x}"


def test_checksums_and_versions_must_agree(tmp_path):
    path, lines = _saved_lines(tmp_path)
    records = _unchecked(lines)
    path.write_text("".join(json.dumps(r) + "\n" for r in records))  # version 3 records without checksums
    with pytest.raises(TraceFormatError, match="line 1: a version 3 header without a checksum"):
        Trace.load(path)
    records[0]["version"] = 2
    path.write_text("".join(checked_record("header" if i == 0 else "event", r).decode() for i, r in enumerate(records)))
    with pytest.raises(TraceFormatError, match="line 1: a version 2 header with a checksum"):
        Trace.load(path)
    path.write_text("\n".join([lines[0], json.dumps(records[1]), *lines[2:]]) + "\n")
    with pytest.raises(TraceFormatError, match=r"line 2: damaged event \(not a checked event record"):
        Trace.load(path)


def test_a_value_changed_by_hand_is_refused_by_its_checksum(tmp_path):
    path, lines = _saved_lines(tmp_path)
    idx = next(i for i, line in enumerate(lines) if '"b64":"' in line)
    start = lines[idx].index('"b64":"') + 7
    changed = "A" if lines[idx][start] != "A" else "B"
    lines[idx] = lines[idx][:start] + changed + lines[idx][start + 1 :]  # still valid base64 and JSON
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(TraceFormatError, match=rf"line {idx + 1}: damaged event \(its checksum does not match"):
        Trace.load(path)
