"""Datasets and batching (``minigrad.data``): toy 2-D sets, the sklearn digits, a DataLoader."""

from .digits import load_digits, train_test_split
from .loader import DataLoader, TensorDataset
from .synthetic import make_blobs, make_moons, make_spirals

__all__ = [
    "make_moons",
    "make_spirals",
    "make_blobs",
    "load_digits",
    "train_test_split",
    "TensorDataset",
    "DataLoader",
]
