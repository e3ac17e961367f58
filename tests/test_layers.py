"""Layers keep their direction: minigrad_tui -> minigrad.trace / minigrad.viz -> the core, read through public names.

Checked on the source (imports parsed with ``ast``), so a new module that breaks a rule fails here.
"""

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VIEWERS = ("minigrad/viz", "minigrad/cli", "minigrad_tui")
CORE = ("minigrad.tensor", "minigrad.ops", "minigrad.autograd")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path):
    """``(module imported, names imported, inside a function)`` for each import statement of ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = _module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    late = set()
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            late.update(id(n) for n in ast.walk(fn) if isinstance(n, (ast.Import, ast.ImportFrom)))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, (), id(node) in late
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *(node.module.split(".") if node.module else [])])
            names = tuple(a.name for a in node.names)
            yield module, names, id(node) in late


def _sources(*folders):
    for folder in folders:
        yield from sorted((ROOT / folder).rglob("*.py"))


def _private(module: str, names: tuple) -> list:
    hidden = [part for part in module.split(".") if part.startswith("_") and not part.startswith("__")]
    return hidden + [n for n in names if n.startswith("_") and not n.startswith("__")]


def test_nothing_outside_autograd_imports_its_private_names():
    bad = []
    for path in _sources("minigrad", "minigrad_tui", "bench", "docs", "lessons"):
        if (ROOT / "minigrad" / "autograd") in path.parents:
            continue
        for module, names, _ in _imports(path):
            if module.startswith("minigrad.autograd") and _private(module, names):
                bad.append(f"{path.relative_to(ROOT)}: {module} {names}")
    assert bad == []


def test_viewers_use_only_public_names_of_the_core():
    bad = []
    for path in _sources(*VIEWERS):
        for module, names, _ in _imports(path):
            if module.split(".")[0] == "minigrad" and _private(module, names):
                bad.append(f"{path.relative_to(ROOT)}: {module} {names}")
    assert bad == []


def test_the_debugger_does_not_reach_into_the_cli():
    bad = [
        f"{path.relative_to(ROOT)}: {module}"
        for path in _sources("minigrad_tui")
        for module, _, _ in _imports(path)
        if module.startswith("minigrad.cli")
    ]
    assert bad == []


def test_the_core_never_imports_the_viewers():
    bad = []
    for path in _sources("minigrad"):
        name = _module_name(path)
        if name.startswith(("minigrad.trace", "minigrad.viz", "minigrad.cli", "minigrad.course", "minigrad.__main__")):
            continue
        for module, _, _ in _imports(path):
            if module.startswith(("minigrad_tui", "textual", "pygraphviz", "minigrad.viz", "minigrad.cli")):
                bad.append(f"{path.relative_to(ROOT)}: {module}")
    assert bad == []


def test_one_late_import_between_tensor_engine_and_ops():
    """The engine sits on the tensor and the ops, the ops on the tensor: imports at module level only go
    down that stack. The one import going up is late and named in the README: ``Tensor.backward`` calls
    the engine (an op made from an inference tensor reads its rule's cells in ``tensor`` itself)."""

    def level(module: str):
        return next((i for i, c in enumerate(CORE) if module == c or module.startswith(c + ".")), None)

    up = set()
    for path in [ROOT / "minigrad" / "tensor.py", *_sources("minigrad/ops", "minigrad/autograd")]:
        here = level(_module_name(path))
        for module, _, inside in _imports(path):
            there = level(module)
            if there is not None and there > here:
                assert inside, f"{path.relative_to(ROOT)} imports {module} at module level: an import circle"
                up.add((_module_name(path), module))
    assert up == {("minigrad.tensor", "minigrad.autograd.engine")}


def test_import_minigrad_is_light_and_reaches_the_subpackages():
    code = (
        "import sys, minigrad\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'pygraphviz', 'graphviz', 'rich'))\n"
        "assert not heavy, heavy\n"
        "assert callable(minigrad.trace.record) and callable(minigrad.viz.draw)\n"
        "assert minigrad.examples.NAMES and 'trace' in dir(minigrad)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
    timed = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import minigrad"], capture_output=True, text=True, cwd=ROOT
    )
    assert "textual" not in timed.stderr and "graphviz" not in timed.stderr
