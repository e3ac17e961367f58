"""``minigrad lesson list|show|check|debug|reset``: the course from the terminal."""

from __future__ import annotations

import sys
from pathlib import Path


def register(sub) -> None:
    p = sub.add_parser(
        "lesson",
        help="list, read, check and debug the course's lessons",
        description="The minigrad course. Each lesson has a text, a demo that runs under the debugger, and "
        "exercises you complete in lessons/NN_topic/exN_*.py and check with `minigrad lesson check N`.",
    )
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    actions.add_parser("list", help="list the lessons and their exercises").set_defaults(func=_list)
    show = actions.add_parser("show", help="render a lesson's text in the terminal")
    show.add_argument("number", type=int)
    show.set_defaults(func=_show)
    chk = actions.add_parser("check", help="run a lesson's checks on your exercise files")
    chk.add_argument("number", type=int)
    chk.add_argument("--reference", action="store_true", help="check the reference solutions instead")
    chk.add_argument(
        "--file",
        type=Path,
        help="check this file instead of the lesson's exercise file (lessons with one exercise only)",
    )
    chk.set_defaults(func=_check)
    dbg = actions.add_parser("debug", help="open the lesson's demo in the debugger (minigrad-tui)")
    dbg.add_argument("number", type=int)
    dbg.set_defaults(func=_debug)
    reset = actions.add_parser("reset", help="regenerate a lesson's exercise files (discards your answers)")
    reset.add_argument("number", type=int)
    reset.set_defaults(func=_reset)


def _lesson(number: int):
    from minigrad.course import find_lesson

    return find_lesson(number)


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


def _check(args) -> int:
    from minigrad.course import run_checks

    lesson = _lesson(args.number)
    if args.file is not None and len(lesson.references) != 1:
        print(
            f"--file needs a lesson with one exercise; lesson {lesson.number} has {len(lesson.references)}",
            file=sys.stderr,
        )
        return 2
    results = run_checks(lesson, reference=args.reference, exercise_file=args.file)
    width = max((len(r.exercise) for r in results), default=0)
    for r in results:
        mark = "PASS" if r.passed else ("TODO" if r.not_done else "FAIL")
        print(f"{mark}  {r.exercise:<{width}}  {r.description}")
        if not r.passed:
            print(f"      {r.explain()}")
    passed = sum(r.passed for r in results)
    print(f"\nlesson {lesson.number}: {passed} of {len(results)} checks passed")
    return 0 if passed == len(results) else 1


def _debug(args) -> int:
    import tui

    return tui.main([str(_lesson(args.number).demo)])


def _reset(args) -> int:
    from minigrad.course import write_stub

    lesson = _lesson(args.number)
    for ref in lesson.references:
        print(f"wrote {write_stub(ref)}")
    return 0
