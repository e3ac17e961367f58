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


@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (4, 4), (6, 2, 3, 3)])
def test_orthogonal_gives_orthonormal_rows_or_columns_times_the_gain(shape):
    w = mg.nn.Parameter(mg.empty(*shape, dtype=mg.float64))
    out = mg.nn.init.orthogonal_(w, gain=2.0)
    assert out is w and w.shape == shape and w.requires_grad and w.grad_fn is None
    flat = w.detach().numpy().reshape(shape[0], -1) / 2.0
    small = min(flat.shape)
    gram = flat.T @ flat if flat.shape[0] >= flat.shape[1] else flat @ flat.T
    np.testing.assert_allclose(gram, np.eye(small), atol=1e-12)


def test_orthogonal_is_seeded_and_refuses_a_vector():
    draws = []
    for _ in range(2):
        mg.manual_seed(3)
        draws.append(mg.nn.init.orthogonal_(mg.empty(4, 3)).numpy().copy())
    np.testing.assert_array_equal(draws[0], draws[1])
    with pytest.raises(ValueError, match="Only tensors with 2 or more dimensions are supported"):
        mg.nn.init.orthogonal_(mg.empty(4))


def test_trunc_normal_stays_in_its_bounds_with_the_truncated_moments():
    mg.manual_seed(0)
    t = mg.nn.init.trunc_normal_(mg.empty(200_000, dtype=mg.float64), mean=0.5, std=1.0, a=-1.0, b=1.0)
    x = t.numpy()
    assert x.min() >= -1.0 and x.max() <= 1.0
    # the moments of N(0.5, 1) truncated to [-1, 1], from the standard formulas
    alpha, beta = -1.5, 0.5
    pdf = lambda z: math.exp(-z * z / 2) / math.sqrt(2 * math.pi)  # noqa: E731
    cdf = lambda z: (1 + math.erf(z / math.sqrt(2))) / 2  # noqa: E731
    mass = cdf(beta) - cdf(alpha)
    mean = 0.5 + (pdf(alpha) - pdf(beta)) / mass
    var = 1 + (alpha * pdf(alpha) - beta * pdf(beta)) / mass - ((pdf(alpha) - pdf(beta)) / mass) ** 2
    assert x.mean() == pytest.approx(mean, abs=5e-3)
    assert x.var() == pytest.approx(var, abs=5e-3)


def test_trunc_normal_keeps_the_dtype_and_warns_when_the_mean_is_far_outside():
    t = mg.empty(10)
    mg.nn.init.trunc_normal_(t, std=0.02)
    assert t.dtype == mg.float32 and np.abs(t.numpy()).max() <= 2.0
    with pytest.warns(UserWarning, match="mean is more than 2 std from"):
        mg.nn.init.trunc_normal_(mg.empty(10), mean=10.0)
