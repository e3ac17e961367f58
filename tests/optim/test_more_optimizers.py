"""Adagrad, Adadelta, Adamax, NAdam, RAdam, ASGD, Rprop and LBFGS: PyTorch's update rules step by step,
their refusals, state dicts, and ``optimizer.state`` as a defaultdict."""

from collections import defaultdict

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn
from tests.optim.side_by_side import step_one_parameter, train_both

CONFIGS = [
    ("Adagrad", {}),
    ("Adagrad", {"lr": 0.1, "lr_decay": 0.1, "weight_decay": 0.1, "initial_accumulator_value": 0.5}),
    ("Adagrad", {"lr": 0.1, "eps": 1e-6, "maximize": True}),
    ("Adadelta", {}),
    ("Adadelta", {"lr": 0.5, "rho": 0.8, "eps": 1e-5, "weight_decay": 0.1, "maximize": True}),
    ("Adamax", {}),
    ("Adamax", {"lr": 0.05, "betas": (0.8, 0.9), "weight_decay": 0.1, "maximize": True}),
    ("NAdam", {}),
    ("NAdam", {"lr": 0.01, "weight_decay": 0.1, "momentum_decay": 0.01}),
    ("NAdam", {"lr": 0.01, "weight_decay": 0.1, "decoupled_weight_decay": True, "maximize": True}),
    ("RAdam", {}),
    ("RAdam", {"lr": 0.01, "betas": (0.5, 0.6), "weight_decay": 0.1}),
    ("RAdam", {"weight_decay": 0.1, "decoupled_weight_decay": True, "maximize": True}),
    ("ASGD", {}),
    ("ASGD", {"lr": 0.05, "lambd": 0.01, "alpha": 0.5, "t0": 3, "weight_decay": 0.1, "maximize": True}),
    ("Rprop", {}),
    ("Rprop", {"lr": 0.05, "etas": (0.3, 1.5), "step_sizes": (1e-3, 0.2), "maximize": True}),
]
NAMES = sorted({name for name, _ in CONFIGS})


def _gradients(step: int, shape):
    return np.random.default_rng(step % 3).standard_normal(shape)  # repeats, so Rprop's signs agree and flip


@pytest.mark.parametrize("name,kwargs", CONFIGS, ids=lambda v: str(v))
def test_steps_match_pytorch(name, kwargs):
    torch = pytest.importorskip("torch")
    opt, topt, p, tp = step_one_parameter(torch, name, kwargs, _gradients, 10, rtol=1e-6)
    if name == "ASGD":  # the averaged parameters too
        np.testing.assert_allclose(opt.state[p]["ax"], topt.state[tp]["ax"].numpy(), rtol=1e-6)


def _mlp_pair(torch):
    X, y = mg.data.make_moons(64, noise=0.1, seed=1)
    model = nn.MLP(2, [16], 2, dtype=mg.float64)
    tmodel = torch.nn.Sequential(torch.nn.Linear(2, 16), torch.nn.ReLU(), torch.nn.Linear(16, 2)).double()
    renamed = {
        k.replace("fc1", "0").replace("fc2", "2"): torch.from_numpy(v.array.copy())
        for k, v in model.state_dict().items()
    }
    tmodel.load_state_dict(renamed)
    return (
        mg.tensor(X, dtype=mg.float64),
        mg.tensor(y),
        torch.from_numpy(X.astype("float64")),
        torch.from_numpy(y),
        model,
        tmodel,
    )


@pytest.mark.parametrize("name", NAMES)
def test_an_mlp_trains_as_under_pytorch(name):
    torch = pytest.importorskip("torch")
    x, t, tx, tt, model, tmodel = _mlp_pair(torch)
    opt = getattr(mg.optim, name)(model.parameters())
    topt = getattr(torch.optim, name)(tmodel.parameters())
    losses, tlosses = train_both(torch, (model, opt, x, t), (tmodel, topt, tx, tt), 6)
    for step, (loss, tloss) in enumerate(zip(losses, tlosses)):
        assert loss == pytest.approx(tloss, rel=1e-6), f"step {step}"
    for ours, theirs in zip(model.parameters(), tmodel.parameters()):
        np.testing.assert_allclose(ours.array, theirs.detach().numpy(), rtol=1e-6, atol=1e-12)


def _quadratic(lib, start):
    """``f(x) = x.A.x / 2 - b.x + sum(x^4) / 4``: smooth, convex, not quadratic (the line search has work)."""
    rng = np.random.default_rng(3)
    m = rng.standard_normal((5, 5))
    a = lib.tensor(m @ m.T + np.eye(5))
    b = lib.tensor(rng.standard_normal(5))
    x = lib.nn.Parameter(lib.tensor(start.copy()))

    def loss_of():
        return (x @ (a @ x)) / 2 - (b * x).sum() + (x**4).sum() / 4

    return x, loss_of


def _lbfgs_run(lib, kwargs, steps=3):
    x, loss_of = _quadratic(lib, np.linspace(-1.0, 1.5, 5))
    opt = lib.optim.LBFGS([x], **kwargs)

    def closure():
        opt.zero_grad()
        loss = loss_of()
        loss.backward()
        return loss

    losses = [float(opt.step(closure).detach()) for _ in range(steps)]
    return x.detach().numpy().copy(), losses, opt.state[x]["func_evals"], opt.state[x]["n_iter"]


LBFGS_CONFIGS = [
    {},
    {"line_search_fn": "strong_wolfe"},
    {"lr": 0.5, "max_iter": 4, "history_size": 2},
    {"lr": 0.8, "max_iter": 6, "history_size": 3, "line_search_fn": "strong_wolfe"},
]


@pytest.mark.parametrize("kwargs", LBFGS_CONFIGS, ids=str)
def test_lbfgs_matches_pytorch(kwargs):
    torch = pytest.importorskip("torch")
    ours, theirs = _lbfgs_run(mg, kwargs), _lbfgs_run(torch, kwargs)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-6, atol=1e-12)
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-6)
    assert ours[2:] == theirs[2:]  # the same number of closure calls and iterations


@pytest.mark.parametrize("line_search_fn", [None, "strong_wolfe"])
def test_lbfgs_finds_the_minimum(line_search_fn):
    x, loss_of = _quadratic(mg, np.zeros(5))
    opt = mg.optim.LBFGS([x], line_search_fn=line_search_fn, max_iter=100, tolerance_grad=1e-10)

    def closure():
        opt.zero_grad()
        loss = loss_of()
        loss.backward()
        return loss

    first = opt.step(closure)
    assert isinstance(first, mg.Tensor) and first.item() == 0.0  # the loss at the start, as PyTorch returns
    opt.zero_grad()
    loss_of().backward()
    assert np.abs(x.grad.array).max() < 1e-4  # it stops when the loss changes by less than tolerance_change
    assert x.is_leaf and x.grad_fn is None


def test_lbfgs_refusals():
    p = nn.Parameter(mg.ones(2))
    with pytest.raises(ValueError, match="LBFGS doesn't support per-parameter options"):
        mg.optim.LBFGS([{"params": [p]}, {"params": [nn.Parameter(mg.ones(1))]}])
    opt = mg.optim.LBFGS([p], line_search_fn="armijo")
    with pytest.raises(RuntimeError, match="only 'strong_wolfe' is supported"):
        opt.step(lambda: (p * p).sum())
    with pytest.raises(RuntimeError, match="needs a closure"):
        mg.optim.LBFGS([p]).step(None)
    with pytest.raises(ValueError, match="Invalid learning rate: -1"):
        mg.optim.LBFGS([p], lr=-1)


def test_lbfgs_state_dict_resumes_identically():
    def run(resume_at=None):
        x, loss_of = _quadratic(mg, np.linspace(-1.0, 1.5, 5))
        opt = mg.optim.LBFGS([x], max_iter=3, history_size=4)
        for step in range(4):
            if step == resume_at:
                saved, saved_x = opt.state_dict(), x.array.copy()
                x, loss_of = _quadratic(mg, saved_x)
                opt = mg.optim.LBFGS([x], max_iter=3, history_size=4)
                opt.load_state_dict(saved)

            def closure(opt=opt, loss_of=loss_of):
                opt.zero_grad()
                loss = loss_of()
                loss.backward()
                return loss

            opt.step(closure)
        return x.array

    np.testing.assert_array_equal(run(), run(resume_at=2))


@pytest.mark.parametrize("name", NAMES)
def test_state_dict_round_trip_resumes_identically(name):
    def run(resume_at=None):
        start = np.random.default_rng(0).standard_normal(4)
        w = nn.Parameter(mg.tensor(start))
        opt = getattr(mg.optim, name)([w])
        for step in range(6):
            if step == resume_at:
                saved, saved_w = opt.state_dict(), w.array.copy()
                w = nn.Parameter(mg.tensor(saved_w))
                opt = getattr(mg.optim, name)([w])
                opt.load_state_dict(saved)
            w.grad = mg.tensor(_gradients(step, (4,)))
            opt.step()
        return w.array

    np.testing.assert_array_equal(run(), run(resume_at=3))


def test_state_is_a_defaultdict_as_pytorchs():
    p = nn.Parameter(mg.ones(2))
    opt = mg.optim.Adamax([p])
    assert isinstance(opt.state, defaultdict) and opt.state[p] == {}  # a missing parameter reads as {}
    opt.state[p]["note"] = 1  # code that keeps its own per-parameter entries, as in PyTorch
    assert opt.state[p]["note"] == 1
    p.grad = mg.ones(2)
    opt.step()
    assert set(opt.state[p]) == {"note", "step", "exp_avg", "exp_inf"}
    other = mg.optim.Adamax([nn.Parameter(mg.ones(2))])
    other.load_state_dict(opt.state_dict())
    assert isinstance(other.state, defaultdict)


def test_adagrad_state_exists_from_construction():
    p = nn.Parameter(mg.ones(3))
    opt = mg.optim.Adagrad([p], initial_accumulator_value=0.25)
    assert opt.state[p]["step"] == 0
    np.testing.assert_array_equal(opt.state[p]["sum"], [0.25] * 3)


def test_updates_record_no_graph_and_skip_params_without_grad():
    for name in NAMES:
        w, frozen = nn.Parameter(mg.tensor([1.0, 2.0])), nn.Parameter(mg.tensor([5.0]))
        opt = getattr(mg.optim, name)([w, frozen])
        (w * w).sum().backward()
        opt.step()
        assert w.is_leaf and w.grad_fn is None and w.requires_grad, name
        assert not np.array_equal(w.array, [1.0, 2.0]), name
        assert frozen.array[0] == 5.0, name


def test_tensor_lr_is_read_at_each_step():
    lr = mg.tensor(0.1)
    p = nn.Parameter(mg.ones(2))
    opt = mg.optim.NAdam([p], lr=lr)
    p.grad = mg.ones(2)
    opt.step()
    before = p.array.copy()
    lr.fill_(0.0)
    opt.step()
    np.testing.assert_array_equal(p.array, before)


NAN = float("nan")
BAD = [  # torch 2.13's refusals
    ("Adagrad", {"lr": -0.1}, "Invalid learning rate: -0.1"),
    ("Adagrad", {"lr_decay": -1.0}, "Invalid lr_decay value: -1.0"),
    ("Adagrad", {"initial_accumulator_value": -1.0}, "Invalid initial_accumulator_value value: -1.0"),
    ("Adagrad", {"eps": NAN}, "Invalid epsilon value: nan"),
    ("Adadelta", {"rho": 1.5}, "Invalid rho value: 1.5"),
    ("Adadelta", {"weight_decay": -1.0}, "Invalid weight_decay value: -1.0"),
    ("Adamax", {"betas": (0.9, 1.0)}, "Invalid beta parameter at index 1: 1.0"),
    ("NAdam", {"momentum_decay": -1.0}, "Invalid momentum_decay value: -1.0"),
    ("NAdam", {"lr": NAN}, "Invalid learning rate: nan"),
    ("RAdam", {"betas": (-0.1, 0.9)}, "Invalid beta parameter at index 0: -0.1"),
    ("ASGD", {"weight_decay": -0.5}, "Invalid weight_decay value: -0.5"),
    ("Rprop", {"etas": (1.5, 2.0)}, "Invalid eta values: 1.5, 2.0"),
    ("Rprop", {"lr": -1.0}, "Invalid learning rate: -1.0"),
]


@pytest.mark.parametrize("name,kwargs,message", BAD)
def test_bad_hyperparameters_are_refused_in_pytorchs_words(name, kwargs, message):
    with pytest.raises(ValueError, match=message):
        getattr(mg.optim, name)([nn.Parameter(mg.ones(1))], **kwargs)


@pytest.mark.parametrize("name,kwargs,message", BAD)
def test_the_refusals_are_torchs(name, kwargs, message):
    torch = pytest.importorskip("torch")
    with pytest.raises(ValueError, match=message):
        getattr(torch.optim, name)([torch.nn.Parameter(torch.ones(1))], **kwargs)


def test_differentiable_updates_are_refused():
    with pytest.raises(NotImplementedError, match="differentiable=True"):
        mg.optim.RAdam([nn.Parameter(mg.ones(1))], differentiable=True)


@pytest.mark.parametrize("name", NAMES)
def test_param_groups_hold_pytorchs_keys(name):
    torch = pytest.importorskip("torch")
    ours = getattr(mg.optim, name)([nn.Parameter(mg.ones(1))]).param_groups[0]
    theirs = getattr(torch.optim, name)([torch.nn.Parameter(torch.ones(1))]).param_groups[0]
    assert set(ours) == set(theirs)
    assert {k: ours[k] for k in ours if k != "params"} == {k: theirs[k] for k in theirs if k != "params"}
