"""Exercise 7.2 — a Linear layer as a Module.

Write `Linear(in_features, out_features)`: a `minigrad.nn.Module` with two
Parameters, `weight` of shape [out_features, in_features] and `bias` of shape
[out_features], both drawn uniformly from [-1/sqrt(in_features), 1/sqrt(in_features)]
(PyTorch's default range), and `forward(x) = x @ weight.T + bias` for x of shape
[batch, in_features].

Assigning a Parameter to an attribute of a Module registers it: `parameters()`
then finds it, and an optimizer can update it.
"""

import math

import minigrad as mg
from minigrad import nn


class Linear(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        # BEGIN SOLUTION
        # HINT: mg.rand(shape) is uniform in [0, 1); nn.Parameter(tensor) makes a parameter.
        bound = 1 / math.sqrt(in_features)
        self.weight = nn.Parameter(mg.rand(out_features, in_features) * (2 * bound) - bound)
        self.bias = nn.Parameter(mg.rand(out_features) * (2 * bound) - bound)
        # END SOLUTION

    def forward(self, x):
        # BEGIN SOLUTION
        return x @ self.weight.T + self.bias
        # END SOLUTION
