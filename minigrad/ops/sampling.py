"""Sampling category indices: multinomial, drawn from minigrad's generator (``manual_seed``)."""

from __future__ import annotations

from .. import backend as B
from ..creation import generator_for
from ..tensor import Tensor, make_leaf
from ._util import check_tensor
from .declare import LOOP, bind_methods, op

__all__ = ["multinomial"]


_TORCH_NAMES = {"int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool"}


def _check(xp, w, num_samples: int, replacement: bool) -> None:
    """PyTorch's checks, in PyTorch's order."""
    if w.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if w.dtype.kind != "f":
        name = _TORCH_NAMES.get(w.dtype.name, w.dtype.name)
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: {name}")
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    if not replacement and num_samples > w.shape[-1]:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    if w.shape[-1] == 0:
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    if not bool(xp.isfinite(w).all()) or bool((w < 0).any()):
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    if bool((w.sum(axis=-1) <= 0).any()):
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")


@op(batch=LOOP, methods="multinomial")
def multinomial(input: Tensor, num_samples: int, replacement: bool = False, generator=None) -> Tensor:  # noqa: A002
    """``num_samples`` category indices per row of ``input`` (1-D or 2-D non-negative weights).

    Weights need not sum to one. Without ``replacement`` each row's categories are drawn at
    most once, in order of drawing (the exponential race: the smallest ``E_i / w_i`` first,
    with ``E_i`` standard exponential, which draws without replacement in proportion to the
    weights). Follows ``minigrad.manual_seed`` (or draws from ``generator``); returns int64, not differentiable.
    """
    a = check_tensor(input, "multinomial", "input")
    xp = a.device.xp
    w = a.array
    _check(xp, w, num_samples, replacement)
    rows = w.reshape(-1, w.shape[-1]).astype(B.float64)
    n_rows, n_cat = rows.shape
    gen = generator_for(a.device, generator)
    if replacement:
        cdf = rows.cumsum(axis=-1)
        cdf = cdf / cdf[:, -1:]
        u = gen.random((n_rows, num_samples))
        # The first category whose cumulative weight exceeds u (weightless ones are never hit), by one
        # search over all rows at once: row r's values are shifted into [r, r + 1].
        shift = xp.arange(n_rows, dtype=B.float64)[:, None]
        flat = xp.searchsorted((cdf + shift).reshape(-1), (u + shift).reshape(-1), side="right")
        picks = xp.minimum(flat.reshape(n_rows, num_samples) - (shift * n_cat).astype(B.int64), n_cat - 1)
    else:
        race = gen.standard_exponential((n_rows, n_cat)) / xp.where(rows > 0, rows, 1.0)
        race = xp.where(rows > 0, race, xp.inf)  # a weightless category is drawn last
        picks = xp.argsort(race, axis=-1, kind="stable")[:, :num_samples]
    return make_leaf(picks.reshape(w.shape[:-1] + (num_samples,)).astype(B.int64), a.device)


bind_methods(Tensor, __name__)
