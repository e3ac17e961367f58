# Exercise file generated from reference/ex2_topo_sort.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
"""Exercise 2.2 — topological order without recursion.

Return every tensor that `root` depends on and that requires grad (including `root`),
each exactly once, with every tensor after all of its parents (so `root` is last).
A tensor's parents are `t.parents`; skip parents whose `requires_grad` is False.
Do not recurse: the checks use a graph 20 000 nodes deep.
"""


def topo_sort(root) -> list:
    """The nodes reachable from `root` (requiring grad), parents before children."""
    # HINT: keep your own stack of (node, iterator over its parents); a node is finished
    # HINT: (appended to the order) when its iterator is exhausted.
    raise NotImplementedError("exercise: write topo_sort()")
