"""Lesson texts a learner can take alone: length, exercises of every kind, hints, a summary, a pointer
onwards, and the debugger transcripts they quote up to date with the demos."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys

import pytest

from minigrad.course import list_lessons
from minigrad.course.hints import load_hints
from minigrad.course.lessons import lessons_root

TAUGHT = list_lessons()
IDS = [f"{lesson.number:02d}" for lesson in TAUGHT]
SCRIPT = lessons_root() / "make_transcripts.py"
FENCE = re.compile(r"^```.*?^```", re.DOTALL | re.MULTILINE)
KINDS = ("Warm-up", "Implementation", "Prediction", "Debugging")


def prose_words(text: str) -> int:
    """Words outside fenced code blocks (transcripts and code are not counted)."""
    return len(FENCE.sub("", text).split())


def exercise_items(text: str) -> list[str]:
    """The numbered items of the README's Exercises section."""
    section = text.split("\n## Exercises", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\d+\. (.*)$", section, re.MULTILINE)


def load_script():
    spec = importlib.util.spec_from_file_location("make_transcripts", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("lesson", TAUGHT, ids=IDS)
def test_text_is_long_enough_to_learn_from_and_short_enough_to_finish(lesson):
    words = prose_words((lesson.path / "README.md").read_text())
    assert 1500 <= words <= 3000, f"lesson {lesson.number} has {words} words of prose; a lesson has 1 500–3 000"


@pytest.mark.parametrize("lesson", TAUGHT, ids=IDS)
def test_three_to_five_exercises_of_every_kind(lesson):
    items = exercise_items((lesson.path / "README.md").read_text())
    assert 3 <= len(items) <= 5, f"lesson {lesson.number} lists {len(items)} exercises"
    assert len(items) == len(lesson.references), "the text lists each exercise of reference/ once"
    for ref, item in zip(lesson.references, items):
        assert f"`{ref.name}`" in item, f"exercise {item!r} should name {ref.name}"
    kinds = {kind for item in items for kind in KINDS if item.startswith(f"**{kind}**")}
    assert kinds == set(KINDS), f"lesson {lesson.number} lacks a {sorted(set(KINDS) - kinds)} exercise"


@pytest.mark.parametrize("lesson", TAUGHT, ids=IDS)
def test_every_exercise_has_progressive_hints(lesson):
    hints = load_hints(lesson)
    want = [f"{lesson.number}.{k}" for k in range(1, len(lesson.references) + 1)]
    assert sorted(hints) == want, f"hints.md sections {sorted(hints)}, exercises {want}"
    few = [key for key, parts in hints.items() if len(parts) < 2]
    assert not few, f"exercises {few} need at least two hints, gentlest first"


@pytest.mark.parametrize("lesson", TAUGHT, ids=IDS)
def test_ends_with_a_summary_and_the_next_step(lesson):
    text = (lesson.path / "README.md").read_text()
    assert "\n## Summary\n" in text, f"lesson {lesson.number} has no Summary section"
    assert "**Next:**" in text.split("\n## Summary\n", 1)[1], "the summary ends with a pointer to what comes next"


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
