"""One self-contained HTML file that steps through every frame of a trace (no network needed).

The page holds every frame's SVG inline (as JSON), the event text of each step,
and a little script: buttons, a slider, the arrow keys, a clickable event list
and ``#step=K`` links.
"""

from __future__ import annotations

import html
import json
import os
import re
from importlib import resources

from .frames import frames
from .options import Options

__all__ = ["player_html", "write_html"]

_PROLOG = re.compile(r"^.*?(?=<svg)", re.S)
_COMMENT = re.compile(r"<!--.*?-->", re.S)


def _inline_svg(svg: str) -> str:
    """The ``<svg>`` element alone (no XML prolog, DOCTYPE or comments), ready to sit inside HTML."""
    return _COMMENT.sub("", _PROLOG.sub("", svg, count=1)).strip()


def _script_json(data) -> str:
    """JSON safe inside a ``<script>`` element (no ``</`` that could close it early)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")


def player_html(trace, steps=None, options: Options | None = None, title: str | None = None) -> str:
    """The player page for ``trace`` (every step, or those in ``steps``) as a string."""
    data = [
        {"step": f.step, "kind": f.kind, "text": f.text, "details": f.details, "svg": _inline_svg(f.diagram.svg())}
        for f in frames(trace, steps, options)
    ]
    if title is None:
        script = trace.meta.get("script") if isinstance(trace.meta, dict) else None
        title = f"minigrad trace: {os.path.basename(str(script))}" if script else "minigrad trace"
    template = resources.files(__package__).joinpath("player.html").read_text(encoding="utf-8")
    return template.replace("__TITLE__", html.escape(title)).replace("__FRAMES__", _script_json(data))


def write_html(trace, path, steps=None, options: Options | None = None, title: str | None = None) -> str:
    """Write the player page for ``trace`` to ``path``; returns the path."""
    path = os.fspath(path)
    page = player_html(trace, steps, options, title)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(page)
    return path
