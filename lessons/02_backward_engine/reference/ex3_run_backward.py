"""Exercise 2.3 — the engine loop.

Write `run_backward(root)`: the gradient of the scalar `root` with respect to every
node it depends on, returned as a dict {id(node): gradient tensor}.

- Seed: the gradient of `root` with respect to itself is a tensor of ones.
- Visit nodes in reverse topological order (use minigrad's `topological_order([root])`,
  which lists parents before children).
- For a node with a closure (`node._backward is not None`), call `node._backward(g)`; it
  returns one entry per entry of `node.parents`: a gradient, None where a parent needs none,
  or a function of no arguments that computes the gradient when called (minigrad's rules
  are lazy, so that a gradient nobody needs is never computed).
- Add each returned gradient into that parent's entry (a parent may appear twice!).
Run the closures under `minigrad.no_grad()` — you are not building a graph of the gradient.
"""

import minigrad as mg
from minigrad.autograd.engine import topological_order


def run_backward(root) -> dict:
    """{id(node): d root / d node} for every node in root's graph that requires grad."""
    # BEGIN SOLUTION
    grads = {id(root): mg.ones_like(root)}
    with mg.no_grad():
        for node in reversed(topological_order([root])):
            g = grads.get(id(node))
            if g is None or node._backward is None:
                continue
            for parent, contribution in zip(node.parents, node._backward(g)):
                if contribution is None or not parent.requires_grad:
                    continue
                if callable(contribution):
                    contribution = contribution()
                grads[id(parent)] = contribution if id(parent) not in grads else grads[id(parent)] + contribution
    return grads
    # END SOLUTION
