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

and the function registered here as ``NN_topic/NAME`` records the lesson's demo
with ``minigrad.trace.record()`` and picks the steps. Each step is printed as the
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
import warnings
from pathlib import Path

LESSONS = Path(__file__).resolve().parent
TRANSCRIPTS: dict = {}
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")  # object addresses differ from run to run
WIDTH = 60
NUMBER_TOLERANCE = 1e-3  # relative: one unit in the fourth significant digit the describer prints
_NUMBER = re.compile(r"(?<![\w.])([-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?)(?![\w.])")


def transcript(key: str):
    """Register a function returning ``(trace, steps)`` as the block NAME of ``lessons/<lesson>/README.md``."""

    def register(fn):
        TRANSCRIPTS[key] = fn
        return fn

    return register


def steps_of(trace, kind: str, node: str | None = None) -> list[int]:
    """The steps of every ``kind`` event (about ``node``, when given)."""
    return [e.seq for e in trace.find(kind, node)] if node else [e.seq for e in trace.find(kind)]


def pass_steps(trace, pass_id: int, kinds: tuple = ()) -> list[int]:
    """The steps of pass ``pass_id`` (only events of ``kinds`` when given)."""
    return [e.seq for e in trace.events if e.pass_id == pass_id and (not kinds or e.kind in kinds)]


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


def _demo(number: int, *, quiet_warnings: bool = False):
    from minigrad.course.recording import record_demo

    with warnings.catch_warnings():
        if quiet_warnings:
            warnings.simplefilter("ignore", RuntimeWarning)
        return record_demo(number)


# ---------------------------------------------------------------- lesson 1
@transcript("01_chain_rule/top")
def _():
    trace = _demo(1)
    first_handoff = steps_of(trace, "grad_accumulated", "f")[0]
    return trace, [s for s in pass_steps(trace, 1) if s <= first_handoff]


@transcript("01_chain_rule/add")
def _():
    trace = _demo(1)
    return trace, [*steps_of(trace, "closure_called", "e"), *steps_of(trace, "grad_accumulated", "e")]


@transcript("01_chain_rule/leaves")
def _():
    trace = _demo(1)
    leaves = [e.seq for e in trace.find("grad_accumulated") if e.into == "grad"]
    return trace, sorted([*steps_of(trace, "closure_called", "d"), *leaves])


# ---------------------------------------------------------------- lesson 2
@transcript("02_backward_engine/into_b")
def _():
    trace = _demo(2)
    return trace, [
        *steps_of(trace, "seeded"),
        *steps_of(trace, "closure_called", "c"),
        *steps_of(trace, "grad_accumulated", "c"),
    ]


@transcript("02_backward_engine/into_a")
def _():
    trace = _demo(2)
    return trace, [
        *steps_of(trace, "closure_called", "b"),
        *steps_of(trace, "grad_accumulated", "b"),
        *steps_of(trace, "grad_accumulated", "a"),
    ]


# ---------------------------------------------------------------- lesson 3
@transcript("03_broadcasting/forward")
def _():
    trace = _demo(3)
    return trace, steps_of(trace, "node_created")[3:5]


@transcript("03_broadcasting/reduction")
def _():
    trace = _demo(3)
    closure = steps_of(trace, "closure_called", "h")[0]
    reduced = steps_of(trace, "grad_reduced")
    into_b = [e.seq for e in trace.find("grad_accumulated") if e.target == trace.node("b").id]
    return trace, [closure, *reduced, *into_b]


@transcript("03_broadcasting/matmul")
def _():
    trace = _demo(3)
    return trace, steps_of(trace, "closure_called", "y")


# ---------------------------------------------------------------- lesson 4
@transcript("04_autograd_grad/save_restore")
def _():
    trace = _demo(4)
    return trace, [
        *steps_of(trace, "pass_started"),
        *steps_of(trace, "grads_saved"),
        *steps_of(trace, "grads_restored"),
        *steps_of(trace, "pass_finished"),
    ]


@transcript("04_autograd_grad/into_a")
def _():
    trace = _demo(4)
    a = trace.node("a").id
    return trace, [e.seq for e in trace.events if e.kind == "grad_accumulated" and e.target == a]


# ---------------------------------------------------------------- lesson 5
def _inside_pass(trace, pass_id: int, kinds: tuple) -> list[int]:
    """Steps of ``kinds`` from pass ``pass_id``'s start to its end, nested events and new nodes included."""
    start = trace.find("pass_started", pass_id=pass_id)[0].seq
    end = trace.find("pass_finished", pass_id=pass_id)[0].seq
    return [e.seq for e in trace.events[start : end + 1] if e.kind in kinds]


@transcript("05_higher_order/first_pass")
def _():
    trace = _demo(5)
    return trace, _inside_pass(trace, 1, ("node_created", "closure_called", "pass_finished"))


@transcript("05_higher_order/second_pass")
def _():
    trace = _demo(5)
    return trace, _inside_pass(trace, 2, ("pass_started", "closure_called", "pass_finished"))


@transcript("05_higher_order/third_pass")
def _():
    trace = _demo(5)
    return trace, _inside_pass(trace, 3, ("node_created", "node_entered", "pass_finished"))


# ---------------------------------------------------------------- lesson 6
@transcript("06_custom_functions/at_h")
def _():
    trace = _demo(6)
    first = trace.find("pass_started")[0].pass_id
    h = trace.node("h").id
    into_h = [e.seq for e in trace.events if e.kind == "grad_accumulated" and e.target == h and e.pass_id == first]
    entered = [e.seq for e in trace.find("node_entered", "h") if e.pass_id == first]
    closure = [e.seq for e in trace.find("closure_called", "h") if e.pass_id == first]
    return trace, [*into_h, *entered, *closure]


# ---------------------------------------------------------------- lesson 7
@transcript("07_training/two_steps")
def _():
    trace = _demo(7)
    w = trace.node("w").id
    first_two = [e.pass_id for e in trace.find("pass_started")][:2]

    def about_w(e) -> bool:
        entered = e.kind == "node_entered" and e.node_id == w
        return entered or (e.kind == "grad_accumulated" and e.target == w and e.into == "grad")

    return trace, [e.seq for e in trace.events if e.pass_id in first_two and about_w(e)]


@transcript("07_training/cross_entropy")
def _():
    trace = _demo(7)
    first = next(e for e in trace.events if e.kind == "closure_called" and trace.nodes[e.node].op == "cross_entropy")
    return trace, [first.seq]


# ---------------------------------------------------------------- lesson 8
@transcript("08_debugging_gradients/nan_at_root")
def _():
    trace = _demo(8, quiet_warnings=True)
    return trace, [*steps_of(trace, "node_entered", "root"), *steps_of(trace, "closure_called", "root")]


@transcript("08_debugging_gradients/stale")
def _():
    trace = _demo(8, quiet_warnings=True)
    return trace, steps_of(trace, "closure_called", "scaled")


@transcript("08_debugging_gradients/refused")
def _():
    trace = _demo(8, quiet_warnings=True)
    last = trace.find("pass_started")[-1].pass_id
    scaled2 = trace.node("scaled2").id
    return trace, [
        e.seq
        for e in trace.events
        if e.pass_id == last and (e.kind == "error" or (e.kind == "closure_called" and e.node_id == scaled2))
    ]


# ---------------------------------------------------------------- lesson 9
@transcript("09_gpu/to_rule")
def _():
    trace = _demo(9)
    v = trace.node("v").id
    into_v = [e.seq for e in trace.find("grad_accumulated") if e.target == v]
    return trace, [*steps_of(trace, "node_created", "vd"), *steps_of(trace, "closure_called", "vd"), *into_v]


# ---------------------------------------------------------------- lesson 10
@transcript("10_your_own_micrograd/rule_of_f")
def _():
    from minigrad.course.recording import record_demo

    trace = record_demo(10, argv=("reference",))
    first = trace.find("pass_started")[0].pass_id
    rule = next(e.seq for e in trace.find("closure_called", "f") if e.pass_id == first)
    into_e = next(e.seq for e in trace.find("grad_accumulated") if e.pass_id == first and e.seq > rule)
    return trace, [rule, into_e]


# ---------------------------------------------------------------- lesson 11
@transcript("11_forward_mode/tangents")
def _():
    trace = _demo(11)
    events = trace.find("tangent_computed")
    first_unpack = next(i for i, e in enumerate(events) if e.op == "unpack_dual")
    return trace, [e.seq for e in events[:first_unpack]]


# ---------------------------------------------------------------- machinery
_BLOCK = re.compile(
    r"(<!-- transcript: (?P<name>[\w-]+) -->\n```text\n)(?P<body>.*?)(```\n<!-- /transcript -->)", re.DOTALL
)


def readme_of(key: str) -> Path:
    return LESSONS / key.split("/")[0] / "README.md"


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
        print(f"wrote {len(texts)} transcript(s) into {readme.relative_to(LESSONS)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
