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
        # BEGIN SOLUTION
        return Value(self.data + other.data, (self, other), "add", lambda g: (g, g))
        # END SOLUTION

    def __mul__(self, other):
        other = as_value(other)
        # BEGIN SOLUTION
        # HINT: the rule captures the two numbers, a and b, not the Values.
        a, b = self.data, other.data
        return Value(a * b, (self, other), "mul", lambda g: (g * b, g * a))
        # END SOLUTION

    def __pow__(self, n):
        assert isinstance(n, (int, float)), "only a number as the exponent"
        # BEGIN SOLUTION
        x = self.data
        return Value(x**n, (self,), "pow", lambda g: (g * n * x ** (n - 1),))
        # END SOLUTION

    def tanh(self):
        # BEGIN SOLUTION
        # HINT: the derivative of tanh can be written with its output alone.
        t = math.tanh(self.data)
        return Value(t, (self,), "tanh", lambda g: (g * (1 - t * t),))
        # END SOLUTION

    def exp(self):
        # BEGIN SOLUTION
        y = math.exp(self.data)
        return Value(y, (self,), "exp", lambda g: (g * y,))
        # END SOLUTION

    def relu(self):
        # BEGIN SOLUTION
        positive = self.data > 0
        return Value(self.data if positive else 0.0, (self,), "relu", lambda g: (g if positive else 0.0,))
        # END SOLUTION

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
                # BEGIN SOLUTION
                # HINT: leaves have no rule; for the others, call it once and accumulate into each parent.
                if node.rule is not None:
                    grads = node.rule(node.grad)
                    emit.rule(node, node.rule, node.grad, grads)
                    for parent, g in zip(node.parents, grads):
                        before = parent.grad
                        parent.grad += g
                        emit.accumulated(node, parent, g, before, parent.grad)
                # END SOLUTION
                emit.finished(node)


def topological_order(root):
    """Every node `root` depends on, each after all of its parents (root last); no recursion."""
    # BEGIN SOLUTION
    # HINT: a stack of (node, iterator over its parents); a node is appended when its iterator runs out.
    order, seen = [], {id(root)}
    stack = [(root, iter(root.parents))]
    while stack:
        node, parents = stack[-1]
        for parent in parents:
            if id(parent) not in seen:
                seen.add(id(parent))
                stack.append((parent, iter(parent.parents)))
                break
        else:
            stack.pop()
            order.append(node)
    return order
    # END SOLUTION
