"""The watching and deep-graph workloads of ``python -m bench`` (issue 31): they run, and every variant
computes the same thing. Never a timed assertion."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _quick(tmp_path, workloads: str) -> dict:
    out = tmp_path / "quick.json"
    proc = subprocess.run(
        [sys.executable, "-m", "bench", "--quick", "--workloads", workloads, "--out", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(out.read_text())["workloads"]


def test_recording_workloads_give_the_same_training_under_every_listener(tmp_path):
    pytest.importorskip("torch")  # W6e runs W11's model code, which the bench imports beside torch's
    workloads = _quick(tmp_path, "W6c,W6d,W6e")
    for name, w in workloads.items():
        assert {p: r["status"] for p, r in w["peers"].items()} == dict.fromkeys(("none", "noop", "recorder"), "ok")
        assert set(w["ratios"]) == {"noop / none", "recorder / none"}, name
        for pair, r in w["ratios"].items():
            assert r["check_rel_diff"] == 0, (name, pair, r)


def test_deep_graph_workloads_report_time_and_bytes_per_node(tmp_path):
    workloads = _quick(tmp_path, "W14,W14b")
    depth = workloads["W14"]
    assert depth["unit"] == "us/node"
    for peer in ("minigrad_1e3", "minigrad_1e4", "minigrad_1e5"):
        assert depth["peers"][peer]["status"] == "ok" and depth["peers"][peer]["median"] > 0, peer
    assert "minigrad_1e5 / minigrad_1e3" in depth["ratios"] and "minigrad_1e5 / minigrad_1e3" in depth["targets"]
    memory = workloads["W14b"]
    assert memory["unit"] == "B/node" and memory["limits"] == {"minigrad": 550.0}
    assert 50 < memory["peers"]["minigrad"]["median"] < 5000  # a tensor, its array and its rule: hundreds of bytes
