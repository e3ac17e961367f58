"""Lesson texts a learner can take alone: the rules of each lesson.toml (length, exercises of every kind,
hints, a summary, a pointer onwards), and the debugger transcripts they quote up to date with the demos."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import pytest

from minigrad.course import list_lessons
from minigrad.course.lessons import lessons_root
from minigrad.course.manifest import Rules
from minigrad.course.rules import prose_words, text_problems

TAUGHT = [lesson for lesson in list_lessons() if lesson.path.parent == lessons_root()]  # the built-in course
IDS = [f"{lesson.number:02d}" for lesson in TAUGHT]
SCRIPT = lessons_root() / "make_transcripts.py"


def load_script():
    spec = importlib.util.spec_from_file_location("make_transcripts", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("lesson", TAUGHT, ids=IDS)
def test_keeps_the_rules_of_its_lesson_toml(lesson):
    """Length, 3-5 exercises of every kind named in the text, hints, a summary with a pointer onwards:
    the rules its lesson.toml states (minigrad.course.rules), which lessons/AUTHORING.md writes out."""
    problems = text_problems(lesson)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lesson", TAUGHT, ids=IDS)
def test_a_built_in_lesson_keeps_the_house_standard(lesson):
    """A teacher's lesson.toml may set other bounds; the course's own lessons keep the house rules."""
    manifest = lesson.manifest
    assert manifest.rules == Rules(), f"lesson {lesson.number}'s lesson.toml relaxes the house rules: {manifest.rules}"
    assert manifest.number == lesson.number and lesson.key == f"{manifest.number:02d}_{manifest.slug}"
    heading = (lesson.path / "README.md").read_text().splitlines()[0]
    assert heading == f"# Lesson {manifest.number} — {manifest.title}", "the README's title is lesson.toml's"


@pytest.mark.parametrize("lesson", TAUGHT, ids=IDS)
def test_shows_the_debugger_at_work(lesson):
    text = (lesson.path / "README.md").read_text()
    assert f"minigrad lesson debug {lesson.number}" in text
    assert "<!-- transcript: " in text, f"lesson {lesson.number} quotes no debugger transcript"


# BLAS picks its summation order by thread count and core type: the transcripts must say the same under each.
# Prescott (SSE3) runs on any x86-64 machine; elsewhere OpenBLAS ignores the name.
BLAS_SETTINGS = {
    "1 thread": {"OPENBLAS_NUM_THREADS": "1"},
    "2 threads": {"OPENBLAS_NUM_THREADS": "2"},
    "2 threads, Prescott kernels": {"OPENBLAS_NUM_THREADS": "2", "OPENBLAS_CORETYPE": "Prescott"},
}


@pytest.mark.parametrize("blas", BLAS_SETTINGS.values(), ids=BLAS_SETTINGS.keys())
def test_transcripts_are_current(blas):
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENBLAS_")} | blas
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "--check"], capture_output=True, text=True, timeout=600, env=env
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_a_transcript_is_stale_when_it_says_something_else_not_when_its_last_digit_moves():
    differ = load_script().first_difference
    line = "step 66  pass 3  closure_called   loss returns (mean 0 std 0.004455 min -0.006117 max 0.006117)\n"
    assert differ(line, line) is None
    assert differ(line, line.replace("0.004455", "0.004456").replace("  pass", " pass")) is None
    assert differ("norm=1.000\n", "norm=1.001\n") is None  # one unit in the fourth significant digit
    stale = [
        line.replace("mean 0", "mean -4.657e-12"),  # rounding noise where the describer prints 0
        line.replace("step 66", "step 67"),
        line.replace("0.004455", "0.004465"),
        line.replace("loss", "logits"),
        line + "              gradient in = 1\n",
    ]
    for other in stale:
        assert differ(line, other) is not None, other
    assert (
        differ("at _loss.py:269-270:\n", "at _loss.py:269-271:\n") == "- at _loss.py:269-270:\n+ at _loss.py:269-271:"
    )


def test_every_transcript_block_is_registered():
    script = load_script()
    for lesson in TAUGHT:
        have = script.blocks(lesson.path / "README.md")
        registered = {key.split("/")[1] for key in script.TRANSCRIPTS if key.startswith(lesson.path.name + "/")}
        assert set(have) <= registered, f"{lesson.path.name} has blocks no transcript fills: {set(have) - registered}"


def test_prose_words_skip_code():
    assert prose_words("one two\n```text\nthree four five\n```\nsix\n") == 3
