"""The learner's workspace: a folder they choose, holding their exercise files and their progress.

``minigrad lesson start N --dir DIR`` copies lesson N into ``DIR/NN_topic/`` (the text, the demo,
the diagrams, and exercise files generated from the reference solutions) and keeps progress in
``DIR/.minigrad-course.json``, which also marks DIR as a workspace. The lessons themselves stay
read-only wherever minigrad is installed; a workspace inside site-packages is refused.

Which workspace a command uses, first match wins: ``--dir``, ``$MINIGRAD_WORKSPACE``, the nearest
folder at or above the current directory holding ``.minigrad-course.json``, the workspace of the
last ``start`` (remembered in ``$XDG_CONFIG_HOME/minigrad/workspace``), and, in a source checkout,
the checkout's ``lessons/`` folder itself (its exercise files are the learner's).
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import shutil
import sysconfig
from pathlib import Path

from .lessons import Lesson, is_checkout, lessons_root
from .stubs import generate_stub

__all__ = ["Workspace", "find_workspace", "default_workspace", "PROGRESS_FILE"]

PROGRESS_FILE = ".minigrad-course.json"
# what a lesson folder holds that is not the learner's to copy: solutions, checks, hints, the screens' code, build leftovers
_NOT_COPIED = ("reference", "checks.py", "hints.md", "screens.py", "__pycache__", "*.pyc", PROGRESS_FILE)


def _config_dir() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME")
    return (Path(base) if base else Path.home() / ".config") / "minigrad"


def _pointer() -> Path:
    return _config_dir() / "workspace"


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


def _installed_dirs() -> list[Path]:
    paths = sysconfig.get_paths()
    return [Path(paths[k]).resolve() for k in ("purelib", "platlib") if k in paths]


class Workspace:
    """A folder of ``NN_topic/`` lesson copies plus the progress file."""

    def __init__(self, root: Path):
        self.root = Path(root).expanduser().resolve()

    def __repr__(self) -> str:
        return f"Workspace({str(self.root)!r})"

    # ------------------------------------------------------------ layout
    def lesson_dir(self, lesson: Lesson) -> Path:
        return self.root / lesson.key

    def exercise_file(self, lesson: Lesson, reference: Path) -> Path:
        return self.lesson_dir(lesson) / reference.name

    def started(self, lesson: Lesson) -> bool:
        return all(self.exercise_file(lesson, ref).exists() for ref in lesson.references)

    def demo(self, lesson: Lesson) -> Path:
        """The workspace's copy of the demo when there is one, else the lesson's."""
        mine = self.lesson_dir(lesson) / "demo.py"
        return mine if mine.exists() else lesson.demo

    # ------------------------------------------------------------ actions
    def check_writable(self) -> None:
        """Refuse a workspace inside site-packages or inside the installed lessons."""
        for d in [*_installed_dirs(), lessons_root().resolve()]:
            if self.root == d or d in self.root.parents:
                if d == lessons_root().resolve() and is_checkout():
                    continue
                raise ValueError(
                    f"{self.root} is inside {d}, where minigrad is installed; choose a folder of your own "
                    "(minigrad lesson start N --dir ~/minigrad-course)"
                )

    def start(self, lesson: Lesson) -> list[Path]:
        """Copy ``lesson`` here; existing exercise files are kept. Returns the files written."""
        self.check_writable()
        target = self.lesson_dir(lesson)
        written = []
        if target.resolve() != lesson.path.resolve():
            target.mkdir(parents=True, exist_ok=True)
            ignore = shutil.ignore_patterns(*_NOT_COPIED, *(ref.name for ref in lesson.references))
            for src in lesson.path.iterdir():
                if ignore(str(lesson.path), [src.name]):
                    continue
                dst = target / src.name
                if src.is_dir():
                    shutil.copytree(src, dst, ignore=ignore, dirs_exist_ok=True)
                else:
                    shutil.copy2(src, dst)
                written.append(dst)
        for ref in lesson.references:
            dst = self.exercise_file(lesson, ref)
            if not dst.exists():
                dst.write_text(generate_stub(ref.read_text(), f"{ref.parent.name}/{ref.name}"))
                written.append(dst)
        self.update(lesson, started=self.progress().get(lesson.key, {}).get("started") or _now())
        remember(self)
        return written

    def reset(self, lesson: Lesson) -> list[Path]:
        """Regenerate every exercise file of ``lesson`` (the learner's answers are discarded)."""
        self.check_writable()
        self.lesson_dir(lesson).mkdir(parents=True, exist_ok=True)
        out = []
        for ref in lesson.references:
            dst = self.exercise_file(lesson, ref)
            dst.write_text(generate_stub(ref.read_text(), f"{ref.parent.name}/{ref.name}"))
            out.append(dst)
        return out

    # ------------------------------------------------------------ progress
    @property
    def progress_file(self) -> Path:
        return self.root / PROGRESS_FILE

    def progress(self) -> dict:
        """``{lesson key: {"started", "checks": {exercise: {"passed", "total", "at"}}, "hints": {"N.k": n}}}``."""
        try:
            data = json.loads(self.progress_file.read_text())
        except (FileNotFoundError, json.JSONDecodeError):
            return {}
        return data.get("lessons", {}) if isinstance(data, dict) else {}

    def update(self, lesson: Lesson, **fields) -> dict:
        """Merge ``fields`` into ``lesson``'s progress entry (dicts one level deep) and save atomically."""
        every = self.progress()
        entry = every.setdefault(lesson.key, {})
        for k, v in fields.items():
            if isinstance(v, dict):
                entry.setdefault(k, {}).update(v)
            else:
                entry[k] = v
        self.root.mkdir(parents=True, exist_ok=True)
        tmp = self.progress_file.with_name(f"{PROGRESS_FILE}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"version": 1, "lessons": every}, indent=1, sort_keys=True))
        os.replace(tmp, self.progress_file)
        return entry

    def record_checks(self, lesson: Lesson, results) -> None:
        per = {}
        for r in results:
            p = per.setdefault(r.exercise, {"passed": 0, "total": 0, "at": _now()})
            p["total"] += 1
            p["passed"] += bool(r.passed)
        self.update(lesson, checks=per)

    def hints_seen(self, lesson: Lesson, exercise: str) -> int:
        return int(self.progress().get(lesson.key, {}).get("hints", {}).get(exercise, 0))

    def set_hints_seen(self, lesson: Lesson, exercise: str, n: int) -> None:
        self.update(lesson, hints={exercise: n})


def remember(ws: Workspace) -> None:
    """Make ``ws`` the workspace later commands use from any directory."""
    try:
        _pointer().parent.mkdir(parents=True, exist_ok=True)
        _pointer().write_text(str(ws.root) + "\n")
    except OSError:  # a read-only home: --dir and $MINIGRAD_WORKSPACE still work
        pass


def default_workspace() -> Workspace:
    """Where ``start`` puts a lesson when no workspace is known: ``~/minigrad-course``."""
    return Workspace(Path.home() / "minigrad-course")


def find_workspace(explicit: Path | None = None, cwd: Path | None = None) -> Workspace | None:
    """The workspace a command works in (see the module docstring for the order), or None."""
    if explicit is not None:
        return Workspace(explicit)
    env = os.environ.get("MINIGRAD_WORKSPACE")
    if env:
        return Workspace(Path(env))
    here = Path(cwd or Path.cwd()).resolve()
    for d in (here, *here.parents):
        if (d / PROGRESS_FILE).is_file():
            return Workspace(d)
    try:
        remembered = Path(_pointer().read_text().strip())
    except OSError:
        remembered = None
    if remembered and remembered.is_dir():
        return Workspace(remembered)
    if is_checkout():
        return Workspace(lessons_root())
    return None
