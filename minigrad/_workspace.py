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

The identity matrices whose rows ``jacrev`` and ``jacfwd`` pull back or push forward are kept the same way
(:func:`identity`, :func:`give_back_identity`): at n = 256 one is half a megabyte, freed with the Jacobian's
other temporaries and faulted in again at every call (W10b's ``jacrev``: 0.7-1.0 ms a Jacobian made fresh,
0.18 ms kept).
"""

from __future__ import annotations

import threading
import weakref
from math import prod

import numpy as np

__all__ = ["work_array", "leave", "left", "identity", "give_back_identity"]

#: The largest work array kept between calls; a larger one is made for the call and freed.
LIMIT = 1 << 24
#: The most identity matrices kept per thread (one per size and dtype; the oldest given back goes first).
IDENTITIES = 4


class _Kept(threading.local):
    def __init__(self):
        self.by_use: dict[str, np.ndarray] = {}
        self.left: dict[str, tuple] = {}  # use -> (weak reference to the owner, the array, a note): see leave()
        self.identities: dict[tuple, np.ndarray] = {}  # (n, dtype) -> an identity given back: see identity()


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


def identity(xp, n: int, dtype):
    """An ``n x n`` identity matrix: the one a call gave back (:func:`give_back_identity`) if it still holds the
    identity, else a new one. Until it is given back, no other call (nested, or in another thread) gets it."""
    dtype = np.dtype(dtype)
    if xp is np:
        kept = _kept.identities.pop((n, dtype), None)
        if kept is not None and _holds_identity(kept):
            return kept
    return xp.eye(n, dtype=dtype)


def give_back_identity(array, results) -> None:
    """Keep ``array`` (from :func:`identity`) for the next call in this thread, unless one of the arrays
    ``results`` may share its memory (the Jacobian of the identity function is the matrix itself, reshaped)."""
    if type(array) is not np.ndarray or array.nbytes > LIMIT:
        return
    if any(np.may_share_memory(array, r) for r in results):
        return
    kept = _kept.identities
    kept[(array.shape[0], array.dtype)] = array
    if len(kept) > IDENTITIES:
        del kept[next(iter(kept))]


def _holds_identity(a: np.ndarray) -> bool:
    """Whether ``a`` still holds the identity (a function may have written into the rows it was given): ``n``
    values with any bit set (counted on the bits: a pass over integers, a quarter of a float comparison's
    time), all of them 1 on the diagonal."""
    word = np.uint64 if a.dtype.itemsize % 8 == 0 else np.dtype(f"u{a.dtype.itemsize}").type
    return np.count_nonzero(a.reshape(-1).view(word)) == a.shape[0] and bool((a.diagonal() == 1).all())
