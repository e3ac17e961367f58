# Exercise file generated from reference/ex3_run_backward.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
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
    raise NotImplementedError("exercise: write run_backward()")
