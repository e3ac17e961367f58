"""MLP: a multilayer perceptron with readable layer names (fc1, act1, fc2, ...)."""

from __future__ import annotations

from collections import OrderedDict

from .activation import GELU, LeakyReLU, ReLU, Sigmoid, SiLU, Tanh
from .container import Sequential
from .dropout import Dropout
from .linear import Linear

__all__ = ["MLP"]

_ACTIVATIONS = {"relu": ReLU, "tanh": Tanh, "sigmoid": Sigmoid, "gelu": GELU, "leaky_relu": LeakyReLU, "silu": SiLU}


class MLP(Sequential):
    """Linear layers of the given sizes with an activation (and optional dropout) between them.

    ``MLP(2, [16, 16], 2)`` is ``fc1: 2->16, act1, fc2: 16->16, act2, fc3: 16->2``, so
    parameters are named ``fc1.weight``, ``fc1.bias``, ... ``activation`` is a name
    (relu, tanh, sigmoid, gelu, leaky_relu, silu) or a Module class.
    """

    def __init__(
        self,
        in_features: int,
        hidden_sizes,
        out_features: int,
        activation="relu",
        dropout: float = 0.0,
        device=None,
        dtype=None,
    ):
        if isinstance(activation, str):
            if activation not in _ACTIVATIONS:
                raise ValueError(f"unknown activation '{activation}'; choose one of {', '.join(_ACTIVATIONS)}")
            activation = _ACTIVATIONS[activation]
        sizes = [in_features, *hidden_sizes, out_features]
        layers = OrderedDict()
        for i, (n_in, n_out) in enumerate(zip(sizes[:-1], sizes[1:]), start=1):
            layers[f"fc{i}"] = Linear(n_in, n_out, device=device, dtype=dtype)
            if i < len(sizes) - 1:
                layers[f"act{i}"] = activation()
                if dropout:
                    layers[f"drop{i}"] = Dropout(dropout)
        super().__init__(layers)
