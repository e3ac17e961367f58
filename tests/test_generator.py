"""minigrad.Generator and ``generator=``: a stream of its own, as torch.Generator (cases after PyTorch's
test_torch generator tests, rewritten here): the same seed draws the same numbers whatever the default
generator did meanwhile; state saved and restored continues the stream; every function that draws
takes one."""

import numpy as np
import pytest

import minigrad as mg


def _seeded(seed=7):
    return mg.Generator().manual_seed(seed)


def test_manual_seed_returns_the_generator_and_initial_seed_remembers_it():
    g = mg.Generator()
    assert g.manual_seed(123) is g and g.initial_seed() == 123 and g.device == mg.device("cpu")
    fresh = mg.Generator()
    assert fresh.seed() == fresh.initial_seed()
    with pytest.raises(TypeError, match="manual_seed expected an int, but got float"):
        g.manual_seed(1.5)


def test_a_seeded_generator_ignores_the_default_one():
    first = mg.randn(4, generator=_seeded()).tolist()
    mg.manual_seed(0)
    mg.rand(10)
    assert mg.randn(4, generator=_seeded()).tolist() == first
    assert mg.randn(4, generator=_seeded(8)).tolist() != first


def test_get_and_set_state_continue_the_stream():
    g = _seeded()
    mg.rand(3, generator=g)
    state = g.get_state()
    after = mg.rand(5, generator=g).tolist()
    assert g.set_state(state) is g and mg.rand(5, generator=g).tolist() == after


@pytest.mark.parametrize(
    "draw",
    [
        lambda g: mg.rand(2, 3, generator=g),
        lambda g: mg.randn(2, 3, generator=g, dtype=mg.float64),
        lambda g: mg.randint(0, 100, (6,), generator=g),
        lambda g: mg.randperm(9, generator=g),
        lambda g: mg.multinomial(mg.tensor([1.0, 2.0, 3.0, 4.0]), 3, generator=g),
        lambda g: mg.tensor([1.0, 2.0, 3.0]).multinomial(5, replacement=True, generator=g),
        lambda g: mg.nn.init.uniform_(mg.empty(3, 4), -1, 1, generator=g),
        lambda g: mg.nn.init.normal_(mg.empty(3, 4), generator=g),
        lambda g: mg.nn.init.xavier_uniform_(mg.empty(3, 4), generator=g),
        lambda g: mg.nn.init.xavier_normal_(mg.empty(3, 4), generator=g),
        lambda g: mg.nn.init.kaiming_uniform_(mg.empty(3, 4), generator=g),
        lambda g: mg.nn.init.kaiming_normal_(mg.empty(3, 4), generator=g),
    ],
    ids=[
        "rand",
        "randn",
        "randint",
        "randperm",
        "multinomial",
        "multinomial method",
        "uniform_",
        "normal_",
        "xavier_uniform_",
        "xavier_normal_",
        "kaiming_uniform_",
        "kaiming_normal_",
    ],
)
def test_every_draw_takes_a_generator_and_repeats_with_its_seed(draw):
    mg.manual_seed(1)
    first = draw(_seeded()).tolist()
    mg.manual_seed(2)  # the default generator moves on; the seeded one does not care
    assert draw(_seeded()).tolist() == first


def test_randperm_is_a_permutation_with_pytorch_s_defaults():
    p = mg.randperm(50, generator=_seeded())
    assert p.dtype == mg.int64 and sorted(p.tolist()) == list(range(50))
    assert mg.randperm(0).tolist() == [] and mg.randperm(4, dtype=mg.float32).dtype == mg.float32
    with pytest.raises(RuntimeError, match=r"Trying to create tensor with negative dimension -1: \[-1\]"):
        mg.randperm(-1)


def test_data_loader_and_random_split_shuffle_by_a_generator():
    data = (mg.arange(10.0),)

    def epoch(generator):
        loader = mg.data.DataLoader(data, batch_size=5, shuffle=True, generator=generator)
        return [batch[0].tolist() for batch in loader]

    g = _seeded(0)
    first, second = epoch(g), epoch(g)
    assert first == epoch(_seeded(0)) and second != first  # the stream moves on from epoch to epoch
    assert sorted(np.concatenate(first).tolist()) == list(range(10))
    splits = [list(s.indices) for s in mg.data.random_split(range(6), [3, 3], generator=_seeded(0))]
    assert splits == [list(s.indices) for s in mg.data.random_split(range(6), [3, 3], generator=_seeded(0))]
    assert sorted(splits[0] + splits[1]) == list(range(6))


def test_a_generator_of_another_kind_or_device_is_refused():
    with pytest.raises(TypeError, match="argument 'generator' must be Generator, not int"):
        mg.randn(2, generator=3)
    cuda = object.__new__(mg.Generator)  # a CUDA generator, without a GPU to make one on
    cuda.device = type("Device", (), {"type": "cuda"})()
    with pytest.raises(RuntimeError, match="Expected a 'cpu' device type for generator but found 'cuda'"):
        mg.rand(2, generator=cuda)
