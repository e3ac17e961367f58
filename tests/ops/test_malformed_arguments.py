"""Malformed arguments to public ops: minigrad raises where PyTorch raises (the same exception class)
and returns PyTorch's value where PyTorch returns.

Each case is a valid call (``TEMPLATES``); hypothesis replaces one argument with a value drawn
from ``MALFORMED`` (None, a list, a str, a dict, a float where an int belongs, a dim out of
range, an index tensor out of range or negative, a tensor of the wrong shape, dtype or size).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import minigrad as mg

torch = pytest.importorskip("torch")


class T:
    """An array that each library turns into its own tensor."""

    def __init__(self, data):
        self.array = np.asarray(data)

    def __repr__(self) -> str:
        return f"T({self.array.tolist()!r}, {self.array.dtype})"


X = T(np.linspace(-1.5, 2.5, 6).reshape(2, 3))
V = T(np.array([0.5, -1.0, 2.0]))
P = T(np.linspace(0.2, 1.4, 6).reshape(2, 3))  # positive (log, sqrt, pow)
IDX = T(np.array([[0, 2, 1], [1, 0, 2]]))  # an index into X along dim 1
M = T(np.array([[True, False, True], [False, False, True]]))

TEMPLATES = {
    **{name: (X,) for name in ("exp", "sin", "cos", "tanh", "sigmoid", "relu", "abs", "neg", "erf", "sinh", "cosh")},
    **{name: (P,) for name in ("log", "sqrt", "rsqrt", "log1p", "reciprocal")},
    **{name: (X,) for name in ("atan", "tan", "expm1", "floor", "ceil", "sign", "square", "isnan")},
    **{name: (X, P) for name in ("add", "sub", "mul", "div", "maximum", "minimum", "atan2", "logaddexp", "eq", "lt")},
    "pow": (P, 2),
    "matmul": (X, V),
    "outer": (V, V),
    "dot": (V, V),
    **{name: (X, 1) for name in ("sum", "mean", "prod", "amax", "amin", "argmax", "logsumexp", "cumsum", "cumprod")},
    **{name: (X, 1) for name in ("softmax", "log_softmax", "std", "var", "unsqueeze", "squeeze", "flatten")},
    "norm": (X, 2, 1),
    "reshape": (X, (3, 2)),
    "transpose": (X, 0, 1),
    "permute": (X, (1, 0)),
    "flip": (X, (0,)),
    "roll": (X, 1, 1),
    "tril": (X, 0),
    "triu": (X, 1),
    "diag": (V, 0),
    "chunk": (X, 2, 1),
    "split": (X, 2, 1),
    "narrow": (X, 1, 0, 2),
    "select": (X, 1, 2),
    "movedim": (X, 0, 1),
    "gather": (X, 1, IDX),
    "index_select": (X, 1, T(np.array([2, 0]))),
    "take": (X, T(np.array([0, 5, -1]))),
    "scatter": (X, 1, IDX, P),
    "scatter_add": (X, 1, IDX, P),
    "masked_fill": (X, M, 0.5),
    "where": (M, X, P),
    "clamp": (X, -0.5, 0.5),
    "lerp": (X, P, 0.25),
    "repeat_interleave": (X, 2, 1),
    "cross": (T(np.arange(6.0).reshape(2, 3)), P, 1),
    "tile": (X, (2, 1)),
    "t": (X,),
    "sort": (X, 1, True),
    "argsort": (X, 1, True),
    "msort": (X,),
    "topk": (X, 2, 1, False, True),
    "tensor_split": (X, 2, 1),
    "nansum": (X, 1),
    "nanmean": (X, 1),
    "unique": (IDX, True, True, True),
    "bincount": (T(np.array([0, 2, 2, 1])), T(np.array([0.5, 1.0, 2.0, 3.0])), 4),
    "cdist": (X, P),
    "meshgrid": (V, V),
}

# nn.functional, called as ``lib.nn.functional.<name>``.
W = T(np.linspace(-1.0, 1.0, 12).reshape(4, 3))
IMAGES = T(np.linspace(-1.0, 1.0, 2 * 2 * 5 * 5).reshape(2, 2, 5, 5))
KERNELS = T(np.linspace(-0.5, 0.5, 3 * 2 * 3 * 3).reshape(3, 2, 3, 3))
LABELS = T(np.array([0, 2]))
FUNCTIONAL = {
    **{name: (X,) for name in ("relu", "gelu", "silu", "sigmoid", "tanh", "hardswish", "mish", "softsign")},
    "softmax": (X, 1),
    "log_softmax": (X, 0),
    "leaky_relu": (X, 0.1),
    "hardtanh": (X, -0.5, 0.5),
    "linear": (X, W, T(np.zeros(4))),
    "conv2d": (IMAGES, KERNELS, T(np.zeros(3)), 1, 1),
    "max_pool2d": (IMAGES, 2),
    "avg_pool2d": (IMAGES, 2),
    "mse_loss": (X, P),
    "l1_loss": (X, P),
    "cross_entropy": (X, LABELS),
    "nll_loss": (X, LABELS),
    "binary_cross_entropy_with_logits": (X, T(np.ones((2, 3)) * 0.5)),
    "layer_norm": (X, (3,)),
    "one_hot": (LABELS, 3),
    "pad": (X, (1, 1)),
    "embedding": (LABELS, W),
    "dropout": (X, 0.0),
    "huber_loss": (X, P, "mean", 0.5),
    "smooth_l1_loss": (X, P, None, None, "sum", 0.5),
    "kl_div": (X, P, None, None, "batchmean"),
    "cosine_similarity": (X, P, 1),
    "normalize": (X, 2.0, 1),
    "normalize_placeholder": None,
}
del FUNCTIONAL["normalize_placeholder"]

MALFORMED = [
    None,
    [1.0, 2.0],
    "a",
    {},
    1.5,
    7,
    -7,
    True,
    (0, 0),
    T(np.array([1.0, 2.0, 3.0, 4.0])),
    T(np.zeros((0, 3))),
    T(np.array([[5, 0, 1], [1, 0, 2]])),
    T(np.array([[-1, 0, 1], [1, 0, 2]])),
    T(np.array([1, 2, 3])),
    T(np.array([True, False, True])),
    T(np.array(2.0)),
]


def _as(lib, value):
    if isinstance(value, T):
        return lib.tensor(value.array.copy())
    return value


def _function(lib, form: str, name: str, args: tuple):
    """The callable and its arguments for one of three forms: ``lib.name``, ``lib.nn.functional.name``,
    or the method ``args[0].name`` (when the first argument is a tensor)."""
    if form == "functional":
        return getattr(lib.nn.functional, name), args
    if form == "method":
        return getattr(args[0], name), args[1:]
    return getattr(lib, name), args


def _call(lib, name: str, args: tuple, form: str = "function"):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            fn, rest = _function(lib, form, name, tuple(_as(lib, a) for a in args))
            return "ok", fn(*rest)
        except Exception as exc:  # noqa: BLE001  (the class is what is compared)
            return "raised", exc


def _arrays(out) -> list:
    if isinstance(out, (tuple, list)):
        return [a for o in out for a in _arrays(o)]
    if isinstance(out, torch.Tensor):
        return [out.detach().numpy()]
    if isinstance(out, mg.Tensor):
        return [np.asarray(out.array)]
    return [np.asarray(out)]


def _torch_exception_class(exc: Exception) -> type:
    """The class minigrad's error must have where PyTorch raises ``exc``.

    PyTorch's own subclasses count as their base, and NotImplementedError (a dtype without a
    kernel) as the RuntimeError it derives from. Where PyTorch's Python wrappers fail with an
    AttributeError on a non-tensor (``torch.norm([1.0])``, ``torch.split(None, 2)``), the clear
    error is a TypeError, which is what minigrad gives; likewise where a tensor given for a number
    fails in PyTorch's Python code with "Boolean value of Tensor ... is ambiguous".
    """
    if isinstance(exc, AttributeError) or str(exc).startswith("Boolean value of Tensor with"):
        return TypeError
    for cls in (IndexError, TypeError, ValueError, RuntimeError):
        if isinstance(exc, cls):
            return cls
    return type(exc)


# Where minigrad knowingly differs. Its reshape/permute/flip/tile functions take the method's
# varargs (``mg.reshape(x, 3, 2)`` as ``x.reshape(3, 2)``), so a bare int where torch's function
# form wants a tuple is a shape to them, not a type error. Its prod and logsumexp reduce over
# several dims, or all, as sum does (``dim=None`` or a tuple).
VARARGS = {"reshape", "permute", "flip", "tile"}
ANY_DIMS = {"prod", "logsumexp"}


# In nn.functional: layer_norm takes an int normalized_shape (as nn.LayerNorm does); softmax needs
# its dim (no implicit choice); pools and cross_entropy name the dims they need where torch fails
# on a dim out of range; hardtanh of integers computes in floats; a bad target's shape is always
# a ValueError and its dtype a RuntimeError (torch picks by which check its kernel runs first);
# a 0-dim tensor is not taken for a number.
FUNCTIONAL_DIFFERENCES = {
    ("cross_entropy", 0): lambda v: isinstance(v, T) and v.array.ndim == 0,
    ("cross_entropy", 1): lambda v: isinstance(v, T),
    ("nll_loss", 1): lambda v: isinstance(v, T),
    ("binary_cross_entropy_with_logits", 1): lambda v: isinstance(v, T) and v.array.dtype.kind in "iu",
    ("hardtanh", 0): lambda v: isinstance(v, T) and v.array.dtype.kind in "iu",
    ("embedding", 1): lambda v: isinstance(v, T) and v.array.size == 0,
    ("layer_norm", 1): lambda v: isinstance(v, int) and not isinstance(v, bool),
    ("softmax", 1): lambda v: v is None,
    ("log_softmax", 1): lambda v: v is None,
    ("avg_pool2d", 0): lambda v: isinstance(v, T) and v.array.ndim < 3,
    ("max_pool2d", 0): lambda v: isinstance(v, T) and v.array.ndim < 3,
}


def _known_difference(name: str, position: int, value, form: str = "function") -> bool:
    if form == "functional":
        if isinstance(value, T) and value.array.ndim == 0 and position > 0:
            return True
        return FUNCTIONAL_DIFFERENCES.get((name, position), lambda v: False)(value)
    if name in VARARGS and position == 1 and isinstance(value, int) and not isinstance(value, bool):
        return True
    return name in ANY_DIMS and position == 1 and (value is None or isinstance(value, tuple))


CASES = [("function", name) for name in sorted(TEMPLATES)]
CASES += [("method", name) for name in sorted(TEMPLATES) if hasattr(torch.Tensor, name) and name not in {"where"}]
CASES += [("functional", name) for name in sorted(FUNCTIONAL)]


def check_outcomes(form: str, name: str, args: tuple) -> None:
    """minigrad raises where torch raises (the same class), else returns torch's values."""
    theirs_kind, theirs = _call(torch, name, args, form)
    ours_kind, ours = _call(mg, name, args, form)
    if theirs_kind == "raised":
        assert ours_kind == "raised", f"torch raised {theirs!r}, minigrad returned {ours!r}"
        assert isinstance(ours, _torch_exception_class(theirs)), f"torch raised {theirs!r}, minigrad {ours!r}"
        return
    assert ours_kind == "ok", f"torch returned {theirs!r}, minigrad raised {ours!r}"
    expected, got = _arrays(theirs), _arrays(ours)
    assert len(expected) == len(got)
    for e, g in zip(expected, got):
        assert e.shape == g.shape
        np.testing.assert_allclose(g.astype(float), e.astype(float), rtol=1e-6, atol=1e-6, equal_nan=True)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(CASES), data=st.data())
def test_malformed_argument_gets_torchs_outcome(case, data):
    form, name = case
    args = list((FUNCTIONAL if form == "functional" else TEMPLATES)[name])
    first = 1 if form == "method" else 0  # a method's self stays a tensor
    position = data.draw(st.integers(first, len(args) - 1) if len(args) > first else st.just(None), label="position")
    if position is not None:
        args[position] = data.draw(st.sampled_from(MALFORMED), label="value")
        assume(not _known_difference(name, position, args[position], form))
    check_outcomes(form, name, tuple(args))


# The ops of issue 14's list of what a PyTorch user reaches for, every malformed value at every position.
EVERY_VALUE = ["sort", "argsort", "msort", "topk", "tensor_split", "nansum", "nanmean", "unique", "bincount", "cdist"]
EVERY_VALUE += ["meshgrid"]
EVERY_VALUE_FUNCTIONAL = ["huber_loss", "smooth_l1_loss", "kl_div", "cosine_similarity", "normalize"]


@pytest.mark.parametrize(
    "form, name",
    [("function", n) for n in EVERY_VALUE]
    + [("method", n) for n in EVERY_VALUE if hasattr(torch.Tensor, n)]
    + [("functional", n) for n in EVERY_VALUE_FUNCTIONAL],
)
def test_every_malformed_value_at_every_position(form, name):
    template = (FUNCTIONAL if form == "functional" else TEMPLATES)[name]
    for position in range(1 if form == "method" else 0, len(template)):
        for value in MALFORMED:
            args = list(template)
            args[position] = value
            check_outcomes(form, name, tuple(args))
