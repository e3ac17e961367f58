"""A lesson's ``lesson.toml``: its number, slug, title, exercises and the rules its text keeps.

The lesson's number lives here and nowhere else a teacher has to keep in step: the checks, the
hints and the CLI read it from the lesson (see :func:`minigrad.course.checking.this_lesson`)::

    number = 12
    slug = "attention"
    title = "Attention, step by step"

    [rules]                      # optional: these are the built-in lessons' (the house rules)
    words = [1500, 3000]         # prose words of README.md, outside fenced code
    exercises = [3, 5]           # how many exercises
    kinds = ["Warm-up", "Implementation", "Prediction", "Debugging"]   # each appears at least once
    hints_per_exercise = 2       # at least this many hints in each hints.md section
    summary = true               # README.md has a "## Summary" that ends with a "**Next:**" pointer

    [[exercises]]
    file = "ex1_scores_by_hand.py"
    kind = "Warm-up"
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

__all__ = ["MANIFEST", "KINDS", "Rules", "Exercise", "Manifest", "read_manifest", "ManifestError"]

MANIFEST = "lesson.toml"
KINDS = ("Warm-up", "Implementation", "Prediction", "Debugging")


class ManifestError(ValueError):
    """A lesson.toml that is missing a field, has one of the wrong type, or disagrees with its folder."""


@dataclass(frozen=True)
class Rules:
    """What a lesson's text must hold (the defaults are the built-in lessons' standard)."""

    words: tuple[int, int] = (1500, 3000)
    exercises: tuple[int, int] = (3, 5)
    kinds: tuple[str, ...] = KINDS
    hints_per_exercise: int = 2
    summary: bool = True


@dataclass(frozen=True)
class Exercise:
    file: str
    kind: str

    @property
    def stem(self) -> str:
        return Path(self.file).stem


@dataclass(frozen=True)
class Manifest:
    number: int
    slug: str
    title: str
    exercises: tuple[Exercise, ...] = ()
    rules: Rules = field(default_factory=Rules)


def _field(data: dict, key: str, kind, origin: str, default=None):
    if key not in data:
        if default is not None:
            return default
        raise ManifestError(f"{origin}: no '{key}' (a {kind.__name__})")
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ManifestError(f"{origin}: '{key}' should be a {kind.__name__}, got {value!r}")
    return value


def _bounds(data: dict, key: str, default: tuple[int, int], origin: str) -> tuple[int, int]:
    value = data.get(key, list(default))
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) for v in value)):
        raise ManifestError(f"{origin}: '{key}' should be [lowest, highest], got {value!r}")
    low, high = value
    if low > high:
        raise ManifestError(f"{origin}: '{key}' = [{low}, {high}] has its lowest above its highest")
    return low, high


def parse_manifest(text: str, origin: str = MANIFEST) -> Manifest:
    """A Manifest from lesson.toml's text; errors name the file and the field."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ManifestError(f"{origin} is not valid TOML: {exc}") from None
    defaults = Rules()
    raw_rules = _field(data, "rules", dict, origin, default={})
    rules = Rules(
        words=_bounds(raw_rules, "words", defaults.words, f"{origin} [rules]"),
        exercises=_bounds(raw_rules, "exercises", defaults.exercises, f"{origin} [rules]"),
        kinds=tuple(_field(raw_rules, "kinds", list, f"{origin} [rules]", default=list(defaults.kinds))),
        hints_per_exercise=_field(raw_rules, "hints_per_exercise", int, f"{origin} [rules]", default=2),
        summary=raw_rules.get("summary", defaults.summary),
    )
    exercises = []
    for index, entry in enumerate(_field(data, "exercises", list, origin, default=[]), 1):
        where = f"{origin} exercise {index}"
        if not isinstance(entry, dict):
            raise ManifestError(f"{where}: write it as a [[exercises]] table with file and kind")
        exercise = Exercise(_field(entry, "file", str, where), _field(entry, "kind", str, where))
        if exercise.kind not in KINDS:
            raise ManifestError(f"{where}: kind {exercise.kind!r} is not one of {', '.join(KINDS)}")
        exercises.append(exercise)
    number = _field(data, "number", int, origin)
    if number < 1:
        raise ManifestError(f"{origin}: 'number' should be 1 or more, got {number}")
    return Manifest(
        number=number,
        slug=_field(data, "slug", str, origin),
        title=_field(data, "title", str, origin),
        exercises=tuple(exercises),
        rules=rules,
    )


def read_manifest(folder: Path) -> Manifest:
    """The lesson.toml of a lesson folder."""
    path = Path(folder) / MANIFEST
    return parse_manifest(path.read_text(), f"{Path(folder).name}/{MANIFEST}")
