"""A map from node ids to values whose copies share memory until they are written.

``Trace.state_at`` keeps replay checkpoints and hands out :class:`~minigrad.trace.state.State`
objects, each a picture of every node. Copying a plain dict of all nodes for each of
them makes memory grow with the square of the run's length. A :class:`ChunkedMap`
stores its entries in chunks of ``CHUNK`` consecutive ids: a copy duplicates only the
table of chunks, and a chunk is duplicated the first time one of the copies writes to
it. A checkpoint or a state therefore costs what changed since the last copy, plus one
table slot per chunk.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["ChunkedMap", "CHUNK_BITS"]

CHUNK_BITS = 6  # 64 ids per chunk: a training step's new nodes fill a few chunks


class ChunkedMap(Mapping):
    """int -> value, copied in O(len / 64) by sharing chunks copy-on-write."""

    __slots__ = ("_chunks", "_own", "_len")

    def __init__(self):
        self._chunks: dict = {}  # id >> CHUNK_BITS -> {id: value}
        self._own: set = set()  # chunk keys only this map refers to (safe to write in place)
        self._len = 0

    def copy(self) -> ChunkedMap:
        """A copy sharing every chunk with this map (neither writes a shared chunk in place)."""
        other = ChunkedMap.__new__(ChunkedMap)
        other._chunks = dict(self._chunks)
        other._own = set()
        other._len = self._len
        self._own = set()
        return other

    @property
    def chunk_count(self) -> int:
        """How many chunks the table holds (the cost of one copy)."""
        return len(self._chunks)

    def _writable(self, key: int) -> dict:
        ck = key >> CHUNK_BITS
        chunk = self._chunks.get(ck)
        if chunk is None:
            chunk = self._chunks[ck] = {}
            self._own.add(ck)
        elif ck not in self._own:
            chunk = self._chunks[ck] = dict(chunk)
            self._own.add(ck)
        return chunk

    def __setitem__(self, key: int, value) -> None:
        chunk = self._writable(key)
        if key not in chunk:
            self._len += 1
        chunk[key] = value

    def setdefault(self, key: int, default=None):
        chunk = self._chunks.get(key >> CHUNK_BITS)
        if chunk is not None and key in chunk:
            return chunk[key]
        self[key] = default
        return default

    def __getitem__(self, key):
        chunk = self._chunks.get(key >> CHUNK_BITS) if type(key) is int else None
        if chunk is None:
            raise KeyError(key)
        return chunk[key]

    def get(self, key, default=None):
        chunk = self._chunks.get(key >> CHUNK_BITS) if type(key) is int else None
        return default if chunk is None else chunk.get(key, default)

    def __contains__(self, key) -> bool:
        chunk = self._chunks.get(key >> CHUNK_BITS) if type(key) is int else None
        return chunk is not None and key in chunk

    def __iter__(self):
        for chunk in list(self._chunks.values()):
            yield from chunk

    def __len__(self) -> int:
        return self._len

    def __repr__(self) -> str:
        return f"ChunkedMap({dict(self)!r})"
