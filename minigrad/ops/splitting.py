"""Pieces and grids: tensor_split (views of one tensor) and meshgrid (expanded views of several).

Both are made of existing view ops (slices, reshape, expand), so each piece's rule is its view's.
"""

from __future__ import annotations

import warnings

from .. import backend as B
from ..tensor import Tensor
from ._util import check_int, check_tensor, normalize_dims
from .declare import LOOP, bind_methods, op
from .shape import _several_views, _slice_along

__all__ = ["tensor_split", "meshgrid"]


def _split_points(indices_or_sections, size: int) -> list:
    """The start of each piece after the first, from a section count or a list of indices."""
    if isinstance(indices_or_sections, Tensor):
        t = indices_or_sections.array
        if t.ndim > 1:
            raise RuntimeError(
                "tensor_split expected tensor_indices_or_sections to be a zero-dimensional or one-dimensional "
                f"tensor, but got a tensor with {t.ndim} dims"
            )
        if t.dtype.name != "int64":
            name = B.scalar_type_name(t.dtype)
            raise RuntimeError(
                f"tensor_split expected tensor_indices_or_sections to have dtype of long, but got {name}"
            )
        indices_or_sections = int(t) if t.ndim == 0 else [int(v) for v in t.tolist()]
    if isinstance(indices_or_sections, (list, tuple)):
        return [check_int(v, "tensor_split", "indices") for v in indices_or_sections]
    sections = check_int(indices_or_sections, "tensor_split", "sections")
    if sections <= 0:
        raise RuntimeError(f"number of sections must be larger than 0, got {sections}")
    small, extra = divmod(size, sections)  # the first ``extra`` pieces get one element more
    points, start = [], 0
    for i in range(sections - 1):
        start += small + (1 if i < extra else 0)
        points.append(start)
    return points


@op(batch=LOOP, methods="tensor_split")
def tensor_split(
    input: Tensor,  # noqa: A002
    indices_or_sections=None,
    dim: int = 0,
    *,
    sections=None,
    indices=None,
    tensor_indices_or_sections=None,
) -> tuple:
    """Views of ``input`` along ``dim``: ``n`` nearly equal pieces (an int), or cut before each index (a list).

    With ``n`` sections of a dim of size ``s``, the first ``s % n`` pieces have ``s // n + 1``
    elements and the rest ``s // n``. Indices wrap when negative and clamp to the size, as slices do.
    The second argument may also be named as in PyTorch's overloads: ``sections=``, ``indices=``,
    ``tensor_indices_or_sections=``.
    """
    given = [v for v in (indices_or_sections, sections, indices, tensor_indices_or_sections) if v is not None]
    if len(given) != 1:
        raise TypeError(
            "tensor_split(): expected one of indices_or_sections, sections, indices or "
            f"tensor_indices_or_sections, got {len(given)}"
        )
    indices_or_sections = given[0]
    a = check_tensor(input, "tensor_split", "input")
    if a.array.ndim == 0:
        raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims")
    (axis,) = normalize_dims(dim, a.array.ndim)
    size = a.array.shape[axis]
    bounds = [0]
    for point in _split_points(indices_or_sections, size):
        point = max(point + size, 0) if point < 0 else min(point, size)
        bounds.append(point)
    bounds.append(size)
    pieces = (_slice_along(a, axis, lo, max(lo, hi), "tensor_split") for lo, hi in zip(bounds[:-1], bounds[1:]))
    return _several_views(tuple(pieces), "TensorSplit")


@op(batch=LOOP)
def meshgrid(*tensors, indexing: str | None = None) -> tuple:
    """Coordinate grids from 1-D tensors: each output has shape ``(len(t0), len(t1), ...)``.

    ``indexing="ij"`` (the default, with PyTorch's warning when not given) keeps that order;
    ``"xy"`` swaps the first two dims (Cartesian, as NumPy's default). 0-d tensors count as length 1.
    """
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    if indexing is None:
        warnings.warn(
            "torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument.",
            UserWarning,
            stacklevel=2,
        )
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}')
    if not tensors:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    tensors = tuple(check_tensor(t, "meshgrid", "tensors") for t in tensors)
    for t in tensors:
        if t.array.ndim > 1:
            raise RuntimeError(
                f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got a {t.array.ndim}D tensor"
            )
        if t.array.dtype != tensors[0].array.dtype:
            raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    vectors = [t.reshape(-1) for t in tensors]
    swap = indexing == "xy" and len(vectors) >= 2
    if swap:
        vectors[0], vectors[1] = vectors[1], vectors[0]
    shape = tuple(v.array.shape[0] for v in vectors)
    grids = []
    for i, v in enumerate(vectors):
        view = (1,) * i + (shape[i],) + (1,) * (len(shape) - i - 1)
        grids.append(v.reshape(view).expand(shape))
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)


bind_methods(Tensor, __name__)
