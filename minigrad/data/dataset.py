"""Dataset, IterableDataset, Subset and random_split, as ``torch.utils.data``."""

from __future__ import annotations

import bisect
import math
from itertools import accumulate

from .. import backend as B
from ..creation import generator_for

__all__ = ["Dataset", "IterableDataset", "ConcatDataset", "Subset", "random_split"]


class Dataset:
    """A map-style dataset: subclasses define ``__getitem__(i)`` and ``__len__()``."""

    def __getitem__(self, index):
        raise NotImplementedError(f"Subclasses of Dataset should implement __getitem__ ({type(self).__name__})")

    def __len__(self) -> int:
        raise NotImplementedError(f"Subclasses of Dataset should implement __len__ ({type(self).__name__})")

    def __add__(self, other) -> ConcatDataset:
        return ConcatDataset([self, other])


class IterableDataset(Dataset):
    """A stream-style dataset: subclasses define ``__iter__()``; a DataLoader batches what it yields in order."""

    def __iter__(self):
        raise NotImplementedError(f"Subclasses of IterableDataset should implement __iter__ ({type(self).__name__})")


class ConcatDataset(Dataset):
    """The items of ``datasets``, one after another."""

    def __init__(self, datasets):
        self.datasets = list(datasets)
        if not self.datasets:
            raise AssertionError("datasets should not be an empty iterable")
        if any(isinstance(d, IterableDataset) for d in self.datasets):
            raise AssertionError("ConcatDataset does not support IterableDataset")
        self.cumulative_sizes = list(accumulate(len(d) for d in self.datasets))

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    def __getitem__(self, index):
        if index < 0:
            if -index > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            index += len(self)
        which = bisect.bisect_right(self.cumulative_sizes, index)
        start = self.cumulative_sizes[which - 1] if which else 0
        return self.datasets[which][index - start]


class Subset(Dataset):
    """The items of ``dataset`` at ``indices``, in that order."""

    def __init__(self, dataset, indices):
        self.dataset = dataset
        self.indices = [int(i) for i in indices]

    def __getitem__(self, index):
        if isinstance(index, list):
            return [self.dataset[self.indices[i]] for i in index]
        return self.dataset[self.indices[index]]

    def __len__(self) -> int:
        return len(self.indices)


def _lengths(lengths, n: int) -> list:
    """Integer lengths; fractions summing to 1 become counts, the remainder given round-robin."""
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1 and not all(isinstance(v, int) for v in lengths):
        counts = []
        for i, frac in enumerate(lengths):
            if frac < 0 or frac > 1:
                raise ValueError(f"Fraction at index {i} is not between 0 and 1")
            counts.append(int(math.floor(n * frac)))
        for i in range(n - sum(counts)):
            counts[i % len(counts)] += 1
        return counts
    if sum(lengths) != n:
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    return [int(v) for v in lengths]


def random_split(dataset, lengths, generator=None) -> list:
    """Split ``dataset`` into non-overlapping random :class:`Subset` s of the given lengths (or fractions).

    The order is drawn from ``generator`` or else minigrad's CPU generator, so ``manual_seed`` makes it
    repeatable.
    """
    n = len(dataset)
    counts = _lengths(list(lengths), n)
    order = generator_for(B.CPU, generator).permutation(n).tolist()
    out, start = [], 0
    for count in counts:
        out.append(Subset(dataset, order[start : start + count]))
        start += count
    return out
