"""(Re)generate the lessons' diagrams with minigrad.viz: lessons/NN_topic/diagrams/NAME.{dot,svg}.

Each lesson declares its diagrams in its ``screens.py`` with ``@diagram("NAME")`` (see
minigrad.course.screens); every lesson on the lesson path is searched.

    python lessons/make_diagrams.py            write every diagram
    python lessons/make_diagrams.py --check    list the stale ones (exit 1 if any)
    python lessons/make_diagrams.py --dot KEY  print one diagram's normalised DOT

Each diagram is drawn in a fresh Python process, and its DOT text is normalised
(node ids such as ``t12``/``o12`` and labels such as ``mul#12`` are renumbered in
order of appearance), so the output does not depend on what ran before. The
``.dot`` file beside each ``.svg`` is what ``--check`` (and tests/course) compare.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

LESSONS = Path(__file__).resolve().parent


def _discover() -> tuple[dict, dict]:
    from minigrad.course.screens import screens_on_path

    found = screens_on_path("diagrams")
    return {key: make for key, (_, make) in found.items()}, {
        key.split("/")[0]: lesson for key, (lesson, _) in found.items()
    }


# "NN_topic/NAME" -> the function drawing it, from every lesson's screens.py on the lesson path
DIAGRAMS, _LESSONS = _discover()


_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
_ID = re.compile(r"\b([to])(\d+)\b")


def normalise(dot: str) -> str:
    """Renumber Graphviz's node ids (``t12``, ``o12``) in order of appearance, and drop object addresses
    (``<... object at 0x7f...>``). Labels (``mul#12``) keep their numbers: each diagram is drawn in a
    fresh process, as each transcript is, so a figure names a node as the transcript beside it does."""
    numbers: dict = {}

    def renumber(m):
        k = numbers.setdefault(m.group(2), len(numbers) + 1)
        return f"{m.group(1)}{k}"

    return _ID.sub(renumber, _ADDRESS.sub(" at 0x…", dot))


def paths(key: str) -> tuple[Path, Path]:
    lesson, name = key.split("/")
    folder = _LESSONS[lesson].path / "diagrams"
    return folder / f"{name}.dot", folder / f"{name}.svg"


def fresh_dot(key: str) -> str:
    """The normalised DOT of one diagram, drawn in a fresh process."""
    proc = subprocess.run(
        [sys.executable, __file__, "--dot", key], capture_output=True, text=True, timeout=120, check=False
    )
    if proc.returncode:
        raise RuntimeError(f"drawing {key} failed:\n{proc.stderr}")
    return proc.stdout


def write(key: str) -> None:
    from minigrad.viz import Diagram

    dot_path, svg_path = paths(key)
    dot_path.parent.mkdir(exist_ok=True)
    source = fresh_dot(key)
    dot_path.write_text(source)
    Diagram(source).save(svg_path)
    print(f"wrote {svg_path.parent.parent.name}/diagrams/{svg_path.name}")


def stale() -> list[str]:
    """The diagrams whose committed .dot differs from a fresh drawing (or that are missing)."""
    out = []
    for key in DIAGRAMS:
        dot_path, svg_path = paths(key)
        if not (dot_path.exists() and svg_path.exists()) or dot_path.read_text() != fresh_dot(key):
            out.append(key)
    return out


def main(argv: list[str]) -> int:
    if argv[:1] == ["--dot"]:
        sys.stdout.write(normalise(DIAGRAMS[argv[1]]().source))
        return 0
    if argv[:1] == ["--check"]:
        found = stale()
        for key in found:
            print(f"stale: {key} (run python lessons/make_diagrams.py)")
        return 1 if found else 0
    for key in argv or list(DIAGRAMS):
        write(key)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
