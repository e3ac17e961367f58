"""Bit shifts (``<<``, ``>>``, bitwise_left_shift/right_shift and their in-place forms) and the in-place
bitwise operators, as PyTorch defines them: shifts past the type's width or by a negative amount give
0 (or -1 for a negative number shifted right), floating and bool shifts refuse. Cases ported from
PyTorch's test_binary_ufuncs (test_shift_limits, test_lshift/rshift by scalars), rewritten here."""

import numpy as np
import pytest

import minigrad as mg


def test_shifts_of_integers_and_their_reflections():
    x = mg.tensor([5, -7])
    assert (x << 2).tolist() == [20, -28] and (x >> 1).tolist() == [2, -4]
    assert (1 << mg.tensor([1, 2])).tolist() == [2, 4] and (64 >> mg.tensor([1, 3])).tolist() == [32, 8]
    assert mg.bitwise_left_shift(x, mg.tensor([1, 3])).tolist() == [10, -56]
    assert x.bitwise_right_shift(mg.tensor([0, 2])).tolist() == [5, -2]
    assert (mg.tensor([True]) << 1).tolist() == [2]  # bool promotes with the int


@pytest.mark.parametrize("shift", [64, 70, -1, -64])
def test_shifts_out_of_range_give_zero_or_the_sign(shift):  # test_shift_limits
    x = mg.tensor([5, -5, 0])
    assert (x << shift).tolist() == [0, 0, 0]
    assert (x >> shift).tolist() == [0, -1, 0]


def test_floating_and_bool_shifts_refuse_with_pytorch_s_error():
    with pytest.raises(NotImplementedError, match="\"lshift_cpu\" not implemented for 'Float'"):
        mg.tensor([1.5]) << 1
    with pytest.raises(NotImplementedError, match="\"rshift_cpu\" not implemented for 'Bool'"):
        mg.tensor([True]) >> mg.tensor([True])
    with pytest.raises(NotImplementedError, match="\"lshift_cpu\" not implemented for 'Float'"):
        mg.tensor([1]) << 2.0  # a float shift promotes the result to float


def test_in_place_bitwise_operators_write_the_tensor_and_bump_its_version():
    y = mg.tensor([3, 12])
    same, version = y, y._version
    y &= 1
    y |= 4
    y ^= 1
    y <<= 2
    y >>= 1
    assert y is same and y.tolist() == [8, 10] and y._version == version + 5
    y.bitwise_left_shift_(1).bitwise_right_shift_(2)
    y.bitwise_and_(6).bitwise_or_(1).bitwise_xor_(8)
    assert y.tolist() == [13, 13]


@pytest.mark.parametrize("shift", [0, 1, 7, 31, 62, 63])
def test_shifts_match_pytorch(shift):
    torch = pytest.importorskip("torch")
    values = np.array([0, 1, -1, 123456789, -987654321, 2**40 + 3, -(2**62)])
    for op in ("__lshift__", "__rshift__"):
        ours = getattr(mg.tensor(values), op)(shift).tolist()
        assert ours == getattr(torch.tensor(values), op)(shift).tolist()


def test_vmap_shifts_without_a_per_example_loop():
    import warnings

    x = mg.tensor([[1, 2], [3, 4]])

    def f(row):
        out = row << 2
        out >>= 1
        return out | (1 << row)

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert mg.func.vmap(f)(x).tolist() == [f(r).tolist() for r in x]
