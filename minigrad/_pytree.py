"""Pytrees, as ``torch.utils._pytree``: nested tuples, lists, dicts and namedtuples of leaves.

``minigrad.func`` and ``vmap`` take and return pytrees of tensors (a dict of parameters, a tuple
of outputs): they flatten a tree to its leaves, work on the leaves, and build the same tree back.
Any value that is not a tuple, list or dict (a tensor, a number, ``None``) is a leaf.
"""

from __future__ import annotations

from collections import OrderedDict


class TreeSpec:
    """The shape of a pytree without its leaves: the node's type, its context (a dict's keys, a
    namedtuple's class) and the specs of its children. A leaf's spec is :data:`LEAF`; printed as
    PyTorch prints one (``TreeSpec(dict, ['a'], [*])``), so error texts read the same."""

    __slots__ = ("type", "context", "children", "num_leaves")

    def __init__(self, node_type, context, children: list) -> None:
        self.type = node_type
        self.context = context
        self.children = children
        self.num_leaves = 1 if node_type is None else sum(c.num_leaves for c in children)

    def is_leaf(self) -> bool:
        return self.type is None

    def __eq__(self, other) -> bool:
        if not isinstance(other, TreeSpec):
            return NotImplemented
        return (self.type, self.context, self.children) == (other.type, other.context, other.children)

    __hash__ = None

    def __repr__(self, indent: int = 0) -> str:
        if self.is_leaf():
            return "*"
        indent += 2
        children = (",\n" + " " * indent).join(c.__repr__(indent) for c in self.children)
        return f"TreeSpec({self.type.__name__}, {self.context}, [{children}])"


LEAF = TreeSpec(None, None, [])


def _node(tree):
    """``(type, context, children)`` of a tree node, or None for a leaf."""
    kind = type(tree)
    if kind in (tuple, list):
        return kind, None, list(tree)
    if kind in (dict, OrderedDict):
        return kind, list(tree), list(tree.values())
    if isinstance(tree, tuple) and hasattr(kind, "_fields"):  # a namedtuple
        return kind, kind, list(tree)
    return None


def tree_flatten(tree) -> tuple:
    """``(leaves, spec)``: the leaves of ``tree`` left to right (a dict's in key order) and its spec."""
    leaves: list = []

    def walk(t) -> TreeSpec:
        node = _node(t)
        if node is None:
            leaves.append(t)
            return LEAF
        kind, context, children = node
        return TreeSpec(kind, context, [walk(c) for c in children])

    return leaves, walk(tree)


def tree_unflatten(leaves, spec: TreeSpec):
    """The tree of shape ``spec`` holding ``leaves`` (the inverse of :func:`tree_flatten`)."""
    leaves = list(leaves)
    if len(leaves) != spec.num_leaves:
        raise ValueError(
            f"treespec.unflatten(leaves): `leaves` has length {len(leaves)} but the spec refers to a pytree that "
            f"holds {spec.num_leaves} items ({spec})."
        )
    it = iter(leaves)

    def build(s: TreeSpec):
        if s.is_leaf():
            return next(it)
        children = [build(c) for c in s.children]
        if s.type in (dict, OrderedDict):
            return s.type(zip(s.context, children))
        if s.type in (tuple, list):
            return s.type(children)
        return s.type(*children)  # a namedtuple

    return build(spec)


def tree_leaves(tree) -> list:
    return tree_flatten(tree)[0]


def tree_map(fn, tree):
    """``tree`` with every leaf replaced by ``fn(leaf)``."""
    leaves, spec = tree_flatten(tree)
    return tree_unflatten([fn(x) for x in leaves], spec)


class _Asterisk:
    def __repr__(self) -> str:
        return "*"


def treespec_pprint(spec: TreeSpec) -> str:
    """``spec`` written as its tree with ``*`` for each leaf (``{'y': *, 'z': *}``), as PyTorch prints it."""
    return repr(tree_unflatten([_Asterisk()] * spec.num_leaves, spec))
