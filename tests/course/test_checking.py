"""A failing check explains itself in the lesson's terms, never as a bare traceback line."""

import re

import numpy as np
import pytest

from minigrad.course import find_lesson, run_checks
from minigrad.course.expect import expect_close, expect_len, expect_type


def failures(tmp_path, number, source, exercise=1):
    lesson = find_lesson(number)
    path = tmp_path / lesson.references[exercise - 1].name
    path.write_text(source)
    results = run_checks(lesson, exercise_dir=tmp_path)
    return [r for r in results if r.exercise == path.stem and not r.passed]


def test_a_none_where_numbers_were_expected_is_said_in_the_lessons_words(tmp_path):
    # lesson 4.2 answered with the gradients read after they were restored (None)
    wrong = (
        "def grad_via_backward(output, inputs):\n"
        "    output.backward(inputs=list(inputs), retain_graph=True)\n"
        "    for t in inputs:\n"
        "        t.grad = None\n"
        "    return tuple(t.grad for t in inputs)\n"
    )
    failed = failures(tmp_path, 4, wrong, exercise=2)
    assert failed
    text = failed[0].explain()
    assert text == "grad_via_backward's gradient of a: expected [ 7., 2., -1.], got None", text


def test_a_result_the_check_cannot_use_names_the_function_and_what_it_returned(tmp_path):
    failed = failures(tmp_path, 3, "def predict_reduction_of_b():\n    return 3\n", exercise=4)
    text = next(r.explain() for r in failed if "reduction" in r.description)
    assert text.startswith("your predict_reduction_of_b() returned 3, which the check could not use"), text


def test_an_exception_in_the_learners_code_points_at_their_line(tmp_path):
    failed = failures(tmp_path, 1, "def grads_by_hand(a, b, c):\n    return a / 0\n")
    text = failed[0].explain()
    assert text.startswith("your grads_by_hand() raised ZeroDivisionError"), text
    assert "ex1_by_hand.py:2: return a / 0" in text


def test_a_syntax_error_names_the_file_and_line(tmp_path):
    failed = failures(tmp_path, 1, "def grads_by_hand(a, b, c:\n    pass\n")
    assert len(failed) == 1 and "ex1_by_hand.py does not parse" in failed[0].explain()
    assert "line 1" in failed[0].explain()


def test_an_assertion_says_expected_and_got(tmp_path):
    failed = failures(tmp_path, 1, "def grads_by_hand(a, b, c):\n    return (0.0, 0.0, 0.0)\n")
    assert "expected" in failed[0].explain()


def test_expect_helpers_word_their_failures():
    import minigrad as mg

    with pytest.raises(AssertionError, match=r"^the gradient of a: expected \[7\., 2\.\], got \[7\., 3\.\]$"):
        expect_close(mg.tensor([7.0, 3.0]), [7.0, 2.0], "the gradient of a")
    with pytest.raises(AssertionError, match=r"expected shape \[2\]"):
        expect_close([1.0], [1.0, 2.0], "x")
    with pytest.raises(AssertionError, match=r"^result: expected a Tensor, got NoneType None$"):
        expect_type(None, mg.Tensor, "result")
    with pytest.raises(AssertionError, match=r"^pair: expected 2 values, got 3"):
        expect_len((1, 2, 3), 2, "pair")


def lesson_file(number: int, stem: str) -> str:
    lesson = find_lesson(number)
    return next(ref for ref in lesson.references if ref.stem == stem).read_text()


def test_checks_import_only_what_the_wheel_depends_on():
    # a learner's `pip install minigrad` has numpy and minigrad, not the test libraries
    import ast
    import sys

    from minigrad.course import list_lessons

    allowed = {"numpy", "minigrad"} | set(sys.stdlib_module_names)
    for lesson in list_lessons():
        tree = ast.parse((lesson.path / "checks.py").read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module]
            else:
                continue
            for name in names:
                assert name.split(".")[0] in allowed, f"{lesson.key}/checks.py imports {name}"


def test_lesson_9_asks_the_gpu_predictions_on_a_cpu(tmp_path):
    right = lesson_file(9, "ex4_predict_trace").replace("# BEGIN SOLUTION", "").replace("# END SOLUTION", "")
    compute_device = right.replace('    return "cpu"\n', "    return compute_device\n")
    ignores_device = right.replace("return 0 if same_device and same_dtype else 1", "return 0 if same_dtype else 1")
    assert compute_device != right and ignores_device != right
    for wrong, name in [(compute_device, "device"), (ignores_device, "'to' nodes")]:
        failed = failures(tmp_path, 9, wrong, exercise=4)
        assert failed, f"a wrong prediction of the {name} passed"
        assert any("cuda:0" in r.explain() for r in failed), [r.explain() for r in failed]


def test_5_2_accepts_the_answer_its_hint_describes(tmp_path):
    hinted = (
        "from minigrad.autograd import grad\n\n\n"
        "def hvp(f, x, v):\n"
        "    (g,) = grad(f(x), x, create_graph=True)\n"
        "    (hv,) = grad((g * v).sum(), x)\n"
        "    return hv\n"
    )
    assert failures(tmp_path, 5, hinted, exercise=2) == []


def test_8_3_names_the_non_finite_gradient_not_a_test_library(tmp_path):
    plain_sqrt = (
        "def first_nonfinite_node(fn):\n    raise NotImplementedError\n\n\n"
        "def safe_sqrt(x):\n    return x.relu().sqrt()\n"
    )
    failed = [r for r in failures(tmp_path, 8, plain_sqrt, exercise=3) if "safe_sqrt" in r.description]
    text = failed[0].explain()
    assert text.startswith("the gradient of safe_sqrt at x = [0.0]: expected finite numbers, got"), text
    assert "Hypothesis" not in text and "ExceptionGroup" not in text


def test_4_2_without_finally_says_the_grad_was_not_restored(tmp_path):
    no_finally = (
        "def grad_via_backward(output, inputs):\n"
        "    saved = [t.grad for t in inputs]\n"
        "    for t in inputs:\n"
        "        t.grad = None\n"
        "    output.backward(inputs=list(inputs), retain_graph=True)\n"
        "    grads = tuple(t.grad for t in inputs)\n"
        "    for t, g in zip(inputs, saved):\n"
        "        t.grad = g\n"
        "    return grads\n"
    )
    (failed,) = failures(tmp_path, 4, no_finally, exercise=2)
    text = failed.explain()
    assert text == "a.grad after a pass that raised (restore in a `finally:`): expected [5.0, 5.0, 5.0], got None", text


def test_1_2_says_expected_and_got(tmp_path):
    wrong = lesson_file(1, "ex2_local_rules").replace("return g * b, g * a", "return g * a, g * b")
    failed = failures(tmp_path, 1, wrong, exercise=2)
    texts = [r.explain() for r in failed]
    assert "mul_backward(a=3, b=-2, g=0.5), the gradients for (a, b): expected [-1. , 1.5], got [ 1.5, -1. ]" in texts


@pytest.mark.parametrize("number", [2, 3, 4, 5, 6, 7])
def test_a_wrong_number_is_not_reported_in_numpys_words(tmp_path, number):
    lesson = find_lesson(number)
    for ref in lesson.references:
        stem = ref.stem
        if "predict" in stem or "bug" in stem or "stale" in stem:
            continue
        source = ref.read_text().replace("# END SOLUTION", "").replace("# BEGIN SOLUTION", "")
        # every `return X` of the solution returns X * 1.5 instead (or breaks it): a wrong number
        wrong = source.replace("    return ", "    return 1.5 * ")
        for r in failures(tmp_path, number, wrong, exercise=lesson.references.index(ref) + 1):
            text = r.explain()
            assert "Not equal to tolerance" not in text and "Mismatched elements" not in text, text


def test_a_wrong_prediction_does_not_show_the_answer(tmp_path):
    wrong = lesson_file(1, "ex3_predict_trace").replace("# BEGIN SOLUTION", "").replace("# END SOLUTION", "")
    wrong = wrong.replace("return 0.7864", "return 0.5").replace("return 3", "return 4")
    texts = [r.explain() for r in failures(tmp_path, 1, wrong, exercise=3)]
    assert texts, "the wrong predictions passed"
    assert all("0.786" not in t and " 3" not in t for t in texts), texts
    assert any("too low" in t for t in texts) and any("too high" in t for t in texts), texts


def test_a_wrong_entry_of_a_predicted_list_reads_as_a_number():
    from minigrad.course.expect import expect_prediction

    with pytest.raises(AssertionError) as caught:
        expect_prediction([5, -41], np.array([5.0, -6.0]), "the clipped sum")
    assert str(caught.value) == "the clipped sum: your entry 1 (-41.0) is not what the run shows"


def test_the_exercises_do_not_give_their_answers_away():
    from minigrad.course import list_lessons

    for lesson in list_lessons():
        for ref in lesson.references:
            text = ref.read_text()
            for line in text.splitlines():
                code, _, comment = line.partition("#")
                marks = re.search(r"\bbugs?\b", comment)  # "the planted bug is here"; not "debugger"
                assert not (code.strip() and marks), f"{ref}: a comment marks the planted line: {line}"
    assert "tanh" not in " ".join(n for n in dir(_module(10, "ex4_find_the_bug")) if not n.startswith("_"))
    assert "0.75" not in (find_lesson(1).path / "hints.md").read_text()
    # a debugging exercise's buggy code is not the previous exercise's solution minus a line
    assert "topological_order" not in lesson_file(2, "ex5_find_the_bug")
    assert "finally" not in lesson_file(4, "ex4_find_the_bug")


def test_the_prediction_exercises_of_13_and_14_ask_about_a_run_the_text_does_not_quote():
    # they predicted the demo, whose events the text's transcripts print (13.3: 3 passes, seed [1, 1, 1], axes
    # (1,); 14.4: h2 and W3, loss kept, mul fails, 4 nodes); each now records a run() of its own
    quoted = {13: ["captured axes = (1, 2)", "with [1]\n"], 14: ["captured out (h) ", "error at abs"]}
    for number, stem in ((13, "ex3_predict_trace"), (14, "ex4_predict_trace")):
        assert callable(getattr(_module(number, stem), "run", None)), f"{number}: {stem} predicts the demo"
        readme = (find_lesson(number).path / "README.md").read_text()
        assert not [line for line in quoted[number] if line in readme], f"lesson {number}'s text quotes its answers"


def _module(number: int, stem: str):
    from minigrad.course.checking import load_module

    lesson = find_lesson(number)
    return load_module(next(r for r in lesson.references if r.stem == stem), f"t_{number}_{stem}")


def test_a_failing_gradcheck_names_the_element_and_the_two_numbers_not_the_jacobians(tmp_path):
    wrong = (find_lesson(6).path / "reference" / "ex2_softplus.py").read_text()
    wrong = wrong.replace("return g * x.sigmoid()", "return g * x.sigmoid() * 2")
    texts = [r.explain() for r in failures(tmp_path, 6, wrong, exercise=2)]
    assert texts, "the wrong backward passed"
    assert any(
        "gradcheck of softplus on a [5] input: your backward disagrees with finite differences" in t
        and "at input element (0,)" in t
        and "numerical:" in t
        and "analytical:" in t
        for t in texts
    ), texts
    assert all("Numerical Jacobian" not in t for t in texts), texts
