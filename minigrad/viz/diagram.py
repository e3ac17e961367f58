"""``Diagram``: DOT text that renders itself to SVG or PNG, saves to a file and shows in Jupyter."""

from __future__ import annotations

import os

from .render import FORMATS, render

__all__ = ["Diagram"]


class Diagram:
    """A rendered-on-demand Graphviz diagram.

    ``source`` is the DOT text; ``svg()`` and ``png()`` lay it out and render it
    (cached); ``save(path)`` picks the format from the suffix (``.svg``,
    ``.png``, ``.pdf``, ``.jpg``, ``.dot``/``.gv``). ``graph`` is the
    :class:`~minigrad.viz.model.VGraph` it was drawn from.
    """

    def __init__(self, source: str, graph=None):
        self.source = source
        self.graph = graph
        self._cache: dict = {}

    def render(self, fmt: str) -> bytes:
        """The diagram in Graphviz output format ``fmt``, as bytes."""
        if fmt not in self._cache:
            self._cache[fmt] = render(self.source, fmt)
        return self._cache[fmt]

    def svg(self) -> str:
        """The diagram as SVG text."""
        return self.render("svg").decode("utf-8")

    def png(self) -> bytes:
        """The diagram as PNG bytes."""
        return self.render("png")

    def save(self, path, format: str | None = None) -> str:  # noqa: A002  (the word users expect)
        """Write the diagram to ``path``; the format comes from the suffix unless ``format`` is given."""
        path = os.fspath(path)
        if format is None:
            suffix = os.path.splitext(path)[1].lower().lstrip(".")
            if suffix not in FORMATS:
                raise ValueError(
                    f"can't tell the diagram format from {path!r}: use one of the suffixes "
                    f"{', '.join('.' + s for s in FORMATS)} or pass format="
                )
            format = suffix
        fmt = FORMATS.get(format.lower().lstrip("."))
        if fmt is None:
            raise ValueError(f"unsupported diagram format {format!r}; choose from {', '.join(FORMATS)}")
        with open(path, "wb") as fh:
            fh.write(self.render(fmt))
        return path

    def _repr_svg_(self) -> str:
        return self.svg()

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict:
        bundle = {"image/svg+xml": self.svg(), "text/plain": repr(self)}
        if include:
            bundle = {k: v for k, v in bundle.items() if k in include}
        if exclude:
            bundle = {k: v for k, v in bundle.items() if k not in exclude}
        return bundle

    def __repr__(self) -> str:
        if self.graph is None:
            return "<Diagram>"
        g = self.graph
        hidden = f", {g.hidden} not shown" if g.hidden else ""
        return f"<Diagram: {len(g.nodes)} tensors, {len(g.edges)} edges{hidden}>"
