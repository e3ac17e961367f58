"""Module: registration, names, traversal, modes, grads, repr, state dicts, save/load."""

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn


class TwoLayer(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(2, 4)
        self.act = nn.ReLU()
        self.fc2 = nn.Linear(4, 3)

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))


def test_parameters_are_named_by_their_path():
    model = TwoLayer()
    assert [name for name, _ in model.named_parameters()] == ["fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"]
    assert [p.name for p in model.parameters()] == ["fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"]
    nested = nn.Sequential(TwoLayer(), nn.MLP(3, [5], 2))
    assert [p.name for p in nested.parameters()] == [
        "0.fc1.weight", "0.fc1.bias", "0.fc2.weight", "0.fc2.bias",
        "1.fc1.weight", "1.fc1.bias", "1.fc2.weight", "1.fc2.bias",
    ]  # fmt: skip


def test_parameter_names_reach_the_graph():
    model = TwoLayer()
    out = model(mg.randn(3, 2))
    linear_node = out
    assert linear_node.op == "linear"
    assert [p.name for p in linear_node.parents[1:]] == ["fc2.weight", "fc2.bias"]


def test_assigning_a_layer_after_construction_names_it():
    model = TwoLayer()
    model.head = nn.Linear(3, 1)
    assert model.head.weight.name == "head.weight"
    assert "head.weight" in model.state_dict()


def test_shared_parameters_are_listed_once():
    lin = nn.Linear(3, 3)
    model = nn.Sequential(lin, nn.ReLU(), lin)
    assert len(list(model.parameters())) == 2
    assert len(list(model.children())) == 2
    assert [n for n, _ in model.named_modules()] == ["", "0", "1"]


def test_children_modules_and_buffers():
    model = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3))
    assert [type(m).__name__ for m in model.children()] == ["Linear", "BatchNorm1d"]
    assert [type(m).__name__ for m in model.modules()] == ["Sequential", "Linear", "BatchNorm1d"]
    assert [n for n, _ in model.named_buffers()] == ["1.running_mean", "1.running_var", "1.num_batches_tracked"]
    assert dict(model.named_children()).keys() == {"0", "1"}


def test_train_and_eval_reach_every_module():
    model = nn.Sequential(nn.Linear(2, 3), nn.Sequential(nn.Dropout(0.5)))
    assert model.eval() is model
    assert not any(m.training for m in model.modules())
    model.train()
    assert all(m.training for m in model.modules())
    with pytest.raises(ValueError, match="boolean"):
        model.train("yes")


def test_zero_grad_to_none_or_zeros():
    model = TwoLayer()
    model(mg.randn(5, 2)).sum().backward()
    assert all(p.grad is not None for p in model.parameters())
    model.zero_grad(set_to_none=False)
    assert all(p.grad is not None and not p.grad.array.any() for p in model.parameters())
    model.zero_grad()
    assert all(p.grad is None for p in model.parameters())


def test_repr_looks_like_pytorch():
    model = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Sequential(nn.Dropout(0.25), nn.LayerNorm(4)))
    assert repr(model) == (
        "Sequential(\n"
        "  (0): Linear(in_features=2, out_features=4, bias=True)\n"
        "  (1): ReLU()\n"
        "  (2): Sequential(\n"
        "    (0): Dropout(p=0.25, inplace=False)\n"
        "    (1): LayerNorm((4,), eps=1e-05, elementwise_affine=True)\n"
        "  )\n"
        ")"
    )
    assert repr(nn.Linear(3, 1, bias=False)) == "Linear(in_features=3, out_features=1, bias=False)"
    assert repr(nn.Parameter(mg.tensor([1.0]))).startswith("Parameter containing:\ntensor([1.]")


def test_parameter_shares_the_storage_of_a_tensor():
    t = mg.tensor([1.0, 2.0])
    p = nn.Parameter(t)
    assert p.array is t.array and p.requires_grad and p.is_leaf
    with pytest.raises(RuntimeError, match="floating point"):
        nn.Parameter(mg.tensor([1, 2]))


def test_wrong_feature_size_names_the_layer_and_both_sizes():
    model = TwoLayer()
    with pytest.raises(RuntimeError) as info:
        model.fc2(mg.randn(5, 7))
    msg = str(info.value)
    assert "Linear 'fc2'" in msg and "in_features=4" in msg and "[5, 7]" in msg
    with pytest.raises(RuntimeError, match=r"Linear: expected input with in_features=2.*\[3\]"):
        nn.Linear(2, 1)(mg.randn(3))


def test_state_dict_round_trip():
    a, b = TwoLayer(), TwoLayer()
    sd = a.state_dict()
    assert list(sd) == ["fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"]
    assert sd["fc1.weight"].array is a.fc1.weight.array and not sd["fc1.weight"].requires_grad
    result = b.load_state_dict(sd)
    assert result.missing_keys == [] and result.unexpected_keys == []
    assert repr(result) == str(result) == "<All keys matched successfully>"  # what a notebook shows, as torch
    x = mg.randn(4, 2)
    np.testing.assert_array_equal(a(x).array, b(x).array)
    b.fc1.weight.array[0, 0] += 1  # a copy, not shared storage
    assert a.fc1.weight.array[0, 0] != b.fc1.weight.array[0, 0]


def test_load_state_dict_lists_missing_and_unexpected_keys():
    model = TwoLayer()
    sd = model.state_dict()
    del sd["fc2.bias"], sd["fc1.weight"]
    sd["fc3.weight"] = mg.zeros(2, 2)
    with pytest.raises(RuntimeError) as info:
        model.load_state_dict(sd)
    msg = str(info.value)
    assert msg.startswith("Error(s) in loading state_dict for TwoLayer:")
    assert 'Missing key(s) in state_dict: "fc1.weight", "fc2.bias".' in msg
    assert 'Unexpected key(s) in state_dict: "fc3.weight".' in msg
    before = model.fc1.bias.array.copy()
    sd["fc1.bias"] = mg.ones(4)
    result = model.load_state_dict(sd, strict=False)
    assert result.missing_keys == ["fc1.weight", "fc2.bias"] and result.unexpected_keys == ["fc3.weight"]
    assert repr(result) == "IncompatibleKeys(missing_keys=['fc1.weight', 'fc2.bias'], unexpected_keys=['fc3.weight'])"
    assert np.all(model.fc1.bias.array == 1) and not np.all(before == 1)


def test_load_state_dict_shape_mismatch_is_an_error_even_when_not_strict():
    model = TwoLayer()
    sd = model.state_dict()
    sd["fc1.weight"] = np.zeros((4, 3), dtype=np.float32)
    with pytest.raises(RuntimeError, match=r"size mismatch for fc1.weight: .*shape \[4, 3\].*is \[4, 2\]"):
        model.load_state_dict(sd, strict=False)


def test_save_and_load_npz(tmp_path):
    model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4))
    model(mg.randn(8, 3))  # moves the running statistics
    path = tmp_path / "model.npz"
    model.save(path)
    fresh = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4))
    fresh.load(path)
    for (k, v), (k2, v2) in zip(model.state_dict().items(), fresh.state_dict().items()):
        assert k == k2
        np.testing.assert_array_equal(v.array, v2.array)
    assert int(fresh[1].num_batches_tracked.item()) == 1
    with pytest.raises(RuntimeError, match="Missing key"):
        nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 1)).load(path)


def test_to_changes_dtype_in_place_and_keeps_parameters():
    model = TwoLayer()
    weight = model.fc1.weight
    assert model.double() is model
    assert model.fc1.weight is weight and weight.dtype == mg.float64
    assert model(mg.randn(2, 2, dtype=mg.float64)).dtype == mg.float64
    with pytest.raises(RuntimeError, match="dtype float32 and weight dtype float64"):
        model(mg.randn(2, 2))


def test_attribute_errors_and_missing_forward():
    class Plain(nn.Module):
        pass

    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        getattr(TwoLayer(), "nope")  # noqa: B009
    with pytest.raises(NotImplementedError, match="forward"):
        Plain()(mg.zeros(1))

    class Forgot(nn.Module):
        def __init__(self):
            self.fc = nn.Linear(1, 1)

    with pytest.raises(AttributeError, match="before Module.__init__"):
        Forgot()


@pytest.mark.parametrize(
    "value,words",
    [
        (lambda: mg.ones(4, 3), "'minigrad.Tensor' as parameter 'weight'"),
        (lambda: 3.0, "'float' as parameter 'weight'"),
        (lambda: nn.Linear(2, 2), "'minigrad.nn.linear.Linear' as parameter 'weight'"),
    ],
)
def test_a_parameter_takes_only_a_parameter_or_none(value, words):
    # m.weight = mg.ones(4, 3) was accepted and the weight vanished from parameters(); torch refuses it
    m = nn.Linear(3, 4)
    with pytest.raises(TypeError, match=f"cannot assign {words} \\(minigrad.nn.Parameter or None expected\\)"):
        m.weight = value()
    assert [name for name, _ in m.named_parameters()] == ["weight", "bias"]


def test_a_parameter_set_to_none_stays_registered_in_its_place():
    m = nn.Linear(3, 4)
    m.weight = None
    assert m.weight is None and [name for name, _ in m.named_parameters()] == ["bias"]
    m.weight = nn.Parameter(mg.ones(4, 3))
    assert [name for name, _ in m.named_parameters()] == ["weight", "bias"]  # as torch: the same slot


def test_a_buffer_takes_a_tensor_and_stays_a_buffer():
    # a tensor assigned to a buffer's name made it a plain attribute, gone from buffers() and state_dict()
    m = nn.BatchNorm1d(3)
    m.running_mean = mg.full((3,), 2.0)
    assert "running_mean" in dict(m.named_buffers()) and m.state_dict()["running_mean"].tolist() == [2.0] * 3
    assert m.running_mean.name == "running_mean"
    with pytest.raises(TypeError, match="cannot assign 'float' as buffer 'running_var' \\(minigrad.Tensor or None"):
        m.running_var = 1.0
    m.running_var = nn.Parameter(mg.ones(3))  # a Parameter moves it to the parameters, as torch
    assert "running_var" not in dict(m.named_buffers()) and "running_var" in dict(m.named_parameters())


def test_a_child_module_takes_only_a_module_or_none():
    seq = nn.Sequential(nn.Linear(2, 2))
    with pytest.raises(TypeError, match="cannot assign 'minigrad.Tensor' as child module '0' \\(minigrad.nn.Module"):
        setattr(seq, "0", mg.ones(2))
    setattr(seq, "0", None)
    assert list(seq.named_parameters()) == []


def test_deepcopy_and_pickle_keep_parameters_and_names():
    import copy
    import pickle

    model = TwoLayer()
    for clone in (copy.deepcopy(model), pickle.loads(pickle.dumps(model))):
        assert isinstance(clone.fc1.weight, nn.Parameter) and clone.fc1.weight.name == "fc1.weight"
        assert clone.fc1.weight.array is not model.fc1.weight.array
        np.testing.assert_array_equal(clone.fc2.bias.array, model.fc2.bias.array)
