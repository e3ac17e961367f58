"""``torch.special``: the functions minigrad has under their special names."""

from __future__ import annotations

from .. import ops
from ..nn import functional as F

__all__ = ["erf", "expit", "expm1", "log1p", "log_softmax", "logsumexp", "softmax"]

erf = ops.erf
expit = ops.sigmoid
expm1 = ops.expm1
log1p = ops.log1p
logsumexp = ops.logsumexp
softmax = F.softmax
log_softmax = F.log_softmax
