"""Write each lesson's notebook (``lessons/NN_topic/lesson.ipynb``) from its text and demo, with jupytext.

One source: the notebook is the lesson's README (one markdown cell per section),
then its ``demo.py`` as a code cell, then a cell that records the demo and shows
the recorded trace, which steps in the notebook, then one cell per exercise that checks the
exercise file next to the notebook (:func:`minigrad.course.notebook.check_exercise`: it prints
PASS / TODO / FAIL and never raises, so an unfinished exercise does not stop the notebook).
Run ``python lessons/make_notebooks.py``
after editing a lesson; ``tests/course/test_notebooks.py`` fails when a committed
notebook is stale and executes every notebook with nbclient.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

LESSONS = Path(__file__).resolve().parent
NOTEBOOK_NAME = "lesson.ipynb"
KERNELSPEC = {"display_name": "Python 3", "language": "python", "name": "python3"}

RECORD_CELL = """\
# Record the demo and step through its backward pass right here: the buttons (or
# the slider) move through the events, as n / s / f / <- / -> do in minigrad-tui.
import runpy

import minigrad.trace

with minigrad.trace.record() as trace:
    runpy.run_path("demo.py", run_name="__main__")
trace"""

EXERCISES_TEXT = """\
## Check your exercises

Each cell below checks one exercise file next to this notebook, as `minigrad lesson check {number}` does:
PASS, TODO (not written yet) or FAIL with the reason. Edit the file, then run its cell again."""

EXERCISE_CELL = """\
# Exercise {label}: {file}
from minigrad.course.notebook import check_exercise

check_exercise({number}, "{stem}")"""


def lesson_dirs() -> list[Path]:
    """Every lesson folder on the lesson path (minigrad.course.lessons) that has a text and a demo, in course order."""
    from minigrad.course import list_lessons

    return [lesson.path for lesson in list_lessons() if (lesson.path / "README.md").exists() and lesson.demo.exists()]


def _exercise_cells(folder: Path) -> list[str]:
    """The heading of the exercise checks and one code cell per exercise of the lesson in ``folder``."""
    from minigrad.course import list_lessons

    lesson = next(lesson for lesson in list_lessons() if lesson.path.resolve() == folder.resolve())
    if not lesson.references:
        return []
    cells = [_markdown_cell(EXERCISES_TEXT.format(number=lesson.number))]
    for ref in lesson.references:
        cell = EXERCISE_CELL.format(
            label=lesson.exercise_number(ref), file=ref.name, number=lesson.number, stem=ref.stem
        )
        cells.append("# %%\n" + cell)
    return cells


def _markdown_cell(text: str) -> str:
    return "# %% [markdown]\n" + "\n".join(("# " + line) if line else "#" for line in text.splitlines())


def _sections(markdown: str) -> list[str]:
    """The README split before each ``## `` heading (fenced code blocks are never split)."""
    sections, current, fenced = [], [], False
    for line in markdown.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        if line.startswith("## ") and not fenced and current:
            sections.append("\n".join(current).strip("\n"))
            current = []
        current.append(line)
    if current:
        sections.append("\n".join(current).strip("\n"))
    return [s for s in sections if s]


def percent_script(lesson: Path) -> str:
    """The lesson as a jupytext ``py:percent`` script: text cells, the demo, the recording, the exercise checks."""
    text = (lesson / "README.md").read_text()
    demo = (lesson / "demo.py").read_text().strip("\n")
    demo = re.sub(r'\A""".*?"""\n+', "", demo, flags=re.S)
    cells = [_markdown_cell(s) for s in _sections(text)]
    cells.append(_markdown_cell("## Run the demo\n\nThe lesson's `demo.py`, the script `minigrad lesson debug` opens."))
    cells.append("# %%\n" + demo)
    cells.append("# %%\n" + RECORD_CELL)
    cells += _exercise_cells(lesson)
    return "\n\n".join(cells) + "\n"


def notebook_text(lesson: Path) -> str:
    """The lesson's notebook as ipynb JSON text (deterministic: no jupytext or kernel state in it)."""
    import jupytext

    notebook = jupytext.reads(percent_script(lesson), fmt="py:percent")
    notebook.metadata = {"kernelspec": dict(KERNELSPEC), "language_info": {"name": "python"}}
    for index, cell in enumerate(notebook.cells):
        cell.metadata = {}
        cell.id = f"cell-{index}"
    return jupytext.writes(notebook, fmt="ipynb")


def main(argv=None) -> int:
    """Write every lesson's notebook; with ``--check``, only report stale ones (exit 1)."""
    args = sys.argv[1:] if argv is None else argv
    stale = []
    for lesson in lesson_dirs():
        path = lesson / NOTEBOOK_NAME
        text = notebook_text(lesson)
        if path.exists() and path.read_text() == text:
            continue
        stale.append(path)
        if "--check" not in args:
            path.write_text(text)
    verb = "stale" if "--check" in args else "wrote"
    for path in stale:
        print(f"{verb}: {path.relative_to(LESSONS.parent) if path.is_relative_to(LESSONS.parent) else path}")
    return 1 if stale and "--check" in args else 0


if __name__ == "__main__":
    sys.exit(main())
