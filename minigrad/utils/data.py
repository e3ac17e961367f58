"""``torch.utils.data``'s names: the same objects as :mod:`minigrad.data`."""

from ..data import (
    BatchSampler,
    ConcatDataset,
    DataLoader,
    Dataset,
    IterableDataset,
    RandomSampler,
    Sampler,
    SequentialSampler,
    Subset,
    SubsetRandomSampler,
    TensorDataset,
    WeightedRandomSampler,
    default_collate,
    default_convert,
    get_worker_info,
    random_split,
)

__all__ = [
    "DataLoader",
    "Dataset",
    "IterableDataset",
    "ConcatDataset",
    "Subset",
    "TensorDataset",
    "random_split",
    "default_collate",
    "default_convert",
    "get_worker_info",
    "Sampler",
    "SequentialSampler",
    "RandomSampler",
    "SubsetRandomSampler",
    "WeightedRandomSampler",
    "BatchSampler",
]
