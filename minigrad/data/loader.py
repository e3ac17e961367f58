"""TensorDataset and DataLoader: mini-batches of tensors from arrays."""

from __future__ import annotations

import numpy as np

from .. import backend as B
from ..creation import generator_for
from ..tensor import Tensor, make_leaf, shape_str
from .dataset import Dataset

__all__ = ["TensorDataset", "DataLoader"]


def _as_array(a):
    if isinstance(a, Tensor):
        return a.data
    if isinstance(a, np.ndarray) or B.is_cupy_array(a):
        return a
    return np.asarray(a)


def _is_batchable(a) -> bool:
    return isinstance(a, (Tensor, np.ndarray)) or B.is_cupy_array(a)


class TensorDataset(Dataset):
    """Arrays or tensors that share their first dim; item ``i`` is the tuple of their ``i``-th rows."""

    def __init__(self, *arrays):
        if not arrays:
            raise ValueError("TensorDataset needs at least one array")
        self.arrays = tuple(_as_array(a) for a in arrays)
        n = len(self.arrays[0])
        for a in self.arrays:
            if a.ndim == 0 or len(a) != n:
                raise ValueError(
                    "Size mismatch between tensors: every array needs the same first dim, got shapes "
                    + ", ".join(shape_str(x.shape) for x in self.arrays)
                )

    def __len__(self) -> int:
        return len(self.arrays[0])

    def __getitem__(self, index):
        return tuple(a[index] for a in self.arrays)


class DataLoader:
    """Iterate over a dataset in mini-batches of tensors.

    ``DataLoader(TensorDataset(X, y), batch_size=32, shuffle=True)``, or directly
    ``DataLoader((X, y), ...)`` with a tuple of arrays or tensors. Each batch is a tuple of tensors (on ``device``).
    A TensorDataset is batched by slicing (or one fancy index when shuffling); any
    other dataset (``len`` and ``[i]`` returning tuples of arrays/numbers) is
    stacked item by item. ``shuffle`` draws a new order each epoch from ``generator`` (a CPU
    :class:`minigrad.Generator`, as PyTorch's), else from a stream seeded by ``seed``, else from
    minigrad's CPU generator (``manual_seed``); ``drop_last`` skips a short final batch.
    """

    def __init__(
        self,
        dataset,
        batch_size: int = 1,
        shuffle: bool = False,
        drop_last: bool = False,
        device=None,
        seed=None,
        generator=None,
    ):
        if isinstance(dataset, tuple) and dataset and all(_is_batchable(a) for a in dataset):
            dataset = TensorDataset(*dataset)
        if isinstance(batch_size, bool) or not isinstance(batch_size, (int, np.integer)) or batch_size < 1:
            raise ValueError(f"batch_size should be a positive integer value, but got batch_size={batch_size}")
        self.dataset = dataset
        self.batch_size = int(batch_size)
        self.shuffle = shuffle
        self.drop_last = drop_last
        self.device = B.device(device)
        self.generator = generator
        self._rng = None if seed is None else np.random.default_rng(seed)

    def __len__(self) -> int:
        n = len(self.dataset)
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)

    def _order(self, n: int):
        if not self.shuffle:
            return None
        rng = self._rng if self._rng is not None and self.generator is None else generator_for(B.CPU, self.generator)
        return rng.permutation(n)

    def __iter__(self):
        n = len(self.dataset)
        order = self._order(n)
        stop = n - n % self.batch_size if self.drop_last else n
        for start in range(0, stop, self.batch_size):
            end = min(start + self.batch_size, n)
            index = slice(start, end) if order is None else order[start:end]
            if isinstance(self.dataset, TensorDataset):
                columns = self.dataset[index]
                if order is None:  # slices are views: copy, so changing a batch cannot change the dataset
                    columns = tuple(c.copy() for c in columns)
            else:
                rows = range(start, end) if order is None else index
                columns = _stack([self.dataset[int(i)] for i in rows])
            yield tuple(self._tensor(c) for c in columns)

    def _tensor(self, arr) -> Tensor:
        arr = _as_array(arr)
        dev = B.device_of_array(arr)
        if dev != self.device:
            arr = B.to_device_array(arr, self.device)
        return make_leaf(arr, self.device)


def _stack(items: list) -> tuple:
    first = items[0]
    if not isinstance(first, tuple):
        return (np.stack([_host(x) for x in items]),)
    return tuple(np.stack([_host(item[k]) for item in items]) for k in range(len(first)))


def _host(x):
    return B.to_host(x.data) if isinstance(x, Tensor) else np.asarray(x)
