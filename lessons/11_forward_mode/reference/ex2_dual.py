"""Exercise 11.2 — forward mode in forty lines: dual numbers.

A ``Dual`` is a value with its tangent. Each operation computes its result's value and, by the
op's forward-mode rule, its tangent: the same local derivative its backward rule uses, multiplied
by the incoming tangent instead of the incoming gradient. Numbers (int or float) are constants:
their tangent is 0.

``derivative(f, x)`` is df/dx at x by one forward pass: seed x's tangent with 1.
``directional(f, xs, vs)`` is the derivative of f(*xs) along the direction vs.
"""

import math


class Dual:
    """A number ``value`` carrying its ``tangent`` (its derivative along one direction)."""

    def __init__(self, value, tangent=0.0):
        self.value = float(value)
        self.tangent = float(tangent)

    def __repr__(self):
        return f"Dual({self.value}, tangent={self.tangent})"

    # BEGIN SOLUTION
    @staticmethod
    def _lift(other):
        return other if isinstance(other, Dual) else Dual(other, 0.0)

    def __add__(self, other):
        other = Dual._lift(other)
        return Dual(self.value + other.value, self.tangent + other.tangent)

    __radd__ = __add__

    def __neg__(self):
        return Dual(-self.value, -self.tangent)

    def __sub__(self, other):
        return self + (-Dual._lift(other))

    def __rsub__(self, other):
        return Dual._lift(other) - self

    def __mul__(self, other):
        other = Dual._lift(other)
        return Dual(self.value * other.value, self.tangent * other.value + self.value * other.tangent)

    __rmul__ = __mul__

    def __truediv__(self, other):
        other = Dual._lift(other)
        value = self.value / other.value
        return Dual(value, (self.tangent - value * other.tangent) / other.value)

    def __rtruediv__(self, other):
        return Dual._lift(other) / self

    def __pow__(self, n):
        return Dual(self.value**n, n * self.value ** (n - 1) * self.tangent)

    def sin(self):
        return Dual(math.sin(self.value), math.cos(self.value) * self.tangent)

    def exp(self):
        e = math.exp(self.value)
        return Dual(e, e * self.tangent)

    def tanh(self):
        t = math.tanh(self.value)
        return Dual(t, (1 - t * t) * self.tangent)

    # END SOLUTION


def derivative(f, x: float) -> float:
    """df/dx at ``x`` by one forward pass."""
    # BEGIN SOLUTION
    return f(Dual(x, 1.0)).tangent
    # END SOLUTION


def directional(f, xs: list, vs: list) -> float:
    """The derivative of ``f(*xs)`` along the direction ``vs`` (one tangent per argument)."""
    # BEGIN SOLUTION
    return f(*[Dual(x, v) for x, v in zip(xs, vs)]).tangent
    # END SOLUTION
