"""Lesson 14's numbers come from a run: the demo's printed bytes and the memory budget of a 16-layer
network, measured with the lesson's reference solutions, are what its text says."""

import subprocess
import sys

import minigrad as mg
from minigrad import nn
from minigrad.course import find_lesson
from minigrad.course.checking import load_reference
from minigrad.trace import record
from minigrad.utils.checkpoint import checkpoint

LESSON = 14


def readme() -> str:
    return (find_lesson(LESSON).path / "README.md").read_text()


def test_the_demos_printed_bytes_are_quoted_as_it_prints_them():
    lesson = find_lesson(LESSON)
    demo = subprocess.run(
        [sys.executable, str(lesson.demo)], capture_output=True, text=True, timeout=120, cwd=lesson.path
    )
    assert demo.returncode == 0, demo.stderr
    text = readme()
    for line in demo.stdout.splitlines():
        if "bytes" in line or "same gradients" in line:
            assert line in text, f"the README should quote the demo's line as it prints it: {line}"


def sixteen_layers(forward):
    """(saved bytes, peak bytes) of the text's 16-layer network run through ``forward(layers, x)``."""
    measure = load_reference(LESSON, "ex2_saved_bytes")
    mg.manual_seed(0)
    layers = [nn.Sequential(nn.Linear(256, 256), nn.Tanh()) for _ in range(16)]
    x = mg.randn(64, 256)
    with record(max_values=1) as trace:
        forward(layers, x).square().sum().backward()
    (first,) = [ev.pass_id for ev in trace.find("pass_started") if ev.depth == 1]
    return measure.saved_bytes(trace, first), measure.peak_saved_bytes(trace, first)


def apply_all(layers, x):
    for layer in layers:
        x = layer(x)
    return x


def test_the_memory_budget_numbers_are_measured():
    plain, plain_peak = sixteen_layers(apply_all)
    outer, one_peak = sixteen_layers(lambda ls, x: checkpoint(lambda t: apply_all(ls, t), x, use_reentrant=False))
    kept, budget_peak = sixteen_layers(load_reference(LESSON, "ex3_recompute").budget_forward)
    assert plain == plain_peak and budget_peak <= plain // 2 < one_peak
    text = " ".join(readme().split())
    for said in (
        f"the saved activations hold {plain} bytes",
        f"the outer graph keeps only {outer} bytes",
        f"the peak is {one_peak} bytes, *more* than without",
        f"outputs, {kept} bytes",
        f"the peak is {budget_peak} bytes, half",
    ):
        assert said in text, f"lesson {LESSON}'s text should say, as measured: {said}"
