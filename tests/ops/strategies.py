"""Hypothesis strategies for op tests: shapes, broadcastable shape pairs, dims, values, tensors.

Shapes are small (sides 1..4, at most 3 dims by default) so a central-difference
gradcheck over every element stays cheap. Values are float64 NumPy arrays; use
``tensors`` to wrap them as leaves that require grad.

Typical use::

    @settings(max_examples=15, deadline=None)
    @given(x=tensors(shapes()), dim=st.data())
    def test_op(x, data): ...
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minigrad as mg

__all__ = [
    "shapes",
    "broadcastable_shapes",
    "values",
    "arrays",
    "spaced_arrays",
    "tensors",
    "dims",
    "dim_or_dims",
    "shape_and_dim",
    "shape_and_dims",
    "to_tensor",
]

MAX_SIDE = 4


def shapes(min_dims: int = 0, max_dims: int = 3, min_side: int = 1, max_side: int = MAX_SIDE) -> st.SearchStrategy:
    """Array shapes (tuples of ints), scalars ``()`` included when ``min_dims == 0``."""
    return hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side, max_side=max_side)


def broadcastable_shapes(
    num_shapes: int = 2, min_dims: int = 0, max_dims: int = 3, max_side: int = MAX_SIDE
) -> st.SearchStrategy:
    """Tuples of ``num_shapes`` shapes that broadcast together (dims of 1, missing leading dims)."""
    return hnp.mutually_broadcastable_shapes(
        num_shapes=num_shapes, min_dims=min_dims, max_dims=max_dims, min_side=1, max_side=max_side
    ).map(lambda r: r.input_shapes)


def values(
    min_value: float = -3.0, max_value: float = 3.0, avoid: tuple = (), margin: float = 1e-2
) -> st.SearchStrategy:
    """Finite floats in ``[min_value, max_value]``, at least ``margin`` away from each point in ``avoid``.

    ``avoid`` keeps gradchecks off points where an op is not differentiable
    (0 for relu/abs/sign, the bounds for clamp).
    """
    s = st.floats(min_value=min_value, max_value=max_value, allow_nan=False, allow_infinity=False, width=64)
    if avoid:
        s = s.filter(lambda v: all(abs(v - p) >= margin for p in avoid))
    return s


def arrays(shape, elements: st.SearchStrategy | None = None, unique: bool = False) -> st.SearchStrategy:
    """float64 NumPy arrays of ``shape`` (a tuple or a shape strategy) with ``elements`` (default ``values()``).

    ``unique=True`` makes all elements distinct (useful for max/min/sort, where ties
    make the gradient depend on the tie-breaking rule).
    """
    return hnp.arrays(np.float64, shape, elements=elements if elements is not None else values(), unique=unique)


def spaced_arrays(shape, spacing: float = 0.25) -> st.SearchStrategy:
    """float64 arrays whose elements differ pairwise by at least ``spacing``, in absolute value too.

    The magnitudes are a shuffled ``spacing * (1..n)`` with random signs: no ties,
    no near-ties, no zeros, and no ``x, -x`` pairs. For max/min/amax/sort/inf-norm
    gradchecks, where a tie (or a gap below the finite-difference step) makes the
    numerical gradient split while the analytical one picks a side.
    """
    shape_s = shape if isinstance(shape, st.SearchStrategy) else st.just(tuple(shape))

    def build(shp):
        n = int(np.prod(shp))
        ranks = st.permutations(range(1, n + 1))
        signs = st.lists(st.sampled_from([-1.0, 1.0]), min_size=n, max_size=n)
        return st.tuples(ranks, signs).map(
            lambda rs: (np.array(rs[0], dtype=np.float64) * spacing * np.array(rs[1])).reshape(shp)
        )

    return shape_s.flatmap(build)


def to_tensor(arr: np.ndarray, requires_grad: bool = True) -> mg.Tensor:
    """A float64 leaf tensor holding a copy of ``arr``."""
    return mg.tensor(arr, dtype=mg.float64, requires_grad=requires_grad)


def tensors(
    shape=None, elements: st.SearchStrategy | None = None, unique: bool = False, requires_grad: bool = True
) -> st.SearchStrategy:
    """float64 leaf tensors (requiring grad by default); ``shape`` defaults to ``shapes()``."""
    return arrays(shape if shape is not None else shapes(), elements, unique).map(lambda a: to_tensor(a, requires_grad))


def dims(ndim: int) -> st.SearchStrategy:
    """One valid dim for an ``ndim``-d tensor, negative forms included (``0`` or ``-1`` for 0-d)."""
    if ndim == 0:
        return st.sampled_from([0, -1])
    return st.integers(min_value=-ndim, max_value=ndim - 1)


def dim_or_dims(ndim: int) -> st.SearchStrategy:
    """A dim argument for a reduction: None, one int, or a tuple of distinct dims (mixed signs)."""
    if ndim == 0:
        return st.sampled_from([None, 0, -1])
    axes = st.lists(st.integers(0, ndim - 1), min_size=1, max_size=ndim, unique=True)
    signed = axes.flatmap(lambda ax: st.tuples(*[st.sampled_from([a, a - ndim]) for a in ax]))
    return st.one_of(st.none(), dims(ndim), signed)


def shape_and_dim(min_dims: int = 1, max_dims: int = 3) -> st.SearchStrategy:
    """``(shape, dim)`` with one valid (possibly negative) int dim."""
    return shapes(min_dims=min_dims, max_dims=max_dims).flatmap(lambda s: st.tuples(st.just(s), dims(len(s))))


def shape_and_dims(min_dims: int = 0, max_dims: int = 3) -> st.SearchStrategy:
    """``(shape, dim)`` where dim is None, an int or a tuple of ints, as reductions accept."""
    return shapes(min_dims=min_dims, max_dims=max_dims).flatmap(lambda s: st.tuples(st.just(s), dim_or_dims(len(s))))
