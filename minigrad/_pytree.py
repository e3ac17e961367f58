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

    __slots__ = ("type", "context", "children", "num_leaves", "flat")

    def __init__(self, node_type, context, children: list) -> None:
        self.type = node_type
        self.context = context
        self.children = children
        self.num_leaves = 1 if node_type is None else sum(c.num_leaves for c in children)
        self.flat = node_type is not None and all(c.type is None for c in children)  # every child a leaf

    def is_leaf(self) -> bool:
        return self.type is None

    def __eq__(self, other) -> bool:
        if not isinstance(other, TreeSpec):
            return NotImplemented
        return self is other or (self.type, self.context, self.children) == (other.type, other.context, other.children)

    __hash__ = None

    def __repr__(self, indent: int = 0) -> str:
        if self.is_leaf():
            return "*"
        indent += 2
        children = (",\n" + " " * indent).join(c.__repr__(indent) for c in self.children)
        return f"TreeSpec({self.type.__name__}, {self.context}, [{children}])"


LEAF = TreeSpec(None, None, [])
_FLAT_SEQUENCES: dict = {}  # (tuple or list, n) -> the spec of n leaves in one
_NODE_TYPES = frozenset((tuple, list, dict, OrderedDict))


def _node_type(tree):
    """``tree``'s node type (tuple, list, dict, OrderedDict or a namedtuple class), or None for a leaf."""
    kind = type(tree)
    if kind is tuple or kind is list or kind is dict or kind is OrderedDict:
        return kind
    if isinstance(tree, tuple) and hasattr(kind, "_fields"):
        return kind
    return None


def _flatten_into(tree, leaves: list) -> TreeSpec:
    """``tree``'s spec, its leaves appended to ``leaves``."""
    kind = _node_type(tree)
    if kind is None:
        leaves.append(tree)
        return LEAF
    if kind is tuple or kind is list:
        for t in tree:
            if type(t) in _NODE_TYPES or isinstance(t, tuple):
                break
        else:  # leaves only, the common case (transforms flatten their arguments on every call): no call per leaf
            leaves.extend(tree)
            return _flat_sequence(kind, len(tree))
        return TreeSpec(kind, None, [_flatten_into(t, leaves) for t in tree])
    if kind is dict or kind is OrderedDict:
        return TreeSpec(kind, list(tree), [_flatten_into(v, leaves) for v in tree.values()])
    return TreeSpec(kind, kind, [_flatten_into(t, leaves) for t in tree])  # a namedtuple


def _flat_sequence(kind, n: int) -> TreeSpec:
    """The spec of a tuple or list of ``n`` leaves, made once and shared (specs are never changed)."""
    spec = _FLAT_SEQUENCES.get((kind, n))
    if spec is None:
        spec = _FLAT_SEQUENCES[kind, n] = TreeSpec(kind, None, [LEAF] * n)
    return spec


def tree_flatten(tree) -> tuple:
    """``(leaves, spec)``: the leaves of ``tree`` left to right (a dict's in key order) and its spec."""
    kind = type(tree)
    if kind is tuple or kind is list:
        for t in tree:
            if type(t) in _NODE_TYPES or isinstance(t, tuple):
                break
        else:  # leaves only (the arguments of most calls): no walk
            return list(tree), _FLAT_SEQUENCES.get((kind, len(tree))) or _flat_sequence(kind, len(tree))
    elif kind not in _NODE_TYPES and not isinstance(tree, tuple):  # a leaf (a tensor)
        return [tree], LEAF
    leaves: list = []
    return leaves, _flatten_into(tree, leaves)


def _build(spec: TreeSpec, leaves):
    kind = spec.type
    if kind is None:
        return next(leaves)
    children = [next(leaves) for _ in spec.children] if spec.flat else [_build(c, leaves) for c in spec.children]
    if kind is tuple or kind is list:
        return kind(children)
    if kind is dict or kind is OrderedDict:
        return kind(zip(spec.context, children))
    return kind(*children)  # a namedtuple


def tree_unflatten(leaves, spec: TreeSpec):
    """The tree of shape ``spec`` holding ``leaves`` (the inverse of :func:`tree_flatten`)."""
    if not isinstance(leaves, (list, tuple)):
        leaves = list(leaves)
    if len(leaves) != spec.num_leaves:
        raise ValueError(
            f"treespec.unflatten(leaves): `leaves` has length {len(leaves)} but the spec refers to a pytree that "
            f"holds {spec.num_leaves} items ({spec})."
        )
    if spec.type is None:
        return leaves[0]
    if spec.flat and (spec.type is tuple or spec.type is list):
        return spec.type(leaves)
    return _build(spec, iter(leaves))


def tree_leaves(tree) -> list:
    if type(tree) not in _NODE_TYPES and not isinstance(tree, tuple):
        return [tree]
    leaves: list = []
    _flatten_into(tree, leaves)
    return leaves


def tree_map(fn, tree):
    """``tree`` with every leaf replaced by ``fn(leaf)``."""
    if type(tree) not in _NODE_TYPES and not isinstance(tree, tuple):
        return fn(tree)
    leaves, spec = tree_flatten(tree)
    return tree_unflatten([fn(x) for x in leaves], spec)


class _Asterisk:
    def __repr__(self) -> str:
        return "*"


def treespec_pprint(spec: TreeSpec) -> str:
    """``spec`` written as its tree with ``*`` for each leaf (``{'y': *, 'z': *}``), as PyTorch prints it."""
    return repr(tree_unflatten([_Asterisk()] * spec.num_leaves, spec))
