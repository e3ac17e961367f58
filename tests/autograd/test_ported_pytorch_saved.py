"""Which saved values backward checks for in-place writes, from PyTorch's test/test_autograd.py
(``test_no_unnecessary_save``) and cases around it.

PyTorch saves for a node only what the gradients of its inputs that require grad use (``x * c``
with a constant ``c`` keeps ``c``, not ``x``), so writing the unused operand in place afterwards
is no error, while writing a used one still is. Each case states its own expected result, so it
runs without PyTorch; where PyTorch is installed the same script is also run on it and compared.
"""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg


def _torch():
    return pytest.importorskip("torch")


def _outcome(script, lib):
    """``script(lib)``'s gradients as lists, or the text of the in-place error it raised (names made minigrad's)."""
    try:
        return [g.tolist() for g in script(lib)]
    except RuntimeError as exc:
        return (
            str(exc).split(" Hint")[0].replace("torch::autograd::CopyBackwards", "Copy").replace("torch.", "minigrad.")
        )


def _no_unnecessary_save(lib):
    # test_no_unnecessary_save: x is written in place three times, each after x * ft with ft constant;
    # the products saved ft, not x, so backward runs and each copy's gradient reaches mu
    mu = lib.ones(1, requires_grad=True)
    x = lib.empty(1)
    loss = 0
    for i in range(3):
        x.detach_()
        x.copy_(mu + i)
        ft = lib.tensor([float(i)])
        loss = loss + (x * ft).sum()
    loss.backward()
    return [mu.grad]


def test_no_unnecessary_save():
    assert _outcome(_no_unnecessary_save, mg) == [[3.0]]


def _detach_then_copy_again(lib):
    # the first product's edge leads to the first copy's node, not to what x became after detach_()
    mu = lib.ones(1, dtype=lib.float64, requires_grad=True)
    x = lib.empty(1, dtype=lib.float64)
    x.copy_(mu + 1)
    y = x * lib.tensor([5.0], dtype=lib.float64)
    x.detach_()
    x.copy_(mu + 2)
    z = x * lib.tensor([7.0], dtype=lib.float64)
    (y + z).sum().backward()
    return [mu.grad]


def _unused_operand_written(lib):
    # h * c: the gradient of h uses c only, so writing h afterwards is fine
    x = lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True)
    h = x * 1
    y = h * lib.tensor([3.0, 4.0], dtype=lib.float64)
    h.add_(1)
    y.sum().backward()
    return [x.grad]


def _unused_operand_written_on_the_right(lib):
    x = lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True)
    h = x * 1
    y = lib.tensor([3.0, 4.0], dtype=lib.float64) * h
    h.add_(1)
    y.sum().backward()
    return [x.grad]


def _unused_dividend_written(lib):
    # h / c: the gradient of h is g / c
    x = lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True)
    h = x * 1
    y = h / lib.tensor([4.0, 8.0], dtype=lib.float64)
    h.add_(1)
    y.sum().backward()
    return [x.grad]


def _unused_matmul_operand_written(lib):
    x = lib.ones(2, 2, dtype=lib.float64, requires_grad=True)
    h = x * 1
    y = h @ lib.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=lib.float64)
    h.add_(1)
    y.sum().backward()
    return [x.grad]


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        (_detach_then_copy_again, [[12.0]]),
        (_unused_operand_written, [[3.0, 4.0]]),
        (_unused_operand_written_on_the_right, [[3.0, 4.0]]),
        (_unused_dividend_written, [[0.25, 0.125]]),
        (_unused_matmul_operand_written, [[[3.0, 7.0], [3.0, 7.0]]]),
    ],
)
def test_a_written_value_no_gradient_uses_is_not_checked(script, expected):
    assert _outcome(script, mg) == expected


def _used_operand_written(lib):
    # mu + 1 copied into x, then x * w with w requiring grad: w's gradient uses x, written since
    mu = lib.ones(1, requires_grad=True)
    w = lib.tensor([2.0], requires_grad=True)
    x = lib.empty(1)
    x.copy_(mu + 1)
    y = x * w
    x.detach_()
    x.copy_(mu + 2)
    y.sum().backward()
    return [mu.grad, w.grad]


def _constant_written(lib):
    # x * c: x's gradient uses the constant c, written since
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    c = lib.tensor([3.0, 4.0])
    y = x * c
    c.add_(1)
    y.sum().backward()
    return [x.grad]


def _divisor_written(lib):
    # c / h: h's gradient uses h
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    h = x * 1
    y = lib.tensor([3.0, 4.0]) / h
    h.add_(1)
    y.sum().backward()
    return [x.grad]


def _maximum_operand_written(lib):
    # maximum(h, c): the gradient of h compares h with c
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    h = x * 1
    y = lib.maximum(h, lib.tensor([1.5, 1.5]))
    h.add_(1)
    y.sum().backward()
    return [x.grad]


def _base_written(lib):
    # h ** c: h's gradient uses h
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    h = x * 1
    y = h ** lib.tensor([2.0, 2.0])
    h.add_(1)
    y.sum().backward()
    return [x.grad]


def _exponent_written(lib):
    # c ** h: h's gradient uses c ** h and c
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    h = x * 1
    y = lib.tensor([2.0, 2.0]) ** h
    h.add_(1)
    y.sum().backward()
    return [x.grad]


def _output_the_rule_reads_written(lib):
    # cdist(x, c): the rule itself reads the saved output (for every parent's gradient), written since
    x = lib.tensor([[1.0, 2.0], [3.0, 5.0]], requires_grad=True)
    y = lib.cdist(x, lib.tensor([[0.0, 1.0]]))
    y.mul_(2)
    y.sum().backward()
    return [x.grad]


def _both_need_grad_one_asked(lib):
    # h * w with both requiring grad: PyTorch saved both, and checks both even for backward(inputs=[w])
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    w = lib.tensor([1.0, 2.0], requires_grad=True)
    h = x * 1
    y = h * w
    h.add_(1)
    y.sum().backward(inputs=[x])
    return [x.grad]


_OF_ADD = "[minigrad.FloatTensor [2]], which is output 0 of Add, is at version 1; expected version 0"
_USED = [
    (
        _used_operand_written,
        "[minigrad.FloatTensor [1]], which is output 0 of Copy, is at version 2; expected version 1",
    ),
    (_constant_written, "[minigrad.FloatTensor [2]] is at version 1; expected version 0"),
    (_divisor_written, _OF_ADD),
    (_maximum_operand_written, _OF_ADD),
    (_base_written, _OF_ADD),
    (_exponent_written, _OF_ADD),
    (
        _output_the_rule_reads_written,
        "[minigrad.FloatTensor [2, 1]], which is output 0 of Cdist, is at version 1; expected version 0",
    ),
    (_both_need_grad_one_asked, _OF_ADD),
]


@pytest.mark.parametrize(("script", "what"), _USED)
def test_a_written_value_a_gradient_uses_is_refused(script, what):
    assert _outcome(script, mg) == (
        f"one of the variables needed for gradient computation has been modified by an inplace operation: {what} instead."
    )


@pytest.mark.parametrize(
    "script",
    [
        _no_unnecessary_save,
        _detach_then_copy_again,
        _unused_operand_written,
        _unused_operand_written_on_the_right,
        _unused_dividend_written,
        _unused_matmul_operand_written,
    ]
    + [script for script, _ in _USED],
)
def test_saved_value_checks_as_in_torch(script):
    torch = _torch()
    ours, theirs = _outcome(script, mg), _outcome(script, torch)
    if isinstance(theirs, str):
        assert ours == theirs
    else:
        np.testing.assert_allclose(ours, theirs, rtol=1e-12)
