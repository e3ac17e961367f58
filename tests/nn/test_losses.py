"""Losses: gradcheck of every loss and option, stability, errors, and values against PyTorch."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad as mg
from minigrad.autograd import gradcheck, gradgradcheck
from minigrad.nn import functional as F
from tests.conftest import rand64

REDUCTIONS = ["mean", "sum", "none"]


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("loss", [F.mse_loss, F.l1_loss])
def test_regression_losses_gradcheck(loss, reduction):
    assert gradcheck(lambda a, b: loss(a, b, reduction=reduction), (rand64(3, 4), rand64(3, 4)))


def test_regression_loss_values_and_size_warning():
    a, b = mg.tensor([1.0, 2.0, 4.0]), mg.tensor([1.0, 0.0, 1.0])
    assert F.mse_loss(a, b).item() == pytest.approx(13 / 3)
    assert F.l1_loss(a, b, reduction="sum").item() == 5
    with pytest.warns(UserWarning, match=r"target size \(\[3, 1\]\).*input size \(\[3\]\)"):
        F.mse_loss(a, b.reshape(3, 1))
    with pytest.raises(ValueError, match="elementwise is not a valid value for reduction"):
        F.mse_loss(a, b, reduction="elementwise")


CE_OPTIONS = [
    {},
    {"reduction": "sum"},
    {"reduction": "none"},
    {"label_smoothing": 0.2},
    {"ignore_index": 1},
    {"ignore_index": 1, "label_smoothing": 0.1, "weight": [0.5, 2.0, 1.0, 1.5]},
    {"weight": [0.5, 2.0, 1.0, 1.5], "reduction": "none"},
]


@pytest.mark.parametrize("options", CE_OPTIONS, ids=str)
def test_cross_entropy_with_class_targets_gradcheck(options):
    options = dict(options)
    if "weight" in options:
        options["weight"] = mg.tensor(options["weight"], dtype=mg.float64)
    target = mg.tensor([0, 1, 3, 1, 2])
    assert gradcheck(lambda x: F.cross_entropy(x, target, **options), (rand64(5, 4),))


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"label_smoothing": 0.3},
        {"reduction": "none"},
        {"reduction": "sum", "weight": [0.5, 2.0, 1.0, 1.5]},
        {"label_smoothing": 0.2, "weight": [0.5, 2.0, 1.0, 1.5], "reduction": "none"},
    ],
    ids=str,
)
def test_cross_entropy_with_probability_targets_gradcheck_in_both_inputs(options):
    options = dict(options)
    if "weight" in options:
        options["weight"] = mg.tensor(options["weight"], dtype=mg.float64)
    probs = F.softmax(rand64(3, 4, requires_grad=False), 1).detach().requires_grad_()
    assert gradcheck(lambda x, p: F.cross_entropy(x, p, **options), (rand64(3, 4), probs))
    assert gradgradcheck(lambda x, p: F.cross_entropy(x, p, **options), (rand64(3, 4), probs))


def test_cross_entropy_second_order_and_higher_dims():
    target = mg.tensor([2, 0, 1])
    assert gradgradcheck(lambda x: F.cross_entropy(x, target, label_smoothing=0.1), (rand64(3, 3),))
    probs = F.softmax(rand64(2, 3, requires_grad=False), 1).detach().requires_grad_()
    assert gradgradcheck(lambda x, p: F.cross_entropy(x, p), (rand64(2, 3), probs))
    spatial = mg.tensor([[0, 2], [1, 1]])
    assert gradcheck(lambda x: F.cross_entropy(x, spatial, reduction="none"), (rand64(2, 3, 2),))
    assert F.cross_entropy(rand64(2, 3, 2), spatial, reduction="none").shape == (2, 2)
    assert gradcheck(lambda x: F.cross_entropy(x, mg.tensor(1)), (rand64(3),))
    assert F.cross_entropy(rand64(3), mg.tensor(1), reduction="none").shape == ()


CLASS_INDEX_SHAPES = {"rows": ((5, 4), (5,)), "one row": ((4,), ()), "K-dim": ((2, 4, 3, 2), (2, 3, 2))}
CLASS_INDEX_OPTIONS = [{}, {"weight": True}, {"ignore_index": 1}, {"weight": True, "ignore_index": 1}]
SMOOTHED_OPTIONS = [{**options, "label_smoothing": 0.15} for options in CLASS_INDEX_OPTIONS]


def _class_indices(shape, seed):
    """Targets in [0, 4) with a 1 (the ignored class, when one is) and a class that counts."""
    t = np.random.default_rng(seed).integers(0, 4, shape)
    if t.ndim:
        t.flat[0], t.flat[-1] = 1, 3
    else:
        t = np.array(2)
    return mg.tensor(t)


def _class_index_options(options):
    return {k: (mg.tensor([0.5, 2.0, 1.0, 1.5], dtype=mg.float64) if k == "weight" else v) for k, v in options.items()}


def _class_index_definition(x, t, reduction, weight=None, ignore_index=-100, label_smoothing=0.0):
    """cross_entropy as PyTorch defines it: (1 - e) * nll + e * smooth, with nll = -c * log_softmax(x)[t] and
    c = weight[t] (0 where t is ignore_index), smooth = -k * sum over classes of weight * log_softmax(x) / C
    (k = 0 where t is ignore_index, else 1), as dense target matrices; the mean divides by the sum of the c."""
    classes, dim = (x.shape[0], 0) if x.ndim == 1 else (x.shape[1], 1)
    kept = t.array != ignore_index
    safe = np.where(kept, t.array, 0)
    w = np.ones(classes) if weight is None else weight.array
    c = w[safe] * kept
    onehot = np.eye(classes)[safe] * c[..., None]
    spread = np.broadcast_to(w, onehot.shape) * kept[..., None] / classes
    q = np.moveaxis((1 - label_smoothing) * onehot + label_smoothing * spread, -1, dim)
    per_row = -(F.log_softmax(x, dim) * mg.tensor(q)).sum(dim)
    return {"mean": per_row.sum() / c.sum(), "sum": per_row.sum(), "none": per_row}[reduction]


@pytest.mark.parametrize("options", CLASS_INDEX_OPTIONS + SMOOTHED_OPTIONS, ids=str)
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("shape", CLASS_INDEX_SHAPES, ids=str)
def test_cross_entropy_with_class_indices_is_its_definition_and_differentiates_twice(shape, reduction, options):
    x_shape, t_shape = CLASS_INDEX_SHAPES[shape]
    t, options = _class_indices(t_shape, 7), _class_index_options(options)
    x = rand64(*x_shape)
    loss = F.cross_entropy(x, t, reduction=reduction, **options)
    reference = _class_index_definition(x, t, reduction, **options)
    assert loss.shape == reference.shape
    np.testing.assert_allclose(loss.array, reference.array, rtol=1e-12, atol=1e-14)
    weights = mg.tensor(np.linspace(0.5, 2.0, max(loss.numel(), 1)).reshape(loss.shape))
    (g_loss,) = mg.autograd.grad((loss * weights).sum(), x)
    (g_ref,) = mg.autograd.grad((reference * weights).sum(), x)
    np.testing.assert_allclose(g_loss.array, g_ref.array, rtol=1e-10, atol=1e-14)
    assert gradcheck(lambda x: F.cross_entropy(x, t, reduction=reduction, **options), (x,))
    assert gradgradcheck(lambda x: F.cross_entropy(x, t, reduction=reduction, **options), (x,))


@pytest.mark.parametrize("options", CLASS_INDEX_OPTIONS + SMOOTHED_OPTIONS, ids=str)
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("shape", CLASS_INDEX_SHAPES, ids=str)
def test_cross_entropy_with_class_indices_forward_mode_is_its_definition(shape, reduction, options):
    x_shape, t_shape = CLASS_INDEX_SHAPES[shape]
    t, options = _class_indices(t_shape, 8), _class_index_options(options)
    x, tangent = rand64(*x_shape, requires_grad=False), rand64(*x_shape, requires_grad=False)
    _, mine = mg.func.jvp(lambda x: F.cross_entropy(x, t, reduction=reduction, **options), (x,), (tangent,))
    _, reference = mg.func.jvp(lambda x: _class_index_definition(x, t, reduction, **options), (x,), (tangent,))
    np.testing.assert_allclose(mine.array, reference.array, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize(
    "options", [{}, {"label_smoothing": 0.1}, {"ignore_index": 1}, {"weight": [1.0, 2.0, 0.5, 1.0, 1.5]}], ids=str
)
def test_cross_entropy_keeps_its_values_between_calls(options):
    """The forward's exponentials are scratch memory used again by the next call: neither a loss nor a
    gradient may be made of them, the backward reads them only while no later call has written over them,
    and a retained graph gives the same gradient each time."""
    options = {k: (mg.tensor(v, dtype=mg.float64) if k == "weight" else v) for k, v in options.items()}
    x, t = rand64(6, 5), mg.tensor([0, 4, 1, 1, 2, 3])
    loss = F.cross_entropy(x, t, reduction="none", **options)
    kept = loss.array.copy()
    (before,) = mg.autograd.grad(loss.sum(), x, retain_graph=True)
    before = before.array.copy()
    other = F.cross_entropy(rand64(6, 5) * 3, mg.tensor([1, 2, 1, 1, 1, 0]), reduction="none", **options)
    np.testing.assert_array_equal(loss.array, kept)
    (first,) = mg.autograd.grad(loss.sum(), x, retain_graph=True)
    first = first.array.copy()
    np.testing.assert_allclose(first, before, rtol=1e-15, atol=1e-17)
    other.sum().backward()
    (second,) = mg.autograd.grad(loss.sum(), x)
    np.testing.assert_array_equal(second.array, first)


def test_cross_entropy_refuses_logits_written_in_place_before_backward():
    x = rand64(3, 4)
    logits = x * 1.0
    loss = F.cross_entropy(logits, mg.tensor([0, 1, 3]))
    with mg.no_grad():
        logits.add_(1.0)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        loss.backward()


def test_cross_entropy_is_stable_for_huge_logits():
    x = mg.tensor([[1e4, 0.0, -1e4], [-1e4, 1e4, 1e4]], requires_grad=True)
    loss = F.cross_entropy(x, mg.tensor([0, 0]), reduction="none")
    np.testing.assert_allclose(loss.array, [0.0, 2e4 + np.log(2)], rtol=1e-6)
    loss.sum().backward()
    np.testing.assert_allclose(x.grad.array, [[0, 0, 0], [-1, 0.5, 0.5]], atol=1e-6)
    assert np.isfinite(F.cross_entropy(x * 100, mg.tensor([2, 1])).item())


def test_cross_entropy_target_errors():
    x = mg.randn(3, 4)
    with pytest.raises(IndexError, match=r"target 4 is out of bounds for 4 classes \(expected values in \[0, 3\]\)"):
        F.cross_entropy(x, mg.tensor([0, 4, 1]))
    with pytest.raises(IndexError, match="target -1 is out of bounds"):
        F.cross_entropy(x, mg.tensor([0, -1, 1]))
    with pytest.raises(ValueError, match=r"Expected input batch_size \(3\) to match target batch_size \(2\)"):
        F.cross_entropy(x, mg.tensor([0, 1]))
    with pytest.raises(RuntimeError, match=r"probability target of shape \[3, 3\]"):
        F.cross_entropy(x, mg.zeros(3, 3))
    with pytest.raises(ValueError, match="label_smoothing must be between"):
        F.cross_entropy(x, mg.tensor([0, 1, 2]), label_smoothing=1.5)
    with pytest.raises(RuntimeError, match=r"weight of shape \[3\] does not match the 4 classes"):
        F.cross_entropy(x, mg.tensor([0, 1, 2]), weight=mg.ones(3))
    assert F.cross_entropy(x, mg.tensor([0, -100, 1])).item() > 0  # the default ignore_index is fine


@pytest.mark.parametrize(
    "options",
    [{}, {"reduction": "none"}, {"ignore_index": 0}, {"weight": [1.0, 0.5, 2.0], "reduction": "sum"}],
    ids=str,
)
def test_nll_loss_gradcheck(options):
    options = dict(options)
    if "weight" in options:
        options["weight"] = mg.tensor(options["weight"], dtype=mg.float64)
    target = mg.tensor([0, 2, 1, 0])
    assert gradcheck(lambda x: F.nll_loss(x, target, **options), (rand64(4, 3),))


def test_nll_loss_of_log_softmax_is_cross_entropy():
    x, t = rand64(5, 4), mg.tensor([3, 1, 0, 0, 2])
    np.testing.assert_allclose(F.nll_loss(F.log_softmax(x, 1), t).array, F.cross_entropy(x, t).array)


@pytest.mark.parametrize("options", CLASS_INDEX_OPTIONS, ids=str)
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("shape", CLASS_INDEX_SHAPES, ids=str)
def test_nll_loss_is_its_definition_and_differentiates_twice(shape, reduction, options):
    """nll_loss of log-probabilities is cross_entropy of the logits, for every kind of class-index target."""
    x_shape, t_shape = CLASS_INDEX_SHAPES[shape]
    t, options = _class_indices(t_shape, 9), _class_index_options(options)
    x = rand64(*x_shape)
    log_probs = F.log_softmax(x, 0 if x.ndim == 1 else 1)
    loss = F.nll_loss(log_probs, t, reduction=reduction, **options)
    reference = _class_index_definition(x, t, reduction, **options)
    np.testing.assert_allclose(loss.array, reference.array, rtol=1e-12, atol=1e-14)
    (g_loss,) = mg.autograd.grad(loss.sum(), x)
    (g_ref,) = mg.autograd.grad(reference.sum(), x)
    np.testing.assert_allclose(g_loss.array, g_ref.array, rtol=1e-10, atol=1e-14)
    lp = log_probs.detach().requires_grad_()
    assert gradcheck(lambda lp: F.nll_loss(lp, t, reduction=reduction, **options), (lp,))
    assert gradgradcheck(lambda lp: F.nll_loss(lp, t, reduction=reduction, **options), (lp,))


@pytest.mark.parametrize(
    "options", [{}, {"reduction": "none"}, {"reduction": "sum", "ignore_index": 2, "weight": True}], ids=str
)
@pytest.mark.parametrize("shape", [(7, 5), (2, 5, 3, 2), (70, 1000)], ids=str)
def test_nll_loss_float32_keeps_float32_and_torchs_values_and_gradients(options, shape):
    torch = pytest.importorskip("torch")
    options = dict(options)
    rng = np.random.default_rng(32)
    x = np.log(rng.dirichlet(np.ones(shape[1]), (shape[0],) + shape[2:])).astype(np.float32)
    x = np.moveaxis(x, -1, 1).copy()
    t = rng.integers(0, shape[1], (shape[0],) + shape[2:])
    t.flat[0] = 2
    weight = rng.random(shape[1]).astype(np.float32) if options.pop("weight", False) else None
    mine_x, theirs_x = mg.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    mine = F.nll_loss(mine_x, mg.tensor(t), weight=None if weight is None else mg.tensor(weight), **options)
    theirs = torch.nn.functional.nll_loss(
        theirs_x, torch.from_numpy(t), weight=None if weight is None else torch.from_numpy(weight), **options
    )
    mine.sum().backward()
    theirs.sum().backward()
    assert mine.dtype == mg.float32 and mine_x.grad.dtype == mg.float32
    np.testing.assert_allclose(mine.array, theirs.detach().numpy(), rtol=2e-6, atol=2e-6)
    np.testing.assert_allclose(mine_x.grad.array, theirs_x.grad.numpy(), rtol=2e-6, atol=1e-9)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_binary_cross_entropy_gradcheck(reduction):
    p = F.sigmoid(rand64(3, 2, requires_grad=False)).detach().requires_grad_()
    y = mg.tensor(np.random.default_rng(2).random((3, 2)))
    w = mg.tensor([0.5, 2.0], dtype=mg.float64)
    assert gradcheck(lambda p: F.binary_cross_entropy(p, y, weight=w, reduction=reduction), (p,))


def test_binary_cross_entropy_clamps_logs_and_checks_range():
    p = mg.tensor([0.0, 1.0, 0.5], requires_grad=True)
    loss = F.binary_cross_entropy(p, mg.tensor([1.0, 0.0, 1.0]), reduction="none")
    np.testing.assert_allclose(loss.array, [100.0, 100.0, np.log(2)], rtol=1e-6)
    loss.sum().backward()
    assert np.isfinite(p.grad.array).all()
    with pytest.raises(RuntimeError, match="between 0 and 1"):
        F.binary_cross_entropy(mg.tensor([1.5]), mg.tensor([1.0]))
    with pytest.raises(ValueError, match="different to the input size"):
        F.binary_cross_entropy(mg.tensor([0.5]), mg.tensor([1.0, 0.0]))


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_binary_cross_entropy_with_logits_gradcheck(reduction):
    y = mg.tensor(np.random.default_rng(3).random((4, 3)), requires_grad=True)
    pw, w = mg.tensor([1.0, 3.0, 0.5], dtype=mg.float64), mg.tensor([[2.0], [1.0], [0.5], [1.0]], dtype=mg.float64)
    assert gradcheck(lambda x, y: F.binary_cross_entropy_with_logits(x, y, reduction=reduction), (rand64(4, 3), y))
    assert gradcheck(
        lambda x: F.binary_cross_entropy_with_logits(x, y.detach(), w, reduction=reduction, pos_weight=pw),
        (rand64(4, 3),),
    )


def test_binary_cross_entropy_with_logits_is_stable():
    x = mg.tensor([1e4, -1e4, 0.0], requires_grad=True)
    loss = F.binary_cross_entropy_with_logits(x, mg.tensor([0.0, 0.0, 1.0]), reduction="none")
    np.testing.assert_allclose(loss.array, [1e4, 0.0, np.log(2)], rtol=1e-6)
    loss.sum().backward()
    np.testing.assert_allclose(x.grad.array, [1.0, 0.0, -0.5], atol=1e-7)
    with pytest.raises(ValueError, match=r"Target size \(\[2\]\) must be the same as input size \(\[3\]\)"):
        F.binary_cross_entropy_with_logits(x, mg.tensor([0.0, 1.0]))


def test_loss_modules_forward_to_functional():
    from minigrad import nn

    x, t = rand64(4, 3), mg.tensor([0, 2, 1, 1])
    assert nn.CrossEntropyLoss(label_smoothing=0.1)(x, t).item() == F.cross_entropy(x, t, label_smoothing=0.1).item()
    assert repr(nn.MSELoss(reduction="sum")) == "MSELoss(reduction='sum')"
    with pytest.raises(ValueError, match="not a valid value"):
        nn.L1Loss(reduction="avg")


def test_losses_match_pytorch():
    torch = pytest.importorskip("torch")
    tF = torch.nn.functional
    rng = np.random.default_rng(5)
    x = rng.standard_normal((6, 4, 3)) * 3
    t = rng.integers(0, 4, (6, 3))
    t[0, 0] = t[3, 2] = 2
    w = np.array([0.5, 2.0, 1.0, 1.5])
    probs = rng.dirichlet(np.ones(4), (6, 3)).transpose(0, 2, 1).copy()
    for options in [
        {},
        {"reduction": "none"},
        {"ignore_index": 2},
        {"label_smoothing": 0.15, "ignore_index": 2},
        {"weight": w, "label_smoothing": 0.15, "ignore_index": 2},
        {"weight": w, "reduction": "sum"},
    ]:
        mine = F.cross_entropy(
            mg.tensor(x), mg.tensor(t), **{k: (mg.tensor(v) if k == "weight" else v) for k, v in options.items()}
        )
        theirs = tF.cross_entropy(
            torch.from_numpy(x),
            torch.from_numpy(t),
            **{k: (torch.from_numpy(v) if k == "weight" else v) for k, v in options.items()},
        )
        np.testing.assert_allclose(mine.array, theirs.numpy(), rtol=1e-12, err_msg=str(options))
        if "label_smoothing" not in options:
            lp = tF.log_softmax(torch.from_numpy(x), 1)
            theirs = tF.nll_loss(
                lp,
                torch.from_numpy(t),
                **{k: (torch.from_numpy(v) if k == "weight" else v) for k, v in options.items()},
            )
            mine = F.nll_loss(
                mg.tensor(lp.numpy()),
                mg.tensor(t),
                **{k: (mg.tensor(v) if k == "weight" else v) for k, v in options.items()},
            )
            np.testing.assert_allclose(mine.array, theirs.numpy(), rtol=1e-12, err_msg=str(options))
    for options in [{}, {"label_smoothing": 0.2, "weight": w}]:
        mine = F.cross_entropy(
            mg.tensor(x), mg.tensor(probs), **{k: (mg.tensor(v) if k == "weight" else v) for k, v in options.items()}
        )
        theirs = tF.cross_entropy(
            torch.from_numpy(x),
            torch.from_numpy(probs),
            **{k: (torch.from_numpy(v) if k == "weight" else v) for k, v in options.items()},
        )
        np.testing.assert_allclose(mine.array, theirs.numpy(), rtol=1e-12)
    z, y = rng.standard_normal((5, 3)) * 4, rng.random((5, 3))
    pw = np.array([1.0, 2.0, 0.5])
    np.testing.assert_allclose(
        F.binary_cross_entropy_with_logits(mg.tensor(z), mg.tensor(y), pos_weight=mg.tensor(pw)).array,
        tF.binary_cross_entropy_with_logits(torch.from_numpy(z), torch.from_numpy(y), pos_weight=torch.from_numpy(pw)),
        rtol=1e-12,
    )
    p = 1 / (1 + np.exp(-z))
    np.testing.assert_allclose(
        F.binary_cross_entropy(mg.tensor(p), mg.tensor(y)).array,
        tF.binary_cross_entropy(torch.from_numpy(p), torch.from_numpy(y)),
        rtol=1e-12,
    )


@settings(max_examples=20, deadline=None)
@given(
    rows=st.integers(1, 6),
    classes=st.integers(1, 5),
    smoothing=st.sampled_from([0.0, 0.1]),
    seed=st.integers(0, 2**16),
)
def test_cross_entropy_equals_its_definition(rows, classes, smoothing, seed):
    rng = np.random.default_rng(seed)
    x = mg.tensor(rng.standard_normal((rows, classes)) * 5, dtype=mg.float64, requires_grad=True)
    t = rng.integers(0, classes, rows)
    q = np.eye(classes)[t] * (1 - smoothing) + smoothing / classes
    reference = -(F.log_softmax(x, 1) * mg.tensor(q)).sum() / rows
    loss = F.cross_entropy(x, mg.tensor(t), label_smoothing=smoothing)
    np.testing.assert_allclose(loss.array, reference.array, rtol=1e-12, atol=1e-12)
    (g_loss,) = mg.autograd.grad(loss, x)
    (g_ref,) = mg.autograd.grad(reference, x)
    np.testing.assert_allclose(g_loss.array, g_ref.array, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"reduction": "sum"},
        {"reduction": "none"},
        {"label_smoothing": 0.1},
        {"ignore_index": 2, "weight": [0.5, 2.0, 1.0, 1.5, 1.0]},
        {"label_smoothing": 0.1, "ignore_index": 2, "weight": [0.5, 2.0, 1.0, 1.5, 1.0]},
        {"label_smoothing": 0.1, "ignore_index": 2, "reduction": "none"},
        {"label_smoothing": 0.1, "weight": [0.5, 2.0, 1.0, 1.5, 1.0], "reduction": "sum"},
        {"probabilities": True, "label_smoothing": 0.2},
    ],
    ids=str,
)
@pytest.mark.parametrize("shape", [(7, 5), (3, 5, 4), (2, 5, 3, 2), (70, 1000)], ids=str)
def test_cross_entropy_float32_keeps_float32_and_torchs_values_and_gradients(options, shape):
    torch = pytest.importorskip("torch")
    options = dict(options)
    rng = np.random.default_rng(31)
    x = (rng.standard_normal(shape) * 4).astype(np.float32)
    if options.pop("probabilities", False):
        t = rng.dirichlet(np.ones(shape[1]), (shape[0],) + shape[2:]).astype(np.float32)
        t = np.moveaxis(t, -1, 1).copy()
    else:
        t = rng.integers(0, shape[1], (shape[0],) + shape[2:])
        t.flat[0] = 2
    weight = options.pop("weight", None)
    weight = None if weight is None else np.resize(np.array(weight, dtype=np.float32), shape[1])
    mine_x = mg.tensor(x, requires_grad=True)
    theirs_x = torch.tensor(x, requires_grad=True)
    mine = F.cross_entropy(mine_x, mg.tensor(t), weight=None if weight is None else mg.tensor(weight), **options)
    theirs = torch.nn.functional.cross_entropy(
        theirs_x, torch.from_numpy(t), weight=None if weight is None else torch.tensor(weight), **options
    )
    mine.sum().backward()
    theirs.sum().backward()
    assert mine.dtype == mg.float32 and mine_x.grad.dtype == mg.float32
    np.testing.assert_allclose(mine.array, theirs.detach().numpy(), rtol=2e-6, atol=2e-6)
    np.testing.assert_allclose(mine_x.grad.array, theirs_x.grad.numpy(), rtol=2e-5, atol=2e-7)
    np.testing.assert_array_equal(mine_x.array, x)  # the forward's in-place buffer is never the input's array


@pytest.mark.parametrize(
    "fn, kwargs",
    [
        ("cross_entropy", {}),
        ("cross_entropy", {"weight": [0.5, 1.0, 2.0, 1.5]}),
        ("cross_entropy", {"label_smoothing": 0.1}),
        ("cross_entropy", {"weight": [0.5, 1.0, 2.0, 1.5], "label_smoothing": 0.1}),
        ("nll_loss", {}),
        ("nll_loss", {"weight": [0.5, 1.0, 2.0, 1.5]}),
    ],
)
@pytest.mark.parametrize("shape", [(3, 4), (2, 4, 3)])
def test_a_mean_over_only_ignored_rows_is_nan_and_sends_back_zeros(fn, kwargs, shape):
    # As PyTorch: the mean is 0/0, and ignored rows are skipped by the backward, so a batch made only of
    # padding leaves the parameters' gradients at zero instead of NaN, and no NumPy warning is printed.
    kwargs = {k: mg.tensor(v, dtype=mg.float64) if k == "weight" else v for k, v in kwargs.items()}
    x = mg.randn(*shape, dtype=mg.float64, requires_grad=True)
    target = mg.ones((shape[0], *shape[2:]), dtype=mg.int64)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        loss = getattr(F, fn)(x, target, ignore_index=1, **kwargs)
        loss.backward()
    assert np.isnan(loss.item())
    np.testing.assert_array_equal(x.grad.numpy(), np.zeros(shape))


@pytest.mark.parametrize(
    "options",
    [
        {"label_smoothing": 0.2},
        {"label_smoothing": 0.2, "ignore_index": 2},
        {"label_smoothing": 0.2, "reduction": "sum", "weight": [0.5, 2.0, 1.0, 1.5, 1.0]},
    ],
    ids=str,
)
def test_cross_entropy_with_label_smoothing_per_example_gradients_and_hessian_match_torch_func(options):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(12)
    x, t = rng.standard_normal((4, 6, 5)), rng.integers(0, 5, (4, 6))
    t[0, 1] = 2
    mine_options = {k: (mg.tensor(v, dtype=mg.float64) if k == "weight" else v) for k, v in options.items()}
    theirs_options = {k: (torch.tensor(v, dtype=torch.float64) if k == "weight" else v) for k, v in options.items()}

    def mine(a, target):
        return F.cross_entropy(a, target, **mine_options)

    def theirs(a, target):
        return torch.nn.functional.cross_entropy(a, target, **theirs_options)

    per_example = mg.func.vmap(mg.func.grad(mine))(mg.tensor(x), mg.tensor(t))
    reference = torch.func.vmap(torch.func.grad(theirs))(torch.tensor(x), torch.tensor(t))
    np.testing.assert_allclose(per_example.array, reference.numpy(), atol=1e-15)
    hessian = mg.func.hessian(lambda a: mine(a, mg.tensor(t[0])))(mg.tensor(x[0]))
    reference = torch.func.hessian(lambda a: theirs(a, torch.tensor(t[0])))(torch.tensor(x[0]))
    np.testing.assert_allclose(hessian.array, reference.numpy(), atol=1e-15)
