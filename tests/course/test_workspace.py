"""The learner's workspace: start copies a lesson out of the (read-only) lessons, check/hint/progress/reset
work from any directory, progress is kept in the workspace."""

import json
import shutil
import sysconfig
from pathlib import Path

import pytest

from minigrad.cli import main
from minigrad.course import find_lesson
from minigrad.course.workspace import PROGRESS_FILE, Workspace, find_workspace


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A fresh config folder and an unrelated current directory."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("MINIGRAD_WORKSPACE", raising=False)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    return tmp_path


def test_start_copies_the_lesson_but_not_its_solutions(home, capsys):
    ws = home / "course"
    assert main(["lesson", "start", "1", "--dir", str(ws)]) == 0
    folder = ws / find_lesson(1).key
    assert (folder / "README.md").exists() and (folder / "demo.py").exists()
    assert (folder / "ex1_by_hand.py").read_text().count("raise NotImplementedError(") == 1
    for hidden in ("reference", "checks.py", "hints.md"):
        assert not (folder / hidden).exists(), hidden
    assert (ws / PROGRESS_FILE).exists()
    assert "ex1_by_hand.py  new" in capsys.readouterr().out


def test_check_fails_then_passes_from_any_directory_and_progress_is_kept(home, capsys):
    ws = home / "course"
    lesson = find_lesson(1)
    main(["lesson", "start", "1", "--dir", str(ws)])
    capsys.readouterr()
    assert main(["lesson", "check", "1"]) == 1  # found through the workspace `start` remembered
    out = capsys.readouterr().out
    assert str(ws / lesson.key) in out and "TODO  ex1_by_hand" in out
    for ref in lesson.references:
        shutil.copy(ref, ws / lesson.key / ref.name)
    assert main(["lesson", "check", "1"]) == 0
    assert main(["lesson", "progress"]) == 0
    out = capsys.readouterr().out
    assert "done (" in out and "not started" in out
    saved = json.loads((ws / PROGRESS_FILE).read_text())["lessons"][lesson.key]["checks"]
    assert all(c["passed"] == c["total"] > 0 for c in saved.values())


def test_start_keeps_the_learners_files_and_reset_regenerates_them(home, capsys):
    ws = home / "course"
    main(["lesson", "start", "1", "--dir", str(ws)])
    mine = ws / find_lesson(1).key / "ex1_by_hand.py"
    mine.write_text("# my answer\n")
    main(["lesson", "start", "1", "--dir", str(ws)])
    assert mine.read_text() == "# my answer\n"
    assert "kept (yours)" in capsys.readouterr().out
    assert main(["lesson", "reset", "1", "--dir", str(ws)]) == 0
    assert "raise NotImplementedError" in mine.read_text()


def test_workspace_is_found_from_a_folder_inside_it(home, monkeypatch):
    ws = Workspace(home / "course")
    ws.start(find_lesson(1))
    (home / "config" / "minigrad" / "workspace").unlink()
    monkeypatch.chdir(ws.lesson_dir(find_lesson(1)))
    assert find_workspace().root == ws.root
    monkeypatch.setenv("MINIGRAD_WORKSPACE", str(home / "other"))
    assert find_workspace().root == (home / "other").resolve()
    assert find_workspace(home / "third").root == (home / "third").resolve()


def test_a_workspace_inside_site_packages_is_refused(home, capsys):
    inside = Path(sysconfig.get_paths()["purelib"]) / "my-course"
    assert main(["lesson", "start", "1", "--dir", str(inside)]) == 2
    assert "choose a folder of your own" in capsys.readouterr().err
    assert not inside.exists()


def test_check_before_start_says_what_to_do(home, capsys):
    assert main(["lesson", "check", "1", "--dir", str(home / "empty")]) == 2
    assert "minigrad lesson start 1" in capsys.readouterr().out


def test_hints_come_one_more_per_call(home, capsys):
    ws = home / "course"
    main(["lesson", "start", "1", "--dir", str(ws)])
    capsys.readouterr()
    for n in (1, 2, 3, 3):
        assert main(["lesson", "hint", "1.1"]) == 0
        out = capsys.readouterr().out
        assert f"Hint {n} of 3" in out and f"Hint {n + 1} of" not in out
    assert "every hint" in out
    main(["lesson", "hint", "1.2", "--again"])  # none seen yet: the first one
    assert "Hint 1 of 3" in capsys.readouterr().out
    assert Workspace(ws).hints_seen(find_lesson(1), "1.1") == 3
    main(["lesson", "progress"])
    assert "4 hints used" in capsys.readouterr().out


@pytest.mark.parametrize("bad", ["1", "x.y", "1.9"])
def test_hint_names_the_exercise_form(home, capsys, bad):
    assert main(["lesson", "hint", bad]) == 2
    err = capsys.readouterr().err
    assert "e.g. 4.1" in err or "there is no 1.9" in err
