"""nn.LazyLinear: in_features read from the first input, then a Linear in every way, as torch's."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg


def test_first_call_infers_in_features_and_becomes_a_linear():
    torch = pytest.importorskip("torch")
    ours, theirs = mg.nn.LazyLinear(5), torch.nn.LazyLinear(5)
    assert repr(ours) == repr(theirs) == "LazyLinear(in_features=0, out_features=5, bias=True)"
    assert ours.has_uninitialized_params()
    out = ours(mg.randn(2, 7, 3))
    theirs(torch.randn(2, 7, 3))
    assert tuple(out.shape) == (2, 7, 5)
    assert type(ours) is mg.nn.Linear and ours.in_features == 3
    assert repr(ours) == repr(theirs) == "Linear(in_features=3, out_features=5, bias=True)"
    assert tuple(ours.weight.shape) == (5, 3) and tuple(ours.bias.shape) == (5,)
    bound = 1 / np.sqrt(3)
    assert np.abs(ours.weight.detach().numpy()).max() <= bound and np.abs(ours.bias.detach().numpy()).max() <= bound


def test_an_optimizer_made_before_the_first_call_trains_the_materialised_parameters():
    mg.manual_seed(0)
    layer = mg.nn.LazyLinear(1, dtype=mg.float64)
    opt = mg.optim.SGD(layer.parameters(), lr=0.1)
    x, y = mg.tensor(np.random.default_rng(0).normal(size=(8, 4))), mg.zeros(8, 1, dtype=mg.float64)
    losses = []
    for _ in range(3):
        opt.zero_grad()
        loss = ((layer(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[2] < losses[0]
    assert layer.weight.grad is not None and tuple(layer.weight.grad.shape) == (1, 4)


def test_without_bias_dtype_and_the_state_dict_after_the_first_call():
    layer = mg.nn.LazyLinear(2, bias=False, dtype=mg.float64)
    assert layer.bias is None
    layer(mg.ones(3, 6, dtype=mg.float64))
    assert layer.weight.dtype == mg.float64 and sorted(layer.state_dict()) == ["weight"]
    same = mg.nn.Linear(6, 2, bias=False, dtype=mg.float64)
    same.load_state_dict(layer.state_dict())
    np.testing.assert_array_equal(
        same(mg.ones(1, 6, dtype=mg.float64)).detach().numpy(), layer(mg.ones(1, 6, dtype=mg.float64)).detach().numpy()
    )


def test_inside_a_sequential_and_a_second_input_size_is_linears_error():
    model = mg.nn.Sequential(mg.nn.LazyLinear(4), mg.nn.ReLU(), mg.nn.LazyLinear(2))
    assert tuple(model(mg.ones(5, 9)).shape) == (5, 2)
    assert [type(m).__name__ for m in model] == ["Linear", "ReLU", "Linear"]
    with pytest.raises(RuntimeError, match="in_features=9"):
        model(mg.ones(5, 8))
