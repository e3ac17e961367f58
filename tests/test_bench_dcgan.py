"""W17, the DCGAN generator workload: one model definition runs on both frameworks from the same
weights, and the final losses agree (never a timed assertion)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_dcgan_generator_workload_runs_the_same_model_code_as_torch(tmp_path):
    pytest.importorskip("torch")
    out = tmp_path / "dcgan.json"
    proc = subprocess.run(
        [sys.executable, "-m", "bench", "--quick", "--workloads", "W17", "--out", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert proc.returncode == 0, proc.stderr
    workload = json.loads(out.read_text())["workloads"]["W17"]
    assert all(workload["peers"][peer]["status"] == "ok" for peer in ("minigrad", "torch")), workload["peers"]
    assert workload["ratios"]["minigrad / torch"]["check_rel_diff"] < 1e-4
