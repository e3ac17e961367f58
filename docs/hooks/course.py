"""MkDocs hook: the course's lessons become pages of the site, read from lessons/ at build time.

Nothing is copied into docs/: each lesson's README.md (its transcripts are part of the text) and its
diagrams/ are served from the lesson folder, and the HTML player of the lesson's demo is recorded and
rendered during the build (``minigrad render --html``'s page, the first ``PLAYER_STEPS`` steps), so the
site always shows the lessons as they are. The navigation lists the lessons by number, then the API
reference pages of docs/site/api/.
"""

from __future__ import annotations

import logging
import warnings
from pathlib import Path

from mkdocs.structure.files import File

log = logging.getLogger("mkdocs.hooks.course")

PLAYER_STEPS = 200  # a long demo (lesson 11 records 10 000 steps) would make a page of hundreds of MB
_LESSONS_URL = "lessons"


def _lessons():
    from minigrad.course.lessons import lessons_root, list_lessons

    return list_lessons(lessons_root())


def _player_section(lesson, steps: int, total: int) -> str:
    shown = f"all {total} steps" if steps == total else f"the first {steps} of its {total} steps"
    return (
        "\n\n## The demo, step by step\n\n"
        f"The lesson's `demo.py`, recorded when this site was built ({shown}; "
        f"`minigrad lesson debug {lesson.number}` steps through every one in the debugger). "
        "Step with the player's buttons or the arrow keys; "
        '<a href="player.html">open the player on its own page</a>.\n\n'
        '<iframe src="player.html" title="The demo of lesson '
        f'{lesson.number}, step by step" style="width: 100%; height: 40rem; border: 1px solid #ccc"></iframe>\n'
    )


def _player_html(lesson) -> tuple[str, int, int]:
    from minigrad.course.recording import record_demo
    from minigrad.viz.player import player_html

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # lesson 8's demo makes NaNs on purpose
        trace = record_demo(lesson)
    total = len(trace.events)
    steps = range(min(total, PLAYER_STEPS))
    return player_html(trace, steps, title=f"Lesson {lesson.number}: {lesson.title}"), len(steps), total


def on_config(config):
    lessons = [{lesson.title: f"{_LESSONS_URL}/{lesson.key}/index.md"} for lesson in _lessons()]
    api = sorted(p.name for p in (Path(config["docs_dir"]) / "api").glob("*.md"))
    config["nav"] = [
        {"Home": "index.md"},
        {"Lessons": lessons},
        {"API reference": [f"api/{name}" for name in api]},
    ]
    return config


def on_files(files, config):
    for lesson in _lessons():
        base = f"{_LESSONS_URL}/{lesson.key}"
        player, steps, total = _player_html(lesson)
        text = (lesson.path / "README.md").read_text(encoding="utf-8")
        files.append(File.generated(config, f"{base}/index.md", content=text + _player_section(lesson, steps, total)))
        files.append(File.generated(config, f"{base}/player.html", content=player))
        for figure in sorted((lesson.path / "diagrams").glob("*.svg")):
            files.append(File.generated(config, f"{base}/diagrams/{figure.name}", abs_src_path=str(figure)))
        log.info(
            "lesson %s: text, %d figures, a player of %d steps",
            lesson.key,
            len(list(lesson.path.glob("diagrams/*.svg"))),
            steps,
        )
    return files
