"""Exercise 2.2 — topological order without recursion.

Return every tensor that `root` depends on and that requires grad (including `root`),
each exactly once, with every tensor after all of its parents (so `root` is last).
A tensor's parents are `t.parents`; skip parents whose `requires_grad` is False.
Do not recurse: the checks use a graph 20 000 nodes deep.
"""


def topo_sort(root) -> list:
    """The nodes reachable from `root` (requiring grad), parents before children."""
    # BEGIN SOLUTION
    # HINT: keep your own stack of (node, iterator over its parents); a node is finished
    # HINT: (appended to the order) when its iterator is exhausted.
    order, visited = [], {id(root)}
    stack = [(root, iter(root.parents))]
    while stack:
        node, parents = stack[-1]
        for p in parents:
            if p.requires_grad and id(p) not in visited:
                visited.add(id(p))
                stack.append((p, iter(p.parents)))
                break
        else:
            stack.pop()
            order.append(node)
    return order
    # END SOLUTION
