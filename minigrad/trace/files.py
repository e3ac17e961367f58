"""Trace files: JSON Lines, compact, gzip-compressed when the name ends ``.gz``, read as untrusted input.

The first line is a header ``{"format": "minigrad-trace", "version": 2, "meta": {...},
"events": N}``; then one event per line (:func:`~minigrad.trace.events.event_to_json`).
Version 2 stores values as base64 of their little-endian bytes; version 1 files
(values as nested lists) are still read. Reading checks everything
(:mod:`~minigrad.trace.schema`) and bounds the memory: no line and no file may
expand beyond ``max_bytes``. Every problem is one :class:`TraceFormatError` naming
the file and line.
"""

from __future__ import annotations

import gzip
import json
import os
import zlib

from ..safeio import DEFAULT_MAX_BYTES
from . import events as E
from .schema import Decoder, SchemaError

__all__ = ["TraceFormatError", "SCHEMA_VERSION", "READABLE_VERSIONS", "FORMAT_NAME", "write_trace", "read_trace"]

SCHEMA_VERSION = 2
READABLE_VERSIONS = (1, 2)
FORMAT_NAME = "minigrad-trace"


class TraceFormatError(ValueError):
    """A trace file is not a minigrad trace, has another schema version, or is damaged."""


def _open(path, mode: str):
    if os.fspath(path).endswith(".gz"):
        return gzip.open(path, mode, compresslevel=6) if "w" in mode else gzip.open(path, mode)
    return open(path, mode)


def write_trace(trace, path) -> None:
    """Write ``trace`` to ``path`` (gzip-compressed when it ends ``.gz``)."""
    header = {"format": FORMAT_NAME, "version": SCHEMA_VERSION, "meta": trace.meta, "events": len(trace.events)}
    if trace.summarised_before is not None:  # the recording's memory budget reduced these events
        header["reduced"] = {
            "summarised_before": trace.summarised_before,
            "outlined_before": trace.outlined_before,
            "message": trace.budget_message,
        }
    with _open(path, "wb") as fh:
        fh.write((json.dumps(header, default=str) + "\n").encode("utf-8"))
        for ev in list(trace.events):
            fh.write((json.dumps(E.event_to_json(ev), separators=(",", ":")) + "\n").encode("utf-8"))


class _Lines:
    """The file's lines as text, refusing to read past ``max_bytes`` in all (decompressed)."""

    def __init__(self, fh, path, max_bytes: int):
        self.fh, self.path, self.max_bytes = fh, path, max_bytes
        self.read = 0
        self.lineno = 0

    def error(self, what: str) -> TraceFormatError:
        return TraceFormatError(f"{os.fspath(self.path)}: line {max(self.lineno, 1)}: {what}")

    def next(self) -> str | None:
        try:
            raw = self.fh.readline(self.max_bytes - self.read + 1)
        except (OSError, EOFError, zlib.error) as exc:  # a damaged or cut gzip stream
            self.lineno += 1
            raise self.error(f"cannot read the file ({type(exc).__name__}: {exc})") from None
        if not raw:
            return None
        self.lineno += 1
        self.read += len(raw)
        if self.read > self.max_bytes:
            raise self.error(
                f"the trace is larger than the limit of {self.max_bytes} bytes "
                "(max_bytes; pass a larger one if you trust the file)"
            )
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise self.error(f"not UTF-8 text ({exc.reason})") from None


def _json(text: str):
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        return exc


def _header(lines: _Lines) -> dict:
    first = lines.next()
    header = _json(first or "")
    if isinstance(header, Exception):
        raise lines.error(f"not a minigrad trace header ({getattr(header, 'msg', header)})")
    if not isinstance(header, dict) or header.get("format") != FORMAT_NAME:
        raise lines.error(f"not a minigrad trace (no '{FORMAT_NAME}' header)")
    if header.get("version") not in READABLE_VERSIONS:
        raise lines.error(
            f"trace schema version {header.get('version')!r} is not supported "
            f"(this minigrad reads versions {', '.join(map(str, READABLE_VERSIONS))})"
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
    return header


def read_trace(cls, path, max_bytes: int = DEFAULT_MAX_BYTES):
    """Read a trace file into a new ``cls`` (a :class:`~minigrad.trace.trace.Trace`)."""
    with _open(path, "rb") as fh:
        lines = _Lines(fh, path, max_bytes)
        header = _header(lines)
        trace = cls(meta=header.get("meta") or {})
        reduced = header.get("reduced", {})
        trace.summarised_before = reduced.get("summarised_before")
        trace.outlined_before = reduced.get("outlined_before")
        trace.budget_message = reduced.get("message")
        decoder = Decoder()
        while (text := lines.next()) is not None:
            if not text.strip():
                continue
            d = _json(text)
            if isinstance(d, Exception):
                what = "truncated line" if not text.endswith("\n") else "not JSON"
                raise lines.error(f"damaged event ({what}: {getattr(d, 'msg', d)})")
            try:
                ev = decoder.event(d)
                trace.append(ev)
            except (SchemaError, ValueError) as exc:
                raise lines.error(f"damaged event ({exc})") from None
    expected = header.get("events")
    if expected is not None and expected != len(trace.events):
        raise TraceFormatError(
            f"{os.fspath(path)}: line {lines.lineno + 1}: file ends after {len(trace.events)} events, "
            f"the header announced {expected} (truncated?)"
        )
    return trace
