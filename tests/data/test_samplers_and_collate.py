"""DataLoader as torch.utils.data's: samplers, batch samplers, collation of any item, batch_size=None,
num_workers, and the torch.utils.data.dataloader / sampler module paths."""

from collections import namedtuple

import numpy as np
import pytest

import minigrad as mg
from minigrad import data

Point = namedtuple("Point", "x y")


class Items(data.Dataset):
    """Items of every kind torch's default_collate takes; ``kind`` picks one."""

    def __init__(self, kind, n=5):
        self.kind, self.n = kind, n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if self.kind == "tuple":
            return np.full(3, i, dtype=np.float32), i
        if self.kind == "dict":
            return {"x": np.arange(2.0) + i, "label": i, "name": f"item{i}", "w": 0.5 * i}
        if self.kind == "namedtuple":
            return Point(np.float64(i), [i, i + 1])
        if self.kind == "array":
            return np.arange(4, dtype=np.int64) * i
        raise AssertionError(self.kind)


def _plain(batch):
    """A batch as plain Python values and NumPy arrays (either library's), with its container types."""
    if hasattr(batch, "detach"):
        return (
            "tensor",
            str(batch.dtype).replace("torch.", "").replace("minigrad.", ""),
            batch.detach().numpy().tolist(),
        )
    if isinstance(batch, dict):
        return {k: _plain(v) for k, v in batch.items()}
    if isinstance(batch, tuple) and hasattr(batch, "_fields"):
        return (type(batch).__name__, [_plain(v) for v in batch])
    if isinstance(batch, (list, tuple)):
        return (type(batch).__name__, [_plain(v) for v in batch])
    return batch


@pytest.mark.parametrize("kind", ["tuple", "dict", "namedtuple", "array"])
@pytest.mark.parametrize("options", [{"batch_size": 2}, {"batch_size": 2, "drop_last": True}, {"batch_size": None}])
def test_batches_are_torchs(kind, options):
    torch = pytest.importorskip("torch")
    ours = [_plain(b) for b in data.DataLoader(Items(kind), **options)]
    theirs = [_plain(b) for b in torch.utils.data.DataLoader(Items(kind), **options)]
    assert ours == theirs


def test_a_tensor_dataset_batches_as_torchs():
    torch = pytest.importorskip("torch")
    X, y = np.arange(10.0).reshape(5, 2), np.arange(5)
    ours = [_plain(b) for b in data.DataLoader(data.TensorDataset(mg.tensor(X), mg.tensor(y)), batch_size=2)]
    theirs = [
        _plain(b)
        for b in torch.utils.data.DataLoader(
            torch.utils.data.TensorDataset(torch.tensor(X), torch.tensor(y)), batch_size=2
        )
    ]
    assert ours == theirs
    item = data.TensorDataset(mg.tensor(X), mg.tensor(y))[1]
    assert isinstance(item, tuple) and all(isinstance(t, mg.Tensor) for t in item) and item[1].item() == 1


def test_a_sampler_and_a_batch_sampler_pick_the_indices():
    ds = data.TensorDataset(mg.arange(10))
    picked = [b[0].tolist() for b in data.DataLoader(ds, batch_size=3, sampler=[9, 1, 4, 4, 0])]
    assert picked == [[9, 1, 4], [4, 0]]
    by_batches = [b[0].tolist() for b in data.DataLoader(ds, batch_sampler=[[0, 5], [7], [2, 2, 2]])]
    assert by_batches == [[0, 5], [7], [2, 2, 2]]
    sampler = data.BatchSampler(data.SequentialSampler(range(7)), batch_size=3, drop_last=False)
    loader = data.DataLoader(Items("array", 7), batch_sampler=sampler)
    assert len(loader) == 3 and [b.shape[0] for b in loader] == [3, 3, 1]


def test_collate_fn_gets_the_list_of_items():
    seen = []
    loader = data.DataLoader(Items("tuple"), batch_size=2, collate_fn=lambda items: seen.append(items) or len(items))
    assert list(loader) == [2, 2, 1]
    assert isinstance(seen[0], list) and seen[0][1][1] == 1


def test_sequential_and_batch_samplers_as_torchs():
    torch = pytest.importorskip("torch")
    assert list(data.SequentialSampler(range(4))) == list(torch.utils.data.SequentialSampler(range(4)))
    for drop_last in (False, True):
        ours = data.BatchSampler(range(10), 4, drop_last)
        theirs = torch.utils.data.BatchSampler(range(10), 4, drop_last)
        assert list(ours) == list(theirs) and len(ours) == len(theirs)


def test_random_samplers_cover_and_follow_the_generator():
    def draw(sampler_type, *args, **kwargs):
        return list(sampler_type(*args, generator=mg.Generator().manual_seed(7), **kwargs))

    order = draw(data.RandomSampler, range(10))
    assert sorted(order) == list(range(10)) and order == draw(data.RandomSampler, range(10))
    long = draw(data.RandomSampler, range(4), num_samples=10)
    assert len(long) == 10 and sorted(long[:8]) == [0, 0, 1, 1, 2, 2, 3, 3]  # whole permutations first
    with_replacement = draw(data.RandomSampler, range(3), replacement=True, num_samples=50)
    assert len(with_replacement) == 50 and set(with_replacement) == {0, 1, 2}
    subset = draw(data.SubsetRandomSampler, [10, 20, 30])
    assert sorted(subset) == [10, 20, 30]
    mg.manual_seed(3)
    a = list(data.RandomSampler(range(8)))
    mg.manual_seed(3)
    assert a == list(data.RandomSampler(range(8)))


def test_weighted_random_sampler_draws_by_weight():
    g = mg.Generator().manual_seed(0)
    draws = list(data.WeightedRandomSampler([0.0, 1.0, 3.0], num_samples=4000, generator=g))
    counts = np.bincount(draws, minlength=3)
    assert counts[0] == 0 and 0.7 < counts[2] / counts.sum() < 0.8
    once = list(data.WeightedRandomSampler(mg.tensor([1.0, 1.0, 1.0, 0.0]), 3, replacement=False, generator=g))
    assert sorted(once) == [0, 1, 2]
    loader = data.DataLoader(Items("array", 3), batch_size=2, sampler=data.WeightedRandomSampler([1, 1, 1], 5))
    assert len(loader) == 3


@pytest.mark.parametrize(
    "make,error,message",
    [
        (lambda: data.RandomSampler(range(3), replacement=1), TypeError, "replacement should be a boolean value"),
        (lambda: data.RandomSampler(range(3), num_samples=0), ValueError, "num_samples should be a positive integer"),
        (lambda: data.WeightedRandomSampler([1.0], num_samples=0), ValueError, "num_samples should be a positive"),
        (lambda: data.WeightedRandomSampler([[1.0]], num_samples=1), ValueError, "weights should be a 1d sequence"),
        (lambda: data.BatchSampler(range(3), 0, False), ValueError, "batch_size should be a positive integer"),
        (lambda: data.BatchSampler(range(3), 2, 1), ValueError, "drop_last should be a boolean value"),
        (lambda: data.DataLoader(Items("array"), sampler=[0], shuffle=True), ValueError, "mutually exclusive"),
        (
            lambda: data.DataLoader(Items("array"), batch_sampler=[[0]], batch_size=2),
            ValueError,
            "batch_sampler option",
        ),
        (
            lambda: data.DataLoader(Items("array"), batch_size=None, drop_last=True),
            ValueError,
            "disables auto-batching",
        ),
        (lambda: data.DataLoader(Items("array"), num_workers=-1), ValueError, "num_workers option should be non-neg"),
        (lambda: data.DataLoader(Items("array"), persistent_workers=True), ValueError, "needs num_workers > 0"),
    ],
)
def test_refusals_in_torchs_words(make, error, message):
    with pytest.raises(error, match=message):
        make()


def test_collate_refuses_what_it_cannot_stack():
    with pytest.raises(TypeError, match="default_collate: batch must contain tensors, numpy arrays, numbers"):
        data.default_collate([object(), object()])
    with pytest.raises(RuntimeError, match="each element in list of batch should be of equal size"):
        data.default_collate([[1, 2], [3]])


def test_num_workers_loads_in_the_main_process_with_a_notice(capsys):
    loader = data.DataLoader(Items("array"), batch_size=2, num_workers=4, pin_memory=True, prefetch_factor=2)
    notice = capsys.readouterr().err
    assert notice.count("\n") == 1 and "num_workers=4" in notice and "main process" in notice
    assert [b.shape[0] for b in loader] == [2, 2, 1] and data.get_worker_info() is None


def test_an_iterable_dataset_is_batched_in_order():
    class Stream(data.IterableDataset):
        def __iter__(self):
            return iter(range(7))

    assert [b.tolist() for b in data.DataLoader(Stream(), batch_size=3)] == [[0, 1, 2], [3, 4, 5], [6]]
    assert [b.tolist() for b in data.DataLoader(Stream(), batch_size=3, drop_last=True)] == [[0, 1, 2], [3, 4, 5]]
    with pytest.raises(ValueError, match="IterableDataset"):
        data.DataLoader(Stream(), shuffle=True)


def test_torch_module_paths_serve_the_loader_and_samplers():
    from minigrad.compat import install_torch

    with install_torch():
        import torch.utils.data.dataloader as dataloader
        import torch.utils.data.sampler as sampler
        from torch.utils.data import WeightedRandomSampler, default_collate

        assert dataloader.DataLoader is data.DataLoader and dataloader.default_collate is default_collate
        assert sampler.BatchSampler is data.BatchSampler and WeightedRandomSampler is data.WeightedRandomSampler


@pytest.mark.parametrize("drop_last", [False, True])
def test_distributed_sampler_shares_as_torchs(drop_last):
    torch = pytest.importorskip("torch")
    for rank in range(3):
        ours = data.distributed.DistributedSampler(
            range(10), num_replicas=3, rank=rank, shuffle=False, drop_last=drop_last
        )
        theirs = torch.utils.data.distributed.DistributedSampler(
            range(10), num_replicas=3, rank=rank, shuffle=False, drop_last=drop_last
        )
        assert list(ours) == list(theirs) and len(ours) == len(theirs)


def test_distributed_sampler_shuffles_by_epoch_and_needs_its_replicas():
    shares = [data.distributed.DistributedSampler(range(9), num_replicas=3, rank=r, seed=4) for r in range(3)]
    first = [list(s) for s in shares]
    assert sorted(sum(first, [])) == list(range(9))  # the replicas split one order between them
    for s in shares:
        s.set_epoch(1)
    assert [list(s) for s in shares] != first and sorted(sum((list(s) for s in shares), [])) == list(range(9))
    with pytest.raises(RuntimeError, match="Requires distributed package to be available"):
        data.distributed.DistributedSampler(range(9))
    with pytest.raises(ValueError, match=r"Invalid rank 3, rank should be in the interval \[0, 2\]"):
        data.distributed.DistributedSampler(range(9), num_replicas=3, rank=3)


def test_concat_dataset_and_adding_datasets():
    torch = pytest.importorskip("torch")
    parts = [Items("array", 2), Items("array", 3)]
    ours, theirs = data.ConcatDataset(parts), torch.utils.data.ConcatDataset(parts)
    assert len(ours) == len(theirs) == 5 and ours.cumulative_sizes == theirs.cumulative_sizes
    for i in range(-5, 5):
        np.testing.assert_array_equal(ours[i], theirs[i])
    assert len(parts[0] + parts[1]) == 5
