"""A failing check explains itself in the lesson's terms, never as a bare traceback line."""

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
