"""W10a: a wide Jacobian (256 inputs -> 4 outputs), forward vs reverse mode (see w10_transforms)."""

from __future__ import annotations

from . import w10_transforms as w10
from .w10_transforms import PEERS, RATIOS, UNIT, build, per_unit  # noqa: F401

NAME = "W10a"
TITLE = "Jacobian of tanh(W x), 256 -> 4 (wide): jacfwd vs jacrev vs torch.func, float64"
SUBJECT = "minigrad-jacrev"


def params(quick: bool) -> dict:
    return w10.params(quick, n_out=4, n_in=256)
