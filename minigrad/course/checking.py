"""Run a lesson's checks against an exercise module (the learner's file or the reference)."""

from __future__ import annotations

import importlib.util
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path

_registry: dict[str, list] = {}


def check(exercise: str, description: str):
    """Register a check of ``exercise`` (its file's stem, e.g. ``"ex1_local_derivatives"``).

    The decorated function takes the loaded exercise module and raises
    (usually AssertionError) when the learner's code is wrong.
    """

    def register(fn):
        _registry.setdefault(exercise, []).append((description, fn))
        return fn

    return register


@dataclass
class CheckResult:
    exercise: str
    description: str
    passed: bool
    error: BaseException | None = None

    @property
    def not_done(self) -> bool:
        """The check failed because the exercise still raises NotImplementedError."""
        return isinstance(self.error, NotImplementedError)

    def explain(self) -> str:
        if self.passed:
            return ""
        if self.not_done:
            return str(self.error) or "not done yet"
        return "".join(traceback.format_exception_only(type(self.error), self.error)).strip()


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


def _load_checks(lesson) -> dict[str, list]:
    _registry.clear()
    load_module(lesson.path / "checks.py", f"minigrad_lesson_{lesson.number:02d}_checks")
    return dict(_registry)


def run_checks(lesson, reference: bool = False, exercise_file: Path | None = None) -> list[CheckResult]:
    """Run every check of ``lesson`` on the learner's files (or the reference solutions)."""
    checks = _load_checks(lesson)
    results = []
    for ref in lesson.references:
        name = ref.stem
        target = ref if reference else (exercise_file or lesson.exercise_file(ref))
        try:
            module = load_module(target, f"minigrad_exercise_{lesson.number:02d}_{name}")
        except BaseException as exc:  # a learner's syntax error must not stop the other checks
            results.append(CheckResult(name, f"load {target.name}", False, exc))
            continue
        for description, fn in checks.get(name, []):
            try:
                fn(module)
            except BaseException as exc:  # noqa: BLE001 (report every failure)
                if isinstance(exc, KeyboardInterrupt):
                    raise
                results.append(CheckResult(name, description, False, exc))
            else:
                results.append(CheckResult(name, description, True))
    return results
