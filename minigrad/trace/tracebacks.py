"""Tracebacks as a learner reads them: their own code's frames, minigrad's own folded into one line.

A backward pass that raises goes through several frames of the engine between the
learner's ``loss.backward()`` and the line that raised (in a custom Function's
``backward``, say). :func:`user_traceback` keeps the learner's frames, says how many
of minigrad's were left out, and names the learner's line the error came from.
"""

from __future__ import annotations

import os
import sys
import traceback

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
# the debugger ships beside minigrad: named by its path, as the core never imports the viewers
_DEBUGGER_DIR = os.path.join(os.path.dirname(_PACKAGE_DIR.rstrip(os.sep)), "minigrad_tui") + os.sep
_INTERNAL_DIRS = (_PACKAGE_DIR, _DEBUGGER_DIR, os.path.dirname(os.path.abspath(os.__file__)) + os.sep)
# the built-in examples and the lessons a wheel carries are a learner's scripts
_LEARNER_DIRS = tuple(os.path.join(_PACKAGE_DIR, d) + os.sep for d in ("examples", os.path.join("course", "_lessons")))


def _internal(filename: str) -> bool:
    """A frame of minigrad, of the debugger or of Python's own library (runpy, threading)."""
    path = os.path.abspath(filename)
    if path.startswith(_LEARNER_DIRS):
        return False
    return path.startswith(_INTERNAL_DIRS) or filename.startswith("<frozen ")


def stack_ids() -> frozenset:
    """The frames on this thread's stack now, as (id, code) pairs (for :func:`live_frames`'s ``since``).

    With its code: the frames that have returned since (the caller's own) free their ids for new frames."""
    ids, frame = set(), sys._getframe(1)
    while frame is not None:
        ids.add((id(frame), frame.f_code))
        frame = frame.f_back
    return frozenset(ids)


def live_frames(since: frozenset = frozenset(), frame=None) -> list:
    """The frames of the exception being handled in this thread, from the outermost caller to the line
    that raised (while it is still on its way up, the frames above the handler are on the stack); the
    stack from ``frame`` (default: the caller's) out when none is being handled (an error the engine
    reports before raising it).

    ``since``: :func:`stack_ids` taken when a recording began: of those frames only the innermost (the
    one running the recorded block) is kept, not the callers around the recording.
    """
    exc = sys.exc_info()[1]
    if exc is None or exc.__traceback__ is None:
        return _outer_frames(sys._getframe(1) if frame is None else frame, since)
    tb = exc.__traceback__
    return _outer_frames(tb.tb_frame.f_back, since) + list(traceback.extract_tb(tb))


def _outer_frames(frame, since: frozenset) -> list:
    frames = []
    while frame is not None:
        frames.append((frame, frame.f_lineno))
        if (id(frame), frame.f_code) in since:
            break
        frame = frame.f_back
    return list(traceback.StackSummary.extract(reversed(frames)))


def user_traceback(frames, title: str, short: bool = False) -> tuple:
    """``(raised_at, text)``: the learner's deepest frame as ``file.py:12 in backward`` (None when no
    frame is theirs) and a traceback of their frames, minigrad's runs folded into one line.
    ``short``: frames as ``file.py:12 in backward`` (for a narrow pane), else as Python writes them."""
    frames = list(frames)
    first = next((i for i, f in enumerate(frames) if not _internal(f.filename)), None)
    if first is None:
        return None, title
    lines = [] if short else ["Traceback (most recent call last):"]
    folded = 0
    raised_at = None
    for f in frames[first:]:
        if _internal(f.filename):
            folded += 1
            continue
        if folded:
            lines.append(_folded(folded))
            folded = 0
        raised_at = f"{os.path.basename(f.filename)}:{f.lineno} in {f.name}"
        lines.append(f"  {raised_at}" if short else f'  File "{f.filename}", line {f.lineno}, in {f.name}')
        if f.line:
            lines.append(f"    {f.line.strip()}")
    if folded:
        lines.append(_folded(folded))
    lines.append(title)
    return raised_at, "\n".join(lines)


def _folded(count: int) -> str:
    return f"  ... {count} frame{'s' if count > 1 else ''} inside minigrad"
