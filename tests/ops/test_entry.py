"""ops/_entry.py: argument kinds read from each op's signature, checked once at entry."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F
from minigrad.ops import elementwise
from minigrad.ops._entry import checked
from minigrad.ops.declare import LOOP, op


def test_torchs_keyword_names_reach_minigrads_arguments():
    x = mg.tensor([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_array_equal(mg.sum(input=x, dim=0).array, [4.0, 6.0])
    np.testing.assert_array_equal(mg.add(input=x, other=1.0).array, x.array + 1)
    np.testing.assert_array_equal(x.mul(other=x).array, x.array**2)
    np.testing.assert_array_equal(F.linear(input=x, weight=x).array, x.array @ x.array.T)


def test_the_hot_path_is_not_wrapped():
    assert mg.Tensor.tanh is elementwise.tanh  # self is the only tensor: nothing to check
    assert mg.Tensor.__add__ is mg.ops.arithmetic.add  # operators stay raw
    assert mg.Tensor.add is not mg.ops.arithmetic.add  # other is checked


def test_positions_count_self_out_for_methods_and_keywords_have_none():
    with pytest.raises(
        TypeError, match=r"^add\(\): argument 'other' \(position 1\) must be Tensor or Number, not list$"
    ):
        mg.ones(2).add([1.0])
    with pytest.raises(
        TypeError, match=r"^add\(\): argument 'other' \(position 2\) must be Tensor or Number, not list$"
    ):
        mg.add(mg.ones(2), [1.0])
    with pytest.raises(TypeError, match=r"^add\(\): argument 'other' must be Tensor or Number, not list$"):
        mg.add(mg.ones(2), other=[1.0])


def test_a_method_with_nothing_to_check_is_returned_as_is_a_function_keeps_its_vmap_entry():
    @op(batch=LOOP)
    def no_tensors(n):
        return n

    assert checked(no_tensors, method=True) is no_tensors  # a batched self has its own methods
    entry = checked(no_tensors)  # a function may get a batched tensor inside vmap
    assert entry is not no_tensors and entry.__wrapped__ is no_tensors and entry(3) == 3


def test_annotations_give_the_kinds():
    def kinds(input: mg.Tensor, k: int, flag: bool = False, scale: float = 1.0, name: str = "x"):  # noqa: A002
        return k

    kinds.__annotations__ = {"input": "Tensor", "k": "int", "flag": "bool", "scale": "float", "name": "str"}
    wrapped = checked(op(batch=LOOP)(kinds))
    assert wrapped(mg.ones(1), 2, True, 0.5, "y") == 2
    for args, text in [
        ((None, 1), "argument 'input' \\(position 1\\) must be Tensor, not NoneType"),
        ((mg.ones(1), 1.5), "argument 'k' \\(position 2\\) must be int, not float"),
        ((mg.ones(1), True), "argument 'k' \\(position 2\\) must be int, not bool"),
        ((mg.ones(1), 1, 1), "argument 'flag' \\(position 3\\) must be bool, not int"),
        ((mg.ones(1), 1, False, "s"), "argument 'scale' \\(position 4\\) must be Number, not str"),
        ((mg.ones(1), 1, False, 1.0, 3), "argument 'name' \\(position 5\\) must be str, not int"),
    ]:
        with pytest.raises(TypeError, match=text):
            wrapped(*args)


def test_an_undeclared_function_gets_no_entry():
    """Types are declared, never inferred from parameter names: a function without ``@op`` has no entry."""

    def exp(a, other):
        return a

    with pytest.raises(TypeError, match="is not declared as an op"):
        checked(exp)
