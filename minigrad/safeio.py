"""Loading files someone else may have made: no code runs, and sizes are checked before allocating.

Every loader of minigrad data goes through here: :func:`load_npz` for ``.npz``
archives (``nn.Module.load``) and :func:`check_size` for trace files. A ``.npz``
is opened as the zip file it is: each member's ``.npy`` header is read and
checked (a numeric dtype, never an object array, which would need pickle) and
the bytes its shape implies are added up *before* any array is read, so a small
archive that would expand to gigabytes is refused with a message naming the limit.
"""

from __future__ import annotations

import math
import os
import zipfile

import numpy as np

__all__ = ["DEFAULT_MAX_BYTES", "UnsafeFileError", "load_npz", "check_size", "format_bytes"]

DEFAULT_MAX_BYTES = 1 << 30  # 1 GiB: more than any course model or trace, less than a bomb
_NUMERIC_KINDS = "biufc"


class UnsafeFileError(ValueError):
    """A file would need code execution (pickle) or more memory than allowed to load."""


def format_bytes(n: int) -> str:
    """``n`` bytes in words: "2.2 GB", "350.0 kB", "12 bytes"."""
    for unit, size in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n} bytes"


def check_size(nbytes: int, max_bytes: int, what: str) -> None:
    """Raise :class:`UnsafeFileError` when ``what`` would take more than ``max_bytes`` bytes."""
    if nbytes > max_bytes:
        raise UnsafeFileError(
            f"{what} would take {format_bytes(nbytes)} once loaded, over the limit of {format_bytes(max_bytes)} "
            f"(max_bytes={max_bytes}; pass a larger max_bytes if you trust the file)"
        )


def _label(path) -> str:
    """A path as error messages name it; a file object is "the file"."""
    return os.fspath(path) if isinstance(path, (str, os.PathLike)) else "the file"


def _read_header(fp, name: str, path):
    try:
        version = np.lib.format.read_magic(fp)
        if version == (1, 0):
            shape, fortran, dtype = np.lib.format.read_array_header_1_0(fp)
        elif version in ((2, 0), (3, 0)):
            shape, fortran, dtype = np.lib.format.read_array_header_2_0(fp)
        else:
            raise ValueError(f"unknown .npy version {version}")
    except ValueError as exc:
        raise UnsafeFileError(f"{_label(path)}: {name!r} is not a valid .npy array ({exc})") from None
    if dtype.hasobject or dtype.kind not in _NUMERIC_KINDS or dtype.fields is not None:
        raise UnsafeFileError(
            f"{_label(path)}: {name!r} holds dtype {dtype}, which is not a numeric dtype "
            "(object arrays would run pickle code: refused)"
        )
    return shape, fortran, dtype


def load_npz(path, max_bytes: int = DEFAULT_MAX_BYTES) -> dict:
    """The arrays of a ``.npz`` file (a path or a binary file object) as ``{name: ndarray}``, without pickle.

    Raises :class:`UnsafeFileError` (a ValueError) for object arrays, non-numeric
    dtypes, or arrays that together would take more than ``max_bytes`` bytes.
    """
    try:
        archive = zipfile.ZipFile(path)
    except zipfile.BadZipFile as exc:
        raise UnsafeFileError(f"{_label(path)}: not a .npz archive ({exc})") from None
    with archive:
        members = [m for m in archive.infolist() if not m.is_dir()]
        headers = {}
        total = 0
        for m in members:
            if not m.filename.endswith(".npy"):
                raise UnsafeFileError(f"{_label(path)}: {m.filename!r} is not a .npy member")
            with archive.open(m) as fp:
                shape, fortran, dtype = _read_header(fp, m.filename, path)
            total += math.prod(shape) * dtype.itemsize
            check_size(total, max_bytes, f"{_label(path)} (up to {m.filename!r})")
            headers[m.filename] = (shape, fortran, dtype)
        out = {}
        for m in members:
            shape, fortran, dtype = headers[m.filename]
            with archive.open(m) as fp:
                _read_header(fp, m.filename, path)
                nbytes = math.prod(shape) * dtype.itemsize
                raw = fp.read(nbytes)
            if len(raw) != nbytes:
                raise UnsafeFileError(
                    f"{_label(path)}: {m.filename!r} ends after {len(raw)} of its {nbytes} bytes (truncated)"
                )
            arr = np.frombuffer(raw, dtype=dtype)
            arr = arr.reshape(shape[::-1]).T if fortran else arr.reshape(shape)
            out[m.filename[: -len(".npy")]] = np.array(arr, copy=True)
    return out
