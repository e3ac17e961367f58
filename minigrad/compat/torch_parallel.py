"""``torch.nn.parallel``: DataParallel over no GPUs runs the module itself, as torch's does;
DistributedDataParallel can be imported and raises when made (there is no process group)."""

from __future__ import annotations

from ..nn.module import Module
from .errors import unavailable

__all__ = ["DataParallel", "DistributedDataParallel"]


class DataParallel(Module):
    """``module`` wrapped as torch's DataParallel wraps it without GPUs: ``forward`` calls it, and the
    state_dict's keys start with ``module.``."""

    def __init__(self, module: Module, device_ids=None, output_device=None, dim: int = 0):
        super().__init__()
        self.module = module
        self.device_ids = []
        self.dim = dim

    def forward(self, *inputs, **kwargs):
        return self.module(*inputs, **kwargs)


DistributedDataParallel = unavailable("torch.nn.parallel.DistributedDataParallel")

#: What ``torch.nn`` itself shows of this module.
NN = {"DataParallel": DataParallel}
