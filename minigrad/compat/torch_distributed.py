"""``torch.distributed`` without a process group: ``is_available()`` is False, and the functions a
script imports for its multi-process path can be imported but raise when called."""

from __future__ import annotations

from .errors import unavailable

__all__ = [
    "all_reduce",
    "barrier",
    "destroy_process_group",
    "get_rank",
    "get_world_size",
    "init_process_group",
    "is_available",
    "is_initialized",
]


def is_available() -> bool:
    return False


def is_initialized() -> bool:
    return False


all_reduce = unavailable("torch.distributed.all_reduce")
barrier = unavailable("torch.distributed.barrier")
destroy_process_group = unavailable("torch.distributed.destroy_process_group")
get_rank = unavailable("torch.distributed.get_rank")
get_world_size = unavailable("torch.distributed.get_world_size")
init_process_group = unavailable("torch.distributed.init_process_group")
