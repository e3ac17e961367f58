"""``python -m bench``: run workloads on every peer, interleaved, and report medians and ratios."""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import selectors
import statistics
import subprocess
import sys
import tempfile
from importlib import metadata
from pathlib import Path

from .heap import SAME_HEAP_VAR
from .report import markdown
from .threads import MINIGRAD_PATH_VAR, pin_env
from .workloads import MODULES, load

RESULTS = Path(__file__).resolve().parent / "results"
ROOT = Path(__file__).resolve().parent.parent


def parse_args(argv=None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    ap.add_argument("--workloads", default=",".join(MODULES), help="comma-separated workloads (default: all)")
    ap.add_argument(
        "--only",
        default=None,
        help="comma-separated peers to run (e.g. minigrad,torch); minigrad names every variant of a workload that "
        "runs minigrad (W2's nn, W6's listener variants, W14's depths)",
    )
    ap.add_argument("--quick", action="store_true", help="tiny sizes and one repeat: a smoke test, not a measurement")
    ap.add_argument("--repeats", type=int, default=None, help="timed runs per peer (default 5; 1 with --quick)")
    ap.add_argument("--warmup", type=int, default=1, help="untimed runs per peer before timing (default 1)")
    ap.add_argument(
        "--processes",
        type=int,
        default=1,
        help="start each peer's worker this many times in turn, each timed --repeats runs, and take the median "
        "over all their runs (default 1): one process's heap layout or slow spell then moves one share of them",
    )
    ap.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="what the medians use: wall time, or the worker's CPU time (steadier on a shared, busy machine)",
    )
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds one run may take before the peer is dropped")
    ap.add_argument("--out", type=Path, default=None, help="JSON output path (default bench/results/<stamp>.json)")
    ap.add_argument("--markdown", type=Path, default=None, help="also write the Markdown table to this file")
    ap.add_argument(
        "--compare-to",
        type=Path,
        default=None,
        metavar="PATH",
        help="also run every minigrad peer on the minigrad package of another checkout at PATH (e.g. a "
        "`git worktree` of main), interleaved with the others; reported as <peer>@base with a ratio",
    )
    ap.add_argument(
        "--same-heap",
        action="store_true",
        help="raise glibc's heap thresholds in every peer's worker, as `import minigrad` does (PyTorch then pays no "
        "page faults for its arrays either; the NumPy floor always runs so)",
    )
    args = ap.parse_args(argv)
    if args.repeats is None:
        args.repeats = 1 if args.quick else 5
    if args.repeats < 1:
        ap.error("--repeats must be at least 1")
    if args.processes < 1:
        ap.error("--processes must be at least 1")
    args.workloads = [w.strip() for w in args.workloads.split(",") if w.strip()]
    for w in args.workloads:
        if w not in MODULES:
            ap.error(f"unknown workload {w!r}; known: {', '.join(MODULES)}")
    args.only = None if args.only is None else {p.strip() for p in args.only.split(",") if p.strip()}
    if args.compare_to is not None:
        args.compare_to = args.compare_to.resolve()
        if not (args.compare_to / "minigrad" / "__init__.py").is_file():
            ap.error(f"--compare-to {args.compare_to}: no minigrad package there")
    return args


BASE_SUFFIX = "@base"


class Peer:
    """One peer's worker subprocess, asked for one timed run at a time.

    With ``minigrad_path`` the worker imports minigrad from that checkout, and the
    peer is reported as ``<name>@base``.
    """

    def __init__(
        self,
        workload: str,
        name: str,
        params: dict,
        warmup: int,
        timeout: float,
        minigrad_path=None,
        same_heap: bool = False,
    ):
        self.name = name if minigrad_path is None else name + BASE_SUFFIX
        self.timeout = timeout
        self.result = {"status": "ok", "wall": [], "cpu": [], "checks": []}
        self.stderr = tempfile.TemporaryFile(mode="w+")  # a file, not a pipe: a chatty worker must not block
        env = pin_env(dict(os.environ))
        if minigrad_path is not None:
            env[MINIGRAD_PATH_VAR] = str(minigrad_path)
        env[SAME_HEAP_VAR] = "1" if same_heap else "0"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bench.worker", workload, name, json.dumps(params), str(warmup)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
            text=True,
            cwd=ROOT,
            env=env,
        )
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.proc.stdout, selectors.EVENT_READ)

    @property
    def alive(self) -> bool:
        return self.result["status"] == "ok" and self.proc.poll() is None

    def _read(self, timeout: float) -> dict:
        if not self.selector.select(timeout):
            self._fail("error", f"no answer within {timeout:.0f} s")
            return {}
        line = self.proc.stdout.readline()
        if not line:
            self.proc.wait()
            self.stderr.seek(0)
            err = self.stderr.read().strip().splitlines()
            self._fail("error", f"worker exited ({self.proc.returncode}): {err[-1] if err else 'no output'}")
            return {}
        return json.loads(line)

    def _fail(self, status: str, note: str) -> None:
        self.result["status"] = status
        self.result["note"] = note
        self.close()

    def wait_ready(self) -> None:
        reply = self._read(self.timeout * 3)
        if "ready" in reply:
            self.result["info"] = reply["ready"]
        elif "skip" in reply:
            self._fail("skipped", reply["skip"])
        elif "error" in reply:
            self._fail("error", reply["error"])

    def time_one(self) -> None:
        self.proc.stdin.write("run\n")
        self.proc.stdin.flush()
        reply = self._read(self.timeout)
        if "wall" in reply:
            self.result["wall"].append(reply["wall"])
            self.result["cpu"].append(reply["cpu"])
            self.result["checks"].append(reply["check"])
        elif "error" in reply:
            self._fail("error", reply["error"])

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.proc.stdin.close()
                self.proc.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        self.selector.close()
        self.stderr.close()


def run_workload(name: str, args) -> dict:
    mod = load(name)
    params = mod.params(args.quick)
    ours = {p for p in mod.PEERS if p.startswith("minigrad") or p in getattr(mod, "MINIGRAD_PEERS", ())}
    names = [p for p in mod.PEERS if _selected(p, args.only, ours) or p == getattr(mod, "SUBJECT", "minigrad")]
    own = getattr(mod, "MINIGRAD_PEERS", None) or [p for p in names if p.startswith("minigrad")]
    compared = [p for p in names if p in own] if args.compare_to is not None else []
    results = {}
    for process in range(args.processes):
        peers = [Peer(name, p, params, args.warmup, args.timeout, same_heap=args.same_heap) for p in names]
        peers += [Peer(name, p, params, args.warmup, args.timeout, args.compare_to, args.same_heap) for p in compared]
        _time_rounds(name, peers, args.repeats, f"process {process + 1}/{args.processes}, " * (args.processes > 1))
        for peer in peers:
            _merge(results, peer.name, peer.result)
    scale = mod.per_unit(params)
    for res in results.values():
        if res[args.clock]:
            res["median"] = statistics.median(res[args.clock]) / scale
    return {
        "title": mod.TITLE,
        "unit": mod.UNIT,
        "params": params,
        "peers": results,
        "ratios": _ratios(mod, results, compared),
        "targets": {f"{a} / {b}": t for (a, b), t in getattr(mod, "TARGETS", {}).items()},
        "limits": dict(getattr(mod, "LIMITS", {})),
    }


def _selected(peer: str, only, ours: set) -> bool:
    """Whether ``--only`` selects ``peer``: by its name, or as one of minigrad's variants when it names minigrad."""
    return only is None or peer in only or ("minigrad" in only and peer in ours)


def _time_rounds(name: str, peers: list, repeats: int, label: str) -> None:
    """Start ``peers``' workers, time ``repeats`` rounds of one run each, and close them."""
    for peer in peers:
        peer.wait_ready()
    for r in range(repeats):
        # Rotate the order each round so that drifting load on a shared machine falls on every peer alike.
        for peer in peers[r % len(peers) :] + peers[: r % len(peers)]:
            if peer.alive:
                peer.time_one()
            print(f"  {name} {label}round {r + 1}/{repeats} {peer.name}: {_last(peer)}", file=sys.stderr)
    for peer in peers:
        peer.close()


def _merge(results: dict, name: str, result: dict) -> None:
    """Add one worker's runs to its peer's results; a peer that failed in any process keeps that status."""
    merged = results.setdefault(name, {"status": "ok", "wall": [], "cpu": [], "checks": []})
    for key in ("wall", "cpu", "checks"):
        merged[key] += result[key]
    if result["status"] != "ok" and merged["status"] == "ok":
        merged["status"], merged["note"] = result["status"], result.get("note", "")
    if "info" in result:
        merged.setdefault("info", result["info"])


def _last(peer: Peer) -> str:
    res = peer.result
    if res["status"] != "ok":
        return f"{res['status']}: {res.get('note', '')}"
    return f"{res['wall'][-1]:.4g} s wall, {res['cpu'][-1]:.4g} s cpu" if res["wall"] else "-"


def _ratios(mod, results: dict, compared=()) -> dict:
    pairs = getattr(mod, "RATIOS", None) or tuple(("minigrad", p) for p in mod.PEERS if p != "minigrad")
    base_pairs = tuple((a + BASE_SUFFIX, b + BASE_SUFFIX) for a, b in pairs if a in compared and b in compared)
    pairs = tuple(pairs) + base_pairs + tuple((p, p + BASE_SUFFIX) for p in compared)
    out = {}
    for a, b in pairs:
        ra, rb = results.get(a, {}), results.get(b, {})
        if "median" not in ra or "median" not in rb:
            continue
        ca, cb = ra["checks"][-1], rb["checks"][-1]
        out[f"{a} / {b}"] = {
            "ratio": ra["median"] / rb["median"],
            "check_rel_diff": abs(ca - cb) / max(abs(cb), 1e-300),
        }
    return out


def machine() -> dict:
    cpu = platform.processor() or platform.machine()
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            if line.startswith("Model name:"):
                cpu = line.split(":", 1)[1].strip()
    except (OSError, subprocess.CalledProcessError):
        pass
    versions = {}
    for dist in ("numpy", "torch", "micrograd", "minigrad"):
        try:
            versions[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            versions[dist] = None
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "blas": blas(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "versions": versions,
    }


def blas() -> str:
    """NumPy's BLAS library and version, as NumPy's build configuration names them."""
    try:
        import numpy as np

        info = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
    except (ImportError, KeyError, TypeError, ValueError):
        return "unknown"
    return f"{info.get('name', 'unknown')} {info.get('version', '')}".strip()


def main(argv=None) -> int:
    args = parse_args(argv)
    started = dt.datetime.now(dt.timezone.utc)
    report = {
        "date": started.isoformat(timespec="seconds"),
        "machine": machine(),
        "quick": args.quick,
        "repeats": args.repeats,
        "warmup": args.warmup,
        "processes": args.processes,
        "clock": args.clock,
        "threads": 1,
        "compare_to": None if args.compare_to is None else str(args.compare_to),
        "same_heap": args.same_heap,
        "workloads": {},
    }
    for name in args.workloads:
        print(f"{name}: {load(name).TITLE}", file=sys.stderr)
        report["workloads"][name] = run_workload(name, args)
    out = args.out or RESULTS / f"{started.strftime('%Y%m%dT%H%M%SZ')}{'-quick' if args.quick else ''}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n")
    table = markdown(report)
    if args.markdown:
        args.markdown.write_text(table)
    print(table)
    print(f"results: {out}", file=sys.stderr)
    return 0
