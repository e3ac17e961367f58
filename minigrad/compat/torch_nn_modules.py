"""``torch.nn.modules.<file>``: the module paths programs import layers from (``from
torch.nn.modules.rnn import LSTM``), each showing all of ``minigrad.nn``; and the one class torch
defines only there that programs meet, ``NonDynamicallyQuantizableLinear`` (a Linear, as torch's
MultiheadAttention's ``out_proj``)."""

from __future__ import annotations

from ..nn import Linear

__all__ = ["SUBMODULES", "LINEAR"]

#: torch/nn/modules' files.
SUBMODULES = (
    "activation",
    "adaptive",
    "batchnorm",
    "channelshuffle",
    "container",
    "conv",
    "distance",
    "dropout",
    "flatten",
    "fold",
    "instancenorm",
    "lazy",
    "linear",
    "loss",
    "module",
    "normalization",
    "padding",
    "pixelshuffle",
    "pooling",
    "rnn",
    "sparse",
    "transformer",
    "upsampling",
    "utils",
)


class NonDynamicallyQuantizableLinear(Linear):
    """A Linear, as torch's (a name that only keeps quantisation tools from swapping it)."""


#: What ``torch.nn.modules.linear`` adds to ``minigrad.nn``'s names.
LINEAR = {"NonDynamicallyQuantizableLinear": NonDynamicallyQuantizableLinear}
