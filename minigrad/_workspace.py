"""Work arrays kept between calls, one per use and thread: scratch memory of the convolution products, the tiled
max pool and any op whose temporaries live only during its call.

A product's scratch arrays (window copies, shares, padded copies) are a few MB each and live only during
the call. Made fresh, each is memory that glibc has handed back to the OS at the previous call's end, so
every step pays a page fault per 4 kB (W17: about 2 000 a step, ~5 ms of system time). Kept, they are
touched once. Only NumPy's arrays are kept (CuPy has its own pool), and only up to :data:`LIMIT` bytes
each: what stays allocated is at most that per use (the convolutions' and the pool's, after W13 and W17:
20 MB).

A call may leave its work array's values for one later reader (its backward, say) with :func:`leave`; :func:`left`
gives them back until the next call of that use takes the array.

Past these, glibc decides: a freed array larger than its trim threshold at the top of its heap goes back to the
OS, and the next array as large is faulted in again. The threshold follows the largest block the process has
freed (twice it, up to 64 MB); a program that loaded data has freed large blocks, a fresh one has not. PyTorch's
programs rarely pay it (each tensor's small C++ objects, allocated between its arrays, keep the heap's top in use);
NumPy's do. :func:`raise_heap_thresholds`, called once at import, frees one 32 MB block (mapped and unmapped,
no page of it touched), as such a program has: glibc then keeps up to 64 MB of freed heap for the next arrays
(``vmap(hessian(f))`` over 32 examples: 12 500 page faults a call, 31 ms of system time, -> none). A program
that sets glibc's thresholds itself (``mallopt``, ``MALLOC_TRIM_THRESHOLD_``) keeps its own.
"""

from __future__ import annotations

import threading
import weakref
from math import prod

import numpy as np

__all__ = ["work_array", "leave", "left", "raise_heap_thresholds"]

#: The largest work array kept between calls; a larger one is made for the call and freed.
LIMIT = 1 << 24
#: The block :func:`raise_heap_thresholds` frees: glibc's largest dynamic threshold (32 MB on 64-bit systems), less
#: a margin for its chunk header and page rounding.
HEAP_THRESHOLD_BLOCK = (32 << 20) - (1 << 16)


class _Kept(threading.local):
    def __init__(self):
        self.by_use: dict[str, np.ndarray] = {}
        self.left: dict[str, tuple] = {}  # use -> (weak reference to the owner, the array, a note): see leave()


_kept = _Kept()


def work_array(xp, use: str, shape: tuple, dtype):
    """An uninitialised array of ``shape`` for scratch work during one call, its memory kept under ``use``.

    The caller must not return it (or a view of it): the next call with the same ``use`` overwrites it."""
    dtype = np.dtype(dtype)
    nbytes = prod(shape) * dtype.itemsize
    if xp is not np or nbytes > LIMIT:
        return xp.empty(shape, dtype=dtype)
    _kept.left.pop(use, None)
    kept = _kept.by_use.get(use)
    if kept is None or kept.size < nbytes:
        kept = _kept.by_use[use] = np.empty(nbytes, dtype=np.uint8)
    return kept[:nbytes].view(dtype).reshape(shape)


def leave(use: str, array, owner, note=None) -> None:
    """Leave the values in ``array`` (from ``work_array(xp, use, ...)``) for a later reader: :func:`left` gives
    ``array`` and ``note`` back to whoever asks with ``owner`` (an object only that call made, held weakly),
    until the next ``work_array`` of ``use`` in this thread. An array made for its call only is not kept."""
    if _kept.by_use.get(use) is not None and array.base is _kept.by_use[use]:
        _kept.left[use] = (weakref.ref(owner), array, note)


def left(use: str, owner):
    """``(array, note)`` as :func:`leave` left them with ``owner``, or None when another call of ``use`` has had
    the array since (or it was not kept, or this is another thread). The array is to be read, not written."""
    found = _kept.left.get(use)
    if found is None or found[0]() is not owner:
        return None
    return found[1], found[2]


def raise_heap_thresholds() -> None:
    """Free one block of :data:`HEAP_THRESHOLD_BLOCK` bytes, never touched, as a program that loaded data has freed
    one: glibc's dynamic thresholds follow it (arrays up to that size from the heap, twice it kept free there
    before any goes back to the OS). Elsewhere than glibc, or after ``mallopt``, a malloc and a free."""
    np.empty(HEAP_THRESHOLD_BLOCK, np.uint8)
