"""The hints file format (lessons/NN_topic/hints.md) and every lesson's hints."""

import pytest

from minigrad.course import list_lessons
from minigrad.course.hints import load_hints, parse_hints

LESSONS = list_lessons()


def test_sections_and_separators():
    text = "# Hints\nintro ignored\n\n## 2.1 topo\nfirst\nstill first\n---\nsecond\n\n## 2.2\nonly\n"
    assert parse_hints(text) == {"2.1": ["first\nstill first", "second"], "2.2": ["only"]}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("## 1.1\na\n## 1.1\nb\n", "second section"),
        ("## one\na\n", "must be '## N.k'"),
        ("## 1.1\na\n---\n---\nb\n", "empty hint"),
        ("## 1.1\n---\na\n", "empty hint"),
    ],
)
def test_malformed_files_are_errors_naming_the_problem(text, message):
    with pytest.raises(ValueError, match=message):
        parse_hints(text, "x/hints.md")


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.key for lesson in LESSONS])
def test_every_hints_file_parses_and_names_real_exercises(lesson):
    hints = load_hints(lesson)
    exercises = {lesson.exercise_number(ref) for ref in lesson.references}
    assert set(hints) <= exercises, f"hints for exercises that do not exist: {sorted(set(hints) - exercises)}"
