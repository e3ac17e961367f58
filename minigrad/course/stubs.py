"""Make the learner's exercise file from the reference: solutions become NotImplementedError stubs.

A solution block inside a function becomes one ``raise NotImplementedError``. A block at a class's
level (or at a module's) that defines functions keeps each one's decorators, signature and docstring,
and only its body becomes the ``raise``: the learner sees which methods to write, and the class still
imports (a bare ``raise`` in a class body would fail at import, before any check could run).
"""

from __future__ import annotations

import ast
import re
import textwrap
from pathlib import Path

BEGIN, END = "# BEGIN SOLUTION", "# END SOLUTION"
_HINT = re.compile(r"^\s*# HINT:")
_SCOPE = re.compile(r"^(\s*)(?:async\s+def|def|class)\s+(\w+)")


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def _not_implemented(indent: str, what: str) -> str:
    return f'{indent}raise NotImplementedError("exercise: write {what}")\n'


def _functions_kept(block: list[str], prefix: str) -> list[str] | None:
    """The block with each top-level function's body replaced by a raise (None: the block defines none)."""
    try:
        tree = ast.parse(textwrap.dedent("".join(block)))
    except SyntaxError:
        return None
    functions = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    if not functions:
        return None
    keep: dict[float, str] = {}
    for lineno, line in enumerate(block, 1):
        if _HINT.match(line):
            keep[lineno] = line
    covered = set()
    for node in tree.body:
        start = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
        covered.update(range(start, node.end_lineno + 1))
        if node not in functions:
            keep.update((k, block[k - 1]) for k in range(start, node.end_lineno + 1))
            continue
        body = node.body
        has_doc = (
            isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        )
        header_end = body[0].end_lineno if has_doc else body[0].lineno - 1
        keep.update((k, block[k - 1]) for k in range(start, header_end + 1))
        body_indent = _indent(block[body[0].lineno - 1])
        keep[node.end_lineno + 0.5] = _not_implemented(body_indent, f"{prefix}{node.name}()")
    keep.update((k, line) for k, line in enumerate(block, 1) if k not in covered and not line.strip())
    kept = [keep[k] for k in sorted(keep)]
    while kept and not kept[-1].strip():
        kept.pop()
    return kept


def generate_stub(source: str, origin: str = "the reference") -> str:
    """Replace every solution block with its hints and a ``raise NotImplementedError``.

    A block keeps the indentation of its ``# BEGIN SOLUTION`` line. ``# HINT:``
    lines inside it are kept. Unbalanced markers are an error naming the line.
    """
    out = [
        f"# Exercise file generated from {origin}. Replace each `raise NotImplementedError` with your code;\n",
        "# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.\n",
    ]
    scopes: list[tuple[int, str, bool]] = []  # (indent width, name, is a class) of the enclosing defs
    block: list[str] | None = None
    indent = owner = None
    for lineno, line in enumerate(source.splitlines(keepends=True), 1):
        stripped = line.strip()
        if block is None:
            if stripped == BEGIN:
                indent = _indent(line)
                scopes = [s for s in scopes if s[0] < len(indent)]
                owner = scopes[-1] if scopes else None
                block = []
                continue
            if stripped == END:
                raise ValueError(f"{origin}:{lineno}: '{END}' without a matching '{BEGIN}'")
            m = _SCOPE.match(line)
            if m:
                width = len(m.group(1))
                scopes = [s for s in scopes if s[0] < width]
                scopes.append((width, m.group(2), line.lstrip().startswith("class")))
            out.append(line)
            continue
        if stripped == BEGIN:
            raise ValueError(f"{origin}:{lineno}: nested '{BEGIN}'")
        if stripped != END:
            block.append(line)
            continue
        kept = None
        if owner is None or owner[2]:  # a block at module or class level may define functions
            kept = _functions_kept(block, f"{owner[1]}." if owner else "")
        if kept is None:
            what = f"{owner[1]}()" if owner and not owner[2] else f"class {owner[1]}" if owner else "this exercise"
            kept = [line for line in block if _HINT.match(line)] + [_not_implemented(indent, what)]
        out.extend(kept)
        block = None
    if block is not None:
        raise ValueError(f"{origin}: '{BEGIN}' without a matching '{END}'")
    return "".join(out)


def stub_path(reference: Path) -> Path:
    """Where the learner's file for a reference solution lives (the lesson folder)."""
    return reference.parent.parent / reference.name


def write_stub(reference: Path) -> Path:
    """(Re)generate the learner's file for ``reference``; returns its path."""
    target = stub_path(reference)
    origin = f"{reference.parent.name}/{reference.name}"
    target.write_text(generate_stub(reference.read_text(), origin))
    return target


def stub_is_current(reference: Path) -> bool:
    """True when the learner's file is exactly what the reference generates."""
    target = stub_path(reference)
    origin = f"{reference.parent.name}/{reference.name}"
    return target.exists() and target.read_text() == generate_stub(reference.read_text(), origin)
