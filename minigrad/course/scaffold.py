"""``minigrad lesson new N slug``: a lesson skeleton that passes its own checks.

It writes ``NN_slug/`` with a lesson.toml, a README that keeps the rules of that lesson.toml, a demo,
one exercise of each kind (reference solution, the learner's stub generated from it, checks, two hints
each) and a screens.py declaring a transcript and a diagram. ``minigrad lesson check N --reference``
passes at once; ``minigrad lesson check N`` on the stubs answers TODO for each check. The templates are
the files of ``minigrad/course/skeleton/`` (each with ``.txt`` appended, so that no tool takes them for
a lesson of their own); ``{number}``, ``{slug}`` and ``{title}`` in them are filled in.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from .stubs import write_stub

__all__ = ["new_lesson", "SKELETON"]

SKELETON = Path(__file__).resolve().parent / "skeleton"
_SLUG = re.compile(r"^[a-z][a-z0-9_]*$")


def new_lesson(number: int, slug: str, folder: Path, title: str | None = None) -> Path:
    """Write lesson ``number``'s skeleton into ``folder/NN_slug`` (which must not exist); returns its path."""
    if number < 1:
        raise ValueError(f"a lesson's number is 1 or more, got {number}")
    if not _SLUG.match(slug):
        raise ValueError(f"a slug is lower-case letters, digits and underscores, starting with a letter; got {slug!r}")
    target = Path(folder) / f"{number:02d}_{slug}"
    if target.exists():
        raise FileExistsError(f"{target} exists already: choose another slug or folder")
    title = title or slug.replace("_", " ").capitalize()
    values = {"{number}": str(number), "{slug}": slug, "{title}": title}
    for template in sorted(SKELETON.rglob("*.txt")):
        relative = template.relative_to(SKELETON).with_suffix("")
        text = template.read_text()
        if relative.name == "lesson.toml":
            text = text.replace('"{title}"', json.dumps(title))
        for key, value in values.items():
            text = text.replace(key, value)
        destination = target / relative
        destination.parent.mkdir(parents=True, exist_ok=True)
        destination.write_text(text)
    for reference in sorted((target / "reference").glob("ex*.py")):
        write_stub(reference)
    return target
