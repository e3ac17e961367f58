"""Run a lesson's checks against an exercise module (the learner's file or the reference).

A failing check explains itself in the lesson's terms: an AssertionError's message (write it as
"what: expected X, got Y", or use :mod:`minigrad.course.expect`); an exception raised inside the
learner's code as "your f() raised ..." with their line; any other exception as "your f()
returned R, which the check could not use (...)", naming the exercise function whose result the
check was using. Calls into the exercise module are observed for that (its functions are wrapped).
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import inspect
import reprlib
import sys
import traceback
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path

_registry: dict[str, list] = {}
_current: ContextVar = ContextVar("minigrad_course_lesson", default=None)


def check(exercise: str, description: str):
    """Register a check of ``exercise`` (its file's stem, e.g. ``"ex1_local_derivatives"``).

    The decorated function takes the loaded exercise module and raises
    (usually AssertionError) when the learner's code is wrong.
    """

    def register(fn):
        _registry.setdefault(exercise, []).append((description, fn))
        return fn

    return register


_repr = reprlib.Repr()
_repr.maxstring = _repr.maxother = 80
_repr.maxlist = _repr.maxtuple = 6


@dataclass
class CheckResult:
    exercise: str
    description: str
    passed: bool
    error: BaseException | None = None
    exercise_path: Path | None = None
    last_call: tuple | None = field(default=None, repr=False)  # (function name, result) of the latest call

    @property
    def not_done(self) -> bool:
        """The check failed because the exercise still raises NotImplementedError."""
        return isinstance(self.error, NotImplementedError)

    def explain(self) -> str:
        """Why the check failed, in the lesson's terms (empty when it passed)."""
        if self.passed:
            return ""
        exc = self.error
        if self.not_done:
            return str(exc) or "not done yet"
        if isinstance(exc, AssertionError):
            return _assertion_text(exc)
        what = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        if isinstance(exc, SyntaxError) and self.exercise_path is not None:
            return f"{self.exercise_path.name} does not parse: {exc.msg} (line {exc.lineno})"
        where = _frame_in(exc, self.exercise_path)
        if where is not None:
            fn = where.name if where.name != "<module>" else self.exercise_path.name
            return f"your {fn}() raised {what}\n      at {self.exercise_path.name}:{where.lineno}: {where.line}"
        if self.last_call is not None:
            name, result = self.last_call
            return f"your {name}() returned {_repr.repr(result)}, which the check could not use ({what})"
        return what


def _assertion_text(exc: AssertionError) -> str:
    text = str(exc).strip()
    if text:
        return text
    frames = traceback.extract_tb(exc.__traceback__)
    line = frames[-1].line if frames else ""
    return f"this did not hold: {line}" if line else "the check's assertion failed"


def _frame_in(exc: BaseException, path: Path | None):
    """The innermost traceback frame of ``exc`` inside the file ``path`` (None when none is)."""
    if path is None:
        return None
    target = str(path.resolve())
    found = None
    for frame in traceback.extract_tb(exc.__traceback__):
        try:
            if str(Path(frame.filename).resolve()) == target:
                found = frame
        except OSError:
            continue
    return found


class _CallLog:
    """Wraps an exercise module's functions to remember the last top-level call and its result."""

    def __init__(self, module):
        self.last = None
        self._depth = 0
        for name, fn in list(vars(module).items()):
            if inspect.isfunction(fn) and fn.__module__ == module.__name__ and not name.startswith("_"):
                setattr(module, name, self._wrap(name, fn))

    def _wrap(self, name, fn):
        @functools.wraps(fn)
        def observed(*args, **kwargs):
            self._depth += 1
            try:
                result = fn(*args, **kwargs)
            finally:
                self._depth -= 1
            if self._depth == 0:
                self.last = (name, result)
            return result

        return observed


def load_module(path: Path, name: str):
    """Import a Python file as a fresh module (not cached under its name)."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        sys.modules.pop(name, None)
    return module


@contextlib.contextmanager
def in_lesson(lesson):
    """Within this block :func:`this_lesson` is ``lesson`` (what :func:`run_checks` does around a lesson's checks)."""
    token = _current.set(lesson)
    try:
        yield lesson
    finally:
        _current.reset(token)


def this_lesson():
    """The lesson whose checks are being loaded or run (what a check uses instead of typing its number).

    A LookupError outside :func:`run_checks`: a script or a test names the lesson with
    :func:`~minigrad.course.lessons.find_lesson`.
    """
    lesson = _current.get()
    if lesson is None:
        raise LookupError(
            "no lesson's checks are running: this_lesson() works inside checks.py (run by `minigrad lesson check N`); "
            "elsewhere name the lesson, find_lesson(N)"
        )
    return lesson


def load_reference(*where):
    """The reference solution of an exercise, as a module: what a check runs beside the learner's code
    on the same inputs.

    ``load_reference("ex2_value")`` in a lesson's checks.py loads that lesson's ``reference/ex2_value.py``
    (the lesson is :func:`this_lesson`); ``load_reference(10, "ex2_value")`` names the lesson by number.
    """
    from .lessons import find_lesson

    if len(where) == 1:
        lesson, (exercise,) = this_lesson(), where
    elif len(where) == 2:
        lesson, exercise = find_lesson(where[0]), where[1]
    else:
        raise TypeError(f"load_reference(exercise) or load_reference(number, exercise), got {len(where)} arguments")
    exercise = exercise.removesuffix(".py")
    path = lesson.path / "reference" / f"{exercise}.py"
    if not path.exists():
        have = ", ".join(ref.stem for ref in lesson.references) or "none"
        raise FileNotFoundError(f"lesson {lesson.number} has no reference {exercise!r}; its exercises: {have}")
    return _reference_at(path)


@functools.cache
def _reference_at(path: Path):
    return load_module(path, f"minigrad_reference_{path.parent.parent.name}_{path.stem}")


def _load_checks(lesson) -> dict[str, list]:
    _registry.clear()
    load_module(lesson.path / "checks.py", f"minigrad_lesson_{lesson.number:02d}_checks")
    return dict(_registry)


def run_checks(
    lesson, reference: bool = False, exercise_file: Path | None = None, exercise_dir: Path | None = None
) -> list[CheckResult]:
    """Run every check of ``lesson`` on the learner's files (or the reference solutions).

    The learner's files are ``exercise_dir/exK_*.py`` (default: the lesson folder);
    ``exercise_file`` replaces the file of a lesson's only exercise.
    """
    with in_lesson(lesson):
        return _run(lesson, reference, exercise_file, exercise_dir)


def _run(lesson, reference: bool, exercise_file: Path | None, exercise_dir: Path | None) -> list[CheckResult]:
    checks = _load_checks(lesson)
    results = []
    for ref in lesson.references:
        name = ref.stem
        if reference:
            target = ref
        elif exercise_file is not None:
            target = Path(exercise_file)
        else:
            target = Path(exercise_dir) / ref.name if exercise_dir is not None else lesson.exercise_file(ref)
        if not target.exists():
            results.append(
                CheckResult(name, f"load {target.name}", False, FileNotFoundError(f"{target} does not exist"), target)
            )
            continue
        try:
            module = load_module(target, f"minigrad_exercise_{lesson.number:02d}_{name}")
        except BaseException as exc:  # a learner's syntax error must not stop the other checks
            if isinstance(exc, KeyboardInterrupt):
                raise
            results.append(CheckResult(name, f"load {target.name}", False, exc, target))
            continue
        log = _CallLog(module)
        for description, fn in checks.get(name, []):
            log.last = None
            try:
                fn(module)
            except BaseException as exc:  # noqa: BLE001 (report every failure)
                if isinstance(exc, KeyboardInterrupt):
                    raise
                results.append(CheckResult(name, description, False, exc, target, log.last))
            else:
                results.append(CheckResult(name, description, True, None, target))
    return results
