"""The subprocess side of a benchmark: build one peer of one workload, then time runs on request.

``python -m bench.worker WORKLOAD PEER PARAMS_JSON WARMUP``. Replies are JSON lines on stdout:
first ``{"ready": info}`` (or ``{"skip": why}`` / ``{"error": what}``), then one
``{"wall": s, "cpu": s, "check": c}`` (or ``{"error": what}``) per ``run`` line read from stdin.
With ``BENCH_MINIGRAD_PATH`` set (``--compare-to``), minigrad is imported from that checkout.
"""

from __future__ import annotations

import os
import sys

from .threads import MINIGRAD_PATH_VAR, pin_env

pin_env()  # before anything imports NumPy or PyTorch
if os.environ.get(MINIGRAD_PATH_VAR):
    sys.path.insert(0, os.environ[MINIGRAD_PATH_VAR])

import gc  # noqa: E402
import json  # noqa: E402
import time  # noqa: E402
import traceback  # noqa: E402

from .heap import raise_thresholds, raises_thresholds  # noqa: E402
from .workloads import Skip, load  # noqa: E402


def _reply(obj: dict) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def _describe(exc: BaseException) -> str:
    if isinstance(exc, RecursionError):
        return f"RecursionError at recursion limit {sys.getrecursionlimit()}: {exc}"[:500]
    return f"{type(exc).__name__}: {exc}"[:500]


def _timed(run) -> dict:
    gc.collect()
    start, start_cpu = time.perf_counter(), time.process_time()
    try:
        check = run()
    except Exception as exc:  # a peer that fails (micrograd's RecursionError) is a result, not a crash
        return {"error": _describe(exc)}
    if isinstance(check, dict):  # the run timed its own measured part
        return check
    return {"wall": time.perf_counter() - start, "cpu": time.process_time() - start_cpu, "check": check}


def main(argv=None) -> int:
    workload, peer, params, warmup = (argv or sys.argv[1:])[:4]
    primed = raises_thresholds(peer, os.environ)
    if primed:
        raise_thresholds()
    try:
        built = load(workload).build(peer, json.loads(params))
    except Skip as exc:
        _reply({"skip": str(exc)})
        return 0
    except Exception as exc:
        _reply({"error": _describe(exc), "traceback": traceback.format_exc()[-2000:]})
        return 0
    run, info = built if isinstance(built, tuple) else (built, {})
    info = {**info, "heap": "thresholds raised" if primed else "as imported"}
    wanted = os.environ.get(MINIGRAD_PATH_VAR)
    if wanted and "minigrad" in sys.modules:
        found = os.path.dirname(os.path.dirname(os.path.abspath(sys.modules["minigrad"].__file__)))
        if found != os.path.abspath(wanted):
            _reply({"error": f"minigrad was imported from {found}, not from {wanted}"})
            return 0
    for _ in range(int(warmup)):
        result = _timed(run)
        if "error" in result:
            _reply(result)
            return 0
    _reply({"ready": info})
    for line in sys.stdin:
        if line.strip() != "run":
            break
        _reply(_timed(run))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
