"""nn.utils: clip_grad_norm_, clip_grad_value_, parameters_to_vector, vector_to_parameters against torch."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad.autograd import gradcheck
from minigrad.nn import utils

GRADS = [np.array([3.0, -4.0, 0.5]), np.array([[1.0, -2.0], [0.25, 6.0]])]


def _pairs(torch, grads=GRADS):
    ours, theirs = [], []
    for g in grads:
        p = mg.nn.Parameter(mg.zeros(*g.shape, dtype=mg.float64))
        p.grad = mg.tensor(g.copy())
        t = torch.nn.Parameter(torch.zeros(*g.shape, dtype=torch.float64))
        t.grad = torch.tensor(g.copy())
        ours.append(p)
        theirs.append(t)
    return ours, theirs


@pytest.mark.parametrize("norm_type", [2.0, 1, 3.5, float("inf")])
@pytest.mark.parametrize("max_norm", [0.5, 100.0])
def test_clip_grad_norm_matches_torch(norm_type, max_norm):
    torch = pytest.importorskip("torch")
    ours, theirs = _pairs(torch)
    total = utils.clip_grad_norm_(ours, max_norm, norm_type)
    expected = torch.nn.utils.clip_grad_norm_(theirs, max_norm, norm_type)
    assert isinstance(total, mg.Tensor) and total.dtype == mg.float64
    np.testing.assert_allclose(total.item(), expected.item(), rtol=1e-12)
    for p, t in zip(ours, theirs):
        np.testing.assert_allclose(p.grad.numpy(), t.grad.numpy(), rtol=1e-12)


def test_clip_grad_norm_of_large_float32_gradients_matches_torch():
    """The 2-norm of float32 gradients (one dot product each) is torch's, in float32, and so are the clipped values."""
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(s).astype(np.float32) for s in [(1000, 200), (800,), (800, 200)]]
    ours, theirs = [], []
    for a in arrays:
        p, t = mg.nn.Parameter(mg.zeros(*a.shape)), torch.nn.Parameter(torch.zeros(*a.shape))
        p.grad, t.grad = mg.tensor(a.copy()), torch.tensor(a.copy())
        ours.append(p)
        theirs.append(t)
    total, expected = utils.clip_grad_norm_(ours, 0.25), torch.nn.utils.clip_grad_norm_(theirs, 0.25)
    assert total.dtype == mg.float32
    np.testing.assert_allclose(total.item(), expected.item(), rtol=1e-5)
    for p, t in zip(ours, theirs):
        np.testing.assert_allclose(p.grad.numpy(), t.grad.numpy(), rtol=1e-5, atol=1e-9)


def test_clip_grad_norm_of_one_tensor_and_without_grads():
    torch = pytest.importorskip("torch")
    p = mg.nn.Parameter(mg.zeros(2))
    assert utils.clip_grad_norm_(p, 1.0).item() == 0.0 == torch.nn.utils.clip_grad_norm_(torch.zeros(2), 1.0).item()
    p.grad = mg.tensor([3.0, 4.0])
    assert utils.clip_grad_norm_(p, 1.0).item() == 5.0
    np.testing.assert_allclose(p.grad.numpy(), [0.6, 0.8], rtol=1e-6)


def test_clip_grad_norm_error_if_nonfinite_has_torchs_text():
    torch = pytest.importorskip("torch")
    ours, theirs = _pairs(torch, [np.array([np.inf, 1.0])])
    with pytest.raises(RuntimeError) as theirs_error:
        torch.nn.utils.clip_grad_norm_(theirs, 1.0, error_if_nonfinite=True)
    with pytest.raises(RuntimeError) as ours_error:
        utils.clip_grad_norm_(ours, 1.0, error_if_nonfinite=True)
    assert str(ours_error.value) == str(theirs_error.value)
    assert not np.isfinite(utils.clip_grad_norm_(ours, 1.0).item())  # without the flag: scaled anyway


def test_clip_grad_value_matches_torch():
    torch = pytest.importorskip("torch")
    ours, theirs = _pairs(torch)
    assert utils.clip_grad_value_(ours, 1.5) is None
    torch.nn.utils.clip_grad_value_(theirs, 1.5)
    for p, t in zip(ours, theirs):
        np.testing.assert_array_equal(p.grad.numpy(), t.grad.numpy())


def test_parameters_to_vector_and_back_match_torch():
    torch = pytest.importorskip("torch")
    model = mg.nn.Linear(3, 2)
    vec = utils.parameters_to_vector(model.parameters())
    expected = np.concatenate([p.detach().numpy().reshape(-1) for p in model.parameters()])
    np.testing.assert_array_equal(vec.detach().numpy(), expected)
    utils.vector_to_parameters(vec * 2, model.parameters())
    np.testing.assert_allclose(utils.parameters_to_vector(model.parameters()).detach().numpy(), expected * 2)
    with pytest.raises(TypeError, match="expected torch.Tensor, but got: list"):
        utils.vector_to_parameters([1.0], model.parameters())
    with pytest.raises(TypeError, match="expected torch.Tensor, but got: list"):
        torch.nn.utils.vector_to_parameters([1.0], torch.nn.Linear(3, 2).parameters())
    with pytest.raises(RuntimeError):
        utils.vector_to_parameters(mg.ones(2), model.parameters())


def test_parameters_to_vector_gradchecks():
    a = mg.tensor(np.random.default_rng(0).standard_normal((2, 3)), requires_grad=True)
    b = mg.tensor(np.random.default_rng(1).standard_normal(4), requires_grad=True)
    assert gradcheck(lambda x, y: utils.parameters_to_vector([x, y]) ** 2, (a, b))
