"""nn.init: distributions, seeding by manual_seed, in-place updates without graphs."""

import math

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn
from minigrad.nn import init


def test_uniform_and_normal_statistics():
    t = mg.zeros(200, 100)
    init.uniform_(t, -2.0, 3.0)
    assert t.array.min() >= -2.0 and t.array.max() < 3.0 and abs(t.array.mean() - 0.5) < 0.05
    init.normal_(t, 1.0, 0.5)
    assert abs(t.array.mean() - 1.0) < 0.01 and abs(t.array.std() - 0.5) < 0.01


def test_xavier_and_kaiming_scales():
    t = mg.zeros(300, 200)
    init.xavier_uniform_(t, gain=2.0)
    bound = 2.0 * math.sqrt(6 / 500)
    assert np.abs(t.array).max() <= bound and np.abs(t.array).max() > 0.95 * bound
    init.xavier_normal_(t)
    assert t.array.std() == pytest.approx(math.sqrt(2 / 500), rel=0.03)
    init.kaiming_normal_(t, nonlinearity="relu")
    assert t.array.std() == pytest.approx(math.sqrt(2 / 200), rel=0.03)
    init.kaiming_uniform_(t, mode="fan_out", nonlinearity="relu")
    assert np.abs(t.array).max() <= math.sqrt(6 / 300)
    conv = mg.zeros(8, 4, 3, 3)
    init.kaiming_uniform_(conv, a=math.sqrt(5))
    assert np.abs(conv.array).max() <= 1 / math.sqrt(36)


def test_constant_fills_and_gain():
    t = mg.zeros(2, 2)
    assert init.ones_(t) is t and np.all(t.array == 1)
    init.constant_(t, 0.25)
    assert np.all(t.array == 0.25)
    init.zeros_(t)
    assert not t.array.any()
    assert init.calculate_gain("tanh") == pytest.approx(5 / 3)
    assert init.calculate_gain("leaky_relu", 0.2) == pytest.approx(math.sqrt(2 / 1.04))
    with pytest.raises(ValueError, match="Unsupported nonlinearity"):
        init.calculate_gain("swish")


def test_init_is_seeded_by_manual_seed():
    mg.manual_seed(11)
    a = nn.Linear(4, 3)
    mg.manual_seed(11)
    b = nn.Linear(4, 3)
    np.testing.assert_array_equal(a.weight.array, b.weight.array)
    np.testing.assert_array_equal(a.bias.array, b.bias.array)
    assert not np.array_equal(a.weight.array, nn.Linear(4, 3).weight.array)


def test_init_changes_parameters_in_place_without_a_graph():
    layer = nn.Linear(3, 2)
    weight, storage = layer.weight, layer.weight.array
    init.normal_(layer.weight)
    assert layer.weight is weight and layer.weight.array is storage
    assert weight.is_leaf and weight.requires_grad and weight.grad_fn is None


def test_fan_errors():
    with pytest.raises(ValueError, match="fewer than 2 dimensions"):
        init.xavier_uniform_(mg.zeros(3))
    with pytest.raises(ValueError, match="Mode fan_middle not supported"):
        init.kaiming_normal_(mg.zeros(2, 2), mode="fan_middle")
