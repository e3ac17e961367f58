"""cdist: torch's distances, batch broadcasting, errors and gradients (0 at a zero distance)."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from tests.torch_oracle import Arr, arr, check, raises_like_torch


@pytest.mark.parametrize("p", [0.0, 1.0, 1.5, 2.0, 3.0, float("inf")])
def test_cdist_matches_torch(p):
    pytest.importorskip("torch")
    check(lambda lib, a, b: lib.cdist(a, b, p=p), arr(4, 3), arr(5, 3, seed=1), rtol=1e-6, gradcheck_=p != 0.0)
    check(lambda lib, a, b: lib.cdist(a, b, p), arr(2, 4, 3), arr(1, 5, 3, seed=1), rtol=1e-6, gradcheck_=False)


def test_cdist_gradient_is_zero_at_a_zero_distance():
    pytest.importorskip("torch")
    same = np.array([[1.0, 2.0], [0.5, -1.0]])
    check(lambda lib, a, b: lib.cdist(a, b), Arr(same), Arr(same.copy()), gradcheck_=False)


@pytest.mark.parametrize(
    "call",
    [
        lambda lib: lib.cdist(lib.ones(3), lib.ones(3)),
        lambda lib: lib.cdist(lib.ones(2, 3), lib.ones(2, 4)),
        lambda lib: lib.cdist(lib.ones(2, 3), lib.ones(2, 3), p=-1),
        lambda lib: lib.cdist(lib.ones(2, 3, dtype=lib.long), lib.ones(2, 3, dtype=lib.long)),
        lambda lib: lib.cdist(lib.ones(2, 3), lib.ones(2, 3), compute_mode="x"),
        lambda lib: lib.cdist(lib.ones(2, 3), lib.ones(2, 3, dtype=lib.float64)),
        lambda lib: lib.cdist(lib.ones(2, 3), [1.0, 2.0, 3.0]),
    ],
)
def test_bad_input_raises_like_torch(call):
    raises_like_torch(call)


def test_cdist_of_float64_gradchecks():
    from minigrad.autograd import gradcheck, gradgradcheck

    a, b = (mg.tensor(np.random.default_rng(s).standard_normal((3, 2)), requires_grad=True) for s in (0, 1))
    assert gradcheck(mg.cdist, (a, b))
    assert gradgradcheck(mg.cdist, (a, b))


@pytest.mark.parametrize("compute_mode", ["use_mm_for_euclid_dist", "donot_use_mm_for_euclid_dist"])
def test_both_euclidean_modes_match_torch(compute_mode):
    pytest.importorskip("torch")
    check(lambda lib, a, b: lib.cdist(a, b, compute_mode=compute_mode), arr(30, 3), arr(27, 3, seed=1), rtol=1e-6)
    check(
        lambda lib, a, b: lib.cdist(a, b, compute_mode=compute_mode),
        arr(2, 1, 4, 3),
        arr(3, 5, 3, seed=1),
        rtol=1e-6,
        gradcheck_=False,
    )


def test_large_sets_use_matrix_products_and_gradcheck():
    from minigrad.autograd import gradcheck, gradgradcheck

    a, b = (mg.tensor(np.random.default_rng(s).standard_normal((30, 2)), requires_grad=True) for s in (0, 1))
    assert gradcheck(mg.cdist, (a, b))
    assert gradgradcheck(lambda x, y: mg.cdist(x[:3], y[:4], compute_mode="use_mm_for_euclid_dist"), (a, b))


@pytest.mark.parametrize("p", [0.0, 0.5, 1.0, 2.0, 3.0, float("inf")])
def test_pdist_matches_torch(p):
    pytest.importorskip("torch")
    check(lambda lib, a: lib.pdist(a, p), arr(5, 3), rtol=1e-6, gradcheck_=p != 0.0)
    check(lambda lib, a: lib.nn.functional.pdist(a, p=p), arr(4, 2, seed=2), rtol=1e-6, gradcheck_=False)


def test_pdist_gradient_is_zero_at_a_zero_distance_and_small_inputs_give_empty_results():
    pytest.importorskip("torch")
    rows = np.array([[1.0, 2.0], [1.0, 2.0], [0.0, 1.5]])
    check(lambda lib, a: lib.pdist(a), Arr(rows), gradcheck_=False)
    assert tuple(mg.pdist(mg.ones(1, 3)).shape) == (0,) and tuple(mg.pdist(mg.ones(0, 3)).shape) == (0,)


def test_pdist_is_cdists_upper_triangle_and_batches_under_vmap():
    import warnings

    x = mg.tensor(np.random.default_rng(4).normal(size=(3, 5, 2)))
    rows, cols = np.triu_indices(5, 1)
    np.testing.assert_allclose(mg.pdist(x[0]).numpy(), mg.cdist(x[0], x[0]).numpy()[rows, cols], rtol=1e-12)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # composed of batched ops: no loop fallback
        batched = mg.func.vmap(mg.pdist)(x)
    np.testing.assert_allclose(batched.numpy(), mg.stack([mg.pdist(x[i]) for i in range(3)]).numpy(), rtol=1e-12)


def test_pdist_forward_rule():  # torch has none for pdist: finite differences and the backward rule judge
    from tests.autograd.test_forward_rules import check_forward_rule

    x = np.random.default_rng(5).normal(size=(4, 3))
    for p in (1.0, 2.0, 3.0):
        check_forward_rule(lambda a, p=p: mg.pdist(a, p), [x])


@pytest.mark.parametrize(
    "call",
    [
        lambda lib: lib.pdist(lib.ones(3)),
        lambda lib: lib.pdist(lib.ones(2, 3, dtype=lib.int64)),
        lambda lib: lib.pdist(lib.ones(2, 3), -1),
    ],
)
def test_pdist_errors_are_torchs(call):
    raises_like_torch(call)
