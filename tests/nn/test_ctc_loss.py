"""ctc_loss / CTCLoss: values and gradients (through log_softmax, where PyTorch's hand-written gradient
and the true one agree) against PyTorch, gradcheck in float64 of the recursion itself, impossible
alignments, and PyTorch's refusals."""

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F
from minigrad.autograd import gradcheck
from tests.torch_oracle import Arr, arr, check, raises_like_torch

T, N, C = 10, 3, 5
PADDED = Arr(np.array([[1, 2, 2, 3], [4, 1, 0, 0], [3, 3, 3, 0]]), grad=False)
TARGET_LENGTHS = Arr(np.array([4, 2, 3]), grad=False)
INPUT_LENGTHS = Arr(np.array([10, 8, 7]), grad=False)


def _f(lib):
    return F if lib is mg else lib.nn.functional


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("blank", [0, 4])
def test_padded_targets_match_torch(reduction, blank):
    pytest.importorskip("torch")
    targets = Arr(np.where(PADDED.array == blank, (blank + 1) % C, PADDED.array), grad=False)
    check(
        lambda lib, x, t, il, tl: _f(lib).ctc_loss(x.log_softmax(2), t, il, tl, blank=blank, reduction=reduction),
        arr(T, N, C),
        targets,
        INPUT_LENGTHS,
        TARGET_LENGTHS,
        gradcheck_=False,
    )


def test_concatenated_targets_and_unbatched_input_match_torch():
    pytest.importorskip("torch")
    flat = Arr(np.array([1, 2, 2, 3, 4, 1, 3, 3, 3]), grad=False)
    check(
        lambda lib, x, t, il, tl: _f(lib).ctc_loss(x.log_softmax(2), t, il, tl),
        arr(T, N, C),
        flat,
        INPUT_LENGTHS,
        TARGET_LENGTHS,
        gradcheck_=False,
    )
    check(
        lambda lib, x, t: lib.nn.CTCLoss(reduction="sum")(x.log_softmax(1), t, (T,), (3,)),
        arr(T, C),
        Arr(np.array([2, 1, 2]), grad=False),
        gradcheck_=False,
    )


def test_impossible_alignment_is_infinite_or_zero_as_torch():
    torch = pytest.importorskip("torch")
    x = np.random.default_rng(0).standard_normal((4, 1, C))
    targets, lengths = np.array([[3, 3, 3]]), (np.array([4]), np.array([3]))  # needs 5 steps
    for zero_infinity in (False, True):
        ours = F.ctc_loss(mg.tensor(x).log_softmax(2), mg.tensor(targets), *lengths, zero_infinity=zero_infinity)
        theirs = torch.nn.functional.ctc_loss(
            torch.tensor(x).log_softmax(2),
            torch.tensor(targets),
            *map(torch.tensor, lengths),
            zero_infinity=zero_infinity,
        )
        assert ours.item() == theirs.item()
    t = mg.tensor(x, requires_grad=True)
    F.ctc_loss(t.log_softmax(2), mg.tensor(targets), *lengths, zero_infinity=True).backward()
    np.testing.assert_array_equal(t.grad.numpy(), np.zeros_like(x))


def test_gradcheck_float64_of_the_recursion():
    lp = mg.tensor(np.random.default_rng(1).standard_normal((6, 2, 4)), requires_grad=True)
    targets = mg.tensor([[1, 1, 2], [3, 2, 0]])
    assert gradcheck(lambda x: F.ctc_loss(x, targets, (6, 5), (3, 2), reduction="none"), (lp,))


@pytest.mark.parametrize(
    "call",
    [
        lambda lib: _f(lib).ctc_loss(
            lib.zeros(5, 2, 4), lib.tensor([[1, 2]] * 2), lib.tensor([6, 5]), lib.tensor([2, 2])
        ),
        lambda lib: _f(lib).ctc_loss(
            lib.zeros(5, 2, 4), lib.tensor([[1, 2]] * 2), lib.tensor([5, 5]), lib.tensor([3, 2])
        ),
        lambda lib: _f(lib).ctc_loss(lib.zeros(5, 2, 4), lib.tensor([[1, 2]] * 2), (5, 5), (2, 2), blank=4),
    ],
)
def test_refusals_as_torch(call):
    raises_like_torch(call)
