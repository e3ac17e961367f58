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

Each ``minigrad lesson hint N.k`` shows one more hint than the last call did (counted in the
workspace's progress); ``--again`` shows those seen so far without a new one.
"""

from __future__ import annotations

import re

__all__ = ["parse_hints", "load_hints", "parse_exercise_id"]

_SECTION = re.compile(r"^##\s+(\d+)\.(\d+)\b[ \t]*(.*)$")
_ID = re.compile(r"^\s*(\d+)\.(\d+)\s*$")


def parse_exercise_id(text: str) -> tuple[int, str]:
    """``"4.1"`` -> ``(4, "4.1")``; a ValueError explaining the form otherwise."""
    m = _ID.match(text)
    if not m:
        raise ValueError(f"name an exercise as LESSON.EXERCISE, e.g. 4.1 (got {text!r})")
    lesson, k = int(m.group(1)), int(m.group(2))
    return lesson, f"{lesson}.{k}"


def parse_hints(text: str, origin: str = "hints.md") -> dict[str, list[str]]:
    """``{"N.k": [hint, ...]}`` from a hints file; errors name the file and line."""
    sections: dict[str, list[list[str]]] = {}
    current = None
    for lineno, line in enumerate(text.splitlines(), 1):
        m = _SECTION.match(line)
        if m:
            key = f"{int(m.group(1))}.{int(m.group(2))}"
            if key in sections:
                raise ValueError(f"{origin}:{lineno}: a second section for exercise {key}")
            current = sections[key] = [[]]
        elif line.startswith("## "):
            raise ValueError(f"{origin}:{lineno}: a section heading must be '## N.k' (e.g. '## 1.1'), got {line!r}")
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
    """The hints of ``lesson`` (empty when it has no hints file)."""
    path = lesson.hints_file
    if not path.exists():
        return {}
    return parse_hints(path.read_text(), f"{lesson.key}/hints.md")
