"""The course: lessons with checked exercises (``lessons/NN_topic/``).

Each lesson folder holds ``lesson.toml`` (its number, title, exercises and text rules:
:mod:`~minigrad.course.manifest`; the number lives there alone), ``README.md`` (the lesson text), ``demo.py`` (runs under
the debugger and headless), ``reference/exN_*.py`` (the solutions, between
``# BEGIN SOLUTION`` / ``# END SOLUTION`` markers), the learner's ``exN_*.py``
generated from them, ``checks.py`` whose functions, registered with :func:`check`,
test an exercise module (:mod:`~minigrad.course.expect` words their failures; :mod:`~minigrad.course.cases`
gives them many inputs; they import nothing the wheel does not depend on, no test library;
where an exercise builds an engine, a rule or a Function, :mod:`~minigrad.course.tracediff` names
the first event where the learner's run parts from the reference's, which
:func:`~minigrad.course.checking.load_reference` loads, knowing the lesson from :func:`this_lesson`),
``hints.md`` (:mod:`~minigrad.course.hints`) and ``screens.py``, the transcripts and diagrams the
generators make (:mod:`~minigrad.course.screens`). Lessons are found along an additive path
(:mod:`~minigrad.course.lessons`); ``minigrad lesson new`` writes a skeleton (:mod:`~minigrad.course.scaffold`). The learner works in a
:class:`~minigrad.course.workspace.Workspace` of their own (``minigrad lesson start N --dir DIR``).
"""

from .checking import CheckResult, check, load_reference, run_checks, this_lesson
from .lessons import Lesson, find_lesson, lessons_root, list_lessons
from .recording import contributions_into, incoming_grads, record_call, record_demo
from .stubs import generate_stub, stub_is_current, write_stub
from .workspace import Workspace, find_workspace

__all__ = [
    "CheckResult",
    "check",
    "run_checks",
    "load_reference",
    "this_lesson",
    "Lesson",
    "find_lesson",
    "lessons_root",
    "list_lessons",
    "generate_stub",
    "stub_is_current",
    "write_stub",
    "record_demo",
    "record_call",
    "incoming_grads",
    "contributions_into",
    "Workspace",
    "find_workspace",
]
