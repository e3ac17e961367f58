"""Layers keep their direction: each module imports only its own layer and the layers below it.

The order is the picture in the README's Architecture section, read from there, so the picture is
the one place it is written. Imports are parsed with ``ast`` (at module level and inside functions),
so a new module or import that breaks a rule fails here.
"""

import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VIEWERS = ("minigrad/viz", "minigrad/cli", "minigrad_tui")

#: Imports that go up a layer on purpose: ``(importing module, imported module) -> why``. Empty: every
#: call that goes up is a slot in ``minigrad/_upcalls.py`` that the layer above fills in.
UPWARD_ALLOWED: dict = {}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_module(name: str) -> bool:
    base = ROOT.joinpath(*name.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def _imports(path: Path):
    """``(module imported, names imported, inside a function)`` for each import of ``path``; ``from
    package import submodule`` yields the submodule."""
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
            submodules = [f"{module}.{n}" for n in names if _is_module(f"{module}.{n}")]
            for sub in submodules:
                yield sub, (), id(node) in late
            if len(submodules) < len(names):
                yield module, names, id(node) in late


def _sources(*folders):
    for folder in folders:
        yield from sorted((ROOT / folder).rglob("*.py"))


def _private(module: str, names: tuple) -> list:
    hidden = [part for part in module.split(".") if part.startswith("_") and not part.startswith("__")]
    return hidden + [n for n in names if n.startswith("_") and not n.startswith("__")]


def _picture() -> str:
    """The first code block of the README's Architecture section."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## Architecture\n", 1)[1].split("\n## ", 1)[0]
    return section.split("```", 2)[1]


def _layers(picture: str) -> list:
    """The picture's layers, lowest first, each a list of paths (``minigrad/ops/``, ``minigrad/tensor.py``).
    A layer is the paths on consecutive lines that start with one; a line starting ``v`` (an arrow) ends it."""
    layers, current = [], []
    for line in picture.splitlines():
        stripped = line.strip()
        if re.match(r"(minigrad|minigrad_tui)/", stripped):
            current += re.findall(r"(?<![\w/])(?:minigrad|minigrad_tui)/[\w/.]*", stripped)
        elif stripped.startswith("v") and current:
            layers.append(current)
            current = []
    if current:
        layers.append(current)
    return layers[::-1]


def _layer_of(path: Path, layers: list):
    """The index of the layer whose path is the longest prefix of ``path`` (None if no layer holds it)."""
    relative = path.relative_to(ROOT).as_posix()
    found = [
        (len(p), i)
        for i, paths in enumerate(layers)
        for p in paths
        if relative == p or (p.endswith("/") and relative.startswith(p))
    ]
    return max(found)[1] if found else None


def _file_of(module: str):
    base = ROOT.joinpath(*module.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _own_modules():
    return [*_sources("minigrad", "minigrad_tui")]


def test_the_readme_picture_places_every_module():
    layers = _layers(_picture())
    assert len(layers) >= 8 and layers[0][0] == "minigrad/backend.py" and "minigrad_tui/" in layers[-1]
    for paths in layers:
        for p in paths:
            assert (ROOT / p).exists(), f"the README's layer picture names {p}, which does not exist"
    unplaced = [str(p.relative_to(ROOT)) for p in _own_modules() if _layer_of(p, layers) is None]
    assert unplaced == [], "modules the README's layer picture does not place"


def test_every_import_goes_down_the_layers():
    """At module level and inside functions: a late import going up would hide an import circle."""
    layers = _layers(_picture())
    up, allowed = [], set()
    for path in _own_modules():
        here = _layer_of(path, layers)
        for module, _, inside in _imports(path):
            target = _file_of(module) if module.split(".")[0] in ("minigrad", "minigrad_tui") else None
            if target is None or _layer_of(target, layers) <= here:
                continue
            if (_module_name(path), module) in UPWARD_ALLOWED:
                allowed.add((_module_name(path), module))
            else:
                up.append(f"{path.relative_to(ROOT)} imports {module}{' inside a function' if inside else ''}")
    assert up == []
    assert allowed == set(UPWARD_ALLOWED), "an allowed upward import that no longer exists: remove it from the list"


def test_a_late_import_in_the_core_is_a_lazy_load():
    """A function-level import in the core names a module that ``import minigrad`` has not loaded
    (``func`` loads ``batching`` at the first ``vmap``): never one already there, which would only
    dodge an import circle."""
    code = "import sys, minigrad\nprint(' '.join(m for m in sys.modules if m.startswith('minigrad')))"
    loaded = set(
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
        ).stdout.split()
    )
    layers = _layers(_picture())
    root = _layer_of(ROOT / "minigrad" / "__init__.py", layers)
    dodges = [
        f"{path.relative_to(ROOT)}: {module}"
        for path in _sources("minigrad")
        if _layer_of(path, layers) < root
        for module, _, inside in _imports(path)
        if inside and module in loaded
    ]
    assert dodges == []


def test_every_call_going_up_is_filled_in_by_the_layer_above():
    """Each slot declared in ``minigrad/_upcalls.py`` is set once its layer is imported: the engine's by
    ``import minigrad``, vmap's by ``minigrad.batching`` (which every vmap imports)."""
    code = (
        "import minigrad, minigrad._upcalls as up\n"
        "from minigrad.autograd import engine\n"
        "assert up.backward is engine.backward\n"
        "import minigrad.batching\n"
        "missing = [name for name in up.__annotations__ if not callable(getattr(up, name, None))]\n"
        "assert not missing, missing\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


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
            if module.startswith(("minigrad_tui", "textual", "graphviz", "pygraphviz", "minigrad.viz", "minigrad.cli")):
                bad.append(f"{path.relative_to(ROOT)}: {module}")
    assert bad == []


def test_import_minigrad_is_light_and_reaches_the_subpackages():
    code = (
        "import sys, minigrad\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'pygraphviz', 'graphviz', 'rich'))\n"
        "assert not heavy, heavy\n"
        "assert not [m for m in sys.modules if m.startswith(('minigrad.trace', 'minigrad.viz', 'minigrad.batching'))]\n"
        "assert callable(minigrad.trace.record) and callable(minigrad.viz.draw)\n"
        "assert minigrad.examples.NAMES and 'trace' in dir(minigrad)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
    timed = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import minigrad"], capture_output=True, text=True, cwd=ROOT
    )
    assert "textual" not in timed.stderr and "graphviz" not in timed.stderr
