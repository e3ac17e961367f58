"""Smoke test of the benchmark harness: ``python -m bench --quick`` on two tiny workloads.

Never a timed assertion: only that every peer ran (or was skipped with a note), the JSON
report has its shape, and the peers' check values agree.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _bench(*args: str, timeout: float = 240):
    """``python -m bench`` with ``args``, run from the repository root: its completed process."""
    command = [sys.executable, "-m", "bench", *args]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("bench") / "quick.json"
    md = out.with_suffix(".md")
    proc = _bench("--quick", "--workloads", "W1,W4", "--out", str(out), "--markdown", str(md))
    assert proc.returncode == 0, proc.stderr
    return json.loads(out.read_text()), md.read_text()


def test_report_shape(report):
    data, _ = report
    assert data["quick"] is True and data["repeats"] == 1
    assert set(data["workloads"]) == {"W1", "W4"}
    assert data["machine"]["cores"] >= 1
    for w in data["workloads"].values():
        assert w["unit"] and w["params"]
        for name in ("minigrad", "numpy"):
            res = w["peers"][name]
            assert res["status"] == "ok", res
            assert len(res["wall"]) == len(res["cpu"]) == 1 and res["median"] > 0


def test_peers_agree(report):
    data, _ = report
    for w in data["workloads"].values():
        assert "minigrad / numpy" in w["ratios"]
        for pair, r in w["ratios"].items():
            assert r["check_rel_diff"] < 1e-9, (pair, r)


def test_missing_or_unfit_peers_are_noted_not_crashed(report):
    data, _ = report
    w1 = data["workloads"]["W1"]["peers"]
    assert w1["micrograd"]["status"] == "skipped" and "scalar engine" in w1["micrograd"]["note"]
    w4 = data["workloads"]["W4"]["peers"]["micrograd"]
    # micrograd's recursive topological sort cannot handle the chain at the default recursion limit.
    assert w4["status"] in ("error", "skipped")
    if w4["status"] == "error":
        assert "RecursionError" in w4["note"]


def test_markdown_table(report):
    _, md = report
    assert "| W1 | minigrad / PyTorch |" in md or "torch" not in md
    assert "| W4 | minigrad / NumPy floor |" in md


def test_machine_line_names_cpu_blas_and_threads(report):
    data, md = report
    m = data["machine"]
    assert m["cpu"] and m["blas"]
    assert f"on {m['cpu']} (" in md and f"BLAS {m['blas']}" in md and "pinned to 1 thread" in md


def test_compare_to_runs_minigrad_from_another_checkout(tmp_path):
    base = tmp_path / "base"
    (base / "minigrad").mkdir(parents=True)
    (base / "minigrad" / "__init__.py").write_text("raise ImportError('the base checkout was imported')\n")
    out = tmp_path / "cmp.json"
    proc = _bench("--quick", "--workloads", "W1", "--only", "minigrad", "--compare-to", str(base), "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    peers = json.loads(out.read_text())["workloads"]["W1"]["peers"]
    assert peers["minigrad"]["status"] == "ok"
    assert peers["minigrad@base"]["status"] == "error"
    assert "the base checkout was imported" in peers["minigrad@base"]["note"]
    assert "minigrad@base" in proc.stdout


def test_compare_to_needs_a_minigrad_checkout(tmp_path):
    proc = _bench("--quick", "--compare-to", str(tmp_path))
    assert proc.returncode == 2 and "no minigrad package there" in proc.stderr


def test_function_transform_workloads_run_and_agree(tmp_path):
    """W10a (jacfwd vs jacrev), W10c and W10d (vmap of grad, float64 and float32), W10e (functional.jacobian
    vectorized), W10f (vmap of hessian): every minigrad peer runs and matches the floor."""
    out = tmp_path / "w10.json"
    proc = _bench("--quick", "--workloads", "W10a,W10c,W10d,W10e,W10f", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    workloads = json.loads(out.read_text())["workloads"]
    for name in ("minigrad-jacfwd", "minigrad-jacrev", "numpy"):
        assert workloads["W10a"]["peers"][name]["status"] == "ok", workloads["W10a"]["peers"][name]
    assert workloads["W10c"]["peers"]["minigrad"]["status"] == "ok"
    assert workloads["W10d"]["peers"]["minigrad"]["status"] == "ok"
    assert workloads["W10e"]["peers"]["minigrad"]["status"] == "ok"
    assert workloads["W10f"]["peers"]["minigrad"]["status"] == "ok"
    for name, w in workloads.items():
        for pair, r in w["ratios"].items():
            assert r["check_rel_diff"] < (1e-5 if name == "W10d" else 1e-9), (pair, r)


def test_real_model_workloads_run_the_same_model_code_as_torch(tmp_path):
    """W11-W13 (nanoGPT's block, word_language_model's LSTM, the mnist CNN): one model definition
    runs on both frameworks from the same weights, and the final losses agree."""
    pytest.importorskip("torch")
    out = tmp_path / "real.json"
    proc = _bench("--quick", "--workloads", "W11,W12,W13", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    workloads = json.loads(out.read_text())["workloads"]
    for name in ("W11", "W12", "W13"):
        peers = workloads[name]["peers"]
        assert peers["minigrad"]["status"] == "ok" and peers["torch"]["status"] == "ok", (name, peers)
        assert workloads[name]["ratios"]["minigrad / torch"]["check_rel_diff"] < 1e-4, name


def test_processes_pool_the_runs_of_fresh_workers(tmp_path):
    out = tmp_path / "two.json"
    proc = _bench(
        "--quick",
        "--workloads",
        "W1",
        "--only",
        "minigrad,numpy",
        "--processes",
        "2",
        "--repeats",
        "2",
        "--out",
        str(out),
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(out.read_text())
    assert data["processes"] == 2
    for name in ("minigrad", "numpy"):
        res = data["workloads"]["W1"]["peers"][name]
        assert res["status"] == "ok" and len(res["cpu"]) == len(res["checks"]) == 4
    assert "process 2/2, round 2/2 minigrad" in proc.stderr
    assert "of 4 timed runs (2 worker processes per peer, 2 each)" in proc.stdout


def test_processes_must_be_positive():
    proc = _bench("--quick", "--processes", "0")
    assert proc.returncode == 2 and "--processes must be at least 1" in proc.stderr


def test_only_minigrad_keeps_every_minigrad_variant(tmp_path):
    out = tmp_path / "w6a.json"
    proc = _bench("--quick", "--workloads", "W6a,W2", "--only", "minigrad", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    workloads = json.loads(out.read_text())["workloads"]
    assert set(workloads["W6a"]["peers"]) == {"none", "noop", "recorder"}
    assert set(workloads["W2"]["peers"]) == {"minigrad", "minigrad_nn"}


def test_the_numpy_floor_and_with_same_heap_every_peer_raise_the_heap_thresholds(tmp_path):
    heaps = {}
    for option in ((), ("--same-heap",)):
        out = tmp_path / f"heap{len(option)}.json"
        md = out.with_suffix(".md")
        args = ("--quick", "--workloads", "W1", "--only", "minigrad,numpy", "--out", str(out), "--markdown", str(md))
        proc = _bench(*args, *option)
        assert proc.returncode == 0, proc.stderr
        data = json.loads(out.read_text())
        assert data["same_heap"] is bool(option)
        heaps[option] = {p: r["info"]["heap"] for p, r in data["workloads"]["W1"]["peers"].items()}
        assert ("every peer with glibc's heap thresholds raised" in md.read_text()) is bool(option)
    assert heaps[()] == {"minigrad": "as imported", "numpy": "thresholds raised"}
    assert heaps[("--same-heap",)] == {"minigrad": "thresholds raised", "numpy": "thresholds raised"}


def test_the_heap_block_is_the_one_minigrads_import_frees():
    from bench import heap
    from minigrad import _workspace

    assert heap.BLOCK == _workspace.HEAP_THRESHOLD_BLOCK
