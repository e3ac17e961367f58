"""The rules a lesson's text keeps, read from its lesson.toml's ``[rules]`` (``minigrad lesson lint N``).

The built-in lessons keep the house rules (1 500–3 000 words, 3–5 exercises of all four kinds, at least
two hints per exercise, a ``## Summary`` ending with a ``**Next:**`` pointer); a teacher's lesson may
set its own in its lesson.toml. :func:`text_problems` lists what a lesson breaks, in words a teacher
can act on; tests/course runs it over every lesson.
"""

from __future__ import annotations

import re

from .hints import load_hints
from .manifest import MANIFEST

__all__ = ["prose_words", "exercise_items", "text_problems"]

_FENCE = re.compile(r"^```.*?^```", re.DOTALL | re.MULTILINE)


def prose_words(text: str) -> int:
    """Words outside fenced code blocks (transcripts and code are not counted)."""
    return len(_FENCE.sub("", text).split())


def exercise_items(text: str) -> list[str]:
    """The numbered items of the README's ``## Exercises`` section (empty when it has none)."""
    if "\n## Exercises" not in text:
        return []
    section = text.split("\n## Exercises", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\d+\. (.*)$", section, re.MULTILINE)


def text_problems(lesson) -> list[str]:
    """What ``lesson`` breaks of the rules in its lesson.toml (empty when it keeps them all)."""
    if not (lesson.path / MANIFEST).exists():
        return [
            f"{lesson.key} has no {MANIFEST} (minigrad lesson new writes one; lessons/AUTHORING.md says what it holds)"
        ]
    manifest = lesson.manifest
    rules = manifest.rules
    readme = lesson.path / "README.md"
    if not readme.exists():
        return [f"{lesson.key} has no README.md"]
    text = readme.read_text()
    problems = []

    low, high = rules.words
    words = prose_words(text)
    if not low <= words <= high:
        problems.append(f"README.md has {words} words of prose (outside code blocks); its {MANIFEST} asks {low}–{high}")

    references = lesson.references
    low, high = rules.exercises
    if not low <= len(references) <= high:
        problems.append(f"reference/ holds {len(references)} exercises; its {MANIFEST} asks {low}–{high}")
    declared = [exercise.file for exercise in manifest.exercises]
    if declared != [ref.name for ref in references]:
        problems.append(
            f"{MANIFEST} lists the exercises {declared}, reference/ holds {[ref.name for ref in references]}: "
            "one [[exercises]] entry per reference file, in order"
        )
    kinds = {exercise.kind for exercise in manifest.exercises}
    missing = [kind for kind in rules.kinds if kind not in kinds]
    if missing:
        problems.append(f"no exercise of the kind(s) {missing} that its {MANIFEST} [rules] kinds asks for")

    items = exercise_items(text)
    if len(items) != len(manifest.exercises):
        problems.append(
            f"README.md's '## Exercises' lists {len(items)} items; there are {len(manifest.exercises)} exercises"
        )
    for exercise, item in zip(manifest.exercises, items):
        if f"`{exercise.file}`" not in item:
            problems.append(f"the Exercises item {item[:60]!r} should name `{exercise.file}`")
        if not item.startswith(f"**{exercise.kind}**"):
            problems.append(f"the Exercises item for {exercise.file} should start with **{exercise.kind}**")

    try:
        hints = load_hints(lesson)
    except ValueError as exc:
        problems.append(str(exc))
    else:
        want = [lesson.exercise_number(ref) for ref in references]
        if sorted(hints) != sorted(want):
            problems.append(f"hints.md has sections for {sorted(hints)}; the exercises are {want}")
        few = [key for key, parts in hints.items() if len(parts) < rules.hints_per_exercise]
        if few:
            problems.append(f"exercises {few} have fewer than {rules.hints_per_exercise} hints")

    if rules.summary:
        if "\n## Summary\n" not in text:
            problems.append("README.md has no '## Summary' section")
        elif "**Next:**" not in text.split("\n## Summary\n", 1)[1]:
            problems.append("README.md's Summary does not end with a '**Next:**' pointer")
    return problems
