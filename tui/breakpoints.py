"""Breakpoints: where ``c`` (continue) stops."""

from __future__ import annotations

from dataclasses import dataclass

KINDS = ("node", "op", "nonfinite", "pass")


@dataclass(frozen=True)
class Breakpoint:
    """Stop at a node (by name), at every node of an op, at a non-finite gradient, or at a pass start."""

    kind: str
    value: str = ""

    def __str__(self) -> str:
        if self.kind == "node":
            return self.value
        if self.kind == "nonfinite":
            return "nonfinite"
        return f"{self.kind}:{self.value}"


def parse_breakpoint(spec: str) -> Breakpoint:
    """``NAME``, ``op:OP``, ``nonfinite`` or ``pass:KIND`` (``node:NAME`` also works)."""
    spec = spec.strip()
    if not spec:
        raise ValueError("empty breakpoint: expected a node name, op:OP, nonfinite or pass:KIND")
    if spec == "nonfinite":
        return Breakpoint("nonfinite")
    kind, sep, value = spec.partition(":")
    if not sep:
        return Breakpoint("node", spec)
    if kind not in ("node", "op", "pass") or not value:
        raise ValueError(f"invalid breakpoint {spec!r}: expected a node name, op:OP, nonfinite or pass:KIND")
    if kind == "pass" and value not in ("backward", "grad"):
        raise ValueError(f"invalid breakpoint {spec!r}: the pass kind must be backward or grad")
    return Breakpoint(kind, value)
