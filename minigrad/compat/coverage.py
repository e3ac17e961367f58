"""The README's "PyTorch coverage" table, worked out from the code: which torch names a script finds.

``GROUPS`` lists the torch API that course and example code uses (the lists of issue 30, grouped
as PyTorch's documentation groups them). :func:`coverage` asks the import hook for each name, as a
script run with ``--torch`` would, so the table says what really resolves, never what was meant to.
``python -m minigrad.compat.coverage`` prints the Markdown; ``--write README.md`` puts it between
the README's ``coverage`` markers, and a test keeps the committed table current.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

from . import install_torch
from .layout import MODULES

__all__ = ["GROUPS", "coverage", "markdown", "write_readme"]

_UNARY = "abs exp exp2 expm1 log log2 log10 log1p sqrt rsqrt sin cos tan asin acos atan sinh cosh tanh asinh "
_UNARY += "acosh atanh sigmoid erf erfc erfinv lgamma digamma sign sgn floor ceil round trunc frac reciprocal neg"

GROUPS = {
    "creation": "tensor as_tensor from_numpy zeros ones full empty arange linspace logspace eye rand randn "
    "randint randperm zeros_like ones_like full_like empty_like rand_like randn_like randint_like manual_seed",
    "pointwise math": _UNARY + " add sub mul div true_divide floor_divide remainder fmod pow clamp clip lerp "
    "hypot logit xlogy polygamma sinc nan_to_num atan2 maximum minimum fmax fmin heaviside addcmul addcdiv "
    "where isnan isinf isfinite logical_and logical_or logical_not logical_xor bitwise_and eq ne lt le gt ge",
    "reductions": "sum mean prod std var std_mean var_mean max min amax amin aminmax argmax argmin all any "
    "norm dist logsumexp cumsum cumprod cummax cummin logcumsumexp median nanmedian mode kthvalue quantile "
    "nanquantile count_nonzero nansum nanmean unique unique_consecutive histc bincount",
    "shapes and indexing": "cat concat stack hstack vstack dstack column_stack split chunk unbind reshape "
    "squeeze unsqueeze flatten unflatten permute transpose movedim flip fliplr flipud roll rot90 tril triu "
    "gather scatter scatter_add index_select index_add index_fill index_copy masked_select masked_scatter "
    "masked_fill nonzero take diagonal diag diag_embed block_diag diff broadcast_to broadcast_tensors "
    "broadcast_shapes atleast_1d atleast_2d atleast_3d meshgrid cartesian_prod combinations sort argsort "
    "topk searchsorted bucketize narrow tile repeat_interleave",
    "linear algebra": "matmul mm bmm mv dot outer einsum tensordot kron addmm addmv addbmm baddbmm inverse "
    "det slogdet cdist linalg.solve linalg.inv linalg.det linalg.slogdet linalg.svd linalg.svdvals linalg.qr "
    "linalg.cholesky linalg.eigh linalg.eig linalg.lstsq linalg.pinv linalg.norm linalg.vector_norm "
    "linalg.matrix_norm linalg.matrix_exp linalg.matrix_rank linalg.lu",
    "dtypes and queries": "float16 float32 float64 bfloat16 int8 int16 int32 int64 uint8 bool complex64 "
    "is_tensor numel result_type promote_types can_cast get_default_dtype set_default_dtype no_grad "
    "enable_grad set_grad_enabled inference_mode is_grad_enabled device Generator Size compile "
    "cuda.is_available backends.mps.is_available set_float32_matmul_precision",
    "Tensor methods": "Tensor.backward Tensor.item Tensor.tolist Tensor.numpy Tensor.detach Tensor.clone "
    "Tensor.to Tensor.cpu Tensor.cuda Tensor.float Tensor.double Tensor.long Tensor.view Tensor.view_as "
    "Tensor.expand Tensor.expand_as Tensor.contiguous Tensor.size Tensor.dim Tensor.numel Tensor.nelement "
    "Tensor.stride Tensor.storage_offset Tensor.element_size Tensor.type Tensor.is_floating_point "
    "Tensor.new_zeros Tensor.new_ones Tensor.new_full Tensor.new_empty Tensor.new_tensor Tensor.unfold "
    "Tensor.register_hook Tensor.retain_grad Tensor.requires_grad_ Tensor.zero_ Tensor.fill_ Tensor.copy_ "
    "Tensor.add_ Tensor.mul_ Tensor.relu_ Tensor.sigmoid_ Tensor.tanh_ Tensor.exp_ Tensor.clamp_ "
    "Tensor.clamp_min_ Tensor.scatter_ Tensor.index_add_ Tensor.masked_fill_ Tensor.uniform_ Tensor.normal_ "
    "Tensor.bernoulli_ Tensor.random_ Tensor.apply_",
    "nn layers": "nn.Linear nn.Bilinear nn.Conv1d nn.Conv2d nn.Conv3d nn.ConvTranspose1d nn.ConvTranspose2d "
    "nn.ConvTranspose3d nn.MaxPool1d nn.MaxPool2d nn.MaxPool3d nn.AvgPool1d nn.AvgPool2d nn.AvgPool3d "
    "nn.AdaptiveAvgPool1d nn.AdaptiveAvgPool2d nn.AdaptiveMaxPool1d nn.AdaptiveMaxPool2d nn.BatchNorm1d "
    "nn.BatchNorm2d nn.BatchNorm3d nn.LayerNorm nn.GroupNorm nn.RMSNorm nn.InstanceNorm1d nn.InstanceNorm2d "
    "nn.Dropout nn.Dropout1d nn.Dropout2d nn.Dropout3d nn.AlphaDropout nn.Embedding nn.EmbeddingBag nn.RNN "
    "nn.LSTM nn.GRU nn.RNNCell nn.LSTMCell nn.GRUCell nn.MultiheadAttention nn.TransformerEncoderLayer "
    "nn.TransformerEncoder nn.TransformerDecoderLayer nn.TransformerDecoder nn.Transformer nn.Upsample "
    "nn.PixelShuffle nn.PixelUnshuffle nn.Unfold nn.Fold nn.Flatten nn.Unflatten nn.Identity nn.ZeroPad2d "
    "nn.ConstantPad2d nn.ReflectionPad2d nn.ReplicationPad2d nn.CircularPad2d nn.Sequential nn.ModuleList "
    "nn.ModuleDict nn.ParameterList nn.ParameterDict nn.Parameter nn.Module nn.LazyLinear nn.MaxUnpool2d "
    "nn.FractionalMaxPool2d",
    "nn activations": "nn.ReLU nn.ReLU6 nn.LeakyReLU nn.PReLU nn.RReLU nn.ELU nn.SELU nn.CELU nn.GELU "
    "nn.SiLU nn.Mish nn.Sigmoid nn.Tanh nn.Softplus nn.Softsign nn.Softmax nn.LogSoftmax nn.Softmin nn.GLU "
    "nn.Hardtanh nn.Hardsigmoid nn.Hardswish nn.Hardshrink nn.Softshrink nn.Tanhshrink nn.Threshold "
    "nn.LogSigmoid",
    "nn losses": "nn.MSELoss nn.L1Loss nn.SmoothL1Loss nn.HuberLoss nn.CrossEntropyLoss nn.NLLLoss nn.BCELoss "
    "nn.BCEWithLogitsLoss nn.KLDivLoss nn.CosineEmbeddingLoss nn.MarginRankingLoss nn.TripletMarginLoss "
    "nn.HingeEmbeddingLoss nn.MultiMarginLoss nn.MultiLabelMarginLoss nn.SoftMarginLoss nn.PoissonNLLLoss "
    "nn.GaussianNLLLoss nn.CTCLoss",
    "nn.functional and nn.init": "nn.functional.relu nn.functional.gelu nn.functional.softmax "
    "nn.functional.log_softmax nn.functional.cross_entropy nn.functional.scaled_dot_product_attention "
    "nn.functional.interpolate nn.functional.grid_sample nn.functional.affine_grid nn.functional.one_hot "
    "nn.functional.pad nn.functional.normalize nn.functional.embedding nn.functional.conv2d "
    "nn.functional.max_pool2d nn.functional.adaptive_avg_pool2d nn.functional.dropout nn.functional.layer_norm "
    "nn.functional.pdist nn.init.kaiming_uniform_ nn.init.kaiming_normal_ nn.init.xavier_uniform_ "
    "nn.init.xavier_normal_ nn.init.normal_ nn.init.zeros_ nn.init.orthogonal_ nn.init.trunc_normal_ "
    "nn.utils.clip_grad_norm_ nn.utils.clip_grad_value_ nn.utils.parameters_to_vector",
    "optim": "optim.SGD optim.Adam optim.AdamW optim.RMSprop optim.Adagrad optim.Adadelta optim.Adamax "
    "optim.NAdam optim.RAdam optim.ASGD optim.Rprop optim.LBFGS optim.SparseAdam optim.lr_scheduler.StepLR "
    "optim.lr_scheduler.MultiStepLR optim.lr_scheduler.ExponentialLR optim.lr_scheduler.CosineAnnealingLR "
    "optim.lr_scheduler.CosineAnnealingWarmRestarts optim.lr_scheduler.LambdaLR "
    "optim.lr_scheduler.MultiplicativeLR optim.lr_scheduler.ConstantLR optim.lr_scheduler.LinearLR "
    "optim.lr_scheduler.PolynomialLR optim.lr_scheduler.CyclicLR optim.lr_scheduler.OneCycleLR "
    "optim.lr_scheduler.ReduceLROnPlateau optim.lr_scheduler.SequentialLR optim.lr_scheduler.ChainedScheduler",
    "autograd and func": "autograd.grad autograd.backward autograd.Function autograd.gradcheck "
    "autograd.gradgradcheck autograd.functional.jacobian autograd.functional.hessian autograd.functional.vjp "
    "autograd.functional.jvp autograd.functional.hvp autograd.forward_ad.dual_level autograd.set_detect_anomaly "
    "autograd.detect_anomaly func.grad func.grad_and_value func.vmap func.vjp func.jvp func.jacrev "
    "func.jacfwd func.hessian func.functional_call utils.checkpoint.checkpoint",
    "data and files": "utils.data.DataLoader utils.data.Dataset utils.data.IterableDataset "
    "utils.data.TensorDataset utils.data.ConcatDataset utils.data.Subset utils.data.random_split "
    "utils.data.RandomSampler utils.data.SequentialSampler utils.data.BatchSampler "
    "utils.data.SubsetRandomSampler utils.data.WeightedRandomSampler utils.data.default_collate save load",
    "other modules": "fft.fft fft.rfft distributions.Normal distributions.Categorical distributions.kl_divergence jit.script jit.trace sparse.mm",
}


def _resolves(torch, path: str) -> bool:
    obj, name = torch, "torch"
    for part in path.split("."):
        name = f"{name}.{part}"
        try:
            obj = importlib.import_module(name) if name in MODULES else getattr(obj, part)
        except AttributeError:  # MissingTorchName: a name minigrad lacks
            return False
    return True


def coverage() -> dict:
    """``{group: (names minigrad has, names it lacks)}``, each as ``torch.<name>`` resolves under ``--torch``."""
    with install_torch():
        torch = importlib.import_module("torch")
        result = {}
        for group, names in GROUPS.items():
            listed = names.split()
            found = {n: _resolves(torch, n) for n in listed}
            result[group] = ([n for n in listed if found[n]], [n for n in listed if not found[n]])
    return result


def markdown() -> str:
    """The coverage table as Markdown: per group, how many of its names resolve and which do not."""
    rows = ["| group | minigrad has | not yet |", "|---|---|---|"]
    total = have = 0
    for group, (present, missing) in coverage().items():
        total += len(present) + len(missing)
        have += len(present)
        lacking = ", ".join(f"`{n}`" for n in missing) or "-"
        rows.append(f"| {group} | {len(present)} of {len(present) + len(missing)} | {lacking} |")
    head = f"Of {total} torch names that course and example code uses, {have} resolve under `--torch`:"
    return "\n".join([head, "", *rows])


BEGIN, END = "<!-- coverage: begin (python -m minigrad.compat.coverage --write README.md) -->", "<!-- coverage: end -->"


def write_readme(path: Path) -> bool:
    """Put the table between the markers in ``path``; True when the file changed."""
    text = path.read_text()
    start, stop = text.index(BEGIN) + len(BEGIN), text.index(END)
    updated = f"{text[:start]}\n{markdown()}\n{text[stop:]}"
    if updated != text:
        path.write_text(updated)
    return updated != text


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m minigrad.compat.coverage", description=__doc__.split("\n")[0])
    parser.add_argument("--write", type=Path, metavar="README.md", help="update the table in this file")
    args = parser.parse_args(argv)
    if args.write is None:
        print(markdown())
    else:
        print(f"{args.write}: {'updated' if write_readme(args.write) else 'already current'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
