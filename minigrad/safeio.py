"""Loading files someone else may have made: no code runs, and memory stays bounded while reading.

Every loader of minigrad data goes through here: :class:`NpzReader` (and
:func:`load_npz`) for ``.npz`` archives (``minigrad.load``, ``nn.Module.load``) and
:func:`open_regular` for trace files. What they promise:

- only regular files are opened: a FIFO, a device such as ``/dev/zero``, a socket or a
  directory is refused (opening does not wait for a FIFO's writer);
- nothing is read past a size cap, checked *while* reading (a file on disk larger than
  the cap is refused before reading; so is an archive whose directory would take more
  than :func:`directory_limit` once parsed; an archive's arrays are sized from their
  headers before any array is read, so a small archive that would expand to gigabytes
  is refused with a message naming the limit);
- no pickle: each ``.npy`` member must hold a numeric dtype (an object array would need
  pickle code to load);
- every way a file can be damaged (a bad zip, a cut or bit-flipped member, an encrypted
  or unknown compression, an impossible header) raises one error class,
  :class:`UnsafeFileError`, a ValueError naming the file and what is wrong.
"""

from __future__ import annotations

import contextlib
import io
import math
import os
import stat
import struct
import zipfile
import zlib

import numpy as np

__all__ = [
    "DEFAULT_MAX_BYTES",
    "UnsafeFileError",
    "NpzReader",
    "load_npz",
    "open_regular",
    "check_size",
    "directory_limit",
    "format_bytes",
]

DEFAULT_MAX_BYTES = 1 << 30  # 1 GiB: more than any course model or trace, less than a bomb
_NUMERIC_KINDS = "biufc"
_MAX_HEADER_BYTES = 1 << 16  # a .npy header is a short dict literal; numpy's own limit is 10 000 characters
_CHUNK = 1 << 20  # arrays are read in chunks of this many bytes, straight into their buffer
_ZIP_SLACK = 1 << 20  # an archive's headers and directory, on top of its arrays' bytes

# What the standard library raises on a damaged archive or stream: each becomes an UnsafeFileError.
_DAMAGE = (
    zipfile.BadZipFile,
    zipfile.LargeZipFile,
    NotImplementedError,  # an unknown compression method
    RuntimeError,  # "File ... is encrypted", RecursionError
    OSError,  # a seek before the start (EINVAL), a read error
    EOFError,
    zlib.error,
    struct.error,
    UnicodeDecodeError,
    KeyError,
    ValueError,
    OverflowError,
    MemoryError,
    SyntaxError,
)


class UnsafeFileError(ValueError):
    """A file cannot be loaded safely: it is damaged, is not the kind of file expected, is not a
    regular file, would need code execution (pickle), or would take more memory than allowed.

    The message names the file and what is wrong with it.
    """


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


def label(path) -> str:
    """A path as error messages name it; a file object is "the file"."""
    return os.fspath(path) if isinstance(path, (str, os.PathLike)) else "the file"


def open_regular(path, max_bytes: int):
    """Open ``path`` for binary reading, refusing what is not a regular file or is larger than
    ``max_bytes`` on disk (:class:`UnsafeFileError`; a missing file stays FileNotFoundError)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UnsafeFileError(
                f"{label(path)}: not a regular file (a device, FIFO, socket or directory): refused, "
                "since reading it might never end"
            )
        if info.st_size > max_bytes:
            raise UnsafeFileError(
                f"{label(path)}: the file is {format_bytes(info.st_size)}, over the limit of "
                f"{format_bytes(max_bytes)} (max_bytes={max_bytes}; pass a larger max_bytes if you trust the file)"
            )
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


@contextlib.contextmanager
def reading(where: str):
    """Turn whatever a damaged file makes the standard library raise into :class:`UnsafeFileError`."""
    try:
        yield
    except UnsafeFileError:
        raise
    except _DAMAGE as exc:
        raise UnsafeFileError(f"{where}: damaged file ({type(exc).__name__}: {exc})") from None


def _read_exactly(fp, n: int, what: str) -> bytes:
    data = fp.read(n)
    if len(data) != n:
        raise UnsafeFileError(f"{what} ends after {len(data)} of its {n} bytes (truncated)")
    return data


def _read_header(fp, where: str):
    """The (shape, fortran, dtype) of a .npy stream, reading at most a short header's bytes."""
    magic = _read_exactly(fp, 8, f"{where}'s .npy header")
    if magic[:6] != b"\x93NUMPY":
        raise UnsafeFileError(f"{where} is not a .npy array (no .npy magic)")
    version = (magic[6], magic[7])
    if version == (1, 0):
        size_field = _read_exactly(fp, 2, f"{where}'s .npy header")
        length = struct.unpack("<H", size_field)[0]
    elif version in ((2, 0), (3, 0)):
        size_field = _read_exactly(fp, 4, f"{where}'s .npy header")
        length = struct.unpack("<I", size_field)[0]
    else:
        raise UnsafeFileError(f"{where} is a .npy array of unknown version {version}")
    if length > _MAX_HEADER_BYTES:
        raise UnsafeFileError(f"{where}'s .npy header claims {length} bytes, more than a header needs")
    raw = io.BytesIO(magic + size_field + _read_exactly(fp, length, f"{where}'s .npy header"))
    np.lib.format.read_magic(raw)
    read = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
    try:
        shape, fortran, dtype = read(raw)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError, UnicodeDecodeError) as exc:
        raise UnsafeFileError(f"{where} is not a valid .npy array ({type(exc).__name__}: {exc})") from None
    if any(d < 0 for d in shape):
        raise UnsafeFileError(f"{where} claims a negative size in its shape {shape}")
    if dtype.hasobject or dtype.kind not in _NUMERIC_KINDS or dtype.fields is not None:
        raise UnsafeFileError(
            f"{where} holds dtype {dtype}, which is not a numeric dtype (object arrays would run pickle code: refused)"
        )
    return shape, fortran, dtype


def directory_limit(max_bytes: int) -> int:
    """The most bytes an archive's central directory may take: a sixty-fourth of ``max_bytes``, at
    least 1 MiB (zipfile keeps a record of several times an entry's 46 bytes for each)."""
    return max(1 << 20, max_bytes // 64)


def _directory_size(fp, where: str) -> int:
    """The central directory's size, as the end of a zip archive declares it (0 when it declares none:
    zipfile then says what is wrong)."""
    fp.seek(0, os.SEEK_END)
    size = fp.tell()
    tail_start = max(0, size - (22 + 0xFFFF + 20))  # the end record, its comment, a zip64 locator
    fp.seek(tail_start)
    tail = fp.read(size - tail_start)
    at = tail.rfind(b"PK\x05\x06")
    if at < 0 or len(tail) < at + 22:
        return 0
    entries, directory = struct.unpack("<HI", tail[at + 10 : at + 16])
    if (entries == 0xFFFF or directory == 0xFFFFFFFF) and at >= 20 and tail[at - 20 : at - 16] == b"PK\x06\x07":
        (record,) = struct.unpack("<Q", tail[at - 12 : at - 4])  # where the zip64 end record lies
        if record + 56 > size:
            raise UnsafeFileError(f"{where}: damaged file (its zip64 end record lies past the end)")
        fp.seek(record)
        zip64 = fp.read(56)
        if zip64[:4] != b"PK\x06\x06":
            raise UnsafeFileError(f"{where}: damaged file (no zip64 end record where its locator says)")
        (directory,) = struct.unpack("<Q", zip64[40:48])
    return directory


class NpzReader:
    """An open ``.npz`` archive whose members' headers are read and checked, and whose arrays are
    read only when asked (:meth:`array`). A path or a seekable binary file object.

    Opening reads every member's ``.npy`` header (numeric dtype, shape) and refuses the archive
    when its arrays together would take more than ``max_bytes`` bytes, before any array is read.
    ``headers`` maps each array's name (without ``.npy``) to its (shape, dtype). Every problem is
    an :class:`UnsafeFileError` naming the file. Use it as a context manager.
    """

    def __init__(self, path, max_bytes: int = DEFAULT_MAX_BYTES):
        self.where = label(path)
        self._own = None
        if isinstance(path, (str, os.PathLike)):
            self._own = path = open_regular(path, max_bytes + _ZIP_SLACK)
        try:
            with reading(self.where):
                directory = _directory_size(path, self.where)
                if directory > directory_limit(max_bytes):
                    raise UnsafeFileError(
                        f"{self.where}: the archive's directory takes {format_bytes(directory)}, over the limit of "
                        f"{format_bytes(directory_limit(max_bytes))} (a sixty-fourth of max_bytes={max_bytes}: "
                        "each entry costs several times its size once read; pass a larger max_bytes if you trust "
                        "the file)"
                    )
                path.seek(0)
                self._archive = zipfile.ZipFile(path)
                self._members = {}
                self.headers = {}
                total = 0
                for m in self._archive.infolist():
                    if m.is_dir():
                        continue
                    if not m.filename.endswith(".npy"):
                        raise UnsafeFileError(f"{self.where}: {m.filename!r} is not a .npy member")
                    name = m.filename[: -len(".npy")]
                    if name in self._members:
                        raise UnsafeFileError(f"{self.where}: the archive holds {m.filename!r} twice")
                    with self._archive.open(m) as fp:
                        shape, fortran, dtype = _read_header(fp, f"{self.where}: {m.filename!r}")
                    total += math.prod(shape) * dtype.itemsize
                    check_size(total, max_bytes, f"{self.where} (up to {m.filename!r})")
                    self._members[name] = (m, shape, fortran, dtype)
                    self.headers[name] = (tuple(shape), dtype)
        except BaseException:
            self.close()
            raise

    def array(self, name: str) -> np.ndarray:
        """The array ``name``, read in chunks straight into its own buffer (its CRC checked)."""
        m, shape, fortran, dtype = self._members[name]
        what = f"{self.where}: {m.filename!r}"
        out = np.empty(math.prod(shape) * dtype.itemsize, dtype=np.uint8)
        with reading(self.where), self._archive.open(m) as fp:
            _read_header(fp, what)
            view = memoryview(out)
            filled = 0
            while filled < len(out):
                chunk = fp.read(min(_CHUNK, len(out) - filled))
                if not chunk:
                    raise UnsafeFileError(f"{what} ends after {filled} of its {len(out)} bytes (truncated)")
                view[filled : filled + len(chunk)] = chunk
                filled += len(chunk)
            if fp.read(1):  # also reaches the end, where zipfile checks the member's CRC
                raise UnsafeFileError(f"{what} holds more bytes than its shape {shape} needs")
        arr = out.view(dtype)
        return arr.reshape(shape[::-1]).T if fortran else arr.reshape(shape)

    def arrays(self) -> dict:
        """Every array, as ``{name: ndarray}``."""
        return {name: self.array(name) for name in self._members}

    def close(self) -> None:
        archive = getattr(self, "_archive", None)
        if archive is not None:
            archive.close()
        if self._own is not None:
            self._own.close()

    def __enter__(self) -> NpzReader:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def load_npz(path, max_bytes: int = DEFAULT_MAX_BYTES) -> dict:
    """The arrays of a ``.npz`` file (a path or a binary file object) as ``{name: ndarray}``, without pickle.

    Raises :class:`UnsafeFileError` (a ValueError) for object arrays, non-numeric dtypes,
    arrays that together would take more than ``max_bytes`` bytes, a file that is not
    regular, and any damage.
    """
    with NpzReader(path, max_bytes) as npz:
        return npz.arrays()
