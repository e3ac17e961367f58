"""minigrad.distributions: Normal, Categorical and kl_divergence, as torch.distributions."""

import math

import numpy as np
import pytest

import minigrad as mg
from minigrad.autograd import gradcheck
from minigrad.distributions import Categorical, Normal, kl_divergence


def _f64(values, grad=True):
    return mg.tensor(values, dtype=mg.float64, requires_grad=grad)


def test_normal_log_prob_entropy_cdf_and_icdf_by_the_formulas():
    n = Normal(_f64([0.0, 1.0]), _f64([1.0, 2.0]))
    x = np.array([0.5, -1.0])
    expected = -((x - [0.0, 1.0]) ** 2) / (2 * np.array([1.0, 4.0])) - np.log([1.0, 2.0]) - 0.5 * math.log(2 * math.pi)
    np.testing.assert_allclose(n.log_prob(mg.tensor(x, dtype=mg.float64)).detach().numpy(), expected, rtol=1e-12)
    np.testing.assert_allclose(n.entropy().detach().numpy(), 0.5 + 0.5 * math.log(2 * math.pi) + np.log([1, 2]))
    cdf = n.cdf(mg.tensor(x, dtype=mg.float64)).detach().numpy()
    np.testing.assert_allclose(cdf, [(1 + math.erf(v / math.sqrt(2))) / 2 for v in (0.5, -1.0)], rtol=1e-12)
    np.testing.assert_allclose(n.icdf(mg.tensor(cdf, dtype=mg.float64)).detach().numpy(), x, rtol=1e-9)


def test_normal_log_prob_and_rsample_gradients_match_finite_differences():
    loc, scale, x = _f64([0.3, -1.2]), _f64([0.7, 1.5]), _f64([0.1, 0.4])
    assert gradcheck(lambda m, s, v: Normal(m, s).log_prob(v), (loc, scale, x))
    assert gradcheck(lambda m, s: Normal(m, s).entropy(), (loc, scale))
    mg.manual_seed(1)
    sample = Normal(loc, scale).rsample((3,))
    sample.sum().backward()
    np.testing.assert_allclose(loc.grad.numpy(), [3.0, 3.0])  # d(loc + eps*scale)/d loc, summed over 3 draws


def test_normal_sample_has_the_shape_and_moments_and_no_graph():
    mg.manual_seed(0)
    n = Normal(_f64([2.0]), _f64([0.5]))
    s = n.sample((20000,))
    assert s.shape == (20000, 1) and not s.requires_grad
    assert float(s.mean()) == pytest.approx(2.0, abs=0.02) and float(s.std()) == pytest.approx(0.5, abs=0.02)
    assert Normal(0.0, 1.0).sample().shape == () and Normal(0.0, 1.0).sample().dtype == mg.float32


def test_normal_refuses_a_scale_that_is_not_positive():
    with pytest.raises(ValueError, match=r"Expected parameter scale .* GreaterThan\(lower_bound=0.0\)"):
        Normal(mg.zeros(2), mg.tensor([1.0, 0.0]))


def test_categorical_from_logits_and_from_probs_agree():
    logits = _f64([[1.0, 2.0, 3.0], [0.0, 0.0, -1.0]])
    a, b = Categorical(logits=logits), Categorical(probs=logits.exp())
    np.testing.assert_allclose(a.probs.detach().numpy(), b.probs.detach().numpy(), rtol=1e-12)
    value = mg.tensor([2, 0])
    expected = logits.detach().numpy()[[0, 1], [2, 0]] - np.log(np.exp(logits.detach().numpy()).sum(1))
    np.testing.assert_allclose(a.log_prob(value).detach().numpy(), expected, rtol=1e-12)
    assert gradcheck(lambda z: Categorical(logits=z).log_prob(value), (logits,))
    assert gradcheck(lambda z: Categorical(logits=z).entropy(), (logits,))


def test_categorical_samples_follow_the_probabilities():
    mg.manual_seed(0)
    c = Categorical(probs=mg.tensor([0.1, 0.0, 0.9]))
    s = c.sample((5000,))
    assert s.shape == (5000,) and s.dtype == mg.int64
    counts = np.bincount(s.numpy(), minlength=3) / 5000
    assert counts[1] == 0 and counts[2] == pytest.approx(0.9, abs=0.02)
    assert float(c.entropy()) == pytest.approx(-(0.1 * math.log(0.1) + 0.9 * math.log(0.9)), rel=1e-6)


def test_categorical_refuses_bad_arguments():
    with pytest.raises(ValueError, match="Either `probs` or `logits` must be specified, but not both"):
        Categorical()
    with pytest.raises(ValueError, match="must be at least one-dimensional"):
        Categorical(probs=mg.tensor(1.0))
    with pytest.raises(ValueError, match="Simplex"):
        Categorical(probs=mg.tensor([0.5, -0.5]))


def test_kl_divergence_between_normals_and_between_categoricals():
    p, q = Normal(_f64([0.0]), _f64([1.0])), Normal(_f64([1.0]), _f64([2.0]))
    expected = math.log(2.0) + (1 + 1) / (2 * 4) - 0.5
    assert float(kl_divergence(p, q)) == pytest.approx(expected, rel=1e-12)
    a, b = Categorical(probs=mg.tensor([0.5, 0.5, 0.0])), Categorical(probs=mg.tensor([0.25, 0.25, 0.5]))
    assert float(kl_divergence(a, b)) == pytest.approx(math.log(2.0), rel=1e-6)
    with pytest.raises(NotImplementedError, match="Normal and Categorical"):
        kl_divergence(p, a)


def test_against_torch_distributions():
    torch = pytest.importorskip("torch")
    loc, scale, x = [0.3, -1.2], [0.7, 1.5], [0.1, 0.4]
    ours = Normal(_f64(loc), _f64(scale))
    theirs = torch.distributions.Normal(
        torch.tensor(loc, dtype=torch.float64), torch.tensor(scale, dtype=torch.float64)
    )
    for name in ("log_prob", "cdf"):
        got = getattr(ours, name)(mg.tensor(x, dtype=mg.float64)).detach().numpy()
        np.testing.assert_allclose(got, getattr(theirs, name)(torch.tensor(x, dtype=torch.float64)).numpy(), rtol=1e-12)
    logits = [[1.0, -2.0, 0.5], [0.0, 3.0, 1.0]]
    c, tc = (
        Categorical(logits=_f64(logits)),
        torch.distributions.Categorical(logits=torch.tensor(logits, dtype=torch.float64)),
    )
    np.testing.assert_allclose(c.entropy().detach().numpy(), tc.entropy().numpy(), rtol=1e-12)
    np.testing.assert_allclose(
        c.log_prob(mg.tensor([1, 2])).detach().numpy(), tc.log_prob(torch.tensor([1, 2])).numpy()
    )
    kl = torch.distributions.kl_divergence(theirs, torch.distributions.Normal(torch.zeros(2, dtype=torch.float64), 1.0))
    np.testing.assert_allclose(kl_divergence(ours, Normal(_f64([0.0, 0.0]), 1.0)).detach().numpy(), kl.numpy())
