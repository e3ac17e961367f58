"""Read DOT text back as a structure, so tests assert nodes, edges and labels rather than strings."""

from __future__ import annotations

import re

import pygraphviz


def parse(source: str):
    """``(nodes, edges)``: ``nodes[name]`` is the attribute dict, ``edges`` a list of (tail, head, attrs)."""
    g = pygraphviz.AGraph(string=source)
    nodes = {n: dict(g.get_node(n).attr) for n in g.nodes()}
    edges = [(e[0], e[1], dict(e.attr)) for e in g.edges()]
    return nodes, edges


def label_text(attrs: dict) -> str:
    """The visible text of a node's (HTML or plain) label, rows joined by ' | '."""
    label = attrs.get("label", "")
    if "<TR>" not in label and "<TD" not in label:
        return label
    rows = re.findall(r"<TR>(.*?)</TR>", label)
    texts = [re.sub(r"<[^>]+>", "", r) for r in rows]
    unescape = {"&lt;": "<", "&gt;": ">", "&quot;": '"', "&amp;": "&"}
    return " | ".join(re.sub("|".join(unescape), lambda m: unescape[m.group(0)], t) for t in texts)


def tensor_nodes(nodes: dict) -> dict:
    return {k: v for k, v in nodes.items() if k.startswith("t")}
