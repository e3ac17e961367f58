"""Check one exercise from a lesson's notebook: what its exercise cells call.

``minigrad lesson check N`` checks a whole lesson from a terminal; a notebook checks one exercise per
cell, on the exercise files next to it (the notebook's folder is the lesson's, or the workspace's copy
of it), and prints the same PASS / TODO / FAIL lines. It never raises for a failed check: an
unfinished exercise must not stop the notebook running.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["exercise_results", "check_exercise", "result_lines"]


def exercise_results(number: int, exercise: str, folder: str | Path = ".") -> list:
    """The :class:`~minigrad.course.checking.CheckResult` of each check of exercise ``exercise``
    (its file's stem, ``"ex2_local_rules"``) of lesson ``number``, run on ``folder``'s exercise files."""
    from .checking import run_checks
    from .lessons import find_lesson

    lesson = find_lesson(number)
    stems = [ref.stem for ref in lesson.references]
    if exercise not in stems:
        raise LookupError(f"lesson {number} has no exercise {exercise!r}; its exercises: {', '.join(stems)}")
    return [r for r in run_checks(lesson, exercise_dir=Path(folder)) if r.exercise == exercise]


def result_lines(results: list) -> list[str]:
    """Each result as ``minigrad lesson check`` prints it: PASS / TODO / FAIL, the check, why it failed."""
    lines = []
    for r in results:
        mark = "PASS" if r.passed else ("TODO" if r.not_done else "FAIL")
        lines.append(f"{mark}  {r.description}")
        if not r.passed:
            lines += [f"      {line}" for line in r.explain().splitlines()]
    return lines


def check_exercise(number: int, exercise: str, folder: str | Path = ".") -> None:
    """Print the checks of one exercise on ``folder``'s files (see :func:`exercise_results`), then how
    many passed."""
    results = exercise_results(number, exercise, folder)
    for line in result_lines(results):
        print(line)
    passed = sum(r.passed for r in results)
    print(f"\n{exercise}: {passed} of {len(results)} checks passed")
