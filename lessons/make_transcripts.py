"""(Re)generate the debugger transcripts inside the lesson texts (lessons/NN_topic/README.md).

    python lessons/make_transcripts.py              rewrite every transcript block
    python lessons/make_transcripts.py --check      list the stale ones (exit 1 if any)
    python lessons/make_transcripts.py --text KEY   print one transcript

A lesson text quotes what the debugger shows at the steps it talks about. Those
quotes are never typed by hand: a README holds a block

    <!-- transcript: NAME -->
    ```text
    ...
    ```
    <!-- /transcript -->

and the function the lesson's ``screens.py`` declares with ``@transcript("NAME")``
(see minigrad.course.screens; every lesson on the lesson path is searched, its key
``NN_topic/NAME``) records the lesson's demo with ``minigrad.trace.record()`` and
picks the steps. Each step is printed as the
debugger's event log and ``minigrad trace show`` print it: the step number (type
it after ``g`` in ``minigrad lesson debug N`` to go there), the event, and its
values. Each transcript is made in a fresh Python process, so node ids do not
depend on what ran before.

A transcript must read the same on any machine, whatever BLAS kernel or thread
count summed its values. Two things see to it:

- the describer prints a mean that is zero up to rounding as ``0`` (within
  ``sqrt(n) * eps * max|x|`` of zero, ``eps`` the dtype's machine epsilon: see
  ``minigrad.trace.values.rounding_zone``), where the summation order alone would
  decide its digits (lesson 7's cross-entropy gradient has a mean of -4.657e-12 on
  one machine, 5.821e-12 on another);
- ``--check`` compares what a block says, not its bytes: line by line, the words
  and punctuation exactly (runs of spaces as one), and each number within a
  relative ``NUMBER_TOLERANCE`` of 1e-3, one unit in the fourth significant digit
  the describer prints (``0.004455`` and ``0.004456`` agree; ``66`` and ``67``, or
  ``0`` and ``1e-11``, do not). Integers of 1000 and more may differ by one.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

LESSONS = Path(__file__).resolve().parent
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")  # object addresses differ from run to run
WIDTH = 60
NUMBER_TOLERANCE = 1e-3  # relative: one unit in the fourth significant digit the describer prints
_NUMBER = re.compile(r"(?<![\w.])([-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?)(?![\w.])")


def _discover() -> tuple[dict, dict]:
    from minigrad.course.screens import screens_on_path

    found = screens_on_path("transcripts")
    return {key: make for key, (_, make) in found.items()}, {
        key.split("/")[0]: lesson for key, (lesson, _) in found.items()
    }


# "NN_topic/NAME" -> the function making it, from every lesson's screens.py on the lesson path
TRANSCRIPTS, _LESSONS = _discover()


def render(trace, steps) -> str:
    """The chosen steps as the debugger's event log prints them."""
    from minigrad.trace.describe import details, headline

    lines = []
    for seq in steps:
        ev = trace.events[seq]
        where = f"pass {ev.pass_id}" if ev.pass_id is not None else "forward"
        lines.append(f"step {seq:<3} {where:<7} {ev.kind:<16} {headline(ev, trace)}")
        lines += [f"{'':>14}{line}" for line in details(ev, trace, width=WIDTH)]
    return "\n".join(_ADDRESS.sub(" at 0x…", line.rstrip()) for line in lines) + "\n"


# ---------------------------------------------------------------- machinery
_BLOCK = re.compile(
    r"(<!-- transcript: (?P<name>[\w-]+) -->\n```text\n)(?P<body>.*?)(```\n<!-- /transcript -->)", re.DOTALL
)


def readme_of(key: str) -> Path:
    return _LESSONS[key.split("/")[0]].path / "README.md"


def fresh_text(key: str) -> str:
    """One transcript, made in a fresh process."""
    proc = subprocess.run(
        [sys.executable, __file__, "--text", key], capture_output=True, text=True, timeout=120, check=False
    )
    if proc.returncode:
        raise RuntimeError(f"transcript {key} failed:\n{proc.stderr}")
    return proc.stdout


def blocks(readme: Path) -> dict[str, str]:
    """The transcript blocks of a README: name -> body."""
    return {m.group("name"): m.group("body") for m in _BLOCK.finditer(readme.read_text())}


def rewritten(readme: Path, texts: dict[str, str]) -> str:
    """The README with each named block's body replaced by its fresh text."""

    def swap(m):
        body = texts.get(m.group("name"), m.group("body"))
        return m.group(1) + body + m.group(4)

    return _BLOCK.sub(swap, readme.read_text())


def _meaning(line: str) -> list:
    """A line as its words (runs of spaces as one) and numbers (as floats), in order."""
    parts = _NUMBER.split(line)  # text, number, text, number, ..., text
    return [float(part) if index % 2 else " ".join(part.split()) for index, part in enumerate(parts)]


def _same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return abs(a - b) <= NUMBER_TOLERANCE * max(abs(a), abs(b))
    return a == b


def first_difference(have: str, fresh: str) -> str | None:
    """The first line where two transcripts say different things (None when they agree): the
    same words, and numbers within a relative ``NUMBER_TOLERANCE``."""
    have_lines, fresh_lines = have.splitlines(), fresh.splitlines()
    for old, new in zip(have_lines, fresh_lines):
        a, b = _meaning(old), _meaning(new)
        if len(a) != len(b) or not all(_same(x, y) for x, y in zip(a, b)):
            return f"- {old.strip()}\n+ {new.strip()}"
    if len(have_lines) != len(fresh_lines):
        return f"{len(have_lines)} lines, a fresh recording has {len(fresh_lines)}"
    return None


def _by_readme(keys) -> dict[Path, dict[str, str]]:
    out: dict = {}
    for key in keys:
        out.setdefault(readme_of(key), {})[key.split("/")[1]] = fresh_text(key)
    return out


def stale() -> list[str]:
    """In the READMEs that quote transcripts: registered ones missing or saying something else than a
    fresh recording (:func:`first_difference`), and blocks no registered transcript fills."""
    out = []
    quoting = [key for key in TRANSCRIPTS if blocks(readme_of(key))]
    for readme, texts in _by_readme(quoting).items():
        have = blocks(readme)
        lesson = readme.parent.name
        for name, text in texts.items():
            if name not in have:
                out.append(f"{lesson}/{name} (no block quotes it)")
            elif (difference := first_difference(have[name], text)) is not None:
                out.append(f"{lesson}/{name}:\n{difference}")
        out += [f"{lesson}/{name} (no such transcript)" for name in have if name not in texts]
    return out


def main(argv: list[str]) -> int:
    if argv[:1] == ["--text"]:
        trace, steps = TRANSCRIPTS[argv[1]]()
        sys.stdout.write(render(trace, steps))
        return 0
    if argv[:1] == ["--check"]:
        found = stale()
        for key in found:
            print(f"stale: {key}")
        if found:
            print("run python lessons/make_transcripts.py to rewrite them")
        return 1 if found else 0
    for readme, texts in _by_readme(argv or list(TRANSCRIPTS)).items():
        readme.write_text(rewritten(readme, texts))
        print(f"wrote {len(texts)} transcript(s) into {readme.parent.name}/{readme.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
