"""Tracebacks as a learner reads them: their frames kept, minigrad's folded."""

from __future__ import annotations

import traceback

import pytest

import minigrad as mg
from minigrad.trace import record
from minigrad.trace.tracebacks import live_frames, user_traceback


def _learner_adds_mismatched_shapes():
    return mg.tensor([1.0, 2.0]) + mg.tensor([1.0, 2.0, 3.0])


def test_minigrad_frames_are_folded_and_the_learners_line_named():
    with pytest.raises(RuntimeError) as info:
        _learner_adds_mismatched_shapes()
    frames = traceback.extract_tb(info.value.__traceback__)
    raised_at, text = user_traceback(frames, "RuntimeError: shapes")
    lines = text.splitlines()
    assert lines[0] == "Traceback (most recent call last):"
    assert "_learner_adds_mismatched_shapes" in text and "mg.tensor([1.0, 2.0]) + mg.tensor" in text
    assert any(line.strip().startswith("... ") and "inside minigrad" in line for line in lines)
    assert "minigrad/ops" not in text and lines[-1] == "RuntimeError: shapes"
    assert (
        raised_at
        == f"test_tracebacks.py:{_learner_adds_mismatched_shapes.__code__.co_firstlineno + 1} in _learner_adds_mismatched_shapes"
    )
    _, short = user_traceback(frames, "RuntimeError: shapes", short=True)
    assert "Traceback" not in short and "  test_tracebacks.py:" in short


def test_while_handling_the_frames_include_the_callers():
    def fails():
        raise ValueError("x")

    try:
        fails()
    except ValueError:
        names = [f.name for f in live_frames()]
    assert names[-2:] == ["test_while_handling_the_frames_include_the_callers", "fails"]


def test_no_frame_of_the_learner_gives_the_title_alone():
    assert user_traceback([], "ValueError: x") == (None, "ValueError: x")


def _record_a_second_backward():
    with record() as trace:
        y = (mg.tensor([1.0, 2.0], requires_grad=True) ** 2).sum()
        y.backward()
        with pytest.raises(RuntimeError):
            y.backward()
    return trace


def test_a_recorded_error_keeps_the_frames_from_the_recorded_block_on():
    (error,) = _record_a_second_backward().find("error")
    assert error.raised_at.startswith("test_tracebacks.py:") and error.raised_at.endswith(
        "in _record_a_second_backward"
    )
    assert "y.backward()" in error.traceback and "inside minigrad" in error.traceback
    assert "test_a_recorded_error_keeps" not in error.traceback and "pytest" not in error.traceback
