"""A small Value engine with one planted bug, for exercise 10.4: find it with the debugger.

    minigrad lesson debug 10 buggy     # the demo's expression, on this engine

Its gradients are wrong for the demo's expression. Do not read the rules below first: step the
pass, watch each rule's incoming gradient, captured values and outputs, and find where the numbers
stop agreeing with the hand computation in the lesson. Then read the rule the debugger shows you.
"""

import math

from minigrad.trace import emit


def as_value(x):
    return x if isinstance(x, Value) else Value(x)


class Value:
    def __init__(self, data, parents=(), op=None, rule=None, name=None):
        self.data = float(data)
        self.grad = 0.0
        self.parents = tuple(parents)
        self.op = op
        self.rule = rule
        emit.node(self, parents=self.parents, op=op, name=name)

    def __repr__(self):
        return f"Value(data={self.data:.6g}, grad={self.grad:.6g})"

    def __add__(self, other):
        other = as_value(other)
        return Value(self.data + other.data, (self, other), "add", lambda g: (g, g))

    def __mul__(self, other):
        other = as_value(other)
        a, b = self.data, other.data
        return Value(a * b, (self, other), "mul", lambda g: (g * b, g * a))

    def tanh(self):
        x = self.data
        return Value(math.tanh(x), (self,), "tanh", lambda g: (g * (1 - x * x),))

    __radd__ = __add__
    __rmul__ = __mul__

    def backward(self):
        order, seen = [], set()
        stack = [(self, iter(self.parents))]
        seen.add(id(self))
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
        self.grad = 1.0
        with emit.backward_pass(self, seed=1.0):
            for node in reversed(order):
                emit.entered(node, node.grad)
                if node.rule is not None:
                    grads = node.rule(node.grad)
                    emit.rule(node, node.rule, node.grad, grads)
                    for parent, g in zip(node.parents, grads):
                        before = parent.grad
                        parent.grad += g
                        emit.accumulated(node, parent, g, before, parent.grad)
                emit.finished(node)
