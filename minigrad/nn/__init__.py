"""Neural-network building blocks: Module, Parameter, layers, losses (``minigrad.nn``).

``functional`` has the same layers and losses as plain functions; ``init`` the
initialisation schemes.
"""

from . import functional, init, padding, utils
from .activation import (
    ELU,
    GELU,
    Hardsigmoid,
    Hardswish,
    Hardtanh,
    LeakyReLU,
    LogSigmoid,
    LogSoftmax,
    Mish,
    ReLU,
    ReLU6,
    Sigmoid,
    SiLU,
    Softmax,
    Softplus,
    Softsign,
    Tanh,
)
from .adaptive_pooling import AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveMaxPool1d, AdaptiveMaxPool2d
from .attention import MultiheadAttention
from .bilinear import Bilinear
from .channel_dropout import AlphaDropout, Dropout1d, Dropout2d, Dropout3d, FeatureAlphaDropout
from .composed_activation import (
    CELU,
    GLU,
    SELU,
    Hardshrink,
    PReLU,
    RReLU,
    Softmax2d,
    Softmin,
    Softshrink,
    Tanhshrink,
    Threshold,
)
from .container import ModuleDict, ModuleList, Sequential
from .conv import Conv2d, MaxPool2d
from .conv_transpose import Conv1d, ConvTranspose1d, ConvTranspose2d
from .distance import CosineSimilarity, PairwiseDistance
from .dropout import Dropout
from .embedding import Embedding
from .embedding_bag import EmbeddingBag
from .flatten import Flatten, Unflatten
from .fold import Fold, Unfold
from .group_norm import GroupNorm
from .instance_rms_norm import InstanceNorm1d, InstanceNorm2d, InstanceNorm3d, LocalResponseNorm, RMSNorm
from .linear import Identity, LazyLinear, Linear
from .loss import (
    BCELoss,
    BCEWithLogitsLoss,
    CrossEntropyLoss,
    HuberLoss,
    KLDivLoss,
    L1Loss,
    MSELoss,
    NLLLoss,
    SmoothL1Loss,
)
from .lp_pool import LPPool1d, LPPool2d
from .margin_loss import (
    CosineEmbeddingLoss,
    CTCLoss,
    GaussianNLLLoss,
    HingeEmbeddingLoss,
    MarginRankingLoss,
    MultiLabelMarginLoss,
    MultiLabelSoftMarginLoss,
    MultiMarginLoss,
    PoissonNLLLoss,
    SoftMarginLoss,
    TripletMarginLoss,
    TripletMarginWithDistanceLoss,
)
from .mlp import MLP
from .module import Module
from .normalization import BatchNorm1d, BatchNorm2d, LayerNorm
from .padding import *  # noqa: F403  (re-exported: __all__ += padding.__all__)
from .parameter import Parameter
from .parameter_containers import ParameterDict, ParameterList
from .pooling import AvgPool1d, AvgPool2d, FractionalMaxPool2d, MaxPool1d, MaxUnpool1d, MaxUnpool2d
from .recurrent import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNCell
from .resampling import (
    ChannelShuffle,
    PixelShuffle,
    PixelUnshuffle,
    Upsample,
    UpsamplingBilinear2d,
    UpsamplingNearest2d,
)
from .transformer import (
    Transformer,
    TransformerDecoder,
    TransformerDecoderLayer,
    TransformerEncoder,
    TransformerEncoderLayer,
)
from .volumetric import (
    AdaptiveAvgPool3d,
    AdaptiveMaxPool3d,
    AvgPool3d,
    BatchNorm3d,
    Conv3d,
    ConvTranspose3d,
    MaxPool3d,
)

__all__ = [
    "functional",
    "init",
    "utils",
    "Module",
    "Parameter",
    "Sequential",
    "ModuleList",
    "Linear",
    "Identity",
    "ReLU",
    "Tanh",
    "Sigmoid",
    "GELU",
    "LeakyReLU",
    "ELU",
    "Softplus",
    "SiLU",
    "Softmax",
    "LogSoftmax",
    "Dropout",
    "LayerNorm",
    "BatchNorm1d",
    "BatchNorm2d",
    "Embedding",
    "Flatten",
    "Conv2d",
    "MaxPool2d",
    "MLP",
    "MSELoss",
    "L1Loss",
    "CrossEntropyLoss",
    "NLLLoss",
    "BCELoss",
    "BCEWithLogitsLoss",
]
__all__ += ["Hardtanh", "ReLU6", "Hardsigmoid", "Hardswish", "Mish", "Softsign", "LogSigmoid"]
__all__ += [
    "Conv1d",
    "ConvTranspose1d",
    "ConvTranspose2d",
    "AvgPool1d",
    "AvgPool2d",
    "MaxPool1d",
    "MaxUnpool1d",
    "MaxUnpool2d",
]
__all__ += ["GroupNorm", "MultiheadAttention"]
__all__ += ["AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d"]
__all__ += [
    "ModuleDict",
    "ParameterList",
    "ParameterDict",
    "HuberLoss",
    "SmoothL1Loss",
    "KLDivLoss",
    "CosineSimilarity",
]
__all__ += ["RNN", "LSTM", "GRU", "RNNCell", "LSTMCell", "GRUCell"]
__all__ += [
    "Transformer",
    "TransformerEncoder",
    "TransformerEncoderLayer",
    "TransformerDecoder",
    "TransformerDecoderLayer",
]
__all__ += ["SELU", "CELU", "GLU", "Softmin", "Hardshrink", "Softshrink", "Tanhshrink", "Threshold", "PReLU"]
__all__ += ["RMSNorm", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d"]
__all__ += ["Unflatten", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout"]
__all__ += ["Upsample", "UpsamplingNearest2d", "UpsamplingBilinear2d", "PixelShuffle", "PixelUnshuffle"]
__all__ += padding.__all__
__all__ += [
    "PairwiseDistance",
    "CosineEmbeddingLoss",
    "MarginRankingLoss",
    "HingeEmbeddingLoss",
    "SoftMarginLoss",
    "MultiMarginLoss",
    "TripletMarginLoss",
    "PoissonNLLLoss",
    "GaussianNLLLoss",
]
__all__ += ["Unfold", "Fold", "Bilinear", "EmbeddingBag"]
__all__ += ["Conv3d", "ConvTranspose3d", "MaxPool3d", "AvgPool3d", "BatchNorm3d"]
__all__ += ["CTCLoss"]
__all__ += ["RReLU", "Softmax2d", "ChannelShuffle", "LocalResponseNorm", "LPPool1d", "LPPool2d"]
__all__ += ["MultiLabelSoftMarginLoss", "TripletMarginWithDistanceLoss"]
__all__ += ["MultiLabelMarginLoss", "LazyLinear", "FractionalMaxPool2d"]
__all__ += ["AdaptiveAvgPool3d", "AdaptiveMaxPool3d"]
