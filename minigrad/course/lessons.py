"""Find lessons on disk: the course installed with the package (or a checkout's ``lessons/``), then
the folders of ``$MINIGRAD_LESSONS``, then those of installed ``minigrad.lessons`` entry points.

A wheel or sdist carries the repository's top-level ``lessons/`` as the package data
``minigrad/course/_lessons/`` (copied by the build hook in ``setup.py``); in a source
checkout (an editable install) the lessons are read from the repository itself.

The lesson path is additive, so a teacher's lessons come after the built-in ones:

- ``MINIGRAD_LESSONS`` holds folders separated by ``os.pathsep`` (``:`` on POSIX), each holding
  lesson folders;
- a distribution may declare ``[project.entry-points."minigrad.lessons"] my_course = "my_course.lessons"``:
  the entry point names a package whose folder holds lesson folders (or a callable returning that
  folder's path, or the path itself).

A lesson folder holds a ``lesson.toml`` (:mod:`~minigrad.course.manifest`): its number comes from
there. The folder is conventionally named ``NN_slug``; when its name says another number than its
lesson.toml, that is an error naming both (a renumbered lesson is renumbered in one place).
"""

from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from .manifest import MANIFEST, Manifest, ManifestError, read_manifest

_FOLDER = re.compile(r"^(\d+)_(\w+)$")
ENTRY_POINTS = "minigrad.lessons"

PACKAGED = Path(__file__).resolve().parent / "_lessons"
CHECKOUT = Path(__file__).resolve().parents[2] / "lessons"


def lessons_root() -> Path:
    """The folder that holds the built-in lessons (read-only for the learner: exercises are done in a workspace)."""
    if PACKAGED.is_dir():
        return PACKAGED
    return CHECKOUT


def is_checkout(root: Path | None = None) -> bool:
    """True when the lessons are a source checkout's ``lessons/`` (not a copy installed in site-packages)."""
    root = (root or lessons_root()).resolve()
    return root != PACKAGED and (root.parent / "pyproject.toml").is_file()


def _entry_point_folder(entry) -> Path:
    target = entry.load()
    if callable(target):
        target = target()
    if hasattr(target, "__file__") and target.__file__:
        return Path(target.__file__).resolve().parent
    if hasattr(target, "__path__"):  # a namespace package
        return Path(next(iter(target.__path__))).resolve()
    return Path(target)


def lesson_folders() -> list[Path]:
    """Where lessons are looked for, in order: the built-in course, ``$MINIGRAD_LESSONS``'s folders,
    then the ``minigrad.lessons`` entry points' (by name)."""
    folders = [lessons_root()]
    folders += [Path(p) for p in os.environ.get("MINIGRAD_LESSONS", "").split(os.pathsep) if p]
    for entry in sorted(metadata.entry_points(group=ENTRY_POINTS), key=lambda e: e.name):
        try:
            folders.append(_entry_point_folder(entry))
        except Exception as exc:  # a broken course must say which one it is
            raise ImportError(f"the {ENTRY_POINTS} entry point {entry.name} = {entry.value!r} failed: {exc}") from exc
    out = []
    for folder in folders:
        if folder.resolve() not in [f.resolve() for f in out]:
            out.append(folder)
    return out


@dataclass(frozen=True)
class Lesson:
    """One lesson folder."""

    number: int
    slug: str
    path: Path

    @property
    def manifest(self) -> Manifest:
        """The lesson's lesson.toml (a lesson folder without one gets the house rules and its README's title)."""
        return _manifest_at(self.path)

    @property
    def title(self) -> str:
        if (self.path / MANIFEST).exists():
            return self.manifest.title
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


@functools.lru_cache(maxsize=256)
def _cached_manifest(path: Path, mtime: float) -> Manifest:
    return read_manifest(path)


def _manifest_at(folder: Path) -> Manifest:
    file = folder / MANIFEST
    if not file.exists():
        m = _FOLDER.match(folder.name)
        title = Lesson(int(m.group(1)) if m else 0, m.group(2) if m else folder.name, folder).title
        return Manifest(number=int(m.group(1)) if m else 0, slug=m.group(2) if m else folder.name, title=title)
    return _cached_manifest(folder, file.stat().st_mtime_ns)


def _lesson_in(folder: Path) -> Lesson | None:
    """The lesson in ``folder`` (None when it is not a lesson folder)."""
    named = _FOLDER.match(folder.name)
    if (folder / MANIFEST).is_file():
        manifest = _manifest_at(folder)
        if named and int(named.group(1)) != manifest.number:
            raise ManifestError(
                f"{folder}: the folder is named for lesson {int(named.group(1))} but its {MANIFEST} says "
                f"number = {manifest.number}; renumber a lesson in {MANIFEST} and rename its folder to match "
                f"({manifest.number:02d}_{manifest.slug})"
            )
        return Lesson(manifest.number, manifest.slug, folder)
    if named:
        return Lesson(int(named.group(1)), named.group(2), folder)
    return None


def list_lessons(root: Path | None = None) -> list[Lesson]:
    """Every lesson, by number: under ``root`` alone when given, else along :func:`lesson_folders`
    (the built-in ones first). Two lessons with one number are an error naming both folders."""
    roots = [root] if root is not None else lesson_folders()
    if not roots[0].is_dir():
        raise FileNotFoundError(
            f"no lessons folder at {roots[0]}: reinstall minigrad (its wheel carries the lessons) or set MINIGRAD_LESSONS"
        )
    found: dict[int, Lesson] = {}
    for folder in roots:
        if not folder.is_dir():
            raise FileNotFoundError(f"{folder} (on the lesson path) is not a folder")
        for child in sorted(folder.iterdir()):
            lesson = _lesson_in(child) if child.is_dir() else None
            if lesson is None:
                continue
            if lesson.number in found:
                raise ManifestError(
                    f"two lessons are numbered {lesson.number}: {found[lesson.number].path} and {lesson.path}"
                )
            found[lesson.number] = lesson
    return sorted(found.values(), key=lambda lesson: lesson.number)


def find_lesson(number: int, root: Path | None = None) -> Lesson:
    """The lesson with this number, or a clear error listing those that exist."""
    lessons = list_lessons(root)
    for lesson in lessons:
        if lesson.number == number:
            return lesson
    have = ", ".join(str(lesson.number) for lesson in lessons) or "none"
    raise LookupError(f"there is no lesson {number}; lessons available: {have}")
