# Exercise file generated from reference/ex2_dual.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
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

    @staticmethod
    def _lift(other):
        raise NotImplementedError("exercise: write Dual._lift()")

    def __add__(self, other):
        raise NotImplementedError("exercise: write Dual.__add__()")

    __radd__ = __add__

    def __neg__(self):
        raise NotImplementedError("exercise: write Dual.__neg__()")

    def __sub__(self, other):
        raise NotImplementedError("exercise: write Dual.__sub__()")

    def __rsub__(self, other):
        raise NotImplementedError("exercise: write Dual.__rsub__()")

    def __mul__(self, other):
        raise NotImplementedError("exercise: write Dual.__mul__()")

    __rmul__ = __mul__

    def __truediv__(self, other):
        raise NotImplementedError("exercise: write Dual.__truediv__()")

    def __rtruediv__(self, other):
        raise NotImplementedError("exercise: write Dual.__rtruediv__()")

    def __pow__(self, n):
        raise NotImplementedError("exercise: write Dual.__pow__()")

    def sin(self):
        raise NotImplementedError("exercise: write Dual.sin()")

    def exp(self):
        raise NotImplementedError("exercise: write Dual.exp()")

    def tanh(self):
        raise NotImplementedError("exercise: write Dual.tanh()")


def derivative(f, x: float) -> float:
    """df/dx at ``x`` by one forward pass."""
    raise NotImplementedError("exercise: write derivative()")


def directional(f, xs: list, vs: list) -> float:
    """The derivative of ``f(*xs)`` along the direction ``vs`` (one tangent per argument)."""
    raise NotImplementedError("exercise: write directional()")
