"""PyTorch's deprecated ``size_average``/``reduce`` flags on the losses that old programs call with them
(``F.mse_loss(x, y, size_average=False)``, ``nn.CrossEntropyLoss(size_average=False)``): the reduction they
stand for, torch's warning, torch's argument order, under vmap too; mse and l1 losses' ``weight``; and a
census: every argument name torch's losses and layers take, ours take too."""

import warnings

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F

RNG = np.random.default_rng(0)
X, Y = RNG.standard_normal((5, 4)), RNG.standard_normal((5, 4))
CLASSES = np.array([0, 1, 2, 3, 1])
PROBS, BITS = 1 / (1 + np.exp(-X)), (Y > 0) * 1.0

LOSSES = {  # name -> (its arguments, its module and the module's other arguments)
    "mse_loss": ((X, Y), "MSELoss"),
    "l1_loss": ((X, Y), "L1Loss"),
    "cross_entropy": ((X, CLASSES), "CrossEntropyLoss"),
    "nll_loss": ((X, CLASSES), "NLLLoss"),
    "binary_cross_entropy": ((PROBS, BITS), "BCELoss"),
    "binary_cross_entropy_with_logits": ((X, BITS), "BCEWithLogitsLoss"),
    "smooth_l1_loss": ((X, Y), "SmoothL1Loss"),
    "kl_div": ((X, PROBS), "KLDivLoss"),
}
FLAGS = [  # (size_average, reduce) -> the reduction they stand for
    ({"size_average": False}, "sum"),
    ({"size_average": True}, "mean"),
    ({"reduce": False}, "none"),
    ({"size_average": False, "reduce": True}, "sum"),
]


def _tensors(arrays):
    return [mg.tensor(a) for a in arrays]


@pytest.mark.parametrize("flags, reduction", FLAGS, ids=[str(f) for f, _ in FLAGS])
@pytest.mark.parametrize("name", LOSSES)
def test_the_flags_give_their_reduction_with_torchs_warning(name, flags, reduction):
    arrays, module = LOSSES[name]
    expected = getattr(F, name)(*_tensors(arrays), reduction=reduction).numpy()
    with pytest.warns(
        UserWarning,
        match=f"size_average and reduce args will be deprecated, please use reduction='{reduction}' instead",
    ):
        got = getattr(F, name)(*_tensors(arrays), **flags)
    np.testing.assert_array_equal(got.detach().numpy(), expected)
    with pytest.warns(UserWarning, match="size_average and reduce args will be deprecated"):
        layer = getattr(mg.nn, module)(**flags)
    assert layer.reduction == reduction
    np.testing.assert_array_equal(layer(*_tensors(arrays)).detach().numpy(), expected)


def test_no_flags_no_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        F.mse_loss(*_tensors((X, Y)))
        mg.nn.CrossEntropyLoss(reduction="sum")(*_tensors((X, CLASSES)))


def test_the_arguments_stand_where_torch_has_them():
    x, c = _tensors((X, CLASSES))
    with pytest.warns(UserWarning):
        total = F.cross_entropy(x, c, None, False, -100)  # weight, size_average, ignore_index
    np.testing.assert_array_equal(total.numpy(), F.cross_entropy(x, c, reduction="sum").numpy())
    with pytest.warns(UserWarning):
        rows = F.nll_loss(x, c, None, None, 1, False)  # weight, size_average, ignore_index, reduce
    np.testing.assert_array_equal(rows.numpy(), F.nll_loss(x, c, ignore_index=1, reduction="none").numpy())
    with pytest.warns(UserWarning):
        layer = mg.nn.CrossEntropyLoss(None, False, 2)
    assert (layer.reduction, layer.ignore_index) == ("sum", 2)


def test_kl_div_layer_keeps_batchmean_without_flags():
    assert mg.nn.KLDivLoss(reduction="batchmean").reduction == "batchmean"


def test_a_flag_that_is_a_tensor_of_several_values_is_refused():
    with pytest.raises(TypeError, match="argument 'size_average' must be bool"):
        F.mse_loss(*_tensors((X, Y)), size_average=mg.ones(2))


@pytest.mark.parametrize("name", ["cross_entropy", "binary_cross_entropy_with_logits", "mse_loss"])
def test_under_vmap_each_entry_is_reduced_as_the_flags_say(name):
    arrays, _ = LOSSES[name]
    batch = [np.stack([a, a[::-1]]) for a in arrays]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        got = mg.func.vmap(lambda a, b: getattr(F, name)(a, b, size_average=False))(*_tensors(batch))
    expected = [getattr(F, name)(*_tensors([b[i] for b in batch]), reduction="sum").numpy() for i in range(2)]
    np.testing.assert_allclose(got.numpy(), np.stack(expected), rtol=1e-12)


@pytest.mark.parametrize("name", ["mse_loss", "l1_loss"])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_a_weight_weighs_each_entry_and_the_mean_divides_by_the_weights_sum(name, reduction):
    weight = RNG.random((5, 4)) + 0.1
    per_entry = (X - Y) ** 2 if name == "mse_loss" else np.abs(X - Y)
    weighted = per_entry * weight
    expected = {"mean": weighted.sum() / weight.sum(), "sum": weighted.sum(), "none": weighted}[reduction]
    got = getattr(F, name)(*_tensors((X, Y)), reduction=reduction, weight=mg.tensor(weight))
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-12)
    assert mg.autograd.gradcheck(
        lambda x, w: getattr(F, name)(x, mg.tensor(Y), reduction=reduction, weight=w),
        (mg.tensor(X, requires_grad=True), mg.tensor(weight, requires_grad=True)),
    )


def test_a_weight_of_another_size_is_refused():
    with pytest.raises(ValueError, match="Weights and input must have the same size."):
        F.l1_loss(*_tensors((X, Y)), weight=mg.ones(4))


def test_every_loss_and_layer_takes_every_argument_torch_names():
    import inspect

    torch = pytest.importorskip("torch")

    def names(fn):
        return {
            p.name for p in inspect.signature(fn).parameters.values() if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
        }

    missing = []
    for name in dir(torch.nn.functional):
        ours = getattr(F, name, None)
        if name.startswith("_") or ours is None or not callable(getattr(torch.nn.functional, name)):
            continue
        try:
            theirs = names(getattr(torch.nn.functional, name))
        except (TypeError, ValueError):
            continue
        # minigrad's first operand is named a or x (torch's keyword input reaches it: the op entry renames it)
        missing += [
            f"F.{name}({p})"
            for p in theirs - names(ours.__wrapped__ if hasattr(ours, "__wrapped__") else ours)
            if p not in ("input", "_stacklevel")
        ]
    for name in dir(torch.nn):
        ours, theirs = getattr(mg.nn, name, None), getattr(torch.nn, name)
        if isinstance(theirs, type) and isinstance(ours, type):
            missing += [f"nn.{name}({p})" for p in names(theirs.__init__) - names(ours.__init__) - {"self"}]
    assert missing == []
