"""The number form every viewer shares (minigrad/trace/values.py)."""

import numpy as np
import pytest

import minigrad as mg
from minigrad.trace.snapshot import snapshot
from minigrad.trace.values import format_array, format_number, format_value, rounding_zone


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (2.0, "2"),
        (-1 / 3, "-0.3333"),
        (1.5e8, "1.5e+08"),
        (float("nan"), "nan"),
        (float("-inf"), "-inf"),
        (7, "7"),
        (True, "True"),
        (1234.5678, "1235"),  # a large number keeps its significant digits only
        (4.000073, "4"),  # so does one past 1: its rules do not cancel at 1
    ],
)
def test_numbers_keep_four_significant_digits(value, text):
    assert format_number(value) == text


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (0.9999877, "0.9999877"),
        (-0.99996, "-0.99996"),
        (np.float32(0.99999994), "0.9999999"),
        (-0.00001, "-1e-05"),
        (-0.99932929, "-0.9993293"),  # four digits of its distance from -1, not -0.9993
        (0.96123456, "0.9612"),  # farther than 0.01 from 1: four significant digits, as any number
    ],
)
def test_a_fraction_near_one_keeps_the_digits_of_its_distance_from_it(value, text):
    assert format_number(value) == text


def test_the_step_a_learner_works_by_hand_shows_a_non_zero_difference():
    # tanh(6) rounds to 1 at four digits, yet 1 - tanh(6)**2 is the gradient; the shown value must say so,
    # and tanh(-4)'s must give 1 - out**2 to the four digits the gradient is shown with (0.001341).
    out = mg.tensor([6.0, -4.0], dtype=mg.float64).tanh()
    shown = [float(v) for v in format_array(out.array, 60)[1:-1].split(", ")]
    assert 1 - shown[0] ** 2 > 0
    assert shown[0] == pytest.approx(out[0].item(), rel=1e-6)
    assert format_number(1 - shown[1] ** 2) == format_number(1 - out[1].item() ** 2) == "0.001341"


def softmax_gradient(order) -> np.ndarray:
    """Lesson 7's cross-entropy gradient, (softmax - one-hot) / n, float32[100, 2]: every row sums to 0,
    its rows in ``order``."""
    logits = np.random.default_rng(7).normal(0, 0.3, (100, 2)).astype(np.float32)
    probs = np.exp(logits) / np.exp(logits).sum(1, keepdims=True)
    onehot = np.eye(2, dtype=np.float32)[np.arange(100) % 2]
    return ((probs - onehot) / np.float32(100))[order]


def test_a_mean_that_is_zero_up_to_rounding_prints_as_zero_in_any_summation_order():
    orders = [np.arange(100), np.arange(100)[::-1], np.random.default_rng(0).permutation(100)]
    grads = [softmax_gradient(order) for order in orders]
    raw = {float(g.astype(np.float64).mean()) for g in grads} | {
        float(np.dot(g.ravel(), np.ones(200, g.dtype))) for g in grads
    }
    assert len(raw) > 1 and max(map(abs, raw)) > 0, "the raw means depend on the order: rounding noise"
    summaries = {format_value(g) for g in grads}  # the describer's short form
    assert len(summaries) == 1 and summaries.pop().startswith("mean 0 std ")
    lines = {snapshot(g, max_values=16).format(60) for g in grads}  # the event log's summary
    assert len(lines) == 1 and " mean=0 " in lines.pop()
    recorded = {format_value(snapshot(g, max_values=16)) for g in grads}  # a summary read back from a trace
    assert recorded == {"mean 0 min -0.007023 max 0.007023 norm 0.07182"}


def test_the_zone_of_zero_is_relative_to_the_values_scale_and_their_precision():
    assert rounding_zone("float32", 100, 0.5) == pytest.approx(10 * 2.0**-23 * 0.5)
    assert rounding_zone("float64", 100, 0.5) == pytest.approx(10 * 2.0**-52 * 0.5)
    assert rounding_zone("int64", 100, 0.5) == rounding_zone("bool", 100, 1) == 0  # integer sums are exact


def test_a_small_mean_above_the_rounding_of_its_values_is_kept():
    x = np.concatenate([np.full(500, 1.0), np.full(500, -1.0)]) + 1e-9  # float64: its zone is 7e-15
    assert format_value(x).startswith("mean 1e-09 std 1 ")
    assert " mean=1e-09 " in snapshot(x, max_values=16).format(60)
    small = np.float32([3e-4, -1e-4] * 50)  # float32, a mean of 1e-4: far outside its zone of 3.6e-10
    assert format_value(small).startswith("mean 0.0001 ")
    assert format_value(np.arange(-3, 5)).startswith("mean 0.5 ")  # integers: exact, never zeroed
