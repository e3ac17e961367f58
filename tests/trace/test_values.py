"""The number form every viewer shares (minigrad/trace/values.py)."""

import numpy as np
import pytest

import minigrad as mg
from minigrad.trace.values import format_array, format_number


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
    shown = [float(v) for v in format_array(out.data, 60)[1:-1].split(", ")]
    assert 1 - shown[0] ** 2 > 0
    assert shown[0] == pytest.approx(out[0].item(), rel=1e-6)
    assert format_number(1 - shown[1] ** 2) == format_number(1 - out[1].item() ** 2) == "0.001341"
