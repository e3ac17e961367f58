"""minigrad.data: toy datasets, the digits, train/test split, DataLoader."""

import sys

import numpy as np
import pytest

import minigrad as mg
from minigrad import data


@pytest.mark.parametrize(
    "make,kwargs,classes",
    [
        (data.make_moons, {"n_samples": 101, "noise": 0.1}, 2),
        (data.make_spirals, {"n_samples": 100}, 3),
        (data.make_blobs, {"n_samples": 90, "centers": 4, "n_features": 3}, 4),
    ],
)
def test_shapes_dtypes_and_balance(make, kwargs, classes):
    X, y = make(**kwargs)
    n = kwargs["n_samples"]
    assert X.dtype == np.float32 and y.dtype == np.int64 and len(X) == len(y) == n
    counts = np.bincount(y)
    assert len(counts) == classes and counts.max() - counts.min() <= 1


def test_seeds_and_manual_seed_make_datasets_reproducible():
    a = data.make_moons(50, noise=0.2, seed=4)
    b = data.make_moons(50, noise=0.2, seed=4)
    np.testing.assert_array_equal(a[0], b[0])
    mg.manual_seed(9)
    c = data.make_spirals(60)
    d = data.make_spirals(60)
    assert not np.array_equal(c[0], d[0])  # one stream: two calls differ
    mg.manual_seed(9)
    np.testing.assert_array_equal(c[0], data.make_spirals(60)[0])


def test_moons_without_noise_lie_on_the_half_circles():
    X, y = data.make_moons(40, shuffle=False)
    top, bottom = X[y == 0], X[y == 1]
    np.testing.assert_allclose(np.hypot(top[:, 0], top[:, 1]), 1, rtol=1e-6)
    np.testing.assert_allclose(np.hypot(bottom[:, 0] - 1, bottom[:, 1] - 0.5), 1, rtol=1e-6)


def test_blobs_around_given_centers_and_errors():
    X, y = data.make_blobs(400, centers=[[0.0, 0.0], [10.0, 10.0]], cluster_std=0.5, seed=0)
    np.testing.assert_allclose(X[y == 1].mean(0), [10, 10], atol=0.15)
    with pytest.raises(ValueError, match="n_samples must be a positive integer"):
        data.make_moons(0)
    with pytest.raises(ValueError, match="2-D array"):
        data.make_blobs(10, centers=[1.0, 2.0])


def test_load_digits():
    pytest.importorskip("sklearn")
    X, y = data.load_digits()
    assert X.shape == (1797, 64) and X.dtype == np.float32 and 0 <= X.min() and X.max() == 1.0
    assert y.dtype == np.int64 and set(np.unique(y)) == set(range(10))
    assert data.load_digits(normalize=False)[0].max() == 16


def test_load_digits_without_scikit_learn_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "sklearn.datasets", None)
    with pytest.raises(ImportError, match=r"minigrad\[data\]"):
        data.load_digits()


def test_train_test_split():
    X, y = np.arange(20).reshape(10, 2), np.arange(10)
    X_train, X_test, y_train, y_test = data.train_test_split(X, y, test_fraction=0.3, seed=0)
    assert len(X_test) == 3 and len(X_train) == 7
    np.testing.assert_array_equal(X_train[:, 0] // 2, y_train)
    assert sorted(np.concatenate([y_train, y_test])) == list(range(10))
    with pytest.raises(ValueError, match="same length"):
        data.train_test_split(X, y[:5])


def test_dataloader_batches_in_order():
    X, y = np.arange(10, dtype=np.float32).reshape(5, 2), np.arange(5)
    loader = data.DataLoader((X, y), batch_size=2)
    batches = list(loader)
    assert len(loader) == len(batches) == 3
    assert all(isinstance(t, mg.Tensor) for b in batches for t in b)
    assert [b[1].tolist() for b in batches] == [[0, 1], [2, 3], [4]]
    assert batches[0][0].dtype == mg.float32 and not batches[0][0].requires_grad
    dropped = data.DataLoader(data.TensorDataset(X, y), batch_size=2, drop_last=True)
    assert len(dropped) == 2 and [b[1].tolist() for b in dropped] == [[0, 1], [2, 3]]


def test_dataloader_shuffles_each_epoch_and_is_seeded():
    X = np.arange(20)
    loader = data.DataLoader((X,), batch_size=8, shuffle=True, seed=3)
    first = np.concatenate([b[0].array for b in loader])
    second = np.concatenate([b[0].array for b in loader])
    assert sorted(first) == list(range(20)) and not np.array_equal(first, second)
    again = np.concatenate([b[0].array for b in data.DataLoader((X,), batch_size=8, shuffle=True, seed=3)])
    np.testing.assert_array_equal(first, again)
    mg.manual_seed(1)
    a = [b[0].tolist() for b in data.DataLoader((X,), batch_size=5, shuffle=True)]
    mg.manual_seed(1)
    assert a == [b[0].tolist() for b in data.DataLoader((X,), batch_size=5, shuffle=True)]


def test_dataloader_over_tensors_and_generic_datasets():
    x = mg.arange(6)
    assert [b[0].tolist() for b in data.DataLoader((x,), batch_size=4)] == [[0, 1, 2, 3], [4, 5]]

    class Squares:
        def __len__(self):
            return 5

        def __getitem__(self, i):
            return np.array([i, i]), i * i

    batches = list(data.DataLoader(Squares(), batch_size=3))
    assert batches[0][0].shape == (3, 2) and batches[1][1].tolist() == [9, 16]


def test_dataloader_errors():
    with pytest.raises(ValueError, match="batch_size should be a positive integer"):
        data.DataLoader((np.zeros(3),), batch_size=0)
    with pytest.raises(ValueError, match=r"Size mismatch.*\[3\], \[4\]"):
        data.TensorDataset(np.zeros(3), np.zeros(4))


def test_batches_are_copies_of_the_dataset():
    X = np.zeros((4, 2), dtype=np.float32)
    (xb,) = next(iter(data.DataLoader((X,), batch_size=2)))
    xb.array[...] = 1
    assert not X.any()
