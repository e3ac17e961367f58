"""Tracebacks as a learner reads them: their frames kept, minigrad's folded."""

from __future__ import annotations

import contextlib
import traceback

import pytest

import minigrad as mg
from minigrad import _events
from minigrad.trace import listen, record
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


def _unused_input_error(watch):
    """The ``error`` event of a grad() whose input is unused, as ``watch`` (record or listen) delivers it."""
    seen = []
    with watch(seen) as trace:
        x, unused = mg.tensor([1.0], requires_grad=True), mg.tensor([2.0], requires_grad=True)
        with pytest.raises(RuntimeError, match="appears to not have been used"):
            mg.autograd.grad((x * 3).sum(), unused)
    (error,) = [e for e in (seen or trace.events) if e.kind == "error"]
    return error


@contextlib.contextmanager
def _recording(seen):
    with record() as trace:
        yield trace


@contextlib.contextmanager
def _listening(seen):
    with listen(seen.append):
        yield None


@contextlib.contextmanager
def _recording_beside_another_listener(seen):
    _events.add_listener(_ignore)
    try:
        with record() as trace:
            yield trace
    finally:
        _events.remove_listener(_ignore)


def _ignore(kind, values):
    pass


def test_an_error_reported_before_raising_folds_the_engines_frames_not_the_listeners():
    # the engine reports an unused input before it raises: the traceback is the stack from the engine out,
    # the same whoever listens (the recorder's, listen()'s and the event bus's own frames were counted in)
    recorded = _unused_input_error(_recording)
    assert recorded.raised_at.startswith("test_tracebacks.py:") and "mg.autograd.grad(" in recorded.traceback
    assert "... 2 frames inside minigrad" in recorded.traceback  # grad() and the pass it runs
    assert _unused_input_error(_listening).traceback == recorded.traceback
    assert _unused_input_error(_recording_beside_another_listener).traceback == recorded.traceback
