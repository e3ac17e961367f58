"""Damaged and hostile trace files: one line-numbered TraceFormatError each, never a traceback."""

import gzip
import json
import os
import random
import re
import tracemalloc
import zlib

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import minigrad as mg
from minigrad.trace import Trace, TraceFormatError, record
from minigrad.trace.files import checked_record


def _recorded():
    with record(max_values=6) as tr:
        w = mg.tensor([[1.0, -2.0], [0.5, 3.0]], dtype=mg.float64, requires_grad=True)
        x = mg.tensor([1.0, 2.0], dtype=mg.float64, requires_grad=True)
        big = mg.tensor(np.arange(10.0), requires_grad=True)
        loss = (w @ x).tanh().sum() + (big * 2).sum() + (w + x).sum()
        mg.autograd.grad(loss, (w,), retain_graph=True)
        loss.backward()
    return tr


@pytest.fixture(scope="module")
def valid_lines(tmp_path_factory):
    """The header and the events of a saved trace, as JSON values (without their checksums)."""
    path = tmp_path_factory.mktemp("trace") / "run.jsonl"
    _recorded().save(path)
    records = [json.loads(line) for line in path.read_text().splitlines()]
    return [records[0]["header"]] + [r["event"] for r in records[1:]]


def _text(lines) -> str:
    """Lines as a version 3 file holds them, each with its checksum (a string is written as it is)."""
    return "".join(
        x + "\n" if isinstance(x, str) else checked_record("header" if i == 0 else "event", x).decode()
        for i, x in enumerate(lines)
    )


def _write(path, lines):
    path.write_text(_text(lines))
    return path


def _index(lines, kind):
    return next(i for i, d in enumerate(lines) if d.get("kind") == kind)


def _set(d, dotted, value):
    keys = dotted.split(".")
    for k in keys[:-1]:
        d = d[int(k)] if isinstance(d, list) else d[k]
    d[keys[-1]] = value


# (what is wrong, the event kind to damage, field path or None, new value, expected words)
CASES = [
    ("unknown kind", "node_finished", "kind", "node_vanished", "unknown event kind"),
    ("dangling id", "node_entered", "node", 987654, "dangling id"),
    ("dangling parent", "node_created", "info.$node.parents", [987654], "dangling id"),
    ("values vs shape", "node_entered", "grad.$snap.shape", [7], "do not hold 56 bytes"),
    ("node vs its data", "node_created", "info.$node.shape", [9], "does not match"),
    ("contribution vs after", "grad_accumulated", "contribution.$snap.shape", [20], "does not match"),
    ("seq as text", "seeded", "seq", "5", "expected an integer"),
    ("depth null", "seeded", "depth", None, "expected an integer"),
    ("flag as text", "node_created", "info.$node.requires_grad", "yes", "expected true or false"),
    ("object dtype", "node_created", "info.$node.data.$snap.dtype", "object", "not a numeric dtype"),
    ("not a dtype", "node_created", "info.$node.dtype", "float99", "not a dtype"),
    ("bad base64", "node_created", "info.$node.data.$snap.b64", "!!!!", "base64"),
    ("options not a map", "pass_started", "options", [1, 2], "'$map'"),
    ("captured kind", "closure_called", "captured.0.$cap.kind", "pickle", "expected one of"),
    ("pass kind", "pass_started", "pass_kind", "forward", "expected one of"),
    ("negative count", "node_entered", "grad.$snap.stats.nan_count", -1, ">= 0"),
    ("head too long", "node_entered", "grad.$snap.stats.head", list(range(20)), "more than"),
    ("unknown field", "node_finished", "surprise", 1, "unknown field"),
    ("into", "grad_accumulated", "into", "elsewhere", "expected one of"),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_each_kind_of_damage_names_its_line(tmp_path, valid_lines, case):
    _, kind, field, value, words = case
    lines = json.loads(json.dumps(valid_lines))
    if kind == "node_entered" and "stats" in field:
        idx = next(i for i, d in enumerate(lines) if d.get("kind") == kind and "stats" in d["grad"]["$snap"])
    elif kind == "grad_accumulated":
        idx = next(i for i, d in enumerate(lines) if d.get("kind") == kind and "stats" in d["after"]["$snap"])
    elif kind == "closure_called":
        idx = next(i for i, d in enumerate(lines) if d.get("kind") == kind and d["captured"])
    elif kind == "node_created" and "parents" in field:
        idx = next(i for i, d in enumerate(lines) if d.get("kind") == kind and d["info"]["$node"]["parents"])
    else:
        idx = _index(lines, kind)
    _set(lines[idx], field, value)
    with pytest.raises(TraceFormatError, match=rf"line {idx + 1}: damaged event") as err:
        Trace.load(_write(tmp_path / "bad.jsonl", lines))
    assert words in str(err.value)
    assert "\n" not in str(err.value)


def test_missing_field_and_wrong_shapes_of_lines(tmp_path, valid_lines):
    lines = json.loads(json.dumps(valid_lines))
    idx = _index(lines, "seeded")
    del lines[idx]["grad"]
    with pytest.raises(TraceFormatError, match=rf"line {idx + 1}: damaged event .*missing field 'grad'"):
        Trace.load(_write(tmp_path / "a.jsonl", lines))
    lines = json.loads(json.dumps(valid_lines))
    lines[3] = [1, 2, 3]
    with pytest.raises(TraceFormatError, match="line 4: damaged event .*expected an object"):
        Trace.load(_write(tmp_path / "b.jsonl", lines))


def test_truncated_last_line(tmp_path, valid_lines):
    text = _text(valid_lines)
    path = tmp_path / "cut.jsonl"
    path.write_text(text[: len(text) - 40])
    with pytest.raises(TraceFormatError, match=rf"line {len(valid_lines)}: damaged event \(truncated line"):
        Trace.load(path)


def test_not_utf8_and_cut_gzip(tmp_path, valid_lines):
    path = tmp_path / "bytes.jsonl"
    body = b"\xff\xfe{}"
    path.write_bytes(_text(valid_lines[:1]).encode() + b'{"crc":"%08x","event":%s}\n' % (zlib.crc32(body), body))
    with pytest.raises(TraceFormatError, match=r"line 2: damaged event \(not JSON: not UTF-8"):
        Trace.load(path)
    gz = tmp_path / "run.jsonl.gz"
    gz.write_bytes(gzip.compress(_text(valid_lines).encode())[:-30])
    with pytest.raises(TraceFormatError, match="line [0-9]+: cannot read the file"):
        Trace.load(gz)


def _peak(fn):
    """The most memory ``fn()`` held at once (tracemalloc), and the error it raised."""
    tracemalloc.start()
    try:
        with pytest.raises(TraceFormatError) as err:
            fn()
        return tracemalloc.get_traced_memory()[1], str(err.value)
    finally:
        tracemalloc.stop()


def test_a_small_gzip_expanding_past_the_limit_is_refused_while_reading(tmp_path, valid_lines):
    bomb = tmp_path / "bomb.jsonl.gz"
    with gzip.open(bomb, "wb") as fh:
        fh.write(_text(valid_lines[:1]).encode())
        fh.write(b" " * 50_000_000 + b"\n")  # one line of 50 MB
    assert bomb.stat().st_size < 100_000
    peak, message = _peak(lambda: Trace.load(bomb, max_bytes=10_000_000))
    assert "line 2: the line is longer than the limit of 1048576 bytes" in message
    assert peak < 3_000_000, f"{peak / 1e6:.1f} MB held"
    with gzip.open(bomb, "wb") as fh:
        fh.write(_text(valid_lines[:1]).encode())
        fh.write((b" " * 99 + b"\n") * 500_000)  # short lines, 50 MB of them
    peak, message = _peak(lambda: Trace.load(bomb, max_bytes=10_000_000))
    assert "the trace is larger than the limit of 10000000 bytes" in message
    assert peak < 3_000_000, f"{peak / 1e6:.1f} MB held"


def test_a_gzip_without_a_newline_is_refused_at_the_line_limit(tmp_path):
    bomb = tmp_path / "bomb.jsonl.gz"
    with gzip.open(bomb, "wb") as fh:
        for _ in range(64):
            fh.write(bytes(1 << 20))  # 64 MB of zeros, no newline: 64 kB on disk
    assert bomb.stat().st_size < 200_000
    peak, message = _peak(lambda: Trace.load(bomb, max_bytes=64_000_000))
    assert "line 1: the line is longer than the limit of 2000000 bytes" in message
    assert peak < 6_000_000, f"{peak / 1e6:.1f} MB held"


def test_events_that_would_take_more_than_the_limit_once_loaded_are_refused(tmp_path):
    with record() as tr:
        w = mg.tensor(2.0, requires_grad=True)
        for _ in range(300):
            (w * w).backward()
    path = tmp_path / "many.jsonl"
    tr.save(path)
    assert path.stat().st_size < 1_500_000  # each short line becomes a record, its tuples and its snapshots
    peak, message = _peak(lambda: Trace.load(path, max_bytes=2_000_000))
    assert "the events read so far would take more than the limit of 2000000 bytes once loaded" in message
    assert peak < 3_000_000, f"{peak / 1e6:.1f} MB held"


@pytest.mark.parametrize("kind", ["dev_zero", "fifo", "directory"])
def test_what_is_not_a_regular_file_is_refused_without_reading(tmp_path, kind):
    if kind == "fifo":
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs on this system")
        os.mkfifo(tmp_path / "run.jsonl")
        path = tmp_path / "run.jsonl"
    elif kind == "directory":
        path = tmp_path
    else:
        if not os.path.exists("/dev/zero"):
            pytest.skip("no /dev/zero on this system")
        path = "/dev/zero"
    with pytest.raises(TraceFormatError, match="not a regular file"):
        Trace.load(path)  # a FIFO without a writer would block a plain open(): this one returns at once


def test_a_file_larger_than_the_limit_on_disk_is_refused_before_reading(tmp_path):
    path = tmp_path / "large.jsonl"
    path.write_bytes(b"\n" * 3_000_000)
    with pytest.raises(TraceFormatError, match="the file is 3.0 MB, over the limit"):
        Trace.load(path, max_bytes=1_000_000)


@pytest.mark.parametrize("name", ["run.jsonl", "run.jsonl.gz"])
def test_bit_flips_give_the_trace_or_a_trace_format_error(tmp_path, name):
    path = tmp_path / name
    original = _recorded()
    original.save(path)
    raw = path.read_bytes()
    rng = random.Random(26)
    outcomes = {"loaded": 0, "refused": 0}
    for _ in range(400):
        damaged = bytearray(raw)
        bit = rng.randrange(len(raw) * 8)
        damaged[bit // 8] ^= 1 << (bit % 8)
        (tmp_path / ("d" + name)).write_bytes(damaged)
        try:
            back = Trace.load(tmp_path / ("d" + name))
        except TraceFormatError:
            outcomes["refused"] += 1
            continue
        assert back.events == original.events and back.meta == original.meta  # never altered values
        outcomes["loaded"] += 1
    assert outcomes["refused"] >= 350, outcomes


_ODD_VALUES = st.sampled_from(
    [None, True, False, 0, -1, 3, 2**70, 1.5, float("nan"), "", "x", "float64", [], [0], [[1]], {}, {"$snap": {}}]
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_mutating_any_field_gives_a_trace_or_a_trace_format_error(tmp_path, valid_lines, data):
    lines = json.loads(json.dumps(valid_lines))
    idx = data.draw(st.integers(0, len(lines) - 1), label="line")
    parent, key = lines, idx
    while True:  # walk down to a field, each step a choice
        value = parent[key]
        children = (
            list(value) if isinstance(value, dict) else list(range(len(value))) if isinstance(value, list) else []
        )
        if not children or data.draw(st.integers(0, 3), label="stop") == 0:
            break
        parent, key = value, data.draw(st.sampled_from(children), label="key")
    action = data.draw(st.sampled_from(["replace", "delete", "add"]), label="action")
    if action == "delete" and isinstance(parent, dict):
        del parent[key]
    elif action == "add" and isinstance(parent[key], dict):
        parent[key]["extra"] = data.draw(_ODD_VALUES)
    else:
        parent[key] = data.draw(_ODD_VALUES, label="value")
    path = _write(tmp_path / "mutated.jsonl", lines)
    try:
        trace = Trace.load(path)
    except TraceFormatError as exc:  # found on the damaged line, or later (a seq or an id that no longer follows)
        line = int(re.search(r": line (\d+): ", str(exc)).group(1))
        assert line == 1 or line >= idx + 1, str(exc)
        return
    for k in range(len(trace)):  # what loads also replays
        trace.state_at(k)


def test_debugger_replay_of_a_damaged_trace_prints_the_error_and_exits_2(tmp_path, valid_lines, capsys):
    pytest.importorskip("textual")
    from minigrad_tui.app import main

    lines = json.loads(json.dumps(valid_lines))
    idx = _index(lines, "node_entered")
    lines[idx]["node"] = 987654
    path = _write(tmp_path / "damaged.jsonl", lines)
    assert main(["--replay", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"line {idx + 1}: damaged event" in err[0] and "dangling id" in err[0]


def test_every_event_kind_has_a_decoder_naming_every_field():
    import dataclasses

    from minigrad.trace import EVENT_TYPES
    from minigrad.trace.schema import DECODE

    assert set(DECODE) == set(EVENT_TYPES.values())
    for cls, (_, required, optional) in DECODE.items():
        names = {f.name for f in dataclasses.fields(cls)} - {"seq", "pass_id", "depth"}
        assert set(required) | set(optional) == names, cls.kind
