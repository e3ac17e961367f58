"""Layers and losses as plain functions (``import minigrad.nn.functional as F``)."""

from ...ops.distance import pdist
from ...ops.shape import pad
from ._activation import (
    elu,
    gelu,
    hardsigmoid,
    hardswish,
    hardtanh,
    leaky_relu,
    log_softmax,
    logsigmoid,
    mish,
    relu,
    relu6,
    sigmoid,
    silu,
    softmax,
    softplus,
    softsign,
    tanh,
)
from ._adaptive_pool import adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_max_pool1d, adaptive_max_pool2d
from ._adaptive_pool3d import adaptive_avg_pool3d, adaptive_max_pool3d
from ._attention import scaled_dot_product_attention
from ._bilinear import bilinear
from ._channel_dropout import alpha_dropout, dropout1d, dropout2d, dropout3d, feature_alpha_dropout
from ._composed_activation import (
    celu,
    glu,
    gumbel_softmax,
    hardshrink,
    prelu,
    rrelu,
    selu,
    softmin,
    softshrink,
    tanhshrink,
    threshold,
)
from ._conv import conv2d, max_pool2d
from ._conv1d import avg_pool1d, conv1d, max_pool1d
from ._conv_transpose import conv_transpose1d, conv_transpose2d
from ._ctc_loss import ctc_loss
from ._dropout import dropout
from ._embedding import embedding
from ._embedding_bag import embedding_bag
from ._fold import fold, unfold
from ._fractional_pool import fractional_max_pool2d, fractional_max_pool2d_with_indices
from ._grid_sample import affine_grid, grid_sample
from ._group_norm import group_norm
from ._instance_rms_norm import instance_norm, local_response_norm, rms_norm
from ._interpolate import interpolate
from ._likelihood_loss import gaussian_nll_loss, poisson_nll_loss
from ._linear import linear
from ._loss import (
    binary_cross_entropy,
    binary_cross_entropy_with_logits,
    cross_entropy,
    l1_loss,
    mse_loss,
    nll_loss,
)
from ._lp_pool import lp_pool1d, lp_pool2d
from ._margin_loss import (
    cosine_embedding_loss,
    hinge_embedding_loss,
    margin_ranking_loss,
    multi_margin_loss,
    multilabel_margin_loss,
    multilabel_soft_margin_loss,
    pairwise_distance,
    soft_margin_loss,
    triplet_margin_loss,
    triplet_margin_with_distance_loss,
)
from ._normalization import batch_norm, layer_norm
from ._one_hot import one_hot
from ._pixel_shuffle import channel_shuffle, pixel_shuffle, pixel_unshuffle
from ._pooling import avg_pool2d
from ._robust_loss import huber_loss, kl_div, smooth_l1_loss
from ._similarity import cosine_similarity, normalize
from ._unpool import max_unpool1d, max_unpool2d
from ._upsample import upsample, upsample_bilinear, upsample_nearest
from ._volumetric import avg_pool3d, conv3d, conv_transpose3d, max_pool3d

__all__ = [
    "linear",
    "relu",
    "tanh",
    "sigmoid",
    "elu",
    "gelu",
    "leaky_relu",
    "silu",
    "softplus",
    "softmax",
    "log_softmax",
    "dropout",
    "layer_norm",
    "batch_norm",
    "embedding",
    "conv2d",
    "max_pool2d",
    "mse_loss",
    "l1_loss",
    "cross_entropy",
    "nll_loss",
    "binary_cross_entropy",
    "binary_cross_entropy_with_logits",
]
__all__ += ["hardtanh", "relu6", "hardsigmoid", "hardswish", "mish", "softsign", "logsigmoid"]
__all__ += ["conv1d", "avg_pool1d", "avg_pool2d", "max_pool1d", "max_unpool1d", "max_unpool2d"]
__all__ += ["conv_transpose1d", "conv_transpose2d"]
__all__ += ["group_norm", "one_hot", "scaled_dot_product_attention", "interpolate", "pad"]
__all__ += ["adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_max_pool1d", "adaptive_max_pool2d"]
__all__ += ["huber_loss", "smooth_l1_loss", "kl_div", "cosine_similarity", "normalize"]
__all__ += ["selu", "celu", "glu", "softmin", "hardshrink", "softshrink", "tanhshrink", "threshold", "prelu"]
__all__ += ["rms_norm", "instance_norm"]
__all__ += ["dropout1d", "dropout2d", "dropout3d", "alpha_dropout", "feature_alpha_dropout"]
__all__ += ["pixel_shuffle", "pixel_unshuffle"]
__all__ += ["pairwise_distance", "cosine_embedding_loss", "margin_ranking_loss", "hinge_embedding_loss"]
__all__ += ["soft_margin_loss", "multi_margin_loss", "triplet_margin_loss", "poisson_nll_loss", "gaussian_nll_loss"]
__all__ += ["unfold", "fold", "bilinear", "embedding_bag"]
__all__ += ["conv3d", "conv_transpose3d", "max_pool3d", "avg_pool3d"]
__all__ += ["upsample", "upsample_nearest", "upsample_bilinear"]
__all__ += ["ctc_loss"]
__all__ += ["rrelu", "gumbel_softmax", "channel_shuffle", "local_response_norm", "lp_pool1d", "lp_pool2d"]
__all__ += ["multilabel_soft_margin_loss", "triplet_margin_with_distance_loss"]
__all__ += ["adaptive_avg_pool3d", "adaptive_max_pool3d"]
__all__ += ["pdist", "multilabel_margin_loss"]
__all__ += ["affine_grid", "grid_sample", "fractional_max_pool2d", "fractional_max_pool2d_with_indices"]

from ...ops._entry import check_namespace  # noqa: E402

check_namespace(globals(), __all__)
