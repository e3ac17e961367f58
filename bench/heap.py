"""The heap a peer runs in: glibc's dynamic allocation thresholds, which ``import minigrad`` raises.

glibc hands a freed block above its mmap threshold back to the system at once, and trims the heap's
top past its trim threshold; both thresholds rise with the largest block a process has freed (up
to 32 MB and 64 MB). A process that never freed a large block pays page faults on every array
above 128 kB it makes, at each step of a training loop. ``import minigrad`` frees one untouched
block of that size (``minigrad._workspace.raise_heap_thresholds``); PyTorch's import does not,
and in W12, W13 and W17 its peer pays 4 000-5 000 faults a step for it (8-12 ms of system time).

The hand-written NumPy floor always runs with the thresholds raised (a floor is the best a NumPy
program does, and minigrad is a NumPy program); ``--same-heap`` raises them for every peer, so a
comparison with PyTorch can leave the allocator out.
"""

from __future__ import annotations

SAME_HEAP_VAR = "BENCH_SAME_HEAP"  # set to 1 in a worker's environment: raise its heap thresholds
FLOOR_PEERS = ("numpy",)
BLOCK = (32 << 20) - (1 << 16)  # minigrad._workspace.HEAP_THRESHOLD_BLOCK (a test keeps the two equal)


def raises_thresholds(peer: str, env) -> bool:
    """Whether the worker of ``peer`` raises its heap thresholds before building (``env``: its environment)."""
    return peer in FLOOR_PEERS or env.get(SAME_HEAP_VAR) == "1"


def raise_thresholds() -> None:
    """Free one untouched block of :data:`BLOCK` bytes, as ``import minigrad`` does."""
    import numpy as np

    np.empty(BLOCK, np.uint8)
