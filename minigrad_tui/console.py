"""The expression console (``:``): the names a step offers, one expression evaluated over them, its answer in full.

The scope at a step, weakest first: ``np`` and ``mg`` (minigrad); each node's value
at that step by its name (NumPy arrays from the record, so a replay offers them too);
at a live stop, the script's own variables (the globals and locals of the innermost
frame of the script's code, as they are while it waits); then the rule's names, ``g``
and the captured values (``out``, ``a``, ``b``) as recorded; ``_`` the last answer.

Evaluating is running the local user's own Python, typed at their own debugger: this is
the one place where the debugger evaluates text. A browser gets the console only when
the server asked it for its token (:mod:`minigrad_tui.web`); conditions and searches stay data.
"""

from __future__ import annotations

import keyword
import os
import sys

import numpy as np

RESULT_LIMIT = 100_000  # values an answer prints whole; beyond, NumPy's summary (the value view slices)


def recorded_names(model, index: int) -> tuple:
    """The recorded values at step ``index`` by name, as NumPy arrays: (each named node's value, the rule's
    ``g`` and captured names). Values kept only as summaries are left out."""
    nodes, rule = model.scope_values(index)
    return _arrays(nodes), _arrays(rule)


def _arrays(pairs) -> dict:
    return {
        name: snap.values
        for name, snap in pairs
        if snap is not None and snap.values is not None and name.isidentifier() and not keyword.iskeyword(name)
    }


def script_frame(path: str):
    """The innermost frame running the script at ``path`` in any thread (its own code, not a library's
    under it), or None when no thread is in it (the script has ended, or runs no code of its own)."""
    target = os.path.realpath(path)
    for frame in sys._current_frames().values():
        f = frame
        while f is not None:
            if os.path.realpath(f.f_code.co_filename) == target:
                return f
            f = f.f_back
    return None


def script_names(frame) -> dict:
    """A copy of the globals and (over them) the locals of ``frame``: the script's variables as they are now."""
    names = dict(frame.f_globals)
    if frame.f_locals is not frame.f_globals:
        names.update(frame.f_locals)
    return names


def build_scope(nodes: dict, script: dict | None, rule: dict) -> dict:
    """The namespace an expression is evaluated in, in the module docstring's order (``_`` is added by the caller)."""
    import minigrad

    scope = {"np": np, "mg": minigrad, **nodes}
    if script is not None:
        scope.update(script)
    scope.update(rule)
    return scope


def evaluate(expression: str, scope: dict):
    """The value of ``expression`` in ``scope`` (SyntaxError or whatever it raises propagates)."""
    code = compile(expression, "<console>", "eval")
    return eval(code, scope)  # noqa: S307 - the local user's own expression at their own console (module doc)


def answer_text(value, width: int = 100) -> str:
    """``value`` in full: a tensor or array as NumPy prints it (every value up to ``RESULT_LIMIT``), with its
    dtype and shape; anything else as its repr."""
    from minigrad import Tensor

    head = ""
    if isinstance(value, Tensor):
        grad = ", requires_grad=True" if value.requires_grad else ""
        head = f"tensor {value.dtype}{list(value.shape)}{grad}\n"
        value = value.detach().numpy()
    if isinstance(value, np.generic):
        value = np.asarray(value)
    if isinstance(value, np.ndarray):
        with np.printoptions(threshold=RESULT_LIMIT, linewidth=width):
            body = np.array2string(value, separator=", ")
        head = head or f"{value.dtype}{list(value.shape)}\n"
        return head.replace("\n", " = ") + body if value.ndim == 0 else head + body
    return repr(value)
