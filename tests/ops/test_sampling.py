"""multinomial: follows manual_seed, draws in proportion to the weights, and refuses as torch does."""

from __future__ import annotations

import re

import numpy as np
import pytest

import minigrad as mg


def test_follows_manual_seed():
    w = mg.tensor([[0.1, 0.2, 0.7], [1.0, 1.0, 0.0]])
    mg.manual_seed(3)
    first = mg.multinomial(w, 2), w.multinomial(5, replacement=True)
    mg.manual_seed(3)
    second = mg.multinomial(w, 2), w.multinomial(5, replacement=True)
    assert all(a.tolist() == b.tolist() for a, b in zip(first, second))
    assert first[0].dtype == mg.int64 and tuple(first[1].shape) == (2, 5)


def test_with_replacement_frequencies_follow_the_weights():
    mg.manual_seed(0)
    w = np.array([1.0, 0.0, 3.0, 6.0])
    draws = mg.multinomial(mg.tensor(w), 20000, replacement=True).numpy()
    freq = np.bincount(draws, minlength=4) / draws.size
    np.testing.assert_allclose(freq, w / w.sum(), atol=0.02)
    assert freq[1] == 0.0


def test_without_replacement_draws_each_category_once_and_favours_heavy_ones():
    mg.manual_seed(0)
    w = mg.tensor([[1.0, 8.0, 1.0, 0.0]]).expand(4000, 4)
    draws = mg.multinomial(w, 3).numpy()
    assert all(len(set(row)) == 3 for row in draws)
    assert np.mean(draws[:, 0] == 1) == pytest.approx(0.8, abs=0.03)
    assert 3 not in draws  # a weightless category is drawn only when nothing else is left
    assert sorted(mg.multinomial(mg.tensor([1.0, 0.0, 0.0]), 3).tolist()) == [0, 1, 2]


@pytest.mark.parametrize(
    "call",
    [
        lambda lib: lib.multinomial(lib.tensor([0.2, 0.8]), 0),
        lambda lib: lib.multinomial(lib.tensor([0.2, 0.8]), 3),
        lambda lib: lib.multinomial(lib.zeros(3), 2),
        lambda lib: lib.multinomial(lib.tensor([1.0, -1.0]), 1),
        lambda lib: lib.multinomial(lib.tensor([1.0, float("nan")]), 1),
        lambda lib: lib.multinomial(lib.ones(2, 2, 2), 1),
        lambda lib: lib.multinomial(lib.tensor(1.0), 1),
        lambda lib: lib.multinomial(lib.tensor([1, 2]), 1),
        lambda lib: lib.multinomial(lib.tensor([0.2, 0.8]), 1.5),
        lambda lib: lib.multinomial([0.2, 0.8], 1),
    ],
)
def test_bad_input_raises_like_torch(call):
    torch = pytest.importorskip("torch")
    with pytest.raises(Exception) as theirs:
        call(torch)
    with pytest.raises(theirs.type, match=re.escape(str(theirs.value).splitlines()[0][:30])):
        call(mg)
