"""Datasets and batching (``minigrad.data``, also ``minigrad.utils.data``, PyTorch's ``torch.utils.data``):
toy 2-D sets, the sklearn digits, Dataset, IterableDataset, Subset, random_split, TensorDataset, the
samplers, default_collate and DataLoader."""

from . import distributed
from .collate import default_collate, default_convert
from .dataset import ConcatDataset, Dataset, IterableDataset, Subset, random_split
from .digits import load_digits, train_test_split
from .loader import DataLoader, TensorDataset, get_worker_info
from .sampler import (
    BatchSampler,
    RandomSampler,
    Sampler,
    SequentialSampler,
    SubsetRandomSampler,
    WeightedRandomSampler,
)
from .synthetic import make_blobs, make_moons, make_spirals

__all__ = [
    "make_moons",
    "make_spirals",
    "make_blobs",
    "load_digits",
    "train_test_split",
    "Dataset",
    "IterableDataset",
    "ConcatDataset",
    "Subset",
    "random_split",
    "TensorDataset",
    "DataLoader",
    "default_collate",
    "default_convert",
    "get_worker_info",
    "Sampler",
    "SequentialSampler",
    "RandomSampler",
    "SubsetRandomSampler",
    "WeightedRandomSampler",
    "BatchSampler",
    "distributed",
]
