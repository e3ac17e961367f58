"""Find lessons on disk: $MINIGRAD_LESSONS, the copy installed with the package, or a checkout's ``lessons/``.

A wheel or sdist carries the repository's top-level ``lessons/`` as the package data
``minigrad/course/_lessons/`` (copied by the build hook in ``setup.py``); in a source
checkout (an editable install) the lessons are read from the repository itself.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

_FOLDER = re.compile(r"^(\d\d)_(\w+)$")


PACKAGED = Path(__file__).resolve().parent / "_lessons"
CHECKOUT = Path(__file__).resolve().parents[2] / "lessons"


def lessons_root() -> Path:
    """The folder that holds the lessons (read-only for the learner: exercises are done in a workspace)."""
    env = os.environ.get("MINIGRAD_LESSONS")
    if env:
        return Path(env)
    if PACKAGED.is_dir():
        return PACKAGED
    return CHECKOUT


def is_checkout(root: Path | None = None) -> bool:
    """True when the lessons are a source checkout's ``lessons/`` (not a copy installed in site-packages)."""
    root = (root or lessons_root()).resolve()
    return root != PACKAGED and (root.parent / "pyproject.toml").is_file()


@dataclass(frozen=True)
class Lesson:
    """One lesson folder."""

    number: int
    slug: str
    path: Path

    @property
    def title(self) -> str:
        readme = self.path / "README.md"
        if readme.exists():
            for line in readme.read_text().splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
        return self.slug.replace("_", " ")

    @property
    def demo(self) -> Path:
        return self.path / "demo.py"

    @property
    def key(self) -> str:
        """The folder name, ``NN_topic``: the same in the lessons and in a workspace."""
        return self.path.name

    @property
    def hints_file(self) -> Path:
        return self.path / "hints.md"

    @property
    def references(self) -> list[Path]:
        """The reference solution of each exercise, in order."""
        return sorted((self.path / "reference").glob("ex*.py"))

    def exercise_file(self, reference: Path) -> Path:
        return self.path / reference.name

    def exercise_number(self, reference: Path) -> str:
        """``"N.k"`` for ``reference/exK_*.py`` (how the text and ``lesson hint`` name an exercise)."""
        m = re.match(r"ex(\d+)_", reference.name)
        k = int(m.group(1)) if m else self.references.index(reference) + 1
        return f"{self.number}.{k}"


def list_lessons(root: Path | None = None) -> list[Lesson]:
    """Every lesson under ``root``, by number."""
    root = root or lessons_root()
    if not root.is_dir():
        raise FileNotFoundError(
            f"no lessons folder at {root}: reinstall minigrad (its wheel carries the lessons) or set MINIGRAD_LESSONS"
        )
    found = []
    for child in root.iterdir():
        m = _FOLDER.match(child.name)
        if m and child.is_dir():
            found.append(Lesson(int(m.group(1)), m.group(2), child))
    return sorted(found, key=lambda lesson: lesson.number)


def find_lesson(number: int, root: Path | None = None) -> Lesson:
    """The lesson with this number, or a clear error listing those that exist."""
    lessons = list_lessons(root)
    for lesson in lessons:
        if lesson.number == number:
            return lesson
    have = ", ".join(str(lesson.number) for lesson in lessons) or "none"
    raise LookupError(f"there is no lesson {number}; lessons available: {have}")
