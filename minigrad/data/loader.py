"""TensorDataset and DataLoader, as ``torch.utils.data``'s (``torch.utils.data.dataloader`` is this module)."""

from __future__ import annotations

import sys

import numpy as np

from .. import backend as B
from ..creation import Generator
from ..tensor import Tensor, make_leaf, shape_str
from .collate import default_collate, default_convert
from .dataset import Dataset, IterableDataset
from .sampler import BatchSampler, RandomSampler, SequentialSampler

__all__ = ["TensorDataset", "DataLoader", "default_collate", "default_convert", "get_worker_info"]


def _as_tensor(a) -> Tensor:
    if isinstance(a, Tensor):
        return a
    arr = a if isinstance(a, np.ndarray) or B.is_cupy_array(a) else np.asarray(a)
    return make_leaf(arr, B.device_of_array(arr))


def _is_batchable(a) -> bool:
    return isinstance(a, (Tensor, np.ndarray)) or B.is_cupy_array(a)


class TensorDataset(Dataset):
    """Tensors (or arrays) that share their first dim; item ``i`` is the tuple of their ``i``-th rows."""

    def __init__(self, *tensors):
        if not tensors:
            raise ValueError("TensorDataset needs at least one tensor")
        self.tensors = tuple(_as_tensor(t) for t in tensors)
        n = self.tensors[0].shape[0] if self.tensors[0].dim() else None
        if any(t.dim() == 0 or t.shape[0] != n for t in self.tensors):
            raise ValueError(
                "Size mismatch between tensors: every tensor needs the same first dim, got shapes "
                + ", ".join(shape_str(t.shape) for t in self.tensors)
            )

    def __len__(self) -> int:
        return self.tensors[0].shape[0]

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)


def get_worker_info():
    """None: minigrad loads every batch in the main process, where PyTorch's answer is None too."""
    return None


class DataLoader:
    """Iterate over a dataset in batches, as ``torch.utils.data.DataLoader``.

    Indices come from ``sampler`` (default: in order, or a :class:`RandomSampler` with ``shuffle``, drawing
    from ``generator``), grouped by ``batch_sampler`` (default: ``batch_size`` at a time, ``drop_last``
    dropping a short last batch); ``collate_fn`` (default :func:`default_collate`) makes each batch.
    ``batch_size=None`` gives items one by one (through :func:`default_convert`). A TensorDataset with the
    default collation is batched by one index per tensor instead of item by item.

    ``num_workers > 0`` loads in the main process all the same (saying so once on stderr); ``pin_memory``,
    ``timeout``, ``worker_init_fn``, ``prefetch_factor``, ``persistent_workers`` are accepted for PyTorch's
    sake. minigrad's own: ``DataLoader((X, y), ...)`` takes a tuple of arrays or tensors; ``device=`` moves
    every batch there; ``seed=`` shuffles from a generator of its own seeded so.
    """

    def __init__(
        self,
        dataset,
        batch_size: int | None = 1,
        shuffle: bool | None = None,
        sampler=None,
        batch_sampler=None,
        num_workers: int = 0,
        collate_fn=None,
        pin_memory: bool = False,
        drop_last: bool = False,
        timeout: float = 0,
        worker_init_fn=None,
        multiprocessing_context=None,
        generator=None,
        *,
        prefetch_factor: int | None = None,
        persistent_workers: bool = False,
        pin_memory_device: str = "",
        in_order: bool = True,
        device=None,
        seed=None,
    ):
        if isinstance(dataset, tuple) and dataset and all(_is_batchable(a) for a in dataset):
            dataset = TensorDataset(*dataset)
        _check_workers(num_workers, timeout, prefetch_factor, persistent_workers)
        if seed is not None and generator is None:
            generator = Generator().manual_seed(seed)
        iterable = isinstance(dataset, IterableDataset)
        if iterable and (shuffle not in (None, False) or sampler is not None or batch_sampler is not None):
            raise ValueError(
                f"DataLoader with IterableDataset: expected unspecified shuffle, sampler and batch_sampler options, "
                f"but got shuffle={shuffle}, sampler={sampler}, batch_sampler={batch_sampler}"
            )
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError(
                    "batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and drop_last"
                )
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually exclusive with drop_last")
        if not iterable and sampler is None:
            sampler = RandomSampler(dataset, generator=generator) if shuffle else SequentialSampler(dataset)
        if not iterable and batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        elif iterable and batch_size is not None:
            BatchSampler(range(1), batch_size, drop_last)  # the same checks of batch_size and drop_last
        self.dataset = dataset
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.num_workers = num_workers
        self.collate_fn = collate_fn if collate_fn is not None else (
            default_collate if batch_size is not None or batch_sampler is not None else default_convert
        )  # fmt: skip
        self.pin_memory = pin_memory
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.generator = generator
        self.device = None if device is None else B.device(device)
        if num_workers > 0:
            print(
                f"minigrad: DataLoader(num_workers={num_workers}) loads in the main process "
                "(minigrad starts no worker processes)",
                file=sys.stderr,
            )

    def __len__(self) -> int:
        if isinstance(self.dataset, IterableDataset):
            n = len(self.dataset)
            if self.batch_size is None:
                return n
            return n // self.batch_size if self.drop_last else -(-n // self.batch_size)
        return len(self.batch_sampler) if self.batch_sampler is not None else len(self.sampler)

    def __iter__(self):
        for batch in self._batches():
            yield batch if self.device is None else _to_device(batch, self.device)

    def _batches(self):
        dataset, collate = self.dataset, self.collate_fn
        if isinstance(dataset, IterableDataset):
            yield from self._iterable_batches()
        elif self.batch_sampler is None:
            for index in self.sampler:
                yield collate(dataset[index])
        elif isinstance(dataset, TensorDataset) and collate is default_collate:
            for indices in self.batch_sampler:
                rows = np.asarray(indices, dtype=np.int64)  # one fancy index: a copy, never a view of the data
                yield [make_leaf(t.array[rows], t.device) for t in dataset.tensors]
        else:
            for indices in self.batch_sampler:
                yield collate([dataset[i] for i in indices])

    def _iterable_batches(self):
        if self.batch_size is None:
            for item in self.dataset:
                yield self.collate_fn(item)
            return
        batch = []
        for item in self.dataset:
            batch.append(item)
            if len(batch) == self.batch_size:
                yield self.collate_fn(batch)
                batch = []
        if batch and not self.drop_last:
            yield self.collate_fn(batch)


def _check_workers(num_workers, timeout, prefetch_factor, persistent_workers) -> None:
    if num_workers < 0:
        raise ValueError("num_workers option should be non-negative; use num_workers=0 to disable multiprocessing.")
    if timeout < 0:
        raise ValueError("timeout option should be non-negative")
    if num_workers == 0 and prefetch_factor is not None:
        raise ValueError(
            "prefetch_factor option could only be specified in multiprocessing.let num_workers > 0 to enable "
            "multiprocessing, otherwise set prefetch_factor to None."
        )
    if persistent_workers and num_workers == 0:
        raise ValueError("persistent_workers option needs num_workers > 0")


def _to_device(batch, device):
    if isinstance(batch, Tensor):
        if batch.device == device:
            return batch
        return make_leaf(B.to_device_array(batch.array, device), device)
    if isinstance(batch, dict):
        return {k: _to_device(v, device) for k, v in batch.items()}
    if isinstance(batch, list):
        return [_to_device(v, device) for v in batch]
    if isinstance(batch, tuple):
        return type(batch)(*(_to_device(v, device) for v in batch)) if hasattr(batch, "_fields") else tuple(
            _to_device(v, device) for v in batch
        )  # fmt: skip
    return batch
