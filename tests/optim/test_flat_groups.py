"""Small parameters updated together (``minigrad.optim.flat``): the same bits as one parameter at a time,
``optimizer.state`` and ``state_dict()`` of the same form, and PyTorch's ``foreach``/``fused`` arguments."""

import copy
import pickle

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn
from minigrad.optim import flat

CONFIGS = [
    ("SGD", {"lr": 0.1}),
    ("SGD", {"lr": 0.1, "momentum": 0.9}),
    ("SGD", {"lr": 0.05, "momentum": 0.9, "dampening": 0.3, "weight_decay": 0.01, "maximize": True}),
    ("SGD", {"lr": 0.05, "momentum": 0.8, "nesterov": True, "weight_decay": 0.1}),
    ("Adam", {"lr": 0.01}),
    ("Adam", {"lr": 0.01, "betas": (0.8, 0.9), "weight_decay": 0.1, "amsgrad": True}),
    ("Adam", {"lr": 0.01, "weight_decay": 0.1, "maximize": True, "decoupled_weight_decay": True}),
    ("AdamW", {"lr": 0.01}),
    ("AdamW", {"lr": 0.02, "weight_decay": 0.5, "amsgrad": True, "maximize": True, "eps": 1e-6}),
    ("RMSprop", {"lr": 0.01}),
    ("RMSprop", {"lr": 0.01, "momentum": 0.9, "centered": True, "weight_decay": 0.1, "maximize": True}),
    ("Adagrad", {"lr": 0.1, "lr_decay": 0.1, "weight_decay": 0.1, "initial_accumulator_value": 0.5}),
    ("Adadelta", {"lr": 0.5, "rho": 0.8, "weight_decay": 0.1, "maximize": True}),
    ("Adamax", {"lr": 0.05, "weight_decay": 0.1}),
    ("NAdam", {"lr": 0.01, "weight_decay": 0.1, "decoupled_weight_decay": True}),
    ("RAdam", {"lr": 0.01, "weight_decay": 0.1}),
    ("ASGD", {"lr": 0.05, "lambd": 0.01, "t0": 2, "weight_decay": 0.1}),
    ("Rprop", {"lr": 0.05, "maximize": True}),
]
# a 0-d, vectors, matrices and a 3-d tensor in two dtypes, and one too large to join (updated alone)
SHAPES = [((), "float64"), ((5,), "float64"), ((3, 4), "float64"), ((2, 3, 2), "float64"), ((7,), "float32")]
SHAPES += [((4, 6), "float32"), ((flat.SMALL // 8 + 1,), "float64")]
STEPS = 7


def _params():
    rng = np.random.default_rng(0)
    return [nn.Parameter(mg.tensor(rng.standard_normal(shape).astype(dtype))) for shape, dtype in SHAPES]


def _gradient(step: int, i: int, p):
    """The gradient of parameter ``i`` at ``step``: ``None`` for some (parameter 1 skips every other step,
    parameter 3 the third), repeating so that Rprop's signs both agree and flip."""
    if (i == 1 and step % 2) or (i == 3 and step == 2):
        return None
    values = np.random.default_rng([step % 3, i]).standard_normal(p.shape)
    return mg.tensor(values.astype(p.array.dtype))


def _run(name, kwargs, foreach, steps=STEPS, between=None):
    """Train ``_params()`` for ``steps`` steps; ``between(step, params, opt)`` runs before each step's update."""
    params = _params()
    opt = getattr(mg.optim, name)(params, foreach=foreach, **kwargs)
    calls = []
    update = opt._update
    opt._update = lambda *args: calls.append(1) or update(*args)
    for step in range(steps):
        if between is not None:
            between(step, params, opt)
        for i, p in enumerate(params):
            p.grad = _gradient(step, i, p)
        opt.step()
    return params, opt, len(calls)


def _assert_same_state(ours, theirs, params, other_params):
    for p, q in zip(params, other_params):
        a, b = ours.state[p], theirs.state[q]
        assert list(a) == list(b)
        for key in a:
            if isinstance(b[key], np.ndarray):
                assert type(a[key]) is np.ndarray and a[key].shape == b[key].shape and a[key].dtype == b[key].dtype
                np.testing.assert_array_equal(a[key], b[key], err_msg=key)
            else:
                assert a[key] == b[key] and type(a[key]) is type(b[key]), key


@pytest.mark.parametrize("name,kwargs", CONFIGS, ids=lambda v: str(v))
def test_joined_update_has_the_same_bits_as_one_parameter_at_a_time(name, kwargs):
    joined, opt, calls = _run(name, kwargs, foreach=True)
    alone, opt_alone, calls_alone = _run(name, kwargs, foreach=False)
    for p, q in zip(joined, alone):
        assert p.array.dtype == q.array.dtype
        np.testing.assert_array_equal(p.array, q.array)
    _assert_same_state(opt, opt_alone, joined, alone)
    assert calls < calls_alone  # the small parameters of each dtype were updated together


@pytest.mark.parametrize("name,kwargs", CONFIGS, ids=lambda v: str(v))
def test_state_dict_has_the_same_form_and_values(name, kwargs):
    _, opt, _ = _run(name, kwargs, foreach=None)
    _, opt_alone, _ = _run(name, kwargs, foreach=False)
    ours, theirs = opt.state_dict(), opt_alone.state_dict()
    assert [{k: v for k, v in g.items() if k != "foreach"} for g in ours["param_groups"]] == [
        {k: v for k, v in g.items() if k != "foreach"} for g in theirs["param_groups"]
    ]
    assert ours["state"].keys() == theirs["state"].keys()
    for index, entries in ours["state"].items():
        assert list(entries) == list(theirs["state"][index])
        for key, value in entries.items():
            if isinstance(value, mg.Tensor):
                assert value.shape == theirs["state"][index][key].shape
                np.testing.assert_array_equal(value.array, theirs["state"][index][key].array)
                assert value.array.base is None  # a copy, not a view of the optimizer's buffers
            else:
                assert value == theirs["state"][index][key]


def test_state_arrays_are_updated_in_place_from_step_to_step():
    params = _params()
    opt = mg.optim.Adam(params, lr=0.1)
    for p in params:
        p.grad = mg.ones_like(p)
    opt.step()
    held = opt.state[params[2]]["exp_avg"]
    before = held.copy()
    opt.step()
    assert opt.state[params[2]]["exp_avg"] is held and not np.array_equal(held, before)
    assert held.shape == params[2].shape and opt.state[params[2]]["step"] == 2


@pytest.mark.parametrize("name,kwargs", [CONFIGS[3], CONFIGS[5], CONFIGS[8], CONFIGS[10]], ids=lambda v: str(v))
def test_a_parameter_given_new_data_between_steps(name, kwargs):
    def new_data(step, params, opt):
        if step == 3:  # same shape: the update goes to the new memory
            params[2].data = mg.tensor(np.full((3, 4), 0.5))
        if step == 5:  # another shape: its old state no longer fits, so the script drops it
            params[4].data = mg.tensor(np.full((9,), 0.25, dtype="float32"))
            del opt.state[params[4]]

    joined, opt, _ = _run(name, kwargs, foreach=True, between=new_data)
    alone, opt_alone, _ = _run(name, kwargs, foreach=False, between=new_data)
    for p, q in zip(joined, alone):
        np.testing.assert_array_equal(p.array, q.array)
    _assert_same_state(opt, opt_alone, joined, alone)


def test_state_entries_replaced_by_the_script_are_used():
    def edit(step, params, opt):
        if step == 3:
            opt.state[params[0]]["exp_avg"] = np.zeros(())  # a fresh array where a view was
            opt.state[params[2]]["step"] = 1  # this one's bias correction restarts
            opt.state[params[3]]["note"] = "kept"  # an entry of the script's own

    joined, opt, _ = _run("AdamW", {"lr": 0.01}, foreach=True, between=edit)
    alone, opt_alone, _ = _run("AdamW", {"lr": 0.01}, foreach=False, between=edit)
    for p, q in zip(joined, alone):
        np.testing.assert_array_equal(p.array, q.array)
    _assert_same_state(opt, opt_alone, joined, alone)
    assert opt.state[joined[3]]["note"] == "kept"


@pytest.mark.parametrize("name", ["SGD", "Adam", "AdamW", "RMSprop", "NAdam"])
def test_state_dict_round_trip_resumes_identically(name):
    kwargs = {"lr": 0.1, "momentum": 0.9} if name == "SGD" else {}

    def run(resume_at=None):
        params = _params()
        opt = getattr(mg.optim, name)(params, **kwargs)
        for step in range(6):
            if step == resume_at:
                saved = opt.state_dict()
                params = [nn.Parameter(mg.tensor(p.array.copy())) for p in params]
                opt = getattr(mg.optim, name)(params, **kwargs)
                opt.load_state_dict(saved)
            for i, p in enumerate(params):
                p.grad = _gradient(step, i, p)
            opt.step()
        return [p.array for p in params]

    for a, b in zip(run(), run(resume_at=3)):
        np.testing.assert_array_equal(a, b)


def test_a_group_added_later_is_updated_as_alone():
    def run(foreach):
        params = _params()
        opt = mg.optim.Adam(params[:3], lr=0.1, foreach=foreach)
        for step in range(5):
            if step == 2:
                opt.add_param_group({"params": params[3:], "lr": 0.01})
            for i, p in enumerate(params):
                p.grad = _gradient(step, i, p)
            opt.step()
        return params, opt

    (joined, opt), (alone, opt_alone) = run(None), run(False)
    for p, q in zip(joined, alone):
        np.testing.assert_array_equal(p.array, q.array)
    _assert_same_state(opt, opt_alone, joined, alone)


@pytest.mark.parametrize("name,kwargs", [("SGD", {"lr": 0.1, "momentum": 0.9, "nesterov": True}), ("AdamW", {})])
def test_several_parameters_step_as_pytorchs_foreach(name, kwargs):
    torch = pytest.importorskip("torch")
    start = _params()
    ours = [nn.Parameter(mg.tensor(p.array.copy())) for p in start]
    theirs = [torch.nn.Parameter(torch.from_numpy(p.array.copy())) for p in start]
    opt = getattr(mg.optim, name)(ours, **kwargs)
    topt = getattr(torch.optim, name)(theirs, foreach=True, **kwargs)
    for step in range(STEPS):
        for i, (p, tp) in enumerate(zip(ours, theirs)):
            p.grad = _gradient(step, i, p)
            tp.grad = None if p.grad is None else torch.from_numpy(p.grad.array.copy())
        opt.step()
        topt.step()
        for p, tp in zip(ours, theirs):
            tol = 1e-6 if p.array.dtype == np.float32 else 1e-13
            np.testing.assert_allclose(p.array, tp.detach().numpy(), rtol=tol, atol=tol, err_msg=f"step {step}")


def test_an_update_not_declared_elementwise_runs_one_parameter_at_a_time():
    class Normalized(mg.optim.SGD):  # a step scaled by the parameter's own gradient norm: not elementwise
        def _update(self, group, param, grad, state, xp):
            param -= group["lr"] * grad / xp.sqrt((grad * grad).sum())

    params = _params()[:3]
    opt = Normalized(params, lr=0.1, foreach=True)
    for p in params:
        p.grad = mg.tensor(np.full(p.shape, 2.0))
    opt.step()
    for p, start in zip(params, _params()):
        np.testing.assert_allclose(p.array, start.array - 0.1 / np.sqrt(max(p.numel(), 1)))


@pytest.mark.parametrize("name", ["SGD", "Adam", "AdamW", "RMSprop"])
def test_param_groups_hold_pytorchs_keys(name):
    torch = pytest.importorskip("torch")
    ours = getattr(mg.optim, name)([nn.Parameter(mg.ones(1))]).param_groups[0]
    theirs = getattr(torch.optim, name)([torch.nn.Parameter(torch.ones(1))]).param_groups[0]
    assert {k: ours[k] for k in ours if k != "params"} == {k: theirs[k] for k in theirs if k != "params"}


@pytest.mark.parametrize("name", ["SGD", "Adam", "AdamW"])
def test_foreach_and_fused_together_are_refused_as_pytorch(name):
    torch = pytest.importorskip("torch")
    message = "`fused` and `foreach` cannot be `True` together."
    with pytest.raises(RuntimeError, match=message):
        getattr(torch.optim, name)([torch.nn.Parameter(torch.ones(1))], foreach=True, fused=True)
    with pytest.raises(RuntimeError, match=message):
        getattr(mg.optim, name)([nn.Parameter(mg.ones(1))], foreach=True, fused=True)
    p = nn.Parameter(mg.ones(2))
    opt = getattr(mg.optim, name)([p], lr=0.1, fused=True)
    p.grad = mg.ones(2)
    opt.step()
    assert (p.array < 1).all()


@pytest.mark.parametrize("name", ["SGD", "Adam", "AdamW", "RMSprop"])
def test_differentiable_updates_are_refused(name):
    with pytest.raises(NotImplementedError, match="differentiable=True"):
        getattr(mg.optim, name)([nn.Parameter(mg.ones(1))], differentiable=True)


def test_a_state_dict_saved_before_foreach_existed_loads():
    p = nn.Parameter(mg.ones(2))
    opt = mg.optim.Adam([p], lr=0.1)
    p.grad = mg.ones(2)
    opt.step()
    saved = opt.state_dict()
    for key in ("foreach", "fused", "capturable", "differentiable", "decoupled_weight_decay"):
        del saved["param_groups"][0][key]
    other = mg.optim.Adam([q := nn.Parameter(mg.ones(2))], lr=0.5)
    other.load_state_dict(saved)
    assert other.param_groups[0]["lr"] == 0.1 and other.param_groups[0]["foreach"] is None
    q.grad = mg.ones(2)
    other.step()
    assert other.state[q]["step"] == 2


@pytest.mark.parametrize("foreach", [False, None])
@pytest.mark.parametrize("name,kwargs", CONFIGS, ids=lambda v: str(v))
def test_a_0d_parameter_steps_as_pytorchs(name, kwargs, foreach):
    # SGD's momentum buffer of a 0-d parameter with maximize or weight decay stayed at its first value:
    # (-grad).copy() of a 0-d array is a NumPy scalar, which `buf *= momentum` rebinds instead of writing
    torch = pytest.importorskip("torch")
    p = nn.Parameter(mg.tensor(0.75, dtype=mg.float64))
    tp = torch.nn.Parameter(torch.tensor(0.75, dtype=torch.float64))
    opt = getattr(mg.optim, name)([p], foreach=foreach, **kwargs)
    topt = getattr(torch.optim, name)([tp], foreach=False, **kwargs)
    for step in range(STEPS):
        g = np.random.default_rng(step % 3).standard_normal()
        p.grad = mg.tensor(g, dtype=mg.float64)
        tp.grad = torch.tensor(g, dtype=torch.float64)
        opt.step()
        topt.step()
        np.testing.assert_allclose(p.array, tp.detach().numpy(), rtol=1e-6, err_msg=f"step {step}")
    assert all(v.shape == () for v in opt.state[p].values() if isinstance(v, np.ndarray))


@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
def test_a_copied_optimizer_steps_on_its_own_state(how):
    def run(copy_at=None):
        params = _params()
        opt = mg.optim.AdamW(params, lr=0.1, amsgrad=True)
        for step in range(5):
            if step == copy_at:
                opt, params = (
                    copy.deepcopy((opt, params)) if how == "deepcopy" else pickle.loads(pickle.dumps((opt, params)))
                )
            for i, p in enumerate(params):
                p.grad = _gradient(step, i, p)
            opt.step()
        return params, opt

    (ours, opt), (theirs, opt_copied) = run(), run(copy_at=2)
    for p, q in zip(ours, theirs):
        np.testing.assert_array_equal(p.array, q.array)
    _assert_same_state(opt, opt_copied, ours, theirs)


def test_a_parameter_taken_out_of_its_group_is_no_longer_updated():
    def take_out(step, params, opt):
        if step == 3:
            del opt.param_groups[0]["params"][2]

    joined, opt, _ = _run("Adam", {"lr": 0.1}, foreach=True, between=take_out)
    alone, opt_alone, _ = _run("Adam", {"lr": 0.1}, foreach=False, between=take_out)
    for p, q in zip(joined, alone):
        np.testing.assert_array_equal(p.array, q.array)
    _assert_same_state(opt, opt_alone, joined, alone)
    assert opt.state[joined[2]]["step"] == 3
