"""A lesson's screens: the debugger transcripts its text quotes and the diagrams it shows.

Each lesson declares its own in ``screens.py`` beside its README; ``lessons/make_transcripts.py`` and
``lessons/make_diagrams.py`` find them in every lesson on the lesson path (no list to register in)::

    from minigrad.course.screens import diagram, demo_trace, steps_of, transcript

    @transcript("into_b")          # fills README's <!-- transcript: into_b --> block
    def _():
        trace = demo_trace()       # this lesson's demo.py, recorded
        return trace, steps_of(trace, "grad_accumulated", "b")

    @diagram("graph")              # writes diagrams/graph.dot and diagrams/graph.svg
    def _():
        from minigrad import viz

        trace = demo_trace()
        return viz.draw(trace, step=trace.find("pass_finished")[0].seq)

A transcript function returns ``(trace, steps)``; a diagram function a :class:`minigrad.viz.Diagram`.
Both run in a fresh process, inside :func:`~minigrad.course.checking.in_lesson`, so
:func:`demo_trace` and :func:`~minigrad.course.recording.record_demo` know the lesson without its number.
The module imports nothing heavy at its top: what a screen records must not depend on what ran first.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

__all__ = [
    "SCREENS_FILE",
    "Screens",
    "transcript",
    "diagram",
    "load_screens",
    "demo_trace",
    "steps_of",
    "step_of",
    "pass_steps",
    "screens_on_path",
]

SCREENS_FILE = "screens.py"
_loading: Screens | None = None


@dataclass
class Screens:
    """The transcripts and diagrams one lesson declares, by name."""

    transcripts: dict = field(default_factory=dict)
    diagrams: dict = field(default_factory=dict)


def _register(kind: str, name: str):
    def register(fn):
        if _loading is None:
            raise RuntimeError(f"@{kind}({name!r}) registers a screen only inside a lesson's {SCREENS_FILE}")
        table = getattr(_loading, f"{kind}s")
        if name in table:
            raise ValueError(f"a second {kind} named {name!r} in this lesson's {SCREENS_FILE}")
        table[name] = fn
        return fn

    return register


def transcript(name: str):
    """Register a function returning ``(trace, steps)`` as the README's ``<!-- transcript: name -->`` block."""
    return _register("transcript", name)


def diagram(name: str):
    """Register a function returning a minigrad.viz Diagram as ``diagrams/name.{dot,svg}``."""
    return _register("diagram", name)


def load_screens(lesson) -> Screens:
    """The screens ``lesson``'s screens.py declares (none when it has no such file)."""
    global _loading
    from .checking import in_lesson, load_module

    path = lesson.path / SCREENS_FILE
    screens = Screens()
    if not path.exists():
        return screens
    _loading = screens
    try:
        with in_lesson(lesson):
            load_module(path, f"minigrad_lesson_{lesson.key}_screens")
    finally:
        _loading = None
    return screens


def demo_trace(argv: tuple = (), *, quiet_warnings: bool = False):
    """This lesson's demo, recorded (RuntimeWarnings silenced with ``quiet_warnings``)."""
    from .recording import record_demo

    with warnings.catch_warnings():
        if quiet_warnings:
            warnings.simplefilter("ignore", RuntimeWarning)
        return record_demo(argv=argv)


def steps_of(trace, kind: str, node: str | None = None) -> list[int]:
    """The steps of every ``kind`` event (about ``node``, when given)."""
    return [e.seq for e in trace.find(kind, node)] if node else [e.seq for e in trace.find(kind)]


def step_of(trace, kind: str, node: str, nth: int = 0) -> int:
    """The step (event index) of the ``nth`` ``kind`` event about ``node``."""
    return trace.find(kind, node)[nth].seq


def pass_steps(trace, pass_id: int, kinds: tuple = ()) -> list[int]:
    """The steps of pass ``pass_id`` (only events of ``kinds`` when given)."""
    return [e.seq for e in trace.events if e.pass_id == pass_id and (not kinds or e.kind in kinds)]


def screens_on_path(kind: str) -> dict[str, tuple]:
    """``{"NN_topic/NAME": (lesson, make)}`` for every screen of ``kind`` (``"transcripts"`` or ``"diagrams"``)
    declared along the lesson path; ``make()`` runs the screen's function inside its lesson."""
    from .checking import in_lesson
    from .lessons import list_lessons

    def inside(lesson, fn):
        def make():
            with in_lesson(lesson):
                return fn()

        return make

    return {
        f"{lesson.key}/{name}": (lesson, inside(lesson, fn))
        for lesson in list_lessons()
        for name, fn in getattr(load_screens(lesson), kind).items()
    }
