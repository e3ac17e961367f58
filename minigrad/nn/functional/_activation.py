"""Activations as functions (the elementwise and softmax ops, under their torch.nn.functional names)."""

from ...ops.activation import hardsigmoid, hardswish, hardtanh, logsigmoid, mish, relu6, softsign
from ...ops.elementwise import elu, gelu, leaky_relu, relu, sigmoid, silu, softplus, tanh
from ...ops.reduction import log_softmax, softmax

__all__ = ["relu", "tanh", "sigmoid", "elu", "gelu", "leaky_relu", "silu", "softplus", "softmax", "log_softmax"]
__all__ += ["hardtanh", "relu6", "hardsigmoid", "hardswish", "mish", "softsign", "logsigmoid"]
