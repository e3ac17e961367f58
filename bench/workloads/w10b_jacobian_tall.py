"""W10b: a tall Jacobian (4 inputs -> 256 outputs), forward vs reverse mode (see w10_transforms)."""

from __future__ import annotations

from . import w10_transforms as w10
from .w10_transforms import PEERS, RATIOS, UNIT, build, per_unit  # noqa: F401

NAME = "W10b"
TITLE = "Jacobian of tanh(W x), 4 -> 256 (tall): jacfwd vs jacrev vs torch.func, float64"
SUBJECT = "minigrad-jacfwd"


def params(quick: bool) -> dict:
    return w10.params(quick, n_out=256, n_in=4)
