"""`pip install minigrad` carries the course: build the sdist and, from it, the wheel; install the wheel into a
fresh virtual environment that sees nothing but what the wheel depends on, and take every lesson there (each
reference solution passes its checks, each generated stub fails them with a TODO), lesson 1 end to end.

No network: the wheel is installed with --no-deps --no-index. The fresh environment gets the wheel's
dependencies (and theirs, with the extras they ask for) and nothing else from this environment: a folder of
links to exactly those distributions, named by a path file. The test libraries (hypothesis, pytest), the
editable install of this checkout and every other package of the dev environment are invisible there, as
they are to a learner. Slow (about a minute): the wheel is built and every built-in lesson is checked twice.
"""

import importlib.metadata as metadata
import os
import re
import shutil
import subprocess
import sys
import tarfile
import venv
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def run(cmd, cwd, env=None, ok=True):
    proc = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    if ok is not None and (proc.returncode == 0) != ok:
        raise AssertionError(f"{cmd} exited {proc.returncode}\n{proc.stdout}\n{proc.stderr}")
    return proc


def runtime_dependencies(name: str) -> set[str]:
    """The distributions ``name`` needs at run time: its requirements without extras, theirs, and so on."""
    todo, extras_of = [(name, frozenset())], {}
    while todo:
        dist_name, extras = todo.pop()
        key = canonicalize_name(dist_name)
        if key in extras_of and extras <= extras_of[key]:
            continue
        extras_of[key] = extras_of.get(key, frozenset()) | extras
        for text in metadata.distribution(dist_name).requires or []:
            req = Requirement(text)
            if req.marker is None or any(req.marker.evaluate({"extra": e}) for e in {"", *extras}):
                todo.append((req.name, frozenset(req.extras)))
    return set(extras_of) - {canonicalize_name(name)}


def link_distributions(names: set[str], folder: Path) -> None:
    """Make ``folder`` an import path holding links to exactly these installed distributions."""
    folder.mkdir()
    for name in names:
        dist = metadata.distribution(name)
        tops = {Path(f).parts[0] for f in dist.files or [] if not str(f).startswith("..")}
        for top in tops - {"__pycache__"}:
            src = Path(dist.locate_file(top))
            if src.exists() and not (folder / top).exists():
                (folder / top).symlink_to(src, target_is_directory=src.is_dir())


@pytest.fixture(scope="module")
def fresh(tmp_path_factory):
    """(python, minigrad script, site-packages, environment variables, home) of a venv holding only the wheel."""
    if not (ROOT / "lessons").is_dir():
        pytest.skip("not a source checkout")
    tmp_path = tmp_path_factory.mktemp("pip")
    dist = tmp_path / "dist"
    build = "import setuptools.build_meta as b, sys; print(b.build_sdist(sys.argv[1]))"
    sdist = dist / run([sys.executable, "-c", build, dist], cwd=ROOT).stdout.split()[-1]
    with tarfile.open(sdist) as tar:
        assert any(n.endswith("lessons/01_chain_rule/reference/ex1_by_hand.py") for n in tar.getnames())
        tar.extractall(tmp_path / "src", filter="data")
    (src,) = (tmp_path / "src").iterdir()
    wheel_cmd = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "--no-index"]
    run([*wheel_cmd, "-w", dist, src], cwd=tmp_path)
    (wheel,) = dist.glob("minigrad-*.whl")

    env_dir = tmp_path / "fresh"
    venv.create(env_dir, with_pip=False, system_site_packages=False)
    py = env_dir / "bin" / "python"
    site = Path(run([py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], tmp_path).stdout.strip())
    link_distributions(runtime_dependencies("minigrad"), tmp_path / "dependencies")
    (site / "dependencies.pth").write_text(str(tmp_path / "dependencies") + "\n")
    run([sys.executable, "-m", "pip", "--python", py, "install", "-q", "--no-deps", "--no-index", wheel], cwd=tmp_path)

    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MINIGRAD_LESSONS", "MINIGRAD_WORKSPACE")}
    env.update(XDG_CONFIG_HOME=str(tmp_path / "config"), HOME=str(home), PYTHONNOUSERSITE="1")
    return py, env_dir / "bin" / "minigrad", site, env, home


def test_the_fresh_venv_sees_only_the_wheel_and_its_dependencies(fresh):
    py, _, site, env, home = fresh
    probe = "import importlib.util as u; print([m for m in ('hypothesis', 'pytest', 'sklearn') if u.find_spec(m)])"
    assert run([py, "-c", probe], home, env).stdout.strip() == "[]"
    where = run([py, "-c", "import minigrad, numpy; print(minigrad.__file__)"], home, env).stdout.strip()
    assert Path(where).parent == site / "minigrad", where


def test_the_debugger_installs_under_its_own_name(fresh):
    """The wheel's top-level packages are minigrad and minigrad_tui: no bare ``tui`` in site-packages, where any
    other project's ``tui`` would collide with it."""
    _, minigrad, site, env, home = fresh
    (record,) = site.glob("minigrad-*.dist-info/RECORD")
    files = [line.split(",")[0] for line in record.read_text().splitlines()]
    tops = {f.split("/")[0] for f in files if "/" in f and not f.startswith("..") and ".dist-info/" not in f}
    assert tops == {"minigrad", "minigrad_tui"}, tops
    assert not (site / "tui").exists()
    assert (site / "minigrad_tui" / "debugger.tcss").is_file()
    usage = run([minigrad.with_name("minigrad-tui"), "--help"], home, env).stdout
    assert usage.startswith("usage: minigrad-tui"), usage


def test_every_lesson_from_the_wheel_alone(fresh, tmp_path):
    """Each reference passes its checks; each stub imports and fails each check with a TODO."""
    py, _, _, env, home = fresh
    take_all = (
        "import sys\n"
        "from minigrad.cli import main\n"
        "from minigrad.course import list_lessons\n"
        "for lesson in list_lessons():\n"
        "    n = str(lesson.number)\n"
        "    print('== reference', n, main(['lesson', 'check', n, '--reference']), flush=True)\n"
        "    main(['lesson', 'start', n, '--dir', sys.argv[1]])\n"
        "    print('== stubs', n, main(['lesson', 'check', n]), flush=True)\n"
    )
    out = run([py, "-c", take_all, tmp_path / "ws"], home, env).stdout
    verdicts = [line.split() for line in out.splitlines() if line.startswith("== ")]
    assert len(verdicts) == 2 * len([line for line in verdicts if line[1] == "reference"]) >= 22, out
    failed = [" ".join(v) for v in verdicts if v[1] == "reference" and v[3] != "0"]
    assert not failed, f"reference solutions that fail from the wheel: {failed}\n{out}"
    assert "FAIL" not in out and "ModuleNotFoundError" not in out, out
    assert "load " not in out, out


def test_lesson_1_end_to_end_from_the_wheel(fresh, tmp_path):
    py, minigrad, site, env, home = fresh
    where = run([py, "-c", "import minigrad.course as c; print(c.lessons_root())"], home, env).stdout.strip()
    assert Path(where) == site / "minigrad" / "course" / "_lessons", where
    assert "Derivatives" in run([minigrad, "lesson", "list"], home, env).stdout
    ws = tmp_path / "my course"
    run([minigrad, "lesson", "start", "1", "--dir", ws], home, env)
    lesson = ws / "01_chain_rule"
    assert (lesson / "ex1_by_hand.py").exists() and not (lesson / "reference").exists()
    failing = run([minigrad, "lesson", "check", "1"], home, env, ok=False).stdout
    assert "TODO  ex1_by_hand" in failing and "0 of" in failing
    for ref in (Path(where) / "01_chain_rule" / "reference").glob("ex*.py"):
        shutil.copy(ref, lesson / ref.name)
    passing = run([minigrad, "lesson", "check", "1"], home, env).stdout
    assert "checks passed" in passing and "FAIL" not in passing and "TODO" not in passing
    assert "done (" in run([minigrad, "lesson", "progress"], home, env).stdout
    assert not list(site.rglob(".minigrad-course.json")), "progress must never be written into site-packages"

    # lesson 10's demo steps a Value engine through minigrad.trace.emit: it runs from the installed wheel, and
    # names the engine it stepped (the reference one, while the learner's is unfinished)
    run([minigrad, "lesson", "start", "10"], home, env)
    demo = run([py, ws / "10_your_own_micrograd" / "demo.py"], home, env).stdout
    assert "stepping the reference engine" in demo and "dL/da = 0.991284" in demo
    assert "reference engine:" in demo and "your engine:" not in demo


def test_a_teachers_lesson_from_the_wheel(fresh, tmp_path):
    """`minigrad lesson new` works from the wheel alone (its skeleton is package data), and a folder on
    MINIGRAD_LESSONS is listed after the built-in lessons."""
    _, minigrad, _, env, home = fresh
    course = tmp_path / "course"
    course.mkdir()
    run([minigrad, "lesson", "new", "92", "attention", "--dir", course], home, env)
    env = env | {"MINIGRAD_LESSONS": str(course)}
    listed = run([minigrad, "lesson", "list"], home, env).stdout.splitlines()
    assert listed[-1].startswith("92  Attention") and listed[0].startswith(" 1  "), listed
    assert "4 of 4 checks passed" in run([minigrad, "lesson", "check", "92", "--reference"], home, env).stdout
    run([minigrad, "lesson", "lint", "92"], home, env)


def test_the_wheel_ships_its_type_marker_and_both_commands_say_their_version(fresh):
    py, minigrad, site, env, home = fresh
    assert (site / "minigrad" / "py.typed").is_file()  # PEP 561: type checkers read minigrad's annotations
    assert (site / "minigrad" / "tensor.pyi").is_file()  # Tensor with its bound ops, as static tools see it
    version = re.search(r'^version = "(.+)"$', (ROOT / "pyproject.toml").read_text(), re.M).group(1)
    assert run([minigrad, "--version"], home, env).stdout.strip() == f"minigrad {version}"
    tui = minigrad.with_name("minigrad-tui")
    assert run([tui, "--version"], home, env).stdout.strip() == f"minigrad-tui {version}"
