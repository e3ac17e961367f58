"""minigrad._pytree: flatten/unflatten round trips, and specs printed as torch.utils._pytree prints them."""

from __future__ import annotations

from collections import OrderedDict, namedtuple

import pytest

from minigrad._pytree import LEAF, tree_flatten, tree_map, tree_unflatten, treespec_pprint

Pair = namedtuple("Pair", "first second")

TREES = [
    1.0,
    None,
    (),
    (1, 2),
    [1, (2, 3), {"a": 4, "b": [5, None]}],
    {"w": 1, "nested": {"x": (2,), "y": []}},
    OrderedDict(b=1, a=2),
    Pair(1, [2, 3]),
]


@pytest.mark.parametrize("tree", TREES, ids=repr)
def test_flatten_then_unflatten_gives_the_tree_back(tree):
    leaves, spec = tree_flatten(tree)
    rebuilt = tree_unflatten(leaves, spec)
    assert rebuilt == tree and type(rebuilt) is type(tree)
    assert spec.num_leaves == len(leaves)


def test_leaves_come_left_to_right_and_dicts_in_key_order():
    leaves, _ = tree_flatten({"b": (1, 2), "a": [3, {"z": 4, "y": 5}]})
    assert leaves == [1, 2, 3, 4, 5]
    assert tree_map(lambda v: v * 10, (1, {"k": [2]})) == (10, {"k": [20]})


def test_specs_compare_by_structure_not_leaves():
    assert tree_flatten((1, {"a": 2}))[1] == tree_flatten((3, {"a": 4}))[1]
    assert tree_flatten((1, 2))[1] != tree_flatten([1, 2])[1]
    assert tree_flatten({"a": 1, "b": 2})[1] != tree_flatten({"b": 2, "a": 1})[1]
    assert tree_flatten(5)[1] == LEAF


def test_unflatten_refuses_the_wrong_number_of_leaves():
    with pytest.raises(ValueError, match="`leaves` has length 1 but the spec refers to a pytree that holds 2 items"):
        tree_unflatten([1], tree_flatten((1, 2))[1])


def test_specs_print_as_torch_prints_them():
    torch_pytree = pytest.importorskip("torch.utils._pytree")
    for tree in TREES[:7]:
        ours, theirs = tree_flatten(tree)[1], torch_pytree.tree_flatten(tree)[1]
        assert repr(ours) == repr(theirs)
        assert treespec_pprint(ours) == torch_pytree.treespec_pprint(theirs)
