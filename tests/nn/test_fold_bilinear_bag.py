"""Unfold/Fold, Bilinear and EmbeddingBag: values and gradients against PyTorch (gradcheck in float64 by
the oracle), reprs, and PyTorch's refusals."""

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F
from tests.torch_oracle import Arr, arr, check, raises_like_torch


def _f(lib):
    return F if lib is mg else lib.nn.functional


GEOMETRIES = [
    dict(kernel_size=2),
    dict(kernel_size=(2, 3), dilation=(1, 2), padding=1, stride=(2, 1)),
    dict(kernel_size=3, padding=(0, 1), stride=2),
]


@pytest.mark.parametrize("geometry", GEOMETRIES)
def test_unfold_matches_torch(geometry):
    pytest.importorskip("torch")
    check(lambda lib, x: _f(lib).unfold(x, **geometry), arr(2, 3, 5, 6))
    check(lambda lib, x: lib.nn.Unfold(**geometry)(x), arr(3, 5, 6))


@pytest.mark.parametrize("geometry", GEOMETRIES)
def test_fold_matches_torch_and_is_unfolds_adjoint(geometry):
    torch = pytest.importorskip("torch")
    cols = torch.nn.functional.unfold(torch.zeros(2, 3, 5, 6), **geometry).shape
    check(lambda lib, c: _f(lib).fold(c, (5, 6), **geometry), arr(*cols))
    check(lambda lib, c: lib.nn.Fold((5, 6), **geometry)(c), arr(*cols[1:]))
    x = mg.tensor(np.random.default_rng(0).standard_normal((2, 3, 5, 6)))
    c = mg.tensor(np.random.default_rng(1).standard_normal(tuple(cols)))
    lhs = (F.unfold(x, **geometry) * c).sum().item()
    rhs = (x * F.fold(c, (5, 6), **geometry)).sum().item()
    assert lhs == pytest.approx(rhs)


def test_fold_reprs_as_torch():
    torch = pytest.importorskip("torch")
    assert repr(mg.nn.Unfold(2)) == repr(torch.nn.Unfold(2))
    assert repr(mg.nn.Fold((4, 4), 2, stride=2)) == repr(torch.nn.Fold((4, 4), 2, stride=2))


@pytest.mark.parametrize(
    "call",
    [
        lambda lib: _f(lib).unfold(lib.zeros(1, 3, 4, 4), 5),
        lambda lib: _f(lib).fold(lib.zeros(1, 5, 9), (4, 4), 2),
        lambda lib: _f(lib).fold(lib.zeros(1, 8, 8), (4, 4), 2),
        lambda lib: _f(lib).fold(lib.zeros(1, 1, 8, 9), (4, 4), 2),
        lambda lib: _f(lib).bilinear(lib.zeros(5, 2), lib.zeros(5, 4), lib.zeros(4, 2, 3)),
        lambda lib: _f(lib).bilinear(lib.zeros(5, 2), lib.zeros(4, 3), lib.zeros(4, 2, 3)),
        lambda lib: _f(lib).bilinear(lib.zeros(5, 2), lib.zeros(5, 3), lib.zeros(4, 2, 3), lib.zeros(5)),
    ],
)
def test_refusals_as_torch(call):
    raises_like_torch(call)


def test_unfold_refusal_words():
    with pytest.raises(RuntimeError, match=r"calculated shape of the array of sliding blocks as \(0, 0\)"):
        F.unfold(mg.zeros(1, 3, 4, 4), 5)
    with pytest.raises(NotImplementedError, match="Only 3D or 4D input Tensors are supported"):
        F.unfold(mg.zeros(3, 4), 2)


@pytest.mark.parametrize("shapes", [((5, 2), (5, 3)), ((2, 4, 2), (2, 4, 3)), ((2,), (3,))])
def test_bilinear_matches_torch(shapes):
    pytest.importorskip("torch")
    check(
        lambda lib, a, b, w, c: _f(lib).bilinear(a, b, w, c),
        arr(*shapes[0]),
        arr(*shapes[1], seed=1),
        arr(4, 2, 3, seed=2),
        arr(4, seed=3),
    )
    check(
        lambda lib, a, b, w: _f(lib).bilinear(a, b, w), arr(*shapes[0]), arr(*shapes[1], seed=1), arr(4, 2, 3, seed=2)
    )


def test_bilinear_layer_parameters_and_repr_as_torch():
    torch = pytest.importorskip("torch")
    ours, theirs = mg.nn.Bilinear(2, 3, 4), torch.nn.Bilinear(2, 3, 4)
    assert [(k, tuple(v.shape)) for k, v in ours.state_dict().items()] == [
        (k, tuple(v.shape)) for k, v in theirs.state_dict().items()
    ]
    assert repr(ours) == repr(theirs)
    bound = 1 / np.sqrt(2)
    assert np.abs(ours.weight.detach().numpy()).max() <= bound
    assert mg.nn.Bilinear(2, 3, 4, bias=False).bias is None


BAGS = [
    dict(mode="sum"),
    dict(mode="mean"),
    dict(mode="max"),
    dict(mode="mean", padding_idx=2),
    dict(mode="sum", padding_idx=-8),
]


@pytest.mark.parametrize("kwargs", BAGS)
def test_embedding_bag_with_offsets_matches_torch(kwargs):
    pytest.importorskip("torch")
    indices = Arr(np.array([1, 2, 3, 2, 5, 7, 2]), grad=False)
    offsets = Arr(np.array([0, 2, 2, 4]), grad=False)  # bag 1 is empty
    check(lambda lib, i, w, o: _f(lib).embedding_bag(i, w, o, **kwargs), indices, arr(10, 3), offsets)


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_embedding_bag_of_2d_input_and_include_last_offset_match_torch(mode):
    pytest.importorskip("torch")
    rows = Arr(np.array([[1, 2, 3], [4, 4, 0]]), grad=False)
    check(lambda lib, i, w: _f(lib).embedding_bag(i, w, mode=mode), rows, arr(6, 2))
    indices = Arr(np.array([1, 2, 3, 2, 5]), grad=False)
    offsets = Arr(np.array([0, 3, 3, 5]), grad=False)
    check(
        lambda lib, i, w, o: _f(lib).embedding_bag(i, w, o, mode=mode, include_last_offset=True),
        indices,
        arr(6, 2),
        offsets,
    )


def test_embedding_bag_per_sample_weights_match_torch():
    pytest.importorskip("torch")
    indices = Arr(np.array([1, 2, 3, 2, 5]), grad=False)
    offsets = Arr(np.array([0, 3]), grad=False)
    check(
        lambda lib, i, w, o, s: _f(lib).embedding_bag(i, w, o, mode="sum", per_sample_weights=s),
        indices,
        arr(6, 2),
        offsets,
        arr(5, seed=4),
    )


def test_embedding_bag_max_norm_renormalises_used_rows_as_torch():
    torch = pytest.importorskip("torch")
    w = np.random.default_rng(0).standard_normal((6, 3)) * 3
    ours, theirs = mg.tensor(w.copy()), torch.tensor(w.copy())
    idx = np.array([1, 2, 4])
    out = F.embedding_bag(mg.tensor(idx), ours, mg.tensor([0]), max_norm=1.0)
    ref = torch.nn.functional.embedding_bag(torch.tensor(idx), theirs, torch.tensor([0]), max_norm=1.0)
    np.testing.assert_allclose(out.numpy(), ref.numpy(), rtol=1e-6)
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6)


def test_embedding_bag_layer_as_torch():
    torch = pytest.importorskip("torch")
    layer = mg.nn.EmbeddingBag(10, 3, mode="sum", padding_idx=0)
    assert repr(layer) == repr(torch.nn.EmbeddingBag(10, 3, mode="sum", padding_idx=0))
    assert list(layer.state_dict()) == ["weight"]
    np.testing.assert_array_equal(layer.weight.detach().numpy()[0], np.zeros(3, dtype=np.float32))
    out = layer(mg.tensor([[1, 2], [0, 3]]))
    assert out.shape == (2, 3)
    out.sum().backward()
    np.testing.assert_array_equal(layer.weight.grad.numpy()[0], np.zeros(3, dtype=np.float32))


@pytest.mark.parametrize(
    "call",
    [
        lambda lib: _f(lib).embedding_bag(lib.tensor([1, 2, 3]), lib.zeros(10, 3), lib.tensor([1])),
        lambda lib: _f(lib).embedding_bag(lib.tensor([1, 2, 3]), lib.zeros(10, 3), lib.tensor([0, 4])),
        lambda lib: _f(lib).embedding_bag(lib.tensor([1, 2, 3]), lib.zeros(10, 3)),
        lambda lib: _f(lib).embedding_bag(lib.tensor([[1, 2, 3]]), lib.zeros(10, 3), lib.tensor([0])),
        lambda lib: _f(lib).embedding_bag(lib.tensor([1, 2, 3]), lib.zeros(10, 3), lib.tensor([[0]])),
        lambda lib: _f(lib).embedding_bag(lib.tensor([1, 2, 3]), lib.zeros(10, 3), lib.tensor([0]), mode="x"),
        lambda lib: _f(lib).embedding_bag(
            lib.tensor([1, 2, 3]), lib.zeros(10, 3), lib.tensor([0]), per_sample_weights=lib.ones(3)
        ),
        lambda lib: _f(lib).embedding_bag(
            lib.tensor([1, 2, 3]), lib.zeros(10, 3), lib.tensor([0]), mode="sum", per_sample_weights=lib.ones(2)
        ),
        lambda lib: _f(lib).embedding_bag(lib.tensor([1, 2, 30]), lib.zeros(10, 3), lib.tensor([0])),
        lambda lib: _f(lib).embedding_bag(lib.tensor([[[1]]]), lib.zeros(10, 3)),
    ],
)
def test_embedding_bag_refusals_as_torch(call):
    raises_like_torch(call)
