"""What a diagram shows and how: checked once, shared by every builder and writer."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["FIELDS", "DEFAULT_FIELDS", "Options"]

#: Fields a tensor box can show, in the order they appear.
FIELDS = ("name", "op", "shape", "dtype", "device", "data", "grad")
DEFAULT_FIELDS = ("name", "op", "shape", "data", "grad")
_RANKDIRS = ("LR", "TB", "RL", "BT")


@dataclass(frozen=True)
class Options:
    """Drawing options (see :func:`minigrad.viz.draw` for their meaning)."""

    rankdir: str = "LR"
    fields: tuple = DEFAULT_FIELDS
    captured: bool = False
    max_nodes: int | None = 500
    precision: int = 4
    max_inline: int = 6
    op_nodes: bool = True
    legend: bool = True
    title: str | None = None

    def __post_init__(self):
        rankdir = str(self.rankdir).upper()
        if rankdir not in _RANKDIRS:
            raise ValueError(f"draw(): rankdir must be one of {', '.join(_RANKDIRS)}, got {self.rankdir!r}")
        object.__setattr__(self, "rankdir", rankdir)
        fields = (self.fields,) if isinstance(self.fields, str) else tuple(self.fields)
        unknown = [f for f in fields if f not in FIELDS]
        if unknown:
            raise ValueError(
                f"draw(): unknown field(s) {', '.join(map(repr, unknown))}; choose from {', '.join(FIELDS)}"
            )
        object.__setattr__(self, "fields", tuple(f for f in FIELDS if f in fields))
        if self.max_nodes is not None and (
            not isinstance(self.max_nodes, int) or isinstance(self.max_nodes, bool) or self.max_nodes < 1
        ):
            raise ValueError(f"draw(): max_nodes must be a positive int or None, got {self.max_nodes!r}")
        if not isinstance(self.precision, int) or isinstance(self.precision, bool) or not 1 <= self.precision <= 17:
            raise ValueError(f"draw(): precision must be an int between 1 and 17, got {self.precision!r}")
        if not isinstance(self.max_inline, int) or self.max_inline < 0:
            raise ValueError(f"draw(): max_inline must be a non-negative int, got {self.max_inline!r}")
