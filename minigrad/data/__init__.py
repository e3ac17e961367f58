"""Datasets and batching (``minigrad.data``, also ``minigrad.utils.data``): toy 2-D sets, the sklearn
digits, Dataset, Subset, random_split, TensorDataset, DataLoader."""

from .dataset import Dataset, Subset, random_split
from .digits import load_digits, train_test_split
from .loader import DataLoader, TensorDataset
from .synthetic import make_blobs, make_moons, make_spirals

__all__ = [
    "make_moons",
    "make_spirals",
    "make_blobs",
    "load_digits",
    "train_test_split",
    "Dataset",
    "Subset",
    "random_split",
    "TensorDataset",
    "DataLoader",
]
