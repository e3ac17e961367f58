# Exercise file generated from reference/ex2_value.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
"""Exercise 10.2 — your own micrograd: a scalar `Value` whose backward pass minigrad's debugger steps.

Each op makes its output and, right beside it, its *rule*: a closure that receives the gradient
arriving at the output, `g`, and returns one gradient per parent. The rule captures plain numbers
(the values it needs), never the output itself. `backward()` puts the nodes in topological order
(without recursion: a 5 000-deep chain must work), seeds the output with 1, and walks the order
backwards: each node's rule runs once, after every contribution to its gradient has arrived, and
each parent's `.grad` accumulates what the rule returned (`+=`: a node used twice gets both).

The `emit.*` calls report each step to minigrad.trace, so `minigrad lesson debug 10` can show your
engine's pass: keep them where they are. Check with `minigrad lesson check 10`.
"""

import math

from minigrad.trace import emit


def as_value(x):
    return x if isinstance(x, Value) else Value(x)


class Value:
    """A scalar that remembers how it was made: its parents and the rule that sends a gradient back."""

    def __init__(self, data, parents=(), op=None, rule=None, name=None):
        self.data = float(data)
        self.grad = 0.0
        self.parents = tuple(parents)
        self.op = op
        self.rule = rule  # g -> (gradient for each parent)
        emit.node(self, parents=self.parents, op=op, name=name)

    def __repr__(self):
        return f"Value(data={self.data:.6g}, grad={self.grad:.6g})"

    # ---------------------------------------------------------------- ops: output and rule side by side
    def __add__(self, other):
        other = as_value(other)
        raise NotImplementedError("exercise: write __add__()")

    def __mul__(self, other):
        other = as_value(other)
        # HINT: the rule captures the two numbers, a and b, not the Values.
        raise NotImplementedError("exercise: write __mul__()")

    def __pow__(self, n):
        assert isinstance(n, (int, float)), "only a number as the exponent"
        raise NotImplementedError("exercise: write __pow__()")

    def tanh(self):
        # HINT: the derivative of tanh can be written with its output alone.
        raise NotImplementedError("exercise: write tanh()")

    def exp(self):
        raise NotImplementedError("exercise: write exp()")

    def relu(self):
        raise NotImplementedError("exercise: write relu()")

    # ---------------------------------------------------------------- ops made of the ones above
    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + (-as_value(other))

    def __truediv__(self, other):
        return self * as_value(other) ** -1

    def __radd__(self, other):
        return self + other

    def __rmul__(self, other):
        return self * other

    def __rsub__(self, other):
        return as_value(other) - self

    def __rtruediv__(self, other):
        return as_value(other) / self

    # ---------------------------------------------------------------- the backward pass
    def backward(self):
        """Accumulate d(self)/d(node) into the `.grad` of every node self depends on."""
        order = topological_order(self)
        self.grad = 1.0
        with emit.backward_pass(self, seed=1.0):
            for node in reversed(order):
                emit.entered(node, node.grad)
                # HINT: leaves have no rule; for the others, call it once and accumulate into each parent.
                raise NotImplementedError("exercise: write backward()")
                emit.finished(node)


def topological_order(root):
    """Every node `root` depends on, each after all of its parents (root last); no recursion."""
    # HINT: a stack of (node, iterator over its parents); a node is appended when its iterator runs out.
    raise NotImplementedError("exercise: write topological_order()")
