"""``torch.special``: the functions minigrad has under their special names."""

from __future__ import annotations

from .. import ops
from ..nn import functional as F

__all__ = [
    "digamma",
    "erf",
    "erfc",
    "erfinv",
    "exp2",
    "expit",
    "expm1",
    "gammaln",
    "log1p",
    "log_softmax",
    "logit",
    "logsumexp",
    "polygamma",
    "psi",
    "round",
    "sinc",
    "softmax",
    "xlogy",
]

digamma = psi = ops.digamma
erf = ops.erf
erfc = ops.erfc
erfinv = ops.erfinv
exp2 = ops.exp2
gammaln = ops.lgamma
logit = ops.logit
polygamma = ops.polygamma
round = ops.round  # noqa: A001  (torch.special.round)
sinc = ops.sinc
xlogy = ops.xlogy
expit = ops.sigmoid
expm1 = ops.expm1
log1p = ops.log1p
logsumexp = ops.logsumexp
softmax = F.softmax
log_softmax = F.log_softmax
