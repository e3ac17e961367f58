"""`pip install minigrad` carries the course: build the sdist and, from it, the wheel; install the wheel into a
fresh virtual environment and take lesson 1 end to end (start, check fails, copy the reference in, check passes).

No network: the wheel is installed with --no-deps --no-index, and the fresh environment sees the
dependencies (NumPy, Rich, ...) through a path file naming this environment's site-packages; that
directory's own path files (the editable install of this checkout) are not read, so the minigrad
that runs is the installed wheel's.
"""

import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def run(cmd, cwd, env=None, ok=True):
    proc = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    if ok is not None and (proc.returncode == 0) != ok:
        raise AssertionError(f"{cmd} exited {proc.returncode}\n{proc.stdout}\n{proc.stderr}")
    return proc


def test_the_wheel_carries_the_lessons_and_lesson_1_runs_from_a_fresh_venv(tmp_path):
    if not (ROOT / "lessons").is_dir():
        pytest.skip("not a source checkout")
    dist = tmp_path / "dist"
    build = "import setuptools.build_meta as b, sys; print(b.build_sdist(sys.argv[1]))"
    sdist = dist / run([sys.executable, "-c", build, dist], cwd=ROOT).stdout.split()[-1]
    with tarfile.open(sdist) as tar:
        names = tar.getnames()
        assert any(n.endswith("lessons/01_chain_rule/reference/ex1_by_hand.py") for n in names)
        tar.extractall(tmp_path / "src", filter="data")
    (src,) = (tmp_path / "src").iterdir()
    run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "-w",
            dist,
            src,
        ],
        cwd=tmp_path,
    )
    (wheel,) = dist.glob("minigrad-*.whl")

    env_dir = tmp_path / "fresh"
    venv.create(env_dir, with_pip=False)
    py = env_dir / "bin" / "python"
    fresh_site = Path(
        run([py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], tmp_path).stdout.strip()
    )
    (fresh_site / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    run([sys.executable, "-m", "pip", "--python", py, "install", "-q", "--no-deps", "--no-index", wheel], cwd=tmp_path)

    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MINIGRAD_LESSONS", "MINIGRAD_WORKSPACE")}
    env.update(XDG_CONFIG_HOME=str(tmp_path / "config"), HOME=str(home))
    where = run([py, "-c", "import minigrad.course as c; print(c.lessons_root())"], home, env).stdout.strip()
    assert Path(where) == fresh_site / "minigrad" / "course" / "_lessons", where

    minigrad = env_dir / "bin" / "minigrad"
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
    assert not list(fresh_site.rglob(".minigrad-course.json")), "progress must never be written into site-packages"

    # lesson 10's demo steps a Value engine through minigrad.trace.emit: it runs from the installed wheel
    run([minigrad, "lesson", "start", "10"], home, env)
    demo = run([py, ws / "10_your_own_micrograd" / "demo.py"], home, env).stdout
    assert "stepping the reference engine" in demo and "dL/da = 0.991284" in demo
