"""Writes ``minigrad/tensor.pyi``: the tensor module as static tools should see it, read off the live class.

Most of Tensor's methods are ops bound to the class when ``minigrad.ops`` is imported (``Tensor.clamp``
is ``ops/elementwise.py``'s ``clamp``), so type checkers, go-to-definition and completion, which read
``tensor.py`` without running it, would find only the class body. The stub lists every method,
property and slot with the signature and docstring ``inspect`` finds at runtime, and every other
name the module defines: a ``.pyi`` replaces the ``.py`` for those tools. The text is laid out as
``ruff format`` lays out a stub. ``python -m minigrad._stubgen --write`` regenerates it; ``--check``
(and a test) fails when it is stale. Nothing imports this module at runtime.
"""

from __future__ import annotations

import argparse
import ast
import builtins
import importlib
import inspect
import re
import sys
import types
from pathlib import Path

from minigrad.ops import types as _argument_types

__all__ = ["STUB", "render", "method_signature", "main"]

MODULE = "minigrad.tensor"
STUB = Path(__file__).with_name("tensor.pyi")
HEADER = (
    "# The tensor module as static tools see it, Tensor's bound ops included.\n"
    "# Generated from the live class by `python -m minigrad._stubgen --write`: do not edit by hand.\n"
)
LINE_LENGTH = 120  # pyproject's [tool.ruff] line-length
# Class attributes that are machinery, not API: never listed.
_SKIPPED = {"__module__", "__qualname__", "__doc__", "__dict__", "__weakref__", "__slots__", "__annotations__"}
# Methods whose return type differs from ``object``'s on purpose (a Tensor of bools, as in PyTorch).
_OVERRIDES_OBJECT = {"__eq__", "__ne__"}
_SIMPLE_TYPES = {bool, int, float, str, bytes, tuple, list, dict, set, frozenset}
_VARIADIC = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)


# ---------------------------------------------------------------- what a method shows
def method_signature(value) -> tuple[inspect.Signature, dict]:
    """The signature a method shows, and the globals its annotations were written against.

    It is ``inspect.signature``'s (an op bound as a method keeps its first parameter's name: ``a`` in
    ``clamp(a, min, max)`` is the tensor it is called on), except that an in-place method made from
    an op (``add_``, ``exp_``, ``__iadd__``) takes, in place of its ``*args, **kwargs``, the op's
    further arguments, and returns the tensor.
    """
    signature, namespace = inspect.signature(value), _namespace(value)
    op = _written_op(value)
    if op is not None:
        named = [p for p in signature.parameters.values() if p.kind not in _VARIADIC]
        further = list(inspect.signature(op).parameters.values())[len(named) :]
        signature = signature.replace(parameters=named + further, return_annotation="Tensor")
        namespace = {**namespace, **_namespace(op)}
    return signature, namespace


def _written_op(value):
    """The op an in-place method writes into its tensor, for the methods ``ops/inplace.py`` and
    ``ops/inplace_variants.py`` make from one (the ``op`` their closure holds); else None."""
    code = getattr(value, "__code__", None)
    if code is None or "op" not in code.co_freevars or not value.__module__.startswith("minigrad.ops.inplace"):
        return None
    return value.__closure__[code.co_freevars.index("op")].cell_contents


def _namespace(value) -> dict:
    """The globals the annotations of ``value`` (a function, property or wrapper) were written against."""
    target = value.fget if isinstance(value, property) else value
    return getattr(inspect.unwrap(target), "__globals__", {})


# ---------------------------------------------------------------- annotations and the imports they need
class _Imports:
    """The imports the stub's annotations need, by the name they are used under."""

    def __init__(self, module: types.ModuleType):
        self.module = module
        self.own = _defined_names(module)
        self.lines: dict[str, str] = {"builtins": "import builtins", "Any": "from typing import Any"}

    def name(self, alias: str, value) -> None:
        """Make ``alias`` (a name an annotation uses, bound to ``value`` where it was written) importable."""
        if alias in self.own and getattr(self.module, alias, None) is value:
            return  # defined in the stubbed module itself
        if isinstance(value, types.ModuleType):
            line = f"import {value.__name__}" if alias == value.__name__ else f"import {value.__name__} as {alias}"
        elif getattr(value, "__qualname__", None) == alias and hasattr(value, "__module__"):
            line = f"from {value.__module__} import {alias}"
        elif getattr(_argument_types, alias, None) is value:  # an alias of the declared argument types
            line = f"from {_argument_types.__name__} import {alias}"
        else:
            raise ValueError(f"_stubgen: cannot import the annotation name {alias!r} ({value!r})")
        if self.lines.setdefault(alias, line) != line:
            raise ValueError(f"_stubgen: {alias!r} names two things: {self.lines[alias]!r} and {line!r}")

    def text(self) -> str:
        """The import block, sorted into stdlib, third-party and minigrad sections as ruff's isort sorts them."""
        sections: dict[int, list[str]] = {0: [], 1: [], 2: []}
        for line in self.lines.values():
            top = line.split()[1].split(".")[0]
            sections[0 if top in sys.stdlib_module_names else 2 if top == "minigrad" else 1].append(line)
        blocks = []
        for lines in sections.values():
            plain = sorted((line for line in lines if line.startswith("import ")), key=str.lower)
            names_by_module: dict[str, list[str]] = {}
            for line in lines:
                if line.startswith("from "):
                    _, module, _, name = line.split(" ", 3)
                    names_by_module.setdefault(module, []).append(name)
            froms = sorted(
                (f"from {m} import {', '.join(sorted(names))}" for m, names in names_by_module.items()), key=str.lower
            )
            if plain or froms:
                blocks.append("\n".join(plain + froms))
        return "\n\n".join(blocks)


class _Annotations(ast.NodeTransformer):
    """Rewrites an annotation for the stub: builtins a class attribute shadows become ``builtins.X``."""

    def __init__(self, namespace: dict, shadowed: set, imports: _Imports):
        self.namespace, self.shadowed, self.imports = namespace, shadowed, imports

    def visit_Name(self, node: ast.Name):
        if node.id in self.shadowed and hasattr(builtins, node.id):
            return ast.copy_location(ast.Attribute(ast.Name("builtins", ast.Load()), node.id, ast.Load()), node)
        if node.id == "Any":  # the stub imports it from typing
            return node
        if node.id in self.namespace:
            self.imports.name(node.id, self.namespace[node.id])
        elif not hasattr(builtins, node.id):
            raise ValueError(f"_stubgen: the annotation name {node.id!r} is not defined where it is used")
        return node


def _annotation(annotation, namespace: dict, shadowed: set, imports: _Imports) -> str:
    if isinstance(annotation, type):
        if annotation.__module__ != "builtins":
            namespace = {**namespace, annotation.__name__: annotation}
        text = annotation.__name__
    elif isinstance(annotation, str):
        text = annotation
    else:
        text = inspect.formatannotation(annotation)
    return ast.unparse(_Annotations(namespace, shadowed, imports).visit(ast.parse(text, mode="eval")))


def _literal(value) -> str | None:
    """``value`` as a literal in ruff's style (double quotes), or None when it is not a plain literal."""
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, (int, float)) and type(value) in (int, float):
        text = repr(value)
        return text if ast.literal_eval(text) == value and text not in ("inf", "-inf", "nan") else None
    if type(value) is str:
        return f'"{value}"' if value.isprintable() and not set(value) & {'"', "\\"} else None
    if type(value) is tuple:
        items = [_literal(v) for v in value]
        if None in items:
            return None
        return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"
    return None


# ---------------------------------------------------------------- layout
def _docstring(doc: str | None, indent: str) -> list[str]:
    if not doc:
        return []
    text = inspect.cleandoc(doc)
    if '"""' in text or text.endswith(('"', "\\")):
        quoted = repr(text)
    elif "\\" in text:
        quoted = f'r"""{text}"""'
    else:
        quoted = f'"""{text}"""'
    lines = quoted.split("\n")
    return [indent + lines[0], *(indent + line if line.strip() else "" for line in lines[1:])]


def _def_lines(name: str, params: list[str], returns: str, indent: str, tail: str) -> list[str]:
    """``def name(params) -> returns:tail`` on one line, or wrapped as ``ruff format`` wraps it."""
    arrow = f" -> {returns}" if returns else ""
    one = f"{indent}def {name}({', '.join(params)}){arrow}:{tail}"
    if len(one.split("  #")[0]) <= LINE_LENGTH or not params:
        return [one]
    hugged = f"{indent}    {', '.join(params)}"
    if len(hugged) <= LINE_LENGTH:
        return [f"{indent}def {name}(", hugged, f"{indent}){arrow}:{tail}"]
    return [f"{indent}def {name}(", *(f"{indent}    {p}," for p in params), f"{indent}){arrow}:{tail}"]


class _Item:
    """One statement of the stub: a variable, a def (``stub``: ``...``, ``body``: a docstring) or a class."""

    def __init__(self, kind: str, lines: list[str]):
        self.kind, self.lines = kind, lines

    @property
    def family(self) -> str:
        return "def" if self.kind in ("stub", "body") else self.kind


def _join_top_level(items: list[_Item]) -> list[str]:
    """Items separated as ruff formats a stub: a blank line where the kind of statement changes, after a
    def with a body and around classes; none within a run of variables or of one-line defs."""
    lines: list[str] = []
    for previous, item in zip([None, *items], items):
        if previous is not None and (
            previous.family != item.family or previous.kind in ("body", "class") or item.kind == "class"
        ):
            lines.append("")
        lines += item.lines
    return lines


class _Renderer:
    def __init__(self, module: types.ModuleType):
        self.module = module
        self.imports = _Imports(module)

    def function(
        self, name: str, signature: inspect.Signature, namespace: dict, doc, indent: str, shadowed=frozenset(), tail=""
    ) -> _Item:
        params, slash_due, star_done = [], False, False
        for param in signature.parameters.values():
            if param.kind is param.POSITIONAL_ONLY:
                slash_due = True
            elif slash_due:
                params.append("/")
                slash_due = False
            if param.kind is param.KEYWORD_ONLY and not star_done:
                params.append("*")
            star_done = star_done or param.kind in (param.KEYWORD_ONLY, param.VAR_POSITIONAL)
            text = {param.VAR_POSITIONAL: "*", param.VAR_KEYWORD: "**"}.get(param.kind, "") + param.name
            annotated = param.annotation is not param.empty
            if annotated:
                text += ": " + _annotation(param.annotation, namespace, shadowed, self.imports)
            if param.default is not param.empty:
                default = _literal(param.default) or "..."
                text += f" = {default}" if annotated else f"={default}"
            params.append(text)
        if slash_due:
            params.append("/")
        returns = ""
        if signature.return_annotation is not signature.empty:
            returns = _annotation(signature.return_annotation, namespace, shadowed, self.imports)
        body = _docstring(doc, indent + "    ")
        if body:
            return _Item("body", _def_lines(name, params, returns, indent, tail) + body)
        return _Item("stub", _def_lines(name, params, returns, indent, " ..." + tail))

    def member(self, cls: type, name: str, value, shadowed: set) -> list[_Item]:
        indent = "    "
        if isinstance(value, property):
            namespace, returns = _namespace(value), inspect.signature(value.fget).return_annotation
            getter = inspect.Signature([_self()], return_annotation=returns)
            items = [self.function(name, getter, namespace, value.__doc__, indent, shadowed)]
            items[0].lines.insert(0, f"{indent}@property")
            if value.fset is not None:
                given = list(inspect.signature(value.fset).parameters.values())[1]
                annotation = returns if given.annotation is given.empty else given.annotation
                setter = inspect.Signature(
                    [_self(), given.replace(name="value", annotation=annotation)], return_annotation="None"
                )
                items.append(self.function(name, setter, namespace, None, indent, shadowed))
                items[-1].lines.insert(0, f"{indent}@{name}.setter")
            return items
        if isinstance(value, (staticmethod, classmethod)):
            fn = value.__func__
            item = self.function(name, inspect.signature(fn), _namespace(fn), fn.__doc__, indent, shadowed)
            item.lines.insert(0, f"{indent}@{type(value).__name__}")
            return [item]
        if isinstance(value, types.MemberDescriptorType):  # a slot
            annotation = getattr(cls, "__annotations__", {}).get(name, "Any")
            namespace = vars(sys.modules[cls.__module__])
            return [_Item("var", [f"{indent}{name}: {_annotation(annotation, namespace, shadowed, self.imports)}"])]
        if callable(value):
            signature, namespace = method_signature(value)
            doc = value.__doc__ if _own_doc(value) else None
            return [self.function(name, signature, namespace, doc, indent, shadowed, _ignore(cls, name))]
        return [_Item("var", [f"{indent}{name}: {_variable_type(value)}"])]

    def cls(self, cls: type, node: ast.ClassDef) -> _Item:
        bases = [b for b in cls.__bases__ if b is not object]
        for base in bases:
            self.imports.name(base.__name__, base)
        head = f"class {cls.__name__}({', '.join(b.__name__ for b in bases)}):" if bases else f"class {cls.__name__}:"
        shadowed = {name for name in dir(cls) if hasattr(builtins, name)}
        members = [(name, value) for name, value in vars(cls).items() if name not in _SKIPPED]
        listed = {name for name, _ in members}
        items = [_Item("var", [f"    {name}: Any"]) for name in _instance_attributes(node) if name not in listed]
        for name, value in members:
            items += self.member(cls, name, value, shadowed)
        docstring = _docstring(cls.__doc__, "    ")
        if docstring and items and items[0].kind == "var":
            docstring.append("")  # ruff's blank line between a class docstring and a first variable
        return _Item("class", [head, *docstring, *(line for item in items for line in item.lines)])

    def text(self) -> str:
        items: list[_Item] = []
        exported = getattr(self.module, "__all__", None)
        if exported is not None:
            items.append(_Item("var", [f"__all__ = [{', '.join(_literal(n) for n in exported)}]"]))
        for name, node in _defined_names(self.module).items():
            value = getattr(self.module, name)
            if name == "__all__":
                continue
            if isinstance(node, ast.ClassDef):
                items.append(self.cls(value, node))
            elif isinstance(node, ast.FunctionDef):
                items.append(self.function(name, inspect.signature(value), vars(self.module), value.__doc__, ""))
            else:
                items.append(_Item("var", [f"{name}: {_variable_type(value)}"]))
        body = "\n".join(_join_top_level(items))
        return f"{HEADER}\n{self.imports.text()}\n\n{body}\n"


def _defined_names(module: types.ModuleType) -> dict[str, ast.stmt]:
    """The names the module's own source defines at top level (not imports), in source order."""
    names: dict[str, ast.stmt] = {}
    for node in ast.parse(inspect.getsource(module)).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names[node.name] = node
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    names[target.id] = node
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names[node.target.id] = node
    return names


def _instance_attributes(node: ast.ClassDef) -> list[str]:
    """Attributes an instance gets in ``__init__`` (``self.id = ...``), which the class itself does not list."""
    names: list[str] = []
    for item in node.body:
        if isinstance(item, ast.FunctionDef) and item.name == "__init__":
            for sub in ast.walk(item):
                targets = sub.targets if isinstance(sub, ast.Assign) else []
                targets += [sub.target] if isinstance(sub, ast.AnnAssign) else []
                for target in targets:
                    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
                        if target.value.id == "self" and target.attr not in names:
                            names.append(target.attr)
    return names


def _ignore(cls: type, name: str) -> str:
    """The type checkers' error a method has on purpose, silenced: ``==`` gives a Tensor (not object's bool),
    and ``x += y`` names its operand ``other`` where ``x + y``'s rule names it ``b``."""
    if name in _OVERRIDES_OBJECT:
        return "  # type: ignore[override]"
    operator = re.fullmatch(r"__i(\w+)__", name)
    if operator and hasattr(cls, f"__{operator.group(1)}__"):
        return "  # type: ignore[misc]"
    return ""


def _self() -> inspect.Parameter:
    return inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)


def _own_doc(value) -> bool:
    """Whether ``value`` carries a docstring of its own (``object.__hash__`` set on the class carries object's)."""
    builtin = (types.BuiltinFunctionType, types.WrapperDescriptorType, types.MethodWrapperType)
    return not isinstance(value, builtin)


def _variable_type(value) -> str:
    kind = type(value)
    return kind.__name__ if kind in _SIMPLE_TYPES else "Any"


def render() -> str:
    """The stub's text, from the tensor module as ``import minigrad`` leaves it (every op bound)."""
    importlib.import_module("minigrad")
    return _Renderer(sys.modules[MODULE]).text()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m minigrad._stubgen", description=__doc__.split("\n")[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--write", action="store_true", help=f"write {STUB.name} next to tensor.py")
    group.add_argument("--check", action="store_true", help=f"fail when {STUB.name} is not what the class says")
    args = parser.parse_args(argv)
    text = render()
    current = STUB.exists() and STUB.read_text() == text
    if args.write:
        if not current:
            STUB.write_text(text)
        print(f"{STUB}: {'already current' if current else 'updated'}")
    elif args.check:
        if not current:
            print(f"{STUB} is stale: run python -m minigrad._stubgen --write", file=sys.stderr)
            return 1
        print(f"{STUB}: current")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
