"""Progressive hints: ``lessons/NN_topic/hints.md``, read by ``minigrad lesson hint N.k``.

The format is Markdown. Each exercise has a section whose heading is ``## N.k`` (an optional
title may follow); its hints are separated by lines holding only ``---``, from the gentlest
nudge to the last step before the solution. Text before the first section is ignored::

    # Hints for lesson 1

    ## 1.1 grads_by_hand

    Name the pieces: d = a * b, e = d + c, f = tanh(e).

    ---

    df/de = 1 - f**2; multiply by what e's inputs contribute.

    ## 1.2 local rules
    ...

A section may name its exercise by file instead, ``## ex1_grads_by_hand``: then the heading holds no
lesson number to keep in step when the lesson is renumbered (``minigrad lesson new`` writes these). A
``## N.k`` heading whose N is not the lesson's number (its lesson.toml's) is an error saying so.

Each ``minigrad lesson hint N.k`` shows one more hint than the last call did (counted in the
workspace's progress); ``--again`` shows those seen so far without a new one.
"""

from __future__ import annotations

import re

__all__ = ["parse_hints", "load_hints", "parse_exercise_id"]

_SECTION = re.compile(r"^##\s+(\d+)\.(\d+)\b[ \t]*(.*)$")
_BY_FILE = re.compile(r"^##\s+(ex\d+_\w+?)(?:\.py)?(?:[ \t]+(.*))?$")
_ID = re.compile(r"^\s*(\d+)\.(\d+)\s*$")


def parse_exercise_id(text: str) -> tuple[int, str]:
    """``"4.1"`` -> ``(4, "4.1")``; a ValueError explaining the form otherwise."""
    m = _ID.match(text)
    if not m:
        raise ValueError(f"name an exercise as LESSON.EXERCISE, e.g. 4.1 (got {text!r})")
    lesson, k = int(m.group(1)), int(m.group(2))
    return lesson, f"{lesson}.{k}"


def parse_hints(
    text: str, origin: str = "hints.md", number: int | None = None, exercises: dict[str, str] | None = None
) -> dict[str, list[str]]:
    """``{"N.k": [hint, ...]}`` from a hints file; errors name the file and line.

    ``number`` is the lesson's: a ``## N.k`` section of another lesson is an error. ``exercises`` maps
    each exercise's file stem to its ``"N.k"``, for ``## exK_name`` sections (without it they keep the stem).
    """
    sections: dict[str, list[list[str]]] = {}
    current = None
    for lineno, line in enumerate(text.splitlines(), 1):
        m = _SECTION.match(line)
        by_file = None if m else _BY_FILE.match(line)
        if m or by_file:
            if m:
                key = f"{int(m.group(1))}.{int(m.group(2))}"
                if number is not None and int(m.group(1)) != number:
                    raise ValueError(
                        f"{origin}:{lineno}: the section '## {key}' is for lesson {int(m.group(1))}, but this is "
                        f"lesson {number} (the number in its lesson.toml): write '## {number}.{int(m.group(2))}', "
                        "or name the exercise by its file ('## ex1_name'), which no renumbering changes"
                    )
            else:
                stem = by_file.group(1)
                if exercises is not None and stem not in exercises:
                    have = ", ".join(exercises) or "none"
                    raise ValueError(f"{origin}:{lineno}: no exercise file {stem}.py in this lesson (it has {have})")
                key = exercises[stem] if exercises is not None else stem
            if key in sections:
                raise ValueError(f"{origin}:{lineno}: a second section for exercise {key}")
            current = sections[key] = [[]]
        elif line.startswith("## "):
            raise ValueError(
                f"{origin}:{lineno}: a section heading must be '## N.k' (e.g. '## 1.1') or name an exercise file "
                f"('## ex1_name'), got {line!r}"
            )
        elif current is None:
            continue
        elif line.strip() == "---":
            current.append([])
        else:
            current[-1].append(line)
    hints = {}
    for key, parts in sections.items():
        texts = ["\n".join(p).strip() for p in parts]
        if not all(texts):
            raise ValueError(f"{origin}: exercise {key} has an empty hint (two '---' in a row, or one at an end)")
        hints[key] = texts
    return hints


def load_hints(lesson) -> dict[str, list[str]]:
    """The hints of ``lesson`` (empty when it has no hints file), keyed ``"N.k"`` with the lesson's number."""
    path = lesson.hints_file
    if not path.exists():
        return {}
    exercises = {ref.stem: lesson.exercise_number(ref) for ref in lesson.references}
    return parse_hints(path.read_text(), f"{lesson.key}/hints.md", lesson.number, exercises)
