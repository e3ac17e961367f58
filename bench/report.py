"""The Markdown tables of a benchmark report: medians per peer, then ratios against the targets."""

from __future__ import annotations

LABELS = {
    "minigrad": "minigrad",
    "minigrad_nn": "minigrad (nn)",
    "torch": "PyTorch",
    "numpy": "NumPy floor",
    "cupy": "CuPy floor",
    "micrograd": "micrograd",
    "none": "no listener",
    "noop": "no-op listener",
    "recorder": "record()",
}


def _fmt(x: float) -> str:
    if x == 0:
        return "0"
    if abs(x) >= 100:
        return f"{x:,.0f}"
    if abs(x) >= 0.01:
        return f"{x:.3g}"
    return f"{x:.2e}"


def _cell(res: dict) -> str:
    if res.get("status") == "ok" and "median" in res:
        return _fmt(res["median"])
    note = res.get("note", "")
    short = note if len(note) <= 60 else note[:57] + "..."
    return f"{res.get('status', 'not run')}: {short}" if note else res.get("status", "not run")


def _name(peer: str) -> str:
    base, at, suffix = peer.partition("@")
    return LABELS.get(base, base) + at + suffix


def _label(pair: str) -> str:
    a, b = pair.split(" / ")
    return f"{_name(a)} / {_name(b)}"


def _runs(report: dict) -> str:
    processes = report.get("processes", 1)
    if processes == 1:
        return f"{report['repeats']} timed runs"
    return (
        f"{processes * report['repeats']} timed runs ({processes} worker processes per peer, {report['repeats']} each)"
    )


def markdown(report: dict) -> str:
    """Medians (one row per workload) and ratios with their targets and check agreement."""
    m = report["machine"]
    lines = [
        f"Measured {report['date'][:10]} on {m['cpu']} ({m['cores']} cores, BLAS {m.get('blas', 'unknown')}, "
        f"every peer pinned to {report.get('threads', 1)} thread), "
        f"Python {m['python']}, NumPy {m['versions'].get('numpy')}, PyTorch {m['versions'].get('torch')}; "
        f"median {report['clock']} time of {_runs(report)} after {report['warmup']} warm-up"
        + (" (--quick sizes: not a measurement)" if report["quick"] else "")
        + (f"; <peer>@base: minigrad from {report['compare_to']}" if report.get("compare_to") else "")
        + (
            "; every peer with glibc's heap thresholds raised as `import minigrad` raises them (--same-heap)"
            if report.get("same_heap")
            else "; the NumPy floor with glibc's heap thresholds raised as `import minigrad` raises them"
        )
        + ".",
        "",
        "| workload | unit | peers (median) |",
        "|---|---|---|",
    ]
    for name, w in report["workloads"].items():
        peers = w["peers"]
        if peers and all(res.get("status") == "skipped" for res in peers.values()):
            cells = f"all skipped ({next(iter(peers.values())).get('note', '')})"
        else:
            cells = "; ".join(f"{_name(p)} {_cell(res)}" for p, res in peers.items())
        lines.append(f"| {name} {w['title']} | {w['unit']} | {cells} |")
    lines += ["", "| workload | ratio | value | target | checks agree (rel. diff) |", "|---|---|---|---|---|"]
    for name, w in report["workloads"].items():
        for pair, r in w["ratios"].items():
            target = w["targets"].get(pair)
            verdict = (
                "" if target is None else f"<= {_fmt(target)} " + ("met" if r["ratio"] <= target else "**missed**")
            )
            ratio = f"{r['ratio']:.3f}" if r["ratio"] >= 0.01 else f"{r['ratio']:.2e}"
            lines.append(f"| {name} | {_label(pair)} | {ratio} | {verdict} | {r['check_rel_diff']:.1e} |")
        for peer, limit in w.get("limits", {}).items():
            res = w["peers"].get(peer, {})
            if "median" in res:
                verdict = f"<= {_fmt(limit)} {w['unit']} " + ("met" if res["median"] <= limit else "**missed**")
                lines.append(
                    f"| {name} | {LABELS.get(peer, peer)} ({w['unit']}) | {_fmt(res['median'])} | {verdict} | |"
                )
    return "\n".join(lines) + "\n"
