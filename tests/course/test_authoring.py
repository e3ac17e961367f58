"""A teacher's lesson: `minigrad lesson new`'s skeleton, lesson.toml, the additive lesson path (folders and
the minigrad.lessons entry point), screens found by the generators, the number known from lesson.toml,
and load_reference without a number."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from minigrad.cli import main
from minigrad.course import list_lessons, run_checks, stub_is_current
from minigrad.course.checking import load_reference
from minigrad.course.hints import load_hints, parse_hints
from minigrad.course.lessons import lessons_root
from minigrad.course.manifest import ManifestError, parse_manifest
from minigrad.course.rules import text_problems
from minigrad.course.scaffold import new_lesson
from minigrad.course.screens import screens_on_path
from minigrad.course.workspace import Workspace

BUILT_IN = [lesson.number for lesson in list_lessons(lessons_root())]
# a teacher's lessons are numbered 92 and up here, clear of the built-in course as it grows


@pytest.fixture
def teacher(tmp_path, monkeypatch):
    """A folder of a teacher's lessons on MINIGRAD_LESSONS, holding lesson 92's skeleton."""
    folder = tmp_path / "my-course"
    folder.mkdir()
    monkeypatch.setenv("MINIGRAD_LESSONS", str(folder))
    new_lesson(92, "attention", folder, title="Attention, step by step")
    return folder


def lesson_92():
    (lesson,) = [lesson for lesson in list_lessons() if lesson.number == 92]
    return lesson


def test_the_skeleton_passes_its_checks_and_its_stubs_fail_with_a_todo(teacher):
    lesson = lesson_92()
    assert lesson.title == "Attention, step by step" and lesson.key == "92_attention"
    passed = run_checks(lesson, reference=True)
    assert passed and all(r.passed for r in passed), [r.explain() for r in passed if not r.passed]
    assert {r.exercise for r in passed} == {ref.stem for ref in lesson.references}
    kinds = [exercise.kind for exercise in lesson.manifest.exercises]
    assert kinds == ["Warm-up", "Implementation", "Prediction", "Debugging"], "one exercise of each kind"
    stubs = run_checks(lesson)
    assert stubs and all(r.not_done for r in stubs), [r.explain() for r in stubs if not r.not_done]
    assert all(stub_is_current(ref) for ref in lesson.references)


def test_the_skeleton_keeps_the_text_rules_of_its_own_lesson_toml(teacher):
    lesson = lesson_92()
    assert text_problems(lesson) == []
    hints = load_hints(lesson)
    assert sorted(hints) == ["92.1", "92.2", "92.3", "92.4"] and all(len(h) >= 2 for h in hints.values())
    demo = subprocess.run([sys.executable, str(lesson.demo)], capture_output=True, text=True, timeout=120)
    assert demo.returncode == 0, demo.stderr


def test_a_two_exercise_lesson_passes_when_its_lesson_toml_says_so(teacher):
    lesson = lesson_92()
    for ref in lesson.references[2:]:
        ref.unlink()
        lesson.exercise_file(ref).unlink()
    readme = lesson.path / "README.md"
    text = readme.read_text()
    readme.write_text(text.replace(text[text.index("3. **Prediction**") : text.index("\n## Summary")], ""))
    hints = lesson.hints_file.read_text()
    lesson.hints_file.write_text(hints[: hints.index("## ex3_predict_trace")])
    toml = lesson.path / "lesson.toml"
    toml.write_text(toml.read_text().split('\n[[exercises]]\nfile = "ex3_predict_trace.py"')[0])
    problems = text_problems(lesson)
    assert problems == [
        "no exercise of the kind(s) ['Prediction', 'Debugging'] that its lesson.toml [rules] kinds asks for"
    ]
    kinds = 'kinds = ["Warm-up", "Implementation", "Prediction", "Debugging"]'
    toml.write_text(toml.read_text().replace(kinds, 'kinds = ["Implementation"]'))
    assert text_problems(lesson) == []


def test_text_problems_say_what_to_change(teacher):
    lesson = lesson_92()
    toml = lesson.path / "lesson.toml"
    toml.write_text(toml.read_text().replace("words = [250, 3000]", "words = [1500, 3000]"))
    (problem,) = text_problems(lesson)
    assert "README.md has" in problem and "its lesson.toml asks 1500–3000" in problem
    assert main(["lesson", "lint", "92"]) == 1


def test_cli_new_writes_a_lesson_listed_after_the_built_in_ones(tmp_path, monkeypatch, capsys):
    folder, other = tmp_path / "course", tmp_path / "more"
    folder.mkdir(), other.mkdir()
    monkeypatch.setenv("MINIGRAD_LESSONS", os.pathsep.join([str(folder), str(other)]))
    assert main(["lesson", "new", "92", "attention", "--dir", str(folder)]) == 0
    assert main(["lesson", "new", "93", "memory", "--dir", str(other)]) == 0
    assert main(["lesson", "new", "93", "memory", "--dir", str(other)]) == 2, "it never overwrites a lesson"
    assert "exists already" in capsys.readouterr().err
    assert [lesson.number for lesson in list_lessons()] == [*BUILT_IN, 92, 93]
    assert main(["lesson", "list"]) == 0
    listed = [line.split()[0] for line in capsys.readouterr().out.splitlines()]
    assert listed == [str(n) for n in [*BUILT_IN, 92, 93]]
    assert main(["lesson", "check", "93", "--reference"]) == 0
    assert main(["lesson", "lint", "93"]) == 0


def test_a_bad_slug_or_number_is_refused(tmp_path):
    with pytest.raises(ValueError, match="slug"):
        new_lesson(92, "Attention!", tmp_path)
    with pytest.raises(ValueError, match="1 or more"):
        new_lesson(0, "attention", tmp_path)


def test_two_lessons_with_one_number_are_an_error_naming_both(teacher, tmp_path, monkeypatch):
    again = tmp_path / "again"
    again.mkdir()
    new_lesson(92, "other", again)
    monkeypatch.setenv("MINIGRAD_LESSONS", os.pathsep.join([str(teacher), str(again)]))
    with pytest.raises(ManifestError, match=r"two lessons are numbered 92: .*92_attention and .*92_other"):
        list_lessons()


def test_an_entry_point_adds_a_pip_installed_course(tmp_path, monkeypatch):
    """A distribution declaring [minigrad.lessons] my_course = "my_course_lessons" (a package whose folder
    holds lesson folders) is found without MINIGRAD_LESSONS."""
    site = tmp_path / "site"
    package = site / "my_course_lessons"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    new_lesson(94, "my_topic", package)
    info = site / "my_course-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: my-course\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[minigrad.lessons]\nmy_course = my_course_lessons\n")
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.delenv("MINIGRAD_LESSONS", raising=False)
    lessons = list_lessons()
    assert [lesson.number for lesson in lessons] == [*BUILT_IN, 94]
    assert lessons[-1].path == package / "94_my_topic"
    assert all(r.passed for r in run_checks(lessons[-1], reference=True))


def test_a_renumbered_lesson_says_where_it_disagrees(teacher, capsys):
    toml = teacher / "92_attention" / "lesson.toml"
    toml.write_text(toml.read_text().replace("number = 92", "number = 93"))
    with pytest.raises(ManifestError, match=r"named for lesson 92 but its lesson.toml says number = 93.*93_attention"):
        list_lessons()
    (teacher / "92_attention").rename(teacher / "93_attention")
    assert list_lessons()[-1].number == 93
    # a hints file that still names its sections 92.k is an error naming both numbers, not "no hints yet"
    hints = teacher / "93_attention" / "hints.md"
    hints.write_text(hints.read_text().replace("## ex1_by_hand", "## 92.1"))
    assert main(["lesson", "hint", "93.1"]) == 2
    err = capsys.readouterr().err
    assert "'## 92.1' is for lesson 92, but this is lesson 93" in err and "no hints yet" not in err


def test_hints_sections_named_by_file_follow_the_lesson_number():
    text = "## ex1_by_hand\na\n---\nb\n## 3.2 title\nc\n"
    assert parse_hints(text, number=3, exercises={"ex1_by_hand": "3.1", "ex2_x": "3.2"}) == {
        "3.1": ["a", "b"],
        "3.2": ["c"],
    }
    with pytest.raises(ValueError, match=r"no exercise file ex9_gone.py in this lesson"):
        parse_hints("## ex9_gone\na\n", number=3, exercises={"ex1_by_hand": "3.1"})


def test_checks_load_the_reference_without_the_lesson_number(teacher):
    lesson = lesson_92()
    assert 'load_reference("ex2_implement")' in (lesson.path / "checks.py").read_text()
    assert "92" not in (lesson.path / "checks.py").read_text(), "the checks never type the lesson's number"
    with pytest.raises(LookupError, match="no lesson's checks are running"):
        load_reference("ex2_implement")
    assert load_reference(92, "ex2_implement").square_backward(3.0, 1.0) == 6.0
    with pytest.raises(FileNotFoundError, match="lesson 92 has no reference 'ex9_nothing'; its exercises: ex1_by_hand"):
        load_reference(92, "ex9_nothing")


def test_screens_of_a_teachers_lesson_are_found_by_the_generators(teacher):
    assert {"92_attention/into_x", "92_attention/graph"} <= set(screens_on_path("transcripts")) | set(
        screens_on_path("diagrams")
    )
    spec = importlib.util.spec_from_file_location("make_transcripts", lessons_root() / "make_transcripts.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    assert "92_attention/into_x" in script.TRANSCRIPTS and "01_chain_rule/top" in script.TRANSCRIPTS
    text = script.fresh_text("92_attention/into_x")
    assert "mul rule of sq" in text and "grad_accumulated" in text


def test_a_workspace_gets_no_screens_code(teacher, tmp_path):
    ws = Workspace(tmp_path / "ws")
    ws.start(lesson_92())
    copied = {p.name for p in (tmp_path / "ws" / "92_attention").iterdir()}
    assert "screens.py" not in copied and "checks.py" not in copied and "ex1_by_hand.py" in copied


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('slug = "x"\ntitle = "X"\n', "no 'number'"),
        ('number = "12"\nslug = "x"\ntitle = "X"\n', "'number' should be a int"),
        ('number = 12\nslug = "x"\ntitle = "X"\n[[exercises]]\nfile = "ex1_a.py"\nkind = "Quiz"\n', "not one of"),
        ('number = 12\nslug = "x"\ntitle = "X"\n[rules]\nwords = [3000, 1500]\n', "lowest above its highest"),
        ("number = \n", "not valid TOML"),
    ],
)
def test_a_malformed_lesson_toml_names_the_field(text, message):
    with pytest.raises(ManifestError, match=message):
        parse_manifest(text, "12_x/lesson.toml")


def test_every_built_in_lesson_has_a_lesson_toml_and_the_wheel_carries_the_skeleton():
    assert all((lesson.path / "lesson.toml").is_file() for lesson in list_lessons(lessons_root()))
    from minigrad.course.scaffold import SKELETON

    templates = {p.relative_to(SKELETON).as_posix() for p in SKELETON.rglob("*.txt")}
    assert {"lesson.toml.txt", "README.md.txt", "checks.py.txt", "reference/ex1_by_hand.py.txt"} <= templates
    pyproject = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text()
    assert '"minigrad.course" = ["skeleton/*.txt", "skeleton/reference/*.txt"]' in pyproject
