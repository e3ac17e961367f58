"""``minigrad lesson list|show|start|check|hint|debug|reset|progress|new|lint``: the course from the terminal."""

from __future__ import annotations

import os
import sys
from pathlib import Path

DESCRIPTION = """\
The minigrad course. Each lesson has a text, a demo that runs under the debugger, and exercises.

  minigrad lesson start 1 --dir ~/minigrad-course   copy lesson 1 into a folder of yours
  minigrad lesson check 1                           run its checks on your files: PASS / TODO / FAIL
  minigrad lesson check 2 --debug                   ... and open the debugger where your run parts from the reference's
  minigrad lesson hint 1.1                          one more hint for exercise 1.1 each time

The lessons installed with minigrad stay read-only: your files and your progress
(.minigrad-course.json) live in the workspace you chose. Commands find it from --dir,
$MINIGRAD_WORKSPACE, the current folder (or one above it), or the last `start`; in a
source checkout without one, the checkout's lessons/ folder is the workspace.
Hints live in lessons/NN_topic/hints.md: a '## N.k' section per exercise, hints separated
by '---' lines (see minigrad.course.hints).

Teachers: `minigrad lesson new 21 attention --dir FOLDER` writes a lesson skeleton that passes its
own checks; put FOLDER on $MINIGRAD_LESSONS (folders separated by ':', ';' on Windows) to list
it after the built-in lessons; `minigrad lesson lint 21` checks its text against its lesson.toml.
lessons/AUTHORING.md in the source repository says the rest.
"""


def register(sub) -> None:
    import argparse

    p = sub.add_parser(
        "lesson",
        help="list, read, start, check and debug the course's lessons",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)

    def action(name, func, help, number=True, workspace=True):
        a = actions.add_parser(name, help=help, description=help)
        if number:
            a.add_argument("number", type=int, help="the lesson's number (see `minigrad lesson list`)")
        if workspace:
            a.add_argument("--dir", type=Path, help="your workspace folder (default: see `minigrad lesson --help`)")
        a.set_defaults(func=func)
        return a

    action("list", _list, "list the lessons and their exercises", number=False, workspace=False)
    action("show", _show, "render a lesson's text in the terminal", workspace=False)
    action("start", _start, "copy a lesson into your workspace (exercise files you complete, text, demo)")
    chk = action("check", _check, "run a lesson's checks on your exercise files")
    chk.add_argument("--reference", action="store_true", help="check the reference solutions instead")
    chk.add_argument(
        "--file",
        type=Path,
        help="check this file instead of the lesson's exercise file (lessons with one exercise only)",
    )
    chk.add_argument(
        "--debug",
        action="store_true",
        help="open the debugger on your run, at the first step where it parts from the reference's "
        "(exercises that build an engine, a rule or a Function)",
    )
    hint = action("hint", _hint, "show one more hint for an exercise (N.k, e.g. 4.1)", number=False)
    hint.add_argument("exercise", help="the exercise, as LESSON.EXERCISE (e.g. 4.1)")
    hint.add_argument("--again", action="store_true", help="show the hints seen so far, without a new one")
    dbg = action("debug", _debug, "open the lesson's demo in the debugger (minigrad-tui)")
    dbg.add_argument("demo_args", nargs="*", metavar="ARG", help="arguments for the demo (lesson 10: reference, buggy)")
    action("reset", _reset, "regenerate a lesson's exercise files in your workspace (discards your answers)")
    action("progress", _progress, "what you have started, passed, and how many hints you used", number=False)
    new = action("new", _new, "write a new lesson's skeleton (for teachers): it passes its own checks", workspace=False)
    new.add_argument("slug", help="the lesson's short name: lower-case letters, digits and underscores")
    new.add_argument("--title", help="the lesson's title (default: from the slug)")
    new.add_argument(
        "--dir",
        type=Path,
        help="the folder to write NN_slug/ into (default: the checkout's lessons/ in a source checkout, "
        "else the current folder)",
    )
    action("lint", _lint, "check a lesson's text against the rules of its lesson.toml (for teachers)", workspace=False)


def _lesson(number: int):
    from minigrad.course import find_lesson

    return find_lesson(number)


def _workspace(args, required: bool = True):
    from minigrad.course.workspace import find_workspace

    ws = find_workspace(getattr(args, "dir", None))
    if ws is None and required:
        raise SystemExit(
            "no workspace yet: run `minigrad lesson start N --dir FOLDER` (or pass --dir, or set MINIGRAD_WORKSPACE)"
        )
    return ws


def _list(args) -> int:
    from minigrad.course import list_lessons

    for lesson in list_lessons():
        names = ", ".join(ref.stem for ref in lesson.references) or "no exercises"
        print(f"{lesson.number:2d}  {lesson.title}  [{names}]")
    return 0


def _show(args) -> int:
    from rich.console import Console
    from rich.markdown import Markdown

    lesson = _lesson(args.number)
    Console().print(Markdown((lesson.path / "README.md").read_text()))
    return 0


def _start(args) -> int:
    from minigrad.course.workspace import default_workspace

    lesson = _lesson(args.number)
    ws = _workspace(args, required=False) or default_workspace()
    try:
        written = ws.start(lesson)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    folder = ws.lesson_dir(lesson)
    print(f"{lesson.title}: {folder}")
    for ref in lesson.references:
        state = "new" if ws.exercise_file(lesson, ref) in written else "kept (yours)"
        print(f"  {lesson.exercise_number(ref):>5}  {ref.name}  {state}")
    print(
        f"\nRead it: minigrad lesson show {lesson.number}    watch it: minigrad lesson debug {lesson.number}\n"
        f"Edit the files above, then: minigrad lesson check {lesson.number}"
    )
    return 0


def _check(args) -> int:
    from minigrad.course import run_checks

    lesson = _lesson(args.number)
    if args.file is not None and len(lesson.references) != 1:
        print(
            f"--file needs a lesson with one exercise; lesson {lesson.number} has {len(lesson.references)}",
            file=sys.stderr,
        )
        return 2
    ws = None
    exercise_dir = None
    if not args.reference and args.file is None:
        ws = _workspace(args)
        if not ws.started(lesson):
            print(f"lesson {lesson.number} is not in {ws.root} yet: run `minigrad lesson start {lesson.number}`")
            return 2
        exercise_dir = ws.lesson_dir(lesson)
        print(f"checking {exercise_dir}\n")
    results = run_checks(lesson, reference=args.reference, exercise_file=args.file, exercise_dir=exercise_dir)
    width = max((len(r.exercise) for r in results), default=0)
    for r in results:
        mark = "PASS" if r.passed else ("TODO" if r.not_done else "FAIL")
        print(f"{mark}  {r.exercise:<{width}}  {r.description}")
        if not r.passed:
            print(f"      {r.explain()}")
    passed = sum(r.passed for r in results)
    print(f"\nlesson {lesson.number}: {passed} of {len(results)} checks passed")
    if passed < len(results) and not args.reference:
        print(f"stuck? `minigrad lesson hint {lesson.number}.K` shows a hint for exercise {lesson.number}.K")
    if ws is not None:
        ws.record_checks(lesson, results)
    code = 0 if passed == len(results) else 1
    if args.debug:
        divergence = first_divergence_of(results)
        if divergence is None:
            print("\n--debug: no check failed where a run parts from the reference's; nothing to open")
            return code
        path = save_run(divergence, lesson)
        print(
            f"\nyour run is saved in {path} (`minigrad-tui --replay {path}`, then `g` {divergence.step}); "
            f"opening it at step {divergence.step}"
        )
        open_debugger(divergence, str(path))
    return code


def first_divergence_of(results):
    """The Divergence of the first check that failed with one (a TraceDivergence), or None."""
    from minigrad.course.tracediff import TraceDivergence

    return next((r.error.divergence for r in results if isinstance(r.error, TraceDivergence)), None)


def save_run(divergence, lesson) -> Path:
    """Save the learner's recorded run in the temporary folder (so it can be replayed again); returns its path."""
    import tempfile

    path = Path(tempfile.gettempdir()) / f"minigrad-lesson-{lesson.number:02d}-run.jsonl"
    divergence.mine.save(path)
    return path


def debugger_app(divergence, title: str):
    """The debugger (minigrad-tui's app) over the learner's recorded run, its cursor at the divergence's step."""
    from minigrad_tui.app import DebuggerApp
    from minigrad_tui.runner import ReplaySource

    app = DebuggerApp(ReplaySource(divergence.mine), title)
    events = app.session.events
    app.session.go(next((i for i, e in enumerate(events) if e.seq >= divergence.step), len(events) - 1))
    return app


def open_debugger(divergence, title: str) -> None:
    """Run the debugger in this terminal on the learner's run, opened at the divergence's step
    (without a terminal, say so: the saved run can be replayed later)."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        print("--debug: not a terminal, so no debugger opens here")
        return
    debugger_app(divergence, title).run()


def _hint(args) -> int:
    from minigrad.course.hints import load_hints, parse_exercise_id

    try:
        number, key = parse_exercise_id(args.exercise)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    lesson = _lesson(number)
    known = [lesson.exercise_number(ref) for ref in lesson.references]
    if key not in known:
        print(f"lesson {number} has exercises {', '.join(known)}; there is no {key}", file=sys.stderr)
        return 2
    try:
        hints = load_hints(lesson).get(key, [])
    except ValueError as exc:  # a hints file that names another lesson, or is malformed
        print(exc, file=sys.stderr)
        return 2
    if not hints:
        print(f"exercise {key} has no hints yet; its file's comments and the lesson text are the help there is")
        return 0
    ws = _workspace(args, required=False)
    seen = ws.hints_seen(lesson, key) if ws else 0
    shown = seen if args.again else min(seen + 1, len(hints))
    shown = max(shown, 1)
    from rich.console import Console
    from rich.markdown import Markdown

    console = Console()
    for i, text in enumerate(hints[:shown], 1):
        console.print(f"[bold]Hint {i} of {len(hints)} for exercise {key}[/bold]")
        console.print(Markdown(text))
        console.print()
    if ws is None:
        console.print(f"(no workspace to count hints in: `minigrad lesson start {number}` makes one)")
    elif shown < len(hints):
        console.print(f"run `minigrad lesson hint {key}` again for the next one")
    else:
        console.print("that is every hint for this exercise")
    if ws is not None and shown != seen:
        ws.set_hints_seen(lesson, key, shown)
    return 0


def _debug(args) -> int:
    import minigrad_tui

    lesson = _lesson(args.number)
    ws = _workspace(args, required=False)
    demo = ws.demo(lesson) if ws is not None else lesson.demo
    return minigrad_tui.main([str(demo), *args.demo_args])


def _reset(args) -> int:
    lesson = _lesson(args.number)
    ws = _workspace(args)
    try:
        written = ws.reset(lesson)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    for path in written:
        print(f"wrote {path}")
    return 0


def _progress(args) -> int:
    from minigrad.course import list_lessons

    ws = _workspace(args)
    progress = ws.progress()
    print(f"workspace {ws.root}\n")
    for lesson in list_lessons():
        entry = progress.get(lesson.key)
        if entry is None or not ws.started(lesson):
            state = "not started"
        else:
            checks = entry.get("checks", {})
            passed = sum(c["passed"] for c in checks.values())
            total = sum(c["total"] for c in checks.values())
            done = [
                lesson.exercise_number(ref)
                for ref in lesson.references
                if checks.get(ref.stem, {}).get("total") and checks[ref.stem]["passed"] == checks[ref.stem]["total"]
            ]
            if not checks:
                state = "started, not checked yet"
            elif len(done) == len(lesson.references):
                state = f"done ({passed} of {total} checks)"
            else:
                state = f"{passed} of {total} checks pass; exercises done: {', '.join(done) or 'none'}"
            hints = sum(entry.get("hints", {}).values())
            if hints:
                state += f"; {hints} hint{'s' if hints != 1 else ''} used"
        print(f"{lesson.number:2d}  {lesson.title:<60.60}  {state}")
    return 0


def _new(args) -> int:
    from minigrad.course.lessons import is_checkout, lesson_folders, lessons_root
    from minigrad.course.scaffold import new_lesson

    folder = args.dir or (lessons_root() if is_checkout() else Path.cwd())
    try:
        path = new_lesson(args.number, args.slug, folder, args.title)
    except (ValueError, FileExistsError) as exc:
        print(exc, file=sys.stderr)
        return 2
    print(f"wrote lesson {args.number} in {path}")
    if Path(folder).resolve() not in [f.resolve() for f in lesson_folders()]:
        print(f"put {Path(folder).resolve()} on MINIGRAD_LESSONS (folders separated by '{os.pathsep}') to list it")
    n = args.number
    print(
        f"\n  minigrad lesson check {n} --reference   its reference solutions pass their checks\n"
        f"  minigrad lesson lint {n}                its text keeps the rules of its lesson.toml\n"
        "then write your lesson over the skeleton (lessons/AUTHORING.md in the source repository says how)"
    )
    return 0


def _lint(args) -> int:
    from minigrad.course.rules import text_problems

    lesson = _lesson(args.number)
    problems = text_problems(lesson)
    for problem in problems:
        print(f"{lesson.key}: {problem}")
    if not problems:
        print(f"lesson {lesson.number} keeps the rules of its lesson.toml")
    return 1 if problems else 0
