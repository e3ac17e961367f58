"""Representative device cases: every op family, autograd path, nn layer, loss and optimizer.

Each case builds its inputs from a fixed host seed, moves them to the device
under test, runs forward, first-order gradients (``grad`` with
``create_graph=True``) and, where defined, a second-order gradient through
them. ``run_case`` returns every value on the host, so a device run can be
compared with the CPU run, and checks that every tensor it made stayed on the
device.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

import minigrad as mg
from minigrad import nn
from minigrad.backend import to_host
from minigrad.nn import functional as F


@dataclass(frozen=True)
class In:
    """An input: float64 normal values (``positive`` moves them away from 0), or integers / a mask."""

    shape: tuple
    kind: str = "f"  # f: float requiring grad, p: positive float requiring grad, i: int in [0, high), b: bool mask
    high: int = 0

    def make(self, rng: np.random.Generator, device) -> mg.Tensor:
        if self.kind == "i":
            return mg.tensor(rng.integers(0, self.high, self.shape), device=device)
        if self.kind == "b":
            return mg.tensor(rng.random(self.shape) > 0.5, device=device)
        data = rng.standard_normal(self.shape)
        if self.kind == "p":
            data = np.abs(data) + 0.5
        return mg.tensor(data, dtype=mg.float64, device=device, requires_grad=True)


def f(*shape):
    return In(shape)


def p(*shape):
    return In(shape, "p")


def i(high, *shape):
    return In(shape, "i", high)


def b(*shape):
    return In(shape, "b")


@dataclass(frozen=True)
class Case:
    name: str
    fn: Callable
    inputs: tuple
    second_order: bool = True


CASES: list[Case] = []


def case(name, *inputs, second_order=True):
    def deco(fn):
        CASES.append(Case(name, fn, inputs, second_order))
        return fn

    return deco


# ---------------------------------------------------------------- arithmetic
case("add_sub_broadcast", f(3, 4), f(4))(lambda a, b_: a + b_ - 2.0 * a + mg.add(a, b_, alpha=0.5) - mg.sub(b_, a))
case("mul_div", f(3, 4), p(3, 1))(lambda a, b_: a * b_ / (b_ + 1.0) + 1.5 / b_ - a / 3)
case("pow_rpow", p(2, 3), f(2, 3))(lambda a, b_: a**b_ + a**2.5 + 2.0**b_ + a**2)
case("neg_abs_rsub", f(5))(lambda a: (-a).abs() + (1.0 - a) * 2)
case("div_rounding_int", i(7, 6), i(3, 6), second_order=False)(
    lambda a, b_: mg.div(a * 3 + 1, b_ + 1, rounding_mode="floor") + (a // (b_ + 1))
)

# ---------------------------------------------------------------- elementwise
case("exp_log_sqrt", p(3, 3))(lambda a: a.exp() + a.log() + a.sqrt() + a.rsqrt() + a.log1p())
case("trig_square_recip", p(4))(lambda a: a.sin() * a.cos() + a.square() + a.reciprocal())
case("tanh_sigmoid_erf", f(2, 5))(lambda a: a.tanh() + a.sigmoid() + mg.erf(a))
case("relu_family", f(3, 4))(
    lambda a: a.relu() + mg.leaky_relu(a, 0.1) + mg.elu(a, 0.7) + mg.silu(a) + mg.softplus(a, beta=2.0)
)
case("gelu_both", f(6))(lambda a: mg.gelu(a) + mg.gelu(a, approximate="tanh"))
case("clamp_max_min", f(3, 4), f(4))(
    lambda a, b_: a.clamp(-0.5, 0.5) + a.clamp(min=b_) + mg.maximum(a, b_) + mg.minimum(a, b_ * 0.5)
)
case("where_sign_round", f(3, 4), f(3, 4))(
    lambda a, b_: mg.where(a > b_, a, b_ * 2) + a.sign() * a + a.floor() + a.ceil() + a.round(decimals=1)
)
case("floor_divide", f(3, 4), p(4), second_order=False)(lambda a, b_: mg.floor_divide(a * 4, b_) + a)
# |a / (b_ + 3)| < 1: the remainders jump only where a crosses 0, far from gradcheck's steps
case("remainder_fmod", f(3, 4), p(4))(lambda a, b_: mg.remainder(a, b_ + 3) + mg.fmod(a, b_ + 3) + a % 2.5)

# ---------------------------------------------------------------- compare (forward only)
case("compare_logical", f(3, 4), f(3, 4), second_order=False)(
    lambda a, b_: (
        (a < b_) | (a >= 0.5),
        mg.logical_xor(a == a, a != b_),
        mg.logical_not(a <= b_) & (a > 0),
        mg.isclose(a, b_ + 1e-12) | a.isnan() | a.isinf() | ~a.isfinite(),
        mg.tensor(mg.allclose(a, a) and not mg.equal(a, b_), device=a.device),
    )
)
case("bitwise_int", i(8, 5), i(8, 5), second_order=False)(
    lambda a, b_: (mg.bitwise_and(a, b_), mg.bitwise_or(a, b_), mg.bitwise_xor(a, b_), mg.bitwise_not(a))
)

# ---------------------------------------------------------------- indexing
case("getitem_basic_adv_mask", f(4, 5), i(4, 3), b(4, 5))(
    lambda a, idx, m: a[1:3, ::2].sum() + a[idx].sum() + a[[0, 0, 2], 1:].sum() + a[m].sum() + a[..., -1].sum()
)
case("setitem_masked_fill_", f(3, 4), f(4))(lambda a, v: _setitem(a, v))
case("gather_take_select", f(4, 5), i(5, 4, 3), i(4, 2))(
    lambda a, idx, rows: (
        a.gather(1, idx).sum() + mg.take_along_dim(a, idx, dim=1).sum() + a.index_select(0, rows).sum() * 2
    )
)
case("masked_fill", f(3, 4), b(3, 4))(lambda a, m: a.masked_fill(m, 0.25) * a)

# ---------------------------------------------------------------- linalg
case("matmul_family", f(2, 3, 4), f(2, 4, 5), f(4))(
    lambda x, y, v: (
        mg.matmul(x, y).sum() + mg.bmm(x, y).sum() + mg.mm(x[0], y[1]).sum() + mg.mv(x[0], v).sum() + mg.dot(v, v)
    )
)
case("outer_einsum", f(3), f(4), f(3, 4))(
    lambda u, v, w: mg.outer(u, v) * w + mg.einsum("i,j,ij->ij", u, v, w) + mg.einsum("ij->ji", w).T
)

# ---------------------------------------------------------------- reductions
case("sum_mean_var_std", f(3, 4))(
    lambda a: a.sum(dim=1) + a.mean(dim=1) + a.var(dim=1) + a.std(dim=1, correction=0) + a.sum(dim=(0, 1))
)
case("max_min_amax", f(3, 4))(
    lambda a: a.max() + a.max(dim=1)[0].sum() + a.min(dim=0, keepdim=True)[0].sum() + a.amax(dim=1).sum() + a.amin()
)
case("argmax_argmin", f(3, 4), second_order=False)(lambda a: (a.argmax(), a.argmin(dim=1), a.argmax(dim=0)))
case("prod_logsumexp_norm", p(3, 4))(
    lambda a: a.prod(dim=1) + a.logsumexp(dim=1) + a.norm(dim=1) + a.norm(p=1, dim=1) + a.prod()
)
case("softmax_cumsum", f(3, 4))(lambda a: a.softmax(dim=1) * a.log_softmax(dim=0) + a.cumsum(dim=1))

# ---------------------------------------------------------------- shape
case("reshape_permute", f(2, 3, 4))(
    lambda a: a.reshape(6, 4).T.reshape(2, 2, 6).permute(2, 0, 1).flatten(1).unflatten(1, (2, 2)).movedim(0, 2)
)
case("squeeze_expand", f(3, 1, 4))(
    lambda a: a.squeeze(1).unsqueeze(0).expand(2, 3, 4) + a.transpose(0, 1).broadcast_to((2, 3, 4))
)
case("repeat_tile_flip", f(2, 3))(lambda a: a.repeat(2, 1) * a.tile(2, 1).flip(0))
case("cat_stack_split", f(2, 3), f(2, 3))(
    lambda a, b_: (
        mg.cat([a, b_], dim=1).sum(0)
        + mg.stack([a, b_]).sum((0, 1)).repeat(2)
        + sum(c.sum() for c in mg.cat([a, b_]).split(2))
        + sum(c.sum() for c in a.chunk(3, dim=1))
        + sum(r.sum() for r in b_.unbind(1))
        + a.narrow(1, 1, 2).sum()
        + b_.select(0, 1).sum()
    )
)
case("pad_modes", f(2, 3, 4))(
    lambda a: (
        mg.pad(a, (1, 2), value=0.5).sum()
        + mg.pad(a, (2, 1, 1, 1), mode="reflect").sum()
        + (mg.pad(a, (1, 1), mode="replicate") ** 2).sum()
        + (mg.pad(a, (1, 1, 1, 0), mode="circular") ** 2).sum()
        + mg.pad(a, (-1, 1)).sum()
    )
)

# ---------------------------------------------------------------- conversion
case("dtype_casts_clone", f(3, 4))(lambda a: a.float().double() * a.clone() + a.to(mg.float32).to(mg.float64))

# ---------------------------------------------------------------- issue 14: more ops, layout, scatter
case("hyperbolic_inverse_trig", f(3, 4))(
    lambda a: a.sinh() + a.cosh() + (a * 0.4).tan() + (a * 0.3).asin() + (a * 0.3).acos() + a.atan() + a.expm1()
)
case("atan2_logaddexp_lerp", f(3, 4), p(4))(
    lambda a, b_: mg.atan2(a, b_) + mg.logaddexp(a, b_) + mg.lerp(a, b_.expand(3, 4), 0.3)
)
case("scan_ops", p(3, 4))(
    lambda a: a.cumprod(1) + a.roll(1, 0) + a.repeat_interleave(2, dim=1)[:, ::2] + a.flip(dims=(1,))
)
case("matrix_parts", f(3, 3), f(3, 3))(
    lambda a, b_: a.tril() + a.triu(1) + a.diag().diag() + mg.cross(a, b_, dim=1) + a.trace() + mg.outer(a[0], b_[1])
)
case("activations_new", f(3, 4))(
    lambda a: (
        F.hardtanh(a) + F.relu6(a * 4) + F.hardsigmoid(a) + F.hardswish(a) + F.mish(a) + F.softsign(a) + F.logsigmoid(a)
    )
)
case("take_scatter", f(3, 4), i(3, 2, 4), f(2, 4))(
    lambda a, idx, s: (
        mg.take(a, idx).sum() + a.scatter(0, idx[:, :1], s[:, :1]).sum() * a + mg.scatter_add(a, 1, idx, s).sum()
    )
)
case("sort_topk_split_grid_nan_cdist", f(3, 4), f(2, 4))(
    lambda a, b_: (
        mg.sort(a, 1, True).values
        + mg.topk(a, 4).values
        + mg.tensor_split(a, 2, 1)[1].sum()
        + mg.nansum(a, 1, keepdim=True)
        + mg.nanmean(a)
        + mg.cdist(a, b_).sum()
        + mg.meshgrid(a[0], a[:2, 0], indexing="xy")[1].sum()
        + (mg.argsort(a, 0) + mg.unique(a.argmax(1)).sum() + mg.bincount(a.argmin(1)).sum()).to(a.dtype)
    )
)
case("view_t_contiguous", f(2, 3))(lambda a: a.t().contiguous().view(-1) * a.t().reshape(-1) + a.view(3, 2).t().sum())


def _setitem(a, v):
    c = mg.zeros_like(a)
    c[1] = v.detach() * 2
    c[0, :2] = 3.0
    c[2, [0, 3]] = mg.tensor([1.5, -1.5], dtype=mg.float64, device=a.device)
    c.masked_fill_(c == 0, 0.5)
    return c * a + v


# ---------------------------------------------------------------- nn layers and losses
def _module(build):
    """Build a module on the CPU from a fixed seed (same parameters on every device), in float64."""
    mg.manual_seed(0)
    return build().double()


NN_CASES: dict[str, tuple] = {}


def nn_case(name, build, *inputs, call=None):
    NN_CASES[name] = (build, inputs, call or (lambda m, *xs: m(*xs)))


nn_case("linear_mlp", lambda: nn.Sequential(nn.Linear(4, 5), nn.ReLU(), nn.Linear(5, 2), nn.Tanh()), f(3, 4))
nn_case(
    "activations",
    lambda: nn.Sequential(
        nn.GELU(), nn.LeakyReLU(0.2), nn.SiLU(), nn.Sigmoid(), nn.Softmax(dim=1), nn.LogSoftmax(dim=1), nn.Identity()
    ),
    f(3, 4),
)
nn_case("mlp", lambda: nn.MLP(4, [6, 5], 3), f(2, 4))
nn_case("layernorm", lambda: nn.LayerNorm(4), f(3, 4))
nn_case("batchnorm_train", lambda: nn.BatchNorm1d(4), f(5, 4))
nn_case("batchnorm_eval", lambda: nn.BatchNorm1d(4).eval(), f(5, 4))
nn_case(
    "conv_pool_flatten",
    lambda: nn.Sequential(nn.Conv2d(2, 3, 3, padding=1, stride=1), nn.MaxPool2d(2), nn.Flatten()),
    f(2, 2, 6, 6),
)
nn_case("conv_strided_dilated", lambda: nn.Conv2d(2, 2, 3, stride=2, padding=2, dilation=2), f(1, 2, 7, 7))
nn_case("embedding", lambda: nn.Embedding(6, 3, padding_idx=0), i(6, 2, 4))
nn_case("dropout_eval", lambda: nn.Sequential(nn.Dropout(0.5), nn.Linear(4, 2)).eval(), f(3, 4))
nn_case("batchnorm2d_groupnorm", lambda: nn.Sequential(nn.BatchNorm2d(4), nn.GroupNorm(2, 4)), f(2, 4, 3, 3))
nn_case(
    "conv1d_transpose_pools",
    lambda: nn.Sequential(
        nn.Conv1d(2, 4, 3, padding=1, groups=2), nn.ConvTranspose1d(4, 2, 2, stride=2), nn.AvgPool1d(2)
    ),
    f(2, 2, 5),
)
nn_case("conv_transpose2d", lambda: nn.ConvTranspose2d(2, 3, 3, stride=2, padding=1, output_padding=1), f(1, 2, 3, 3))
nn_case(  # a DCGAN generator's layers: a 1x1 input, channels-last spreads and products, tiled max pool
    "dcgan_layers",
    lambda: nn.Sequential(
        nn.ConvTranspose2d(3, 20, 2, 1, 0),
        nn.BatchNorm2d(20),
        nn.ConvTranspose2d(20, 5, 4, 2, 1),
        nn.ReLU(),
        nn.MaxPool2d(2),
    ),
    f(2, 3, 1, 1),
)
nn_case(
    "multihead_attention",
    lambda: nn.MultiheadAttention(4, 2, batch_first=True),
    f(2, 3, 4),
    f(2, 5, 4),
    call=lambda m, q, kv: m(q, kv, kv)[0],
)
nn_case(
    "modulelist", lambda: nn.ModuleList([nn.Linear(3, 3), nn.Linear(3, 1)]), f(2, 3), call=lambda m, x: m[1](m[0](x))
)

LOSS_CASES: dict[str, tuple] = {
    "mse": (lambda x, t: F.mse_loss(x, t) + nn.MSELoss(reduction="sum")(x, t), f(3, 4), f(3, 4)),
    "l1": (lambda x, t: F.l1_loss(x, t) + nn.L1Loss()(x, t * 2), f(3, 4), f(3, 4)),
    "cross_entropy": (
        lambda x, t: (
            F.cross_entropy(x, t)
            + F.cross_entropy(x, t, label_smoothing=0.1, weight=mg.tensor([1.0, 2.0, 0.5], device=x.device).double())
            + nn.CrossEntropyLoss(ignore_index=1)(x, t)
        ),
        f(5, 3),
        i(3, 5),
    ),
    "cross_entropy_probs": (lambda x, t: F.cross_entropy(x, t.softmax(dim=1)), f(4, 3), f(4, 3)),
    "nll": (lambda x, t: F.nll_loss(x.log_softmax(dim=1), t) + nn.NLLLoss(reduction="sum")(x, t), f(5, 3), i(3, 5)),
    "bce": (
        lambda x, t: F.binary_cross_entropy(x.sigmoid(), t.sigmoid()) + nn.BCELoss()(x.sigmoid(), t.sigmoid()),
        f(6),
        f(6),
    ),
    "bce_logits": (
        lambda x, t: (
            F.binary_cross_entropy_with_logits(x, t.sigmoid())
            + nn.BCEWithLogitsLoss(pos_weight=mg.tensor([2.0, 0.5, 1.0], device=x.device).double())(x, t.sigmoid())
        ),
        f(2, 3),
        f(2, 3),
    ),
}
for _name, (_fn, *_inputs) in LOSS_CASES.items():
    case(f"loss_{_name}", *_inputs)(_fn)


OPTIMIZERS: dict[str, Callable] = {
    "sgd": lambda ps: mg.optim.SGD(ps, lr=0.1),
    "sgd_momentum_nesterov_wd": lambda ps: mg.optim.SGD(ps, lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01),
    "adam": lambda ps: mg.optim.Adam(ps, lr=0.01),
    "adam_amsgrad_wd": lambda ps: mg.optim.Adam(ps, lr=0.01, amsgrad=True, weight_decay=0.1),
    "adamw": lambda ps: mg.optim.AdamW(ps, lr=0.01, weight_decay=0.1),
    "rmsprop_centered_momentum": lambda ps: mg.optim.RMSprop(ps, lr=0.01, centered=True, momentum=0.5),
    "adagrad_decay_wd": lambda ps: mg.optim.Adagrad(ps, lr=0.1, lr_decay=0.1, weight_decay=0.1),
    "adadelta": lambda ps: mg.optim.Adadelta(ps, weight_decay=0.1),
    "adamax": lambda ps: mg.optim.Adamax(ps, weight_decay=0.1),
    "nadam_decoupled": lambda ps: mg.optim.NAdam(ps, weight_decay=0.1, decoupled_weight_decay=True),
    "radam": lambda ps: mg.optim.RAdam(ps, lr=0.01, weight_decay=0.1),
    "asgd": lambda ps: mg.optim.ASGD(ps, t0=1, weight_decay=0.1),
    "rprop": lambda ps: mg.optim.Rprop(ps, lr=0.05),
}


# ---------------------------------------------------------------- runners
def _seed_like(t: mg.Tensor, rng) -> mg.Tensor:
    return mg.tensor(rng.standard_normal(t.shape), dtype=t.dtype, device=t.device)


def _as_tuple(x) -> tuple:
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _host(t) -> np.ndarray:
    return np.asarray(to_host(t.array))


def run_case(c: Case, device, check) -> list[np.ndarray]:
    """Forward, grads (create_graph) and second-order grads of a case on ``device``, as host arrays.

    ``check(x)`` is called on every tensor (or raw state array) produced, to assert where it lives.
    """
    rng = np.random.default_rng(sum(map(ord, c.name)))
    inputs = [spec.make(rng, device) for spec in c.inputs]
    outs = _as_tuple(c.fn(*inputs))
    for o in outs:
        check(o)
    results = [_host(o) for o in outs]
    diff = [t for t in inputs if t.requires_grad]
    roots = [o for o in outs if o.requires_grad]
    if not (diff and roots):
        return results
    grads = mg.autograd.grad(roots, diff, [_seed_like(o, rng) for o in roots], create_graph=True, allow_unused=True)
    for g, t in zip(grads, diff):
        if g is not None:
            check(g)
            results.append(_host(g))
        else:
            results.append(np.zeros(t.shape))
    live = [g for g in grads if g is not None and g.requires_grad]
    if c.second_order and live:
        total = sum((g * g).sum() for g in live)
        second = mg.autograd.grad(total, diff, allow_unused=True)
        for g in second:
            if g is not None:
                check(g)
                results.append(_host(g))
    return results


def run_nn_case(name: str, device, check) -> list[np.ndarray]:
    """A module's output, input gradient and parameter gradients after ``backward()``."""
    build, inputs, call = NN_CASES[name]
    module = _module(build).to(device)
    rng = np.random.default_rng(sum(map(ord, name)))
    xs = [spec.make(rng, device) for spec in inputs]
    out = call(module, *xs)
    check(out)
    out.backward(_seed_like(out, rng))
    results = [_host(out)]
    for x in xs:
        if x.requires_grad:
            check(x)
            results.append(_host(x.grad))
    for param in module.parameters():
        check(param)
        results.append(_host(param.grad) if param.grad is not None else np.zeros(param.shape))
    for buf in module.buffers():
        check(buf)
        results.append(_host(buf))
    return results


def run_optimizer(name: str, device, check, steps: int = 3) -> list[np.ndarray]:
    """Parameters and optimizer state after a few steps of a small regression, as host arrays."""
    model = _module(lambda: nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))).to(device)
    opt = OPTIMIZERS[name](model.parameters())
    sched = mg.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
    rng = np.random.default_rng(1)
    x = mg.tensor(rng.standard_normal((8, 3)), dtype=mg.float64, device=device)
    y = mg.tensor(rng.standard_normal((8, 1)), dtype=mg.float64, device=device)
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        sched.step()
        losses.append(loss.item())
    results = [np.array(losses)]
    for param in model.parameters():
        check(param)
        results.append(_host(param))
        for value in opt.state[param].values():
            if isinstance(value, mg.Tensor):
                check(value)
                results.append(_host(value))
            elif hasattr(value, "shape"):
                check(value)
                results.append(np.asarray(to_host(value)))
    return results
