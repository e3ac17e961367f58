"""Find lessons on disk: ``lessons/NN_topic/`` beside the package, or $MINIGRAD_LESSONS."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

_FOLDER = re.compile(r"^(\d\d)_(\w+)$")


def lessons_root() -> Path:
    """The folder that holds the lessons."""
    env = os.environ.get("MINIGRAD_LESSONS")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[2] / "lessons"


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
    def references(self) -> list[Path]:
        """The reference solution of each exercise, in order."""
        return sorted((self.path / "reference").glob("ex*.py"))

    def exercise_file(self, reference: Path) -> Path:
        return self.path / reference.name


def list_lessons(root: Path | None = None) -> list[Lesson]:
    """Every lesson under ``root``, by number."""
    root = root or lessons_root()
    if not root.is_dir():
        raise FileNotFoundError(
            f"no lessons folder at {root}: run from a minigrad source checkout or set MINIGRAD_LESSONS"
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
