"""Exercise 2.1 (warm-up) — how many contributions will a node receive?

Every use of a tensor as an operand is an edge of the graph, and the backward pass
sends one gradient along each edge. Write `count_uses(root)`: for every tensor
reachable from `root` through `.parents` (root included), the number of edges
that point to it from other tensors of the graph, as {id(tensor): count}. The root
has 0. A parent listed twice (as in `a + a`) counts twice.

This is the number of `grad_accumulated` events the debugger will show into each node.
"""


def count_uses(root) -> dict:
    """{id(node): number of edges into it} for root's graph."""
    # BEGIN SOLUTION
    # HINT: walk the graph once (a stack, a set of visited ids); for each node, add 1 to each parent's count.
    counts, seen, stack = {id(root): 0}, {id(root)}, [root]
    while stack:
        node = stack.pop()
        for p in node.parents:
            counts[id(p)] = counts.get(id(p), 0) + 1
            if id(p) not in seen:
                seen.add(id(p))
                stack.append(p)
    return counts
    # END SOLUTION
