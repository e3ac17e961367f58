"""``minigrad trace SCRIPT -o FILE`` and ``minigrad trace show FILE``."""

import json
import subprocess
import sys

import pytest

from minigrad.cli import main
from minigrad.trace import Trace

SCRIPT = """\
import sys
import minigrad as mg
x = mg.tensor([1.0, -2.0, 3.0], requires_grad=True)
loss = (x * x).sum()
loss.backward()
print("args", sys.argv[1:])
"""


@pytest.fixture
def script(tmp_path):
    path = tmp_path / "demo_script.py"
    path.write_text(SCRIPT)
    return path


def test_record_then_show(tmp_path, script, capsys):
    out = tmp_path / "run.jsonl"
    assert main(["trace", str(script), "a", "--b", "-o", str(out)]) == 0
    captured = capsys.readouterr()
    assert "args ['a', '--b']" in captured.out
    assert f"-> {out}" in captured.err
    tr = Trace.load(out)
    assert tr.meta["argv"] == ["a", "--b"] and tr.meta["exit_code"] == 0
    assert tr.node("loss").op == "sum"
    assert main(["trace", "show", str(out)]) == 0
    text = capsys.readouterr().out
    lines = text.splitlines()
    assert lines[1].startswith(f"# {len(tr)} events")
    assert any("node_created" in ln and "create leaf x" in ln for ln in lines)
    assert any("grad_accumulated" in ln and "-> x" in ln for ln in lines)
    assert "after = [2, -4, 6]" in text
    assert "made at demo_script.py:4 in <module>: loss = (x * x).sum()" in text


def test_show_range_kind_node_and_brief(tmp_path, script, capsys):
    out = tmp_path / "run.jsonl"
    main(["trace", "-o", str(out), str(script)])
    capsys.readouterr()
    assert main(["trace", "show", str(out), "--from", "5", "--to", "7", "--brief"]) == 0
    body = [ln for ln in capsys.readouterr().out.splitlines() if not ln.startswith("#")]
    assert [int(ln.split()[0]) for ln in body] == [5, 6, 7]
    main(["trace", "show", str(out), "--kind", "node_entered", "--brief"])
    body = [ln for ln in capsys.readouterr().out.splitlines() if not ln.startswith("#")]
    assert len(body) == 3 and all("node_entered" in ln for ln in body)
    main(["trace", "show", str(out), "--node", "x", "--kind", "grad_accumulated", "--brief"])
    body = [ln for ln in capsys.readouterr().out.splitlines() if not ln.startswith("#")]
    assert len(body) == 3
    assert main(["trace", "show", str(out), "--node", "nobody"]) == 1
    assert "no node 'nobody'" in capsys.readouterr().err


def test_show_damaged_file_reports_line(tmp_path, script, capsys):
    out = tmp_path / "run.jsonl"
    main(["trace", str(script), "-o", str(out)])
    lines = out.read_text().splitlines()
    lines[3] = lines[3][:10]
    out.write_text("\n".join(lines) + "\n")
    capsys.readouterr()
    assert main(["trace", "show", str(out)]) == 1
    assert "line 4: damaged event" in capsys.readouterr().err


def test_failing_script_still_saves_its_trace(tmp_path, capsys):
    bad = tmp_path / "bad.py"
    bad.write_text("import minigrad as mg\nx = mg.tensor([1.0], requires_grad=True)\nraise SystemExit('boom')\n")
    out = tmp_path / "bad.jsonl"
    assert main(["trace", str(bad), "-o", str(out)]) == 1
    assert "boom" in capsys.readouterr().err
    header = json.loads(out.read_text().splitlines()[0])["header"]
    assert header["meta"]["exit_code"] == 1
    assert Trace.load(out).node("x")


def test_missing_script_and_help(tmp_path, capsys):
    assert main(["trace", str(tmp_path / "nope.py")]) == 2
    assert "no such script" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["trace", "--help"])
    helptext = capsys.readouterr().out
    assert "minigrad trace show" in helptext and "--max-values" in helptext
    with pytest.raises(SystemExit):
        main(["trace", "show", "--help"])
    assert "--from" in capsys.readouterr().out


def test_max_bytes_says_once_what_was_dropped_and_gz_output(tmp_path, capsys):
    script = tmp_path / "loop.py"
    script.write_text(
        "import minigrad as mg\n"
        "w = mg.ones(16, 16, requires_grad=True)\n"
        "for _ in range(20):\n"
        "    (w @ w).sum().backward()\n"
        "    w.grad = None\n"
    )
    out = tmp_path / "run.jsonl.gz"
    assert main(["trace", "--max-bytes", "100000", str(script), "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert err.count("memory budget of 100.0 kB") == 1 and "summaries" in err
    tr = Trace.load(out)
    assert tr.summarised_before is not None and tr.budget_message in err
    assert main(["trace", "show", str(out), "--brief"]) == 0
    head = capsys.readouterr().out.splitlines()[:3]
    assert f"# the {tr.dropped.passes} earliest passes (passes {tr.dropped.first_pass}.." in head[2]
    assert head[2].endswith(
        "were dropped to keep the recording within its memory budget (record(max_bytes=...)): "
        "step 0 is the first event kept"
    )
    assert main(["trace", "--max-bytes", "0", str(script)]) == 2


def test_show_into_a_closed_pipe_is_quiet(tmp_path, script):
    """``minigrad trace show run.jsonl | head -1``: no BrokenPipeError when the reader leaves early."""
    out = tmp_path / "run.jsonl"
    code = "import minigrad as mg\nx = mg.tensor([1.0], requires_grad=True)\nfor _ in range(2000):\n    x = x * 1.0\nx.sum().backward()\n"
    long_script = tmp_path / "long.py"
    long_script.write_text(code)
    assert main(["trace", str(long_script), "-o", str(out)]) == 0
    show = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from minigrad.cli import main; sys.exit(main())",
            "trace",
            "show",
            str(out),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    show.stdout.readline()
    show.stdout.close()  # as head does after its lines
    err = show.stderr.read().decode()
    assert show.wait() == 0
    assert "BrokenPipeError" not in err and "Traceback" not in err
