"""Dataset, Subset, random_split, and minigrad.utils.data as torch.utils.data's names."""

from __future__ import annotations

import pytest

import minigrad as mg
from minigrad.data import Dataset, Subset, TensorDataset, random_split


def test_utils_data_is_minigrad_data():
    import minigrad.utils.data as data

    assert data.DataLoader is mg.data.DataLoader and data.TensorDataset is TensorDataset
    assert mg.utils.data.random_split is random_split and issubclass(TensorDataset, Dataset)


def test_random_split_follows_manual_seed_and_covers_the_dataset():
    ds = TensorDataset(mg.arange(10.0))
    mg.manual_seed(1)
    first = [s.indices for s in random_split(ds, [3, 7])]
    mg.manual_seed(1)
    assert [s.indices for s in random_split(ds, [3, 7])] == first
    assert sorted(first[0] + first[1]) == list(range(10)) and len(first[0]) == 3


def test_random_split_by_fractions_gives_torchs_lengths():
    torch = pytest.importorskip("torch")
    for fractions in ([0.7, 0.3], [0.5, 0.25, 0.25], [1 / 3] * 3):
        ours = [len(s) for s in random_split(list(range(11)), fractions)]
        theirs = [len(s) for s in torch.utils.data.random_split(list(range(11)), fractions)]
        assert ours == theirs


def test_bad_lengths_raise_as_torch():
    torch = pytest.importorskip("torch")
    for lengths in ([3, 3], [0.5, 0.6]):
        with pytest.raises(ValueError):
            torch.utils.data.random_split(list(range(10)), lengths)
        with pytest.raises(ValueError):
            random_split(list(range(10)), lengths)


def test_a_subset_batches_through_the_dataloader():
    ds = TensorDataset(mg.arange(6.0), mg.arange(6))
    batches = list(mg.data.DataLoader(Subset(ds, [4, 0, 2]), batch_size=2))
    assert [b[1].tolist() for b in batches] == [[4, 0], [2]]


def test_a_dataset_subclass_must_define_getitem():
    with pytest.raises(NotImplementedError):
        Dataset()[0]
