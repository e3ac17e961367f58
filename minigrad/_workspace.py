"""Work arrays kept between calls, one per use and thread: scratch memory of the convolution products, the tiled
max pool and any op whose temporaries live only during its call.

A product's scratch arrays (window copies, shares, padded copies) are a few MB each and live only during
the call. Made fresh, each is memory that glibc has handed back to the OS at the previous call's end, so
every step pays a page fault per 4 kB (W17: about 2 000 a step, ~5 ms of system time). Kept, they are
touched once. Only NumPy's arrays are kept (CuPy has its own pool), and only up to :data:`LIMIT` bytes
each: what stays allocated is at most that per use (the convolutions' and the pool's, after W13 and W17:
20 MB).
"""

from __future__ import annotations

import threading
from math import prod

import numpy as np

__all__ = ["work_array"]

#: The largest work array kept between calls; a larger one is made for the call and freed.
LIMIT = 1 << 24


class _Kept(threading.local):
    def __init__(self):
        self.by_use: dict[str, np.ndarray] = {}


_kept = _Kept()


def work_array(xp, use: str, shape: tuple, dtype):
    """An uninitialised array of ``shape`` for scratch work during one call, its memory kept under ``use``.

    The caller must not return it (or a view of it): the next call with the same ``use`` overwrites it."""
    dtype = np.dtype(dtype)
    nbytes = prod(shape) * dtype.itemsize
    if xp is not np or nbytes > LIMIT:
        return xp.empty(shape, dtype=dtype)
    kept = _kept.by_use.get(use)
    if kept is None or kept.size < nbytes:
        kept = _kept.by_use[use] = np.empty(nbytes, dtype=np.uint8)
    return kept[:nbytes].view(dtype).reshape(shape)
