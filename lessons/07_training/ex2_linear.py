# Exercise file generated from reference/ex2_linear.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
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
        # HINT: mg.rand(shape) is uniform in [0, 1); nn.Parameter(tensor) makes a parameter.
        raise NotImplementedError("exercise: write __init__()")

    def forward(self, x):
        raise NotImplementedError("exercise: write forward()")
