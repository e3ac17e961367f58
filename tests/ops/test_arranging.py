"""diagonal, diag_embed, block_diag, diff, rot90, fliplr/flipud, atleast_*d, h/v/d/column_stack,
broadcast_tensors/broadcast_shapes, cartesian_prod, combinations: torch's values, gradients, errors."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad as mg
from minigrad.autograd import gradcheck
from tests.ops.strategies import arrays, shapes, to_tensor
from tests.torch_oracle import arr, check, raises_like_torch

CASES = {
    "diagonal": (lambda lib, x: lib.diagonal(x), (arr(3, 4),)),
    "diagonal_offset": (lambda lib, x: x.diagonal(-1), (arr(3, 4),)),
    "diagonal_dims": (lambda lib, x: x.diagonal(offset=1, dim1=2, dim2=0), (arr(3, 2, 4),)),
    "diagonal_far": (lambda lib, x: x.diagonal(5), (arr(3, 4),)),
    "diag_embed": (lambda lib, x: lib.diag_embed(x), (arr(2, 3),)),
    "diag_embed_dims": (lambda lib, x: x.diag_embed(offset=-1, dim1=0, dim2=2), (arr(2, 3),)),
    "block_diag": (lambda lib, a, b, c: lib.block_diag(a, b, c), (arr(2, 3), arr(3, seed=1), arr(seed=2))),
    "diff": (lambda lib, x: lib.diff(x), (arr(3, 5),)),
    "diff_n_dim": (lambda lib, x: x.diff(n=2, dim=0), (arr(4, 3),)),
    "diff_pre_append": (
        lambda lib, x, p, q: lib.diff(x, prepend=p, append=q),
        (arr(2, 3), arr(2, 1, seed=1), arr(2, 2, seed=2)),
    ),
    "rot90": (lambda lib, x: lib.rot90(x), (arr(2, 3),)),
    "rot90_k": (lambda lib, x: [x.rot90(k, (1, 2)) for k in (-1, 2, 3, 4)], (arr(2, 3, 4),)),
    "fliplr": (lambda lib, x: lib.fliplr(x), (arr(2, 3),)),
    "flipud": (lambda lib, x: x.flipud(), (arr(2, 3),)),
    "atleast": (
        lambda lib, a, b, c, d: [*lib.atleast_1d(a, b), lib.atleast_2d(b), *lib.atleast_3d((a, b, c, d))],
        (arr(), arr(3, seed=1), arr(2, 3, seed=2), arr(1, 2, 3, seed=3)),
    ),
    "hstack": (lambda lib, a, b: lib.hstack([a, b]), (arr(2, 3), arr(2, 1, seed=1))),
    "hstack_vectors": (
        lambda lib, a, b: lib.hstack((a, b)),
        (
            arr(3),
            arr(),
        ),
    ),
    "vstack": (lambda lib, a, b: lib.vstack([a, b]), (arr(3), arr(2, 3, seed=1))),
    "row_stack": (lambda lib, a, b: lib.row_stack([a, b]), (arr(3), arr(3, seed=1))),
    "dstack": (lambda lib, a, b: lib.dstack([a, b]), (arr(3), arr(1, 3, seed=1))),
    "column_stack": (lambda lib, a, b, c: lib.column_stack([a, b, c]), (arr(3), arr(3, 2, seed=1), arr(3, seed=2))),
    "broadcast_tensors": (lambda lib, a, b: lib.broadcast_tensors(a, b), (arr(2, 1), arr(3, seed=1))),
    "cartesian_prod": (lambda lib, a, b, c: lib.cartesian_prod(a, b, c), (arr(2), arr(3, seed=1), arr(2, seed=2))),
    "combinations": (lambda lib, a: lib.combinations(a), (arr(4),)),
    "combinations_r": (lambda lib, a: lib.combinations(a, r=3, with_replacement=True), (arr(3),)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_torch(name):
    pytest.importorskip("torch")
    fn, args = CASES[name]
    check(fn, *args)


def test_bool_diff_is_xor_and_integer_diff_stays_integer():
    torch = pytest.importorskip("torch")
    for data in ([True, False, False, True], [3, 1, 4, 1, 5]):
        np.testing.assert_array_equal(
            mg.diff(mg.tensor(data), n=2).numpy(), torch.diff(torch.tensor(data), n=2).numpy()
        )
    assert mg.diff(mg.tensor([True, False])).dtype == mg.bool


def test_broadcast_shapes_and_small_cases():
    torch = pytest.importorskip("torch")
    for shapes_ in [(2, (3, 1)), ((1, 3), (4, 1), ()), ((5,),)]:
        assert mg.broadcast_shapes(*shapes_) == tuple(torch.broadcast_shapes(*shapes_))
    assert mg.combinations(mg.arange(3), r=0).shape == (0,)
    assert mg.combinations(mg.arange(3), r=4).shape == tuple(torch.combinations(torch.arange(3), r=4).shape)
    assert mg.cartesian_prod(mg.arange(3)).shape == (3,)
    assert mg.atleast_2d(mg.tensor(1.0)).shape == (1, 1)
    assert isinstance(mg.atleast_1d([mg.tensor(1.0)]), tuple)


@pytest.mark.parametrize(
    "call",
    [
        lambda lib: lib.fliplr(lib.zeros(2)),
        lambda lib: lib.flipud(lib.tensor(1.0)),
        lambda lib: lib.rot90(lib.zeros(2, 2), 1, (0, 0)),
        lambda lib: lib.rot90(lib.zeros(2), 1),
        lambda lib: lib.broadcast_shapes((2, 3), (3, 2)),
        lambda lib: lib.diff(lib.tensor(1.0)),
        lambda lib: lib.diff(lib.zeros(3), n=-1),
        lambda lib: lib.combinations(lib.zeros(2, 2)),
        lambda lib: lib.cartesian_prod(lib.zeros(2, 2)),
        lambda lib: lib.diagonal(lib.zeros(2, 2), 0, 0, 0),
        lambda lib: lib.diag_embed(lib.zeros(2), 0, 0, 0),
        lambda lib: lib.block_diag(lib.zeros(2, 2, 2)),
        lambda lib: lib.hstack([]),
    ],
)
def test_errors_are_torchs(call):
    raises_like_torch(call)


def test_error_words():
    with pytest.raises(
        RuntimeError, match="Attempting to broadcast a dimension of length 2 at -1! Mismatching argument at index 1"
    ):
        mg.broadcast_shapes((2, 3), (3, 2))
    with pytest.raises(RuntimeError, match="diagonal dimensions cannot be identical 0, 0"):
        mg.diagonal(mg.zeros(2, 2), 0, 0, 0)
    with pytest.raises(RuntimeError, match="Input tensors must have 2 or fewer dimensions. Input 0 has 3 dimensions"):
        mg.block_diag(mg.zeros(2, 2, 2))


@settings(max_examples=30, deadline=None)
@given(arrays(shapes(min_dims=2, max_dims=3)), st.integers(-3, 3))
def test_diag_embed_inverts_diagonal(a, offset):
    x = to_tensor(a)
    d = x.diagonal(offset, -2, -1)
    np.testing.assert_array_equal(d.detach().numpy(), np.diagonal(a, offset, -2, -1))
    embedded = mg.diag_embed(d, offset)
    np.testing.assert_array_equal(embedded.diagonal(offset, -2, -1).detach().numpy(), d.detach().numpy())
    assert gradcheck(lambda t: t.diagonal(offset, -2, -1).diag_embed(offset), (x,))


@settings(max_examples=30, deadline=None)
@given(arrays(shapes(min_dims=2, max_dims=3)), st.integers(-5, 5))
def test_rot90_four_times_is_identity_and_matches_numpy(a, k):
    x = mg.tensor(a)
    np.testing.assert_array_equal(x.rot90(k).numpy(), np.rot90(a, k))
    np.testing.assert_array_equal(x.rot90(k).rot90(4 - k).numpy(), a)
    np.testing.assert_array_equal(mg.diff(x, dim=0).numpy(), np.diff(a, axis=0))
