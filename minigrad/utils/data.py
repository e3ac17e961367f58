"""``torch.utils.data``'s names: the same objects as :mod:`minigrad.data`."""

from ..data import DataLoader, Dataset, Subset, TensorDataset, random_split

__all__ = ["DataLoader", "Dataset", "Subset", "TensorDataset", "random_split"]
