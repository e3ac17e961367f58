"""Embedding's PyTorch options: ``from_pretrained`` (and ``_weight``/``_freeze``), ``max_norm`` with
``norm_type`` (looked-up rows renormalised in the weight itself), ``scale_grad_by_freq`` and ``sparse``
(taken, with a warning: the gradient is dense), checked by hand, by finite differences and against torch."""

import warnings

import numpy as np
import pytest

import minigrad as mg
from minigrad.autograd import gradcheck

W = np.random.default_rng(0).standard_normal((6, 3)) * 2
IDX = np.array([[0, 2, 2], [5, 0, 2]])
G = np.random.default_rng(1).standard_normal((2, 3, 3))


def test_from_pretrained_shares_the_values_and_freezes_by_default():
    values = mg.tensor(W.copy())
    layer = mg.nn.Embedding.from_pretrained(values)
    assert not layer.weight.requires_grad and layer.weight.array is values.array
    np.testing.assert_array_equal(layer(mg.tensor(np.array([4, 1]))).numpy(), W[[4, 1]])
    assert mg.nn.Embedding.from_pretrained(values, freeze=False).weight.requires_grad
    with pytest.raises(AssertionError, match="Embeddings parameter is expected to be 2-dimensional"):
        mg.nn.Embedding.from_pretrained(mg.zeros(3))
    with pytest.raises(AssertionError, match="Shape of weight does not match num_embeddings and embedding_dim"):
        mg.nn.Embedding(4, 3, _weight=mg.zeros(5, 3))


def test_scale_grad_by_freq_divides_each_rows_gradient_by_its_count():
    w = mg.tensor(W, requires_grad=True)
    (mg.nn.functional.embedding(mg.tensor(IDX), w, scale_grad_by_freq=True) * mg.tensor(G)).sum().backward()
    expected = np.zeros_like(W)
    counts = np.bincount(IDX.reshape(-1), minlength=6)
    np.add.at(expected, IDX.reshape(-1), G.reshape(-1, 3) / counts[IDX.reshape(-1), None])
    np.testing.assert_allclose(w.grad.numpy(), expected, rtol=1e-12)
    # not the derivative, by design (PyTorch's option): the gradcheck-ed gradient without it, divided by the counts
    plain = mg.tensor(W, requires_grad=True)
    assert gradcheck(lambda v: mg.nn.functional.embedding(mg.tensor(IDX), v), (plain,))
    (mg.nn.functional.embedding(mg.tensor(IDX), plain) * mg.tensor(G)).sum().backward()
    seen = counts > 0
    np.testing.assert_allclose(w.grad.numpy()[seen], plain.grad.numpy()[seen] / counts[seen, None], rtol=1e-12)
    padded = mg.tensor(W, requires_grad=True)
    (mg.nn.functional.embedding(mg.tensor(IDX), padded, 2, scale_grad_by_freq=True) * mg.tensor(G)).sum().backward()
    np.testing.assert_array_equal(padded.grad.numpy()[2], 0)
    np.testing.assert_allclose(padded.grad.numpy()[[0, 5]], expected[[0, 5]], rtol=1e-12)


def test_max_norm_scales_the_looked_up_rows_down_in_the_weight():
    w = mg.tensor(W.copy(), requires_grad=True)
    version = w._version
    out = mg.nn.functional.embedding(mg.tensor(np.array([0, 2])), w, max_norm=1.0)
    norms = np.linalg.norm(W, axis=1)
    for row in range(6):
        if row in (0, 2) and norms[row] > 1.0:
            np.testing.assert_allclose(w.detach().numpy()[row], W[row] / (norms[row] + 1e-7), rtol=1e-12)
        else:
            np.testing.assert_array_equal(w.detach().numpy()[row], W[row])
    np.testing.assert_array_equal(out.detach().numpy(), w.detach().numpy()[[0, 2]])
    assert w._version > version  # an in-place write: a graph that saved the old weight refuses to run
    l1 = mg.tensor(W.copy())
    mg.nn.functional.embedding(mg.tensor(np.array([1])), l1, max_norm=1.5, norm_type=1.0)
    assert np.abs(l1.numpy()[1]).sum() == pytest.approx(1.5, rel=1e-6)


def test_sparse_is_taken_with_a_warning_and_a_dense_gradient():
    w = mg.tensor(W, requires_grad=True)
    with pytest.warns(UserWarning, match=r"sparse=True.*dense"):
        out = mg.nn.functional.embedding(mg.tensor(IDX), w, sparse=True)
    out.sum().backward()
    assert type(w.grad) is mg.Tensor and w.grad.shape == (6, 3)


def test_the_layer_passes_its_options_and_shows_them_as_torch():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        layer = mg.nn.Embedding(6, 3, padding_idx=1, max_norm=1.0, norm_type=1.0, scale_grad_by_freq=True, sparse=True)
        layer(mg.tensor(IDX))
    assert (
        repr(layer)
        == "Embedding(6, 3, padding_idx=1, max_norm=1.0, norm_type=1.0, scale_grad_by_freq=True, sparse=True)"
    )
    assert np.abs(layer.weight.detach().numpy()[[0, 2, 5]]).sum(axis=1).max() <= 1.0 + 1e-6


@pytest.mark.parametrize(
    "options",
    [{"scale_grad_by_freq": True}, {"padding_idx": 2, "scale_grad_by_freq": True}, {"max_norm": 1.0}],
    ids=str,
)
def test_values_and_gradients_are_torchs(options):
    torch = pytest.importorskip("torch")
    results = []
    for lib in (mg, torch):
        w = lib.tensor(W.copy(), requires_grad=True)
        out = lib.nn.functional.embedding(lib.tensor(IDX), w, **options)
        (out * lib.tensor(G)).sum().backward()
        results.append((out.detach().numpy(), w.grad.numpy(), w.detach().numpy()))
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-15)
