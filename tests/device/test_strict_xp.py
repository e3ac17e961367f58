"""The strict fake device catches host fallbacks (so the device suites can fail), and the
op code calls no NumPy function outside a reviewed allow-list (a scan covering paths the
cases do not run)."""

import ast
import pathlib

import numpy as np
import pytest

import minigrad as mg
from minigrad.tensor import make

from . import strict_xp
from .strict_xp import HostFallbackError, StrictArray


@pytest.fixture
def caught(strict_cuda):
    """Run violations on purpose; clear them so the fixture's teardown check passes."""
    yield strict_cuda
    strict_xp.VIOLATIONS.clear()


def test_device_arrays_are_strict_and_xp_works(strict_cuda):
    x = mg.tensor([1.0, 4.0], device="cuda")
    assert x.device == "cuda:0" and x.device is strict_cuda and x.is_cuda
    assert type(x.array) is StrictArray and not isinstance(x.array, np.ndarray)
    assert mg.backend.is_cupy_array(x.array)
    xp = x.device.xp
    r = xp.sqrt(x.array)
    assert type(r) is StrictArray and r.tolist() == [1.0, 2.0]
    assert type(x.array.sum()) is StrictArray  # reductions give 0-d device arrays, as CuPy does
    assert type(x.array * 2 + np.float64(1)) is StrictArray
    np.testing.assert_array_equal(x.cpu().numpy(), [1.0, 4.0])


@pytest.mark.parametrize(
    "misuse",
    [
        lambda a: np.exp(a),
        lambda a: np.asarray(a),
        lambda a: np.concatenate([a, a]),
        lambda a: np.ones(2) * a,
        lambda a: a + np.ones(2),
        lambda a: a[np.array([0, 1])],
        lambda a: a.__setitem__(slice(None), np.zeros(2)),
    ],
    ids=["ufunc", "asarray", "function", "host_lhs", "host_rhs", "host_index", "host_setitem"],
)
def test_host_use_of_a_device_array_is_caught(caught, misuse):
    a = mg.tensor([1.0, 2.0], device="cuda").array
    with pytest.raises(HostFallbackError):
        misuse(a)
    assert strict_xp.VIOLATIONS


def test_a_numpy_only_op_is_caught_and_located(caught):
    def host_exp(a):
        return make(np.exp(a.array), (a,), lambda g: (g,), "host_exp")

    x = mg.tensor([0.0, 1.0], device="cuda", requires_grad=True)
    with pytest.raises(HostFallbackError, match="np.exp"):
        host_exp(x)
    assert host_exp(x.detach().cpu()).array.tolist() == pytest.approx([1.0, np.e])


def test_a_swallowed_fallback_is_still_recorded(caught):
    x = mg.tensor([1.0], device="cuda")
    try:
        np.asarray(x.array)
    except TypeError:
        pass
    assert any("implicit conversion" in v for v in strict_xp.VIOLATIONS)


# ---------------------------------------------------------------- source scan
ROOT = pathlib.Path(mg.__file__).parent
SCANNED = ("ops", "nn", "optim", "autograd")

# Type checks, dtypes and pure shape arithmetic are fine anywhere.
ALLOWED = {
    "ndarray",
    "generic",
    "integer",
    "number",
    "floating",
    "bool_",
    "complexfloating",
    "finfo",
    "inf",
    "errstate",  # NumPy's floating-point warning switch: nothing to do with where the data lives
    "int64",
    "float64",
    "dtype",
    "broadcast_shapes",
    "iinfo",  # an integer dtype's range, as finfo a float's
    "promote_types",  # dtype arithmetic
}
# Reviewed host-side uses, each on host data only.
ALLOWED_IN = {
    # Jacobians are assembled on the host from to_host() copies; gradgradcheck's random seeds are moved with xp.
    "autograd/gradcheck.py": {"abs", "argwhere", "concatenate", "isclose", "random", "stack", "unravel_index", "zeros"},
    # save()/load() files, and load_state_dict of host data before it is moved to the parameter's device.
    "nn/module.py": {"asarray", "load", "savez"},
    # interpolate's source positions and weights: host index math per output axis, moved with xp.asarray.
    "nn/functional/_interpolate.py": {"arange", "floor", "maximum", "minimum"},
    # index lists from the user, moved with to_device_array.
    "ops/indexing.py": {"asarray"},
    # pad's reflect/replicate/circular source positions: small host index math, moved with xp.asarray.
    "ops/shape.py": {"arange", "clip", "abs", "where"},
    # an in-place op on a view: the view's element positions in its base, from host addresses and strides.
    "ops/inplace.py": {"argsort", "arange", "full", "minimum", "searchsorted", "zeros"},
    # ctc_loss's lengths and extended label rows: host index math from .cpu() copies, moved with xp / _const.
    "nn/functional/_ctc_loss.py": {"asarray", "atleast_1d", "cumsum", "full", "maximum", "zeros"},
    # embedding_bag's offsets and bag bounds, and max_norm's used rows: host index math from .cpu() copies.
    "nn/functional/_embedding_bag.py": {"append", "arange", "asarray", "flatnonzero", "ones", "unique", "zeros"},
    # instance_norm: the product of the spatial sizes (a shape, not data).
    "nn/functional/_instance_rms_norm.py": {"prod"},
    # linear's row trick runs only on NumPy arrays (``type(x) is np.ndarray``); CuPy takes x @ w.T.
    "nn/functional/_linear.py": {"ascontiguousarray"},
    # whether a mask is the causal one: compared on a host copy of the mask.
    "nn/transformer.py": {"ones", "triu"},
    # pdist's row pairs: host index math from the row count, moved with xp.asarray.
    "ops/distance.py": {"triu_indices"},
    # apply_ runs only on CPU tensors (torch refuses others): the callable's results gathered on the host.
    "ops/inplace_variants.py": {"array"},
    # multilabel_margin_loss's target masks: host index math from a .cpu() copy of the labels, moved with tensor().
    "nn/functional/_margin_loss.py": {"cumprod", "nonzero", "where", "zeros"},
    # fractional_max_pool2d's window positions: host index math from a .cpu() copy of the samples, moved with xp.
    "nn/functional/_fractional_pool.py": {"arange", "empty"},
    # float32 erf and gelu: called only on the `xp.__name__ == "numpy"` branches of _erf_array and _gelu_arrays.
    "ops/_erf_float32.py": {"add", "clip", "divide", "empty", "exp", "float32", "multiply", "tanh"},
    # _erf_array's dtype test, on its NumPy branch (CuPy goes to cupyx.scipy.special.erf).
    "ops/elementwise.py": {"float32"},
    # embedding's backward sums repeated rows by sort and rounds or add.reduceat on its NumPy branch (CuPy: xp.add.at).
    "nn/functional/_embedding.py": {"add", "arange", "argsort", "concatenate", "diff", "flatnonzero", "repeat"},
    # kept scratch memory, on the `xp is np` branch only (CuPy arrays come from CuPy's own memory pool).
    "_workspace.py": {"empty", "uint8"},
}


def _numpy_uses():
    for sub in SCANNED:
        for path in sorted((ROOT / sub).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if (
                    isinstance(node, ast.Attribute)
                    and isinstance(node.value, ast.Name)
                    and node.value.id in ("np", "numpy")
                ):
                    yield rel, node.lineno, node.attr


def test_op_code_calls_numpy_only_where_reviewed():
    bad = [
        f"minigrad/{rel}:{line}: np.{attr}"
        for rel, line, attr in _numpy_uses()
        if attr not in ALLOWED and attr not in ALLOWED_IN.get(rel, ())
    ]
    assert not bad, (
        "NumPy calls in code that CUDA tensors run: use the tensor's `t.device.xp` instead "
        "(or, for host-only data, add a reviewed entry to ALLOWED_IN):\n" + "\n".join(bad)
    )


def test_the_scan_sees_numpy_calls():
    assert ("ops/shape.py", "arange") in {(rel, attr) for rel, _, attr in _numpy_uses()}
