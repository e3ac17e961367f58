"""RMSNorm and InstanceNorm: values and gradients against PyTorch, gradcheck in float64 (by the oracle),
running statistics, state_dict names, and PyTorch's refusals."""

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F
from tests.torch_oracle import arr, check, raises_like_torch


def _f(lib):
    return F if lib is mg else lib.nn.functional


@pytest.mark.parametrize(("shape", "normalized"), [((3, 5), (5,)), ((2, 3, 4), (3, 4)), ((4,), (4,))])
def test_rms_norm_matches_torch(shape, normalized):
    pytest.importorskip("torch")
    k = len(normalized)
    check(
        lambda lib, x, w: _f(lib).rms_norm(x, normalized, w, 1e-6), arr(*shape), arr(*shape[len(shape) - k :], seed=1)
    )
    check(lambda lib, x: _f(lib).rms_norm(x, normalized), arr(*shape))


def test_rms_norm_layer_matches_torch_default_eps_float32():
    torch = pytest.importorskip("torch")
    x = np.random.default_rng(0).standard_normal((2, 6)).astype(np.float32) * 1e-4
    ours = mg.nn.RMSNorm(6)(mg.tensor(x))
    theirs = torch.nn.RMSNorm(6)(torch.tensor(x))
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), rtol=1e-5)
    assert list(mg.nn.RMSNorm([2, 3]).state_dict()) == ["weight"]
    assert repr(mg.nn.RMSNorm(3)) == repr(torch.nn.RMSNorm(3))


@pytest.mark.parametrize("shape", [(2, 3, 5), (2, 3, 4, 4), (2, 2, 2, 3, 2)])
def test_instance_norm_matches_torch(shape):
    pytest.importorskip("torch")
    c = shape[1]
    check(lambda lib, x: _f(lib).instance_norm(x), arr(*shape))
    check(
        lambda lib, x, w, b: _f(lib).instance_norm(x, weight=w, bias=b, eps=1e-3),
        arr(*shape),
        arr(c, seed=1),
        arr(c, seed=2),
    )


@pytest.mark.parametrize(("name", "shape"), [("InstanceNorm1d", (2, 3, 6)), ("InstanceNorm2d", (2, 3, 4, 5))])
def test_layers_running_stats_and_eval_match_torch(name, shape):
    torch = pytest.importorskip("torch")
    x = np.random.default_rng(0).standard_normal(shape) * 2 + 1
    ours = getattr(mg.nn, name)(3, affine=True, track_running_stats=True).double()
    theirs = getattr(torch.nn, name)(3, affine=True, track_running_stats=True).double()
    assert list(ours.state_dict()) == list(theirs.state_dict())
    for _ in range(2):
        np.testing.assert_allclose(ours(mg.tensor(x)).detach().numpy(), theirs(torch.tensor(x)).detach().numpy())
    for key in ("running_mean", "running_var"):
        np.testing.assert_allclose(ours.state_dict()[key].numpy(), theirs.state_dict()[key].numpy())
    ours.eval()
    theirs.eval()
    np.testing.assert_allclose(ours(mg.tensor(x)).detach().numpy(), theirs(torch.tensor(x)).detach().numpy())
    assert repr(ours) == repr(theirs)


def test_unbatched_input_and_channel_warning():
    torch = pytest.importorskip("torch")
    x = np.random.default_rng(1).standard_normal((3, 7))
    np.testing.assert_allclose(
        mg.nn.InstanceNorm1d(3)(mg.tensor(x)).numpy(), torch.nn.InstanceNorm1d(3)(torch.tensor(x)).numpy()
    )
    with pytest.warns(UserWarning, match="input's size at dim=1 does not match num_features"):
        mg.nn.InstanceNorm1d(3)(mg.zeros(2, 4, 5))


@pytest.mark.parametrize(
    "call",
    [
        lambda lib: lib.nn.InstanceNorm1d(3)(lib.zeros(2, 3, 4, 5)),
        lambda lib: lib.nn.InstanceNorm2d(3, affine=True)(lib.zeros(2, 4, 5, 5)),
        lambda lib: _f(lib).instance_norm(lib.zeros(2, 3, 1)),
        lambda lib: _f(lib).rms_norm(lib.zeros(2, 3), (4,)),
    ],
)
def test_refusals_as_torch(call):
    raises_like_torch(call)
