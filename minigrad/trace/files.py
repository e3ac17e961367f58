"""Trace files: JSON Lines, compact, gzip-compressed when the name ends ``.gz``, read as untrusted input.

Version 3 (written now): every line is one checked record,
``{"crc":"1a2b3c4d","header":{...}}`` first, then ``{"crc":"…","event":{...}}`` per event,
where ``crc`` is the CRC-32 (:func:`zlib.crc32`, 8 hex digits) of the bytes of the JSON
after ``"header":`` / ``"event":``, exactly as written. The header is ``{"format":
"minigrad-trace", "version": 3, "meta": {...}, "events": N}`` and, when the recording's
memory budget dropped its oldest passes, ``"dropped": {...}`` saying which. Values are
base64 of their little-endian bytes. A record changed after it was written (a flipped bit,
an edit by hand) fails its checksum, so a damaged file is refused instead of loading altered
values. Versions 1 (values as nested lists) and 2 (base64) had no checksums: they are still
read, unchecked.

Reading checks everything (:mod:`~minigrad.trace.schema`) and bounds the memory while
reading, not after: only a regular file is opened, no more than ``max_bytes`` bytes are
read (decompressed), no line may be longer than :func:`line_limit` (a thirty-second of it:
parsing a line's JSON takes up to about 25 times its length, for a line of empty lists),
and the loaded events may not take more than ``max_bytes`` bytes, so loading holds at
most about twice ``max_bytes``. Every problem is one :class:`TraceFormatError` naming the
file and line.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import re
import zlib

from ..safeio import DEFAULT_MAX_BYTES, UnsafeFileError, open_regular
from . import events as E
from .budget import EVENT_BYTES, map_snapshots, snapshot_bytes
from .schema import Decoder, SchemaError

__all__ = [
    "TraceFormatError",
    "SCHEMA_VERSION",
    "READABLE_VERSIONS",
    "FORMAT_NAME",
    "write_trace",
    "read_trace",
    "checked_record",
    "line_limit",
]

SCHEMA_VERSION = 3
READABLE_VERSIONS = (1, 2, 3)
UNCHECKED_VERSIONS = (1, 2)  # written before records carried checksums
FORMAT_NAME = "minigrad-trace"
_CHUNK = 1 << 16
_RECORD = re.compile(rb'\{"crc":"([0-9a-f]{8})","(header|event)":(.*)\}', re.DOTALL)


class TraceFormatError(UnsafeFileError):
    """A trace file is not a minigrad trace, has another schema version, is damaged (a checksum or a
    field does not match), is not a regular file, or is larger than allowed. An
    :class:`~minigrad.safeio.UnsafeFileError`, so a ValueError."""


def line_limit(max_bytes: int) -> int:
    """The longest line a trace file read with ``max_bytes`` may have: a thirty-second of it, at least 1 MiB
    (a line's JSON may take several times its length while it is parsed)."""
    return min(max_bytes, max(1 << 20, max_bytes // 32))


def checked_record(key: str, value) -> bytes:
    """One line of a version 3 file: ``value`` as compact JSON under ``key`` ("header" or "event"),
    with the CRC-32 of that JSON's bytes."""
    body = json.dumps(value, separators=(",", ":"), default=str).encode("utf-8")
    return b'{"crc":"%08x","%s":%s}\n' % (zlib.crc32(body), key.encode("ascii"), body)


def _open_write(path):
    if os.fspath(path).endswith(".gz"):
        return gzip.open(path, "wb", compresslevel=6)
    return open(path, "wb")


def write_trace(trace, path) -> None:
    """Write ``trace`` to ``path`` (gzip-compressed when it ends ``.gz``), each record with its checksum."""
    header = {"format": FORMAT_NAME, "version": SCHEMA_VERSION, "meta": trace.meta, "events": len(trace.events)}
    if trace.summarised_before is not None:  # the recording's memory budget reduced these events
        header["reduced"] = {
            "summarised_before": trace.summarised_before,
            "outlined_before": trace.outlined_before,
            "message": trace.budget_message,
        }
    if trace.dropped is not None:
        header["dropped"] = trace.dropped.to_json()
    with _open_write(path) as fh:
        fh.write(checked_record("header", header))
        for ev in list(trace.events):
            fh.write(checked_record("event", E.event_to_json(ev)))


class _Lines:
    """The file's lines, read in chunks: never more than ``max_bytes`` in all (decompressed), nor a line
    longer than :func:`line_limit`, is held."""

    def __init__(self, fh, path, max_bytes: int):
        self.fh, self.path, self.max_bytes = fh, path, max_bytes
        self.max_line = line_limit(max_bytes)
        self.read = 0
        self.lineno = 0
        self._ready: list = []  # complete lines not yet returned, last first
        self._partial: list = []  # the start of the next line
        self._partial_len = 0
        self._ended = False

    def error(self, what: str) -> TraceFormatError:
        return TraceFormatError(f"{os.fspath(self.path)}: line {max(self.lineno, 1)}: {what}")

    def _chunk(self) -> bytes:
        try:
            chunk = self.fh.read(_CHUNK)
        except (OSError, EOFError, zlib.error) as exc:  # a damaged or cut gzip stream
            self.lineno += 1
            raise self.error(f"cannot read the file ({type(exc).__name__}: {exc})") from None
        self.read += len(chunk)
        if self.read > self.max_bytes:
            self.lineno += 1
            raise self.error(
                f"the trace is larger than the limit of {self.max_bytes} bytes "
                "(max_bytes; pass a larger one if you trust the file)"
            )
        return chunk

    def _too_long(self) -> TraceFormatError:
        self.lineno += 1
        return self.error(
            f"the line is longer than the limit of {self.max_line} bytes "
            f"(a thirty-second of max_bytes={self.max_bytes}; pass a larger one if you trust the file)"
        )

    def next(self) -> tuple[bytes, bool] | None:
        """The next line without its newline, and whether a newline ended it; None at the end."""
        while not self._ready:
            if self._ended:
                return None
            chunk = self._chunk()
            if not chunk:
                self._ended = True
                if not self._partial:
                    return None
                line = b"".join(self._partial)
                self._partial, self._partial_len = [], 0
                self.lineno += 1
                return line, False
            *complete, rest = chunk.split(b"\n")
            if complete:
                complete[0] = b"".join([*self._partial, complete[0]])
                if len(complete[0]) > self.max_line:
                    raise self._too_long()
                self._partial, self._partial_len = [], 0
                self._ready = complete[::-1]
            if rest:
                self._partial.append(rest)
                self._partial_len += len(rest)
                if self._partial_len > self.max_line and not self._ready:
                    raise self._too_long()
        line = self._ready.pop()
        if len(line) > self.max_line:
            raise self._too_long()
        self.lineno += 1
        return line, True


def _json(raw: bytes):
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        return ValueError(f"not UTF-8 text ({exc.reason})")
    except (ValueError, RecursionError) as exc:
        return exc


def _checked(lines: _Lines, line: bytes, ended: bool, key: str):
    """The JSON value of a version 3 record after its checksum was verified."""
    match = _RECORD.fullmatch(line)
    if match is None or match.group(2).decode() != key:
        what = "truncated line" if not ended else f"not a checked {key} record"
        raise lines.error(f'damaged {key} ({what}: expected {{"crc":"…","{key}":…}})')
    body = match.group(3)
    if zlib.crc32(body) != int(match.group(1), 16):
        raise lines.error(f"damaged {key} (its checksum does not match: the record was changed or damaged)")
    value = _json(body)
    if isinstance(value, Exception):
        raise lines.error(f"damaged {key} (not JSON: {getattr(value, 'msg', value)})")
    return value


def _header(lines: _Lines) -> tuple[dict, bool]:
    """The header, and whether the file's records carry checksums."""
    first = lines.next()
    raw, ended = first if first is not None else (b"", False)
    checked = raw.startswith(b'{"crc":')
    if checked:
        header = _checked(lines, raw, ended, "header")
    else:
        header = _json(raw)
        if isinstance(header, Exception):
            raise lines.error(f"not a minigrad trace header ({getattr(header, 'msg', header)})")
    if not isinstance(header, dict) or header.get("format") != FORMAT_NAME:
        raise lines.error(f"not a minigrad trace (no '{FORMAT_NAME}' header)")
    version = header.get("version")
    if version not in READABLE_VERSIONS:
        raise lines.error(
            f"trace schema version {version!r} is not supported "
            f"(this minigrad reads versions {', '.join(map(str, READABLE_VERSIONS))})"
        )
    if checked != (version not in UNCHECKED_VERSIONS):
        raise lines.error(
            f"a version {version} header {'with' if checked else 'without'} a checksum "
            f"(version {SCHEMA_VERSION} records carry checksums, versions 1 and 2 do not)"
        )
    if not isinstance(header.get("meta", {}), dict):
        raise lines.error("the header's 'meta' is not an object")
    count = header.get("events")
    if count is not None and (type(count) is not int or count < 0):
        raise lines.error("the header's 'events' is not a count")
    reduced = header.get("reduced", {})
    if not isinstance(reduced, dict) or any(
        not (k == "message" and (v is None or type(v) is str))
        and not (k in ("summarised_before", "outlined_before") and (v is None or (type(v) is int and v >= 0)))
        for k, v in reduced.items()
    ):
        raise lines.error(
            "the header's 'reduced' is not {'summarised_before': N, 'outlined_before': N, 'message': text}"
        )
    return header, checked


def _held(ev) -> int:
    """What a loaded event holds, counting each of its snapshots."""
    total = EVENT_BYTES

    def count(snap):
        nonlocal total
        total += snapshot_bytes(snap)
        return snap

    map_snapshots(ev, count)
    return total


def read_trace(cls, path, max_bytes: int = DEFAULT_MAX_BYTES):
    """Read a trace file into a new ``cls`` (a :class:`~minigrad.trace.trace.Trace`)."""
    from .trace import Dropped

    try:
        raw = open_regular(path, max_bytes)
    except UnsafeFileError as exc:
        raise TraceFormatError(str(exc)) from None
    gz = os.fspath(path).endswith(".gz")
    with raw, gzip.GzipFile(fileobj=raw, mode="rb") if gz else contextlib.nullcontext(raw) as fh:
        lines = _Lines(fh, path, max_bytes)
        header, checked = _header(lines)
        trace = cls(meta=header.get("meta") or {})
        reduced = header.get("reduced", {})
        trace.summarised_before = reduced.get("summarised_before")
        trace.outlined_before = reduced.get("outlined_before")
        trace.budget_message = reduced.get("message")
        if "dropped" in header:
            try:
                trace.dropped = Dropped.from_json(header["dropped"])
            except (TypeError, ValueError) as exc:
                raise lines.error(f"the header's 'dropped' is malformed ({exc})") from None
        decoder = Decoder()
        held = 0
        while (line := lines.next()) is not None:
            raw, ended = line
            if not raw.strip():
                continue
            if checked:
                d = _checked(lines, raw, ended, "event")
            else:
                d = _json(raw)
                if isinstance(d, Exception):
                    what = "truncated line" if not ended else "not JSON"
                    raise lines.error(f"damaged event ({what}: {getattr(d, 'msg', d)})")
            try:
                ev = decoder.event(d)
                trace.append(ev)
            except (SchemaError, ValueError) as exc:
                raise lines.error(f"damaged event ({exc})") from None
            held += _held(ev)
            if held > max_bytes:
                raise lines.error(
                    f"the events read so far would take more than the limit of {max_bytes} bytes once loaded "
                    "(max_bytes; pass a larger one if you trust the file)"
                )
    expected = header.get("events")
    if expected is not None and expected != len(trace.events):
        raise TraceFormatError(
            f"{os.fspath(path)}: line {lines.lineno + 1}: file ends after {len(trace.events)} events, "
            f"the header announced {expected} (truncated?)"
        )
    return trace
