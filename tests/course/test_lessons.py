"""Every lesson: reference passes its checks, the generated stub fails with NotImplementedError,
stubs are current, and the demo runs headless."""

import subprocess
import sys

import pytest

from minigrad.course import find_lesson, generate_stub, list_lessons, run_checks, stub_is_current
from minigrad.course.lessons import lessons_root

LESSONS = list_lessons()
IDS = [f"{lesson.number:02d}_{lesson.slug}" for lesson in LESSONS]


def test_there_are_lessons():
    assert LESSONS, f"no lessons found under {lessons_root()}"


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_lesson_has_text_demo_exercises_and_checks(lesson):
    assert (lesson.path / "README.md").exists()
    assert lesson.demo.exists()
    assert lesson.references, "a lesson needs at least one exercise"
    assert (lesson.path / "checks.py").exists()


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_reference_solutions_pass(lesson):
    results = run_checks(lesson, reference=True)
    failed = [f"{r.exercise}: {r.description}: {r.explain()}" for r in results if not r.passed]
    assert results and not failed, "\n".join(failed)
    checked = {r.exercise for r in results}
    assert checked == {ref.stem for ref in lesson.references}, "every exercise needs at least one check"


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_generated_stubs_import_and_fail_each_check_with_not_implemented(lesson):
    results = run_checks(lesson, reference=False)
    wrong = [f"{r.exercise}: {r.description}: {r.explain()}" for r in results if r.passed or not r.not_done]
    assert results and not wrong, "stubs must fail every check with NotImplementedError:\n" + "\n".join(wrong)
    unloaded = [r.exercise for r in results if r.description.startswith("load ")]
    assert not unloaded, f"these stubs fail at import, before any check runs: {unloaded}"
    checked = {r.exercise for r in results}
    assert checked == {ref.stem for ref in lesson.references}


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_stubs_are_current(lesson):
    stale = [ref.name for ref in lesson.references if not stub_is_current(ref)]
    assert not stale, f"run `minigrad lesson reset {lesson.number} --dir lessons` to regenerate {stale}"


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_demo_runs_headless(lesson):
    proc = subprocess.run([sys.executable, str(lesson.demo)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr


def test_stub_generation_keeps_hints_and_indentation():
    src = "def f(x):\n    # BEGIN SOLUTION\n    # HINT: double it\n    return 2 * x\n    # END SOLUTION\n"
    stub = generate_stub(src, "ref.py")
    assert "    # HINT: double it\n" in stub
    assert '    raise NotImplementedError("exercise: write f()")\n' in stub
    assert "return 2 * x" not in stub


def test_a_solution_block_at_class_level_keeps_each_method_signature():
    src = (
        "class Dual:\n"
        "    def __init__(self, v):\n"
        "        self.v = v\n"
        "\n"
        "    # BEGIN SOLUTION\n"
        "    @staticmethod\n"
        "    def lift(x):\n"
        "        return x\n"
        "\n"
        "    def __add__(self, other):\n"
        '        """Sum."""\n'
        "        # HINT: add the values\n"
        "        return Dual(self.v + other.v)\n"
        "\n"
        "    __radd__ = __add__\n"
        "    # END SOLUTION\n"
        "\n"
        "\n"
        "def f(x):\n"
        "    # BEGIN SOLUTION\n"
        "    def helper(y):\n"
        "        return y\n"
        "    return helper(x)\n"
        "    # END SOLUTION\n"
    )
    stub = generate_stub(src, "ref.py")
    namespace = {}
    exec(compile(stub, "stub.py", "exec"), namespace)  # the class body must not raise at import
    dual = namespace["Dual"](1.0)
    assert "    @staticmethod\n    def lift(x):\n" in stub
    assert '        """Sum."""\n        # HINT: add the values\n' in stub
    assert "    __radd__ = __add__\n" in stub and "self.v + other.v" not in stub
    with pytest.raises(NotImplementedError, match=r"write Dual\.__add__\(\)"):
        dual + dual
    # inside a function a block is one raise, even when it defines a helper
    assert "def helper" not in stub and 'raise NotImplementedError("exercise: write f()")' in stub


@pytest.mark.parametrize(
    "src", ["# END SOLUTION\n", "# BEGIN SOLUTION\nx = 1\n", "# BEGIN SOLUTION\n# BEGIN SOLUTION\n"]
)
def test_stub_generation_rejects_unbalanced_markers(src):
    with pytest.raises(ValueError, match="SOLUTION"):
        generate_stub(src, "ref.py")


def test_cli_check_reports_per_exercise(capsys):
    from minigrad.cli import main

    assert main(["lesson", "check", "1"]) == 1
    out = capsys.readouterr().out
    assert "TODO  ex1_by_hand" in out and "0 of" in out
    assert main(["lesson", "check", "1", "--reference"]) == 0
    assert "PASS" in capsys.readouterr().out


def test_cli_unknown_lesson_is_a_clear_error():
    from minigrad.course import find_lesson

    with pytest.raises(LookupError, match=r"there is no lesson 99; lessons available: 1(, \d+)*$"):
        find_lesson(99)


def test_lesson_texts_quote_tanhs_rule_as_the_source_writes_it():
    import inspect

    from minigrad.ops import elementwise

    (rule,) = [line.strip() for line in inspect.getsource(elementwise.tanh).splitlines() if "return (g *" in line]
    quoted = rule.removeprefix("return (").removesuffix(",)")
    for number in (1, 5, 11):
        text = (find_lesson(number).path / "README.md").read_text()
        assert "y * y" not in text and "y*y" not in text, f"lesson {number} quotes tanh's rule as g * (1 - y * y)"
        assert quoted in text, f"lesson {number} should quote tanh's rule as the source writes it: {quoted}"


def test_commands_in_what_a_learner_receives_work_from_a_workspace():
    """A pip user's workspace has NN_topic/ folders, not the checkout's lessons/ nor its examples and benchmarks."""
    import re

    command = re.compile(r"`(?:python|minigrad-tui|minigrad trace)[^`]*lessons/\d\d_[^`]*`")
    for lesson in LESSONS:
        files = [lesson.path / "README.md", lesson.hints_file, lesson.demo, *lesson.references]
        for path in files:
            text = path.read_text()
            assert not command.search(text), f"{path}: {command.search(text).group(0)} fails in a workspace"
            for paragraph in text.split("\n\n"):
                if "python -m bench" in paragraph or "examples/train_digits.py" in paragraph:
                    assert "source" in paragraph, f"{path}: {paragraph.strip()} (not installed with the package)"


def test_lesson_numbers_are_not_typed_by_hand_where_a_run_decides_them():
    import re

    forward = (find_lesson(11).path / "README.md").read_text()
    assert not re.search(r"\d ms\b", forward), "lesson 11 types timings by hand: the demo prints them"
    per_example = (find_lesson(13).path / "README.md").read_text()
    assert not re.search(r"\d ms\b", per_example), "lesson 13 types timings by hand: the demo prints them"
    assert "about seven" not in forward and "half the digits" not in forward
    custom = (find_lesson(6).path / "README.md").read_text()
    assert "= 8.320278" in custom and "8.166577" in custom, "lesson 6's by-hand sums are exact, not float32's"
    training = (find_lesson(7).path / "README.md").read_text()
    assert "`Linear(2, 3)`, then `Linear(3, 2)`" in training, "lesson 7's text names the network its figure draws"


def test_lesson_10_demo_names_the_engine_it_stepped():
    # the checkout's ex2_value.py is the unfinished stub: the demo falls back to the reference engine
    demo = find_lesson(10).demo
    out = subprocess.run([sys.executable, str(demo)], capture_output=True, text=True, timeout=120).stdout
    assert "stepping the reference engine" in out
    assert "reference engine:" in out and "your engine:" not in out, out
