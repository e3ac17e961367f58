"""Make the learner's exercise file from the reference: solutions become NotImplementedError stubs."""

from __future__ import annotations

import re
from pathlib import Path

BEGIN, END = "# BEGIN SOLUTION", "# END SOLUTION"
_HINT = re.compile(r"^\s*# HINT:")
_DEF = re.compile(r"^\s*(?:async\s+)?def\s+(\w+)|^\s*class\s+(\w+)")


def generate_stub(source: str, origin: str = "the reference") -> str:
    """Replace every solution block with its hints and a ``raise NotImplementedError``.

    A block keeps the indentation of its ``# BEGIN SOLUTION`` line. ``# HINT:``
    lines inside it are kept. Unbalanced markers are an error naming the line.
    """
    out = [
        f"# Exercise file generated from {origin}. Replace each `raise NotImplementedError` with your code;\n",
        "# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.\n",
    ]
    inside = None
    owner = None
    for lineno, line in enumerate(source.splitlines(keepends=True), 1):
        stripped = line.strip()
        if inside is None:
            m = _DEF.match(line)
            if m:
                owner = m.group(1) or m.group(2)
            if stripped == BEGIN:
                inside = line[: len(line) - len(line.lstrip())]
                continue
            if stripped == END:
                raise ValueError(f"{origin}:{lineno}: '{END}' without a matching '{BEGIN}'")
            out.append(line)
        else:
            if stripped == BEGIN:
                raise ValueError(f"{origin}:{lineno}: nested '{BEGIN}'")
            if stripped == END:
                what = f"{owner}()" if owner else "this exercise"
                out.append(f'{inside}raise NotImplementedError("exercise: write {what}")\n')
                inside = None
            elif _HINT.match(line):
                out.append(line)
    if inside is not None:
        raise ValueError(f"{origin}: '{BEGIN}' without a matching '{END}'")
    return "".join(out)


def stub_path(reference: Path) -> Path:
    """Where the learner's file for a reference solution lives (the lesson folder)."""
    return reference.parent.parent / reference.name


def write_stub(reference: Path) -> Path:
    """(Re)generate the learner's file for ``reference``; returns its path."""
    target = stub_path(reference)
    origin = f"{reference.parent.name}/{reference.name}"
    target.write_text(generate_stub(reference.read_text(), origin))
    return target


def stub_is_current(reference: Path) -> bool:
    """True when the learner's file is exactly what the reference generates."""
    target = stub_path(reference)
    origin = f"{reference.parent.name}/{reference.name}"
    return target.exists() and target.read_text() == generate_stub(reference.read_text(), origin)
