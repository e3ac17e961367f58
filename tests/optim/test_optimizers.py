"""Optimizers and schedulers: PyTorch's update rules step by step, state dicts, no graphs, errors."""

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn
from tests.optim.side_by_side import step_one_parameter, train_both

CONFIGS = [
    ("SGD", {"lr": 0.1}),
    ("SGD", {"lr": 0.1, "momentum": 0.9}),
    ("SGD", {"lr": 0.05, "momentum": 0.9, "dampening": 0.3, "weight_decay": 0.01}),
    ("SGD", {"lr": 0.05, "momentum": 0.8, "nesterov": True, "weight_decay": 0.1}),
    ("SGD", {"lr": 0.05, "momentum": 0.5, "maximize": True}),
    ("Adam", {"lr": 0.01}),
    ("Adam", {"lr": 0.01, "betas": (0.8, 0.9), "weight_decay": 0.1, "amsgrad": True}),
    ("AdamW", {"lr": 0.01}),
    ("AdamW", {"lr": 0.02, "weight_decay": 0.5, "amsgrad": True, "eps": 1e-6}),
    ("RMSprop", {"lr": 0.01}),
    ("RMSprop", {"lr": 0.01, "momentum": 0.9, "centered": True, "weight_decay": 0.1, "alpha": 0.9}),
]


def _gradients(step: int, shape):
    return np.random.default_rng(step).standard_normal(shape)


@pytest.mark.parametrize("name,kwargs", CONFIGS, ids=lambda v: str(v))
def test_steps_match_pytorch(name, kwargs):
    torch = pytest.importorskip("torch")
    step_one_parameter(torch, name, kwargs, _gradients, 8, rtol=1e-13, atol=1e-15)


def _mlp_pair(torch, dtype):
    X, y = mg.data.make_moons(64, noise=0.1, seed=1)
    model = nn.MLP(2, [16], 2, dtype=dtype)
    tmodel = torch.nn.Sequential(torch.nn.Linear(2, 16), torch.nn.ReLU(), torch.nn.Linear(16, 2)).to(
        torch.float64 if dtype == mg.float64 else torch.float32
    )
    tmodel.load_state_dict(
        {
            k.replace("fc1", "0").replace("fc2", "2"): torch.from_numpy(v.array.copy())
            for k, v in model.state_dict().items()
        }
    )
    return X, y, model, tmodel


@pytest.mark.parametrize("name,kwargs", [("SGD", {"lr": 0.1, "momentum": 0.9}), ("Adam", {"lr": 0.01})])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_mlp_loss_curve_follows_pytorch(name, kwargs, dtype):
    torch = pytest.importorskip("torch")
    dt = mg.float64 if dtype == "float64" else mg.float32
    X, y, model, tmodel = _mlp_pair(torch, dt)
    x, t = mg.tensor(X, dtype=dt), mg.tensor(y)
    tx, tt = torch.from_numpy(X.astype(dtype)), torch.from_numpy(y)
    opt = getattr(mg.optim, name)(model.parameters(), **kwargs)
    topt = getattr(torch.optim, name)(tmodel.parameters(), **kwargs)
    ours, theirs = train_both(torch, (model, opt, x, t), (tmodel, topt, tx, tt), 50)
    assert ours[-1] < 0.6 * ours[0]  # it learns
    np.testing.assert_allclose(ours, theirs, rtol=1e-10 if dtype == "float64" else 2e-4)


def test_step_records_no_graph_and_skips_params_without_grad():
    w = nn.Parameter(mg.tensor([1.0, 2.0]))
    frozen = nn.Parameter(mg.tensor([5.0]))
    opt = mg.optim.SGD([w, frozen], lr=0.5, momentum=0.9)
    (w * w).sum().backward()
    opt.step()
    np.testing.assert_allclose(w.array, [0.0, 0.0])
    assert w.is_leaf and w.grad_fn is None and w.requires_grad
    assert frozen.array[0] == 5.0 and frozen not in opt.state


def test_zero_grad_modes():
    w = nn.Parameter(mg.ones(3))
    opt = mg.optim.Adam([w])
    (w * 2).sum().backward()
    opt.zero_grad(set_to_none=False)
    assert w.grad is not None and not w.grad.array.any()
    opt.zero_grad()
    assert w.grad is None


def test_param_groups_have_their_own_hyperparameters():
    a, b = nn.Parameter(mg.ones(1)), nn.Parameter(mg.ones(1))
    opt = mg.optim.SGD([{"params": [a]}, {"params": [b], "lr": 1.0}], lr=0.1)
    a.grad, b.grad = mg.ones(1), mg.ones(1)
    opt.step()
    np.testing.assert_allclose([a.item(), b.item()], [0.9, 0.0])
    with pytest.raises(ValueError, match="more than one parameter group"):
        opt.add_param_group({"params": [a]})
    assert "Parameter Group 1" in repr(opt) and "lr: 1.0" in repr(opt)


def test_state_dict_round_trip_resumes_identically():
    def run(resume_at=None):
        mg.manual_seed(0)
        w = nn.Parameter(mg.randn(4, dtype=mg.float64))
        opt = mg.optim.Adam([w], lr=0.1, amsgrad=True)
        for step in range(6):
            if step == resume_at:
                saved = opt.state_dict()
                saved_w = w.array.copy()
                w = nn.Parameter(mg.tensor(saved_w))
                opt = mg.optim.Adam([w], lr=0.5)
                opt.load_state_dict(saved)
                assert opt.param_groups[0]["lr"] == 0.1
            w.grad = mg.tensor(_gradients(step, (4,)))
            opt.step()
        return w.array

    np.testing.assert_array_equal(run(), run(resume_at=3))


def test_state_dict_is_a_copy_and_group_mismatch_is_an_error():
    w = nn.Parameter(mg.ones(2))
    opt = mg.optim.SGD([w], lr=0.1, momentum=0.9)
    w.grad = mg.ones(2)
    opt.step()
    sd = opt.state_dict()
    assert sd["param_groups"][0]["params"] == [0]
    buf = sd["state"][0]["momentum_buffer"]
    assert isinstance(buf, mg.Tensor) and buf.array is not opt.state[w]["momentum_buffer"]
    other = mg.optim.SGD([nn.Parameter(mg.ones(2)), nn.Parameter(mg.ones(2))], lr=0.1)
    with pytest.raises(ValueError, match="doesn't match the size of optimizer's group"):
        other.load_state_dict(sd)


@pytest.mark.parametrize(
    "make,message",
    [
        (lambda p: mg.optim.SGD(p, lr=-1), "Invalid learning rate: -1"),
        (lambda p: mg.optim.SGD(p, lr=0.1, nesterov=True), "Nesterov momentum requires"),
        (lambda p: mg.optim.Adam(p, betas=(1.0, 0.9)), "Invalid beta parameter at index 0"),
        (lambda p: mg.optim.RMSprop(p, eps=-1), "Invalid epsilon value"),
        (lambda p: mg.optim.AdamW([], lr=0.1), "empty parameter list"),
    ],
)
def test_bad_hyperparameters(make, message):
    with pytest.raises(ValueError, match=message):
        make([nn.Parameter(mg.ones(1))])


def _as_tensors(kwargs: dict) -> dict:
    """``kwargs`` with every number-valued hyperparameter (and each beta) a 0-d float64 tensor."""

    def tensor(v):
        return mg.tensor(float(v), dtype=mg.float64)

    out = {}
    for key, value in kwargs.items():
        if key == "betas":
            out[key] = tuple(tensor(b) for b in value)
        elif isinstance(value, float):
            out[key] = tensor(value)
        else:
            out[key] = value
    return out


@pytest.mark.parametrize("name,kwargs", CONFIGS, ids=lambda v: str(v))
def test_hyperparameters_given_as_tensors_step_as_their_values(name, kwargs):
    # lr=mg.tensor(0.1) left the parameter unchanged (param -= lr * grad made a new tensor)
    start = np.random.default_rng(0).standard_normal((3, 4))
    p, q = nn.Parameter(mg.tensor(start)), nn.Parameter(mg.tensor(start))
    opt, topt = getattr(mg.optim, name)([p], **kwargs), getattr(mg.optim, name)([q], **_as_tensors(kwargs))
    for step in range(4):
        p.grad = q.grad = mg.tensor(_gradients(step, start.shape))
        opt.step(), topt.step()
    assert not np.array_equal(q.array, start)
    np.testing.assert_array_equal(q.array, p.array)


@pytest.mark.parametrize("name", ["SGD", "Adam", "AdamW", "RMSprop"])
def test_an_lr_tensor_changed_in_place_is_read_at_each_step(name):
    lr = mg.tensor([0.1])  # one element, any shape, as PyTorch accepts
    p = nn.Parameter(mg.ones(2))
    opt = getattr(mg.optim, name)([p], lr=lr, weight_decay=0.0)
    p.grad = mg.ones(2)
    opt.step()
    assert (p.array < 1).all()
    before = p.array.copy()
    lr.fill_(0.0)
    opt.step()
    np.testing.assert_array_equal(p.array, before)


NAN = float("nan")
BAD_HYPERPARAMETERS = [  # torch 2.13's refusals; SGD, as PyTorch's, accepts a NaN lr
    ("SGD", lambda: {"lr": mg.tensor([0.1, 0.2])}, "Tensor lr must be 1-element"),
    ("SGD", lambda: {"lr": mg.tensor(-1.0)}, "Invalid learning rate: -1.0"),
    ("SGD", lambda: {"lr": 0.1, "momentum": mg.tensor(-0.5)}, "Invalid momentum value: -0.5"),
    ("Adam", lambda: {"lr": NAN}, "Invalid learning rate: nan"),
    ("Adam", lambda: {"lr": mg.tensor(NAN)}, "Invalid learning rate: nan"),
    ("Adam", lambda: {"lr": mg.tensor([0.1, 0.2])}, "Tensor lr must be 1-element"),
    ("Adam", lambda: {"eps": NAN}, "Invalid epsilon value: nan"),
    ("Adam", lambda: {"betas": (NAN, 0.9)}, "Invalid beta parameter at index 0: nan"),
    ("Adam", lambda: {"betas": (0.9, NAN)}, "Invalid beta parameter at index 1: nan"),
    ("Adam", lambda: {"betas": (mg.tensor(0.9), 0.99)}, "betas must be either both floats or both Tensors"),
    ("Adam", lambda: {"betas": (0, 0.99)}, "betas must be either both floats or both Tensors"),
    ("Adam", lambda: {"weight_decay": NAN}, "Invalid weight_decay value: nan"),
    ("AdamW", lambda: {"lr": NAN}, "Invalid learning rate: nan"),
    ("RMSprop", lambda: {"lr": NAN}, "Invalid learning rate: nan"),
    ("RMSprop", lambda: {"alpha": NAN}, "Invalid alpha value: nan"),
    ("RMSprop", lambda: {"eps": NAN}, "Invalid epsilon value: nan"),
    ("RMSprop", lambda: {"momentum": NAN}, "Invalid momentum value: nan"),
    ("RMSprop", lambda: {"weight_decay": NAN}, "Invalid weight_decay value: nan"),
]


@pytest.mark.parametrize("name,kwargs,message", BAD_HYPERPARAMETERS)
def test_nan_and_malformed_tensor_hyperparameters_are_refused(name, kwargs, message):
    with pytest.raises(ValueError, match=message):
        getattr(mg.optim, name)([nn.Parameter(mg.ones(1))], **kwargs())


@pytest.mark.parametrize("name,kwargs,message", BAD_HYPERPARAMETERS)
def test_the_refusals_are_torchs(name, kwargs, message):
    torch = pytest.importorskip("torch")
    theirs = {k: torch.tensor(v.numpy()) if isinstance(v, mg.Tensor) else v for k, v in kwargs().items()}
    if "betas" in theirs:
        theirs["betas"] = tuple(torch.tensor(b.numpy()) if isinstance(b, mg.Tensor) else b for b in theirs["betas"])
    with pytest.raises(ValueError, match=message):
        getattr(torch.optim, name)([torch.nn.Parameter(torch.ones(1))], **theirs)


def test_sgd_accepts_a_nan_lr_as_pytorch_does():
    p = nn.Parameter(mg.ones(1))
    opt = mg.optim.SGD([p], lr=NAN)
    p.grad = mg.ones(1)
    opt.step()
    assert np.isnan(p.array).all()


def test_a_scheduler_writes_an_lr_tensor_in_place():
    torch = pytest.importorskip("torch")
    runs = []
    for lib in (mg, torch):
        lr = lib.tensor(0.5, dtype=lib.float64)
        p = lib.nn.Parameter(lib.ones(2, dtype=lib.float64))
        opt = lib.optim.SGD([p], lr=lr)
        sched = lib.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
        for _ in range(3):
            p.grad = lib.ones(2, dtype=lib.float64)
            opt.step(), sched.step()
        assert opt.param_groups[0]["lr"] is lr and sched.get_last_lr()[0] is not lr
        runs.append((p.detach().numpy().tolist(), float(lr), float(opt.param_groups[0]["initial_lr"])))
    assert runs[0] == runs[1] == ([0.125, 0.125], 0.0625, 0.5)


def test_non_leaf_and_bare_tensor_params_are_rejected():
    w = nn.Parameter(mg.ones(1))
    with pytest.raises(ValueError, match="non-leaf"):
        mg.optim.SGD([w * 2], lr=0.1)
    with pytest.raises(TypeError, match="iterable of Tensors"):
        mg.optim.SGD(w, lr=0.1)


@pytest.mark.parametrize(
    "name,kwargs",
    [
        ("StepLR", {"step_size": 3, "gamma": 0.5}),
        ("ExponentialLR", {"gamma": 0.9}),
        ("CosineAnnealingLR", {"T_max": 5, "eta_min": 0.01}),
    ],
)
def test_schedulers_match_pytorch(name, kwargs):
    torch = pytest.importorskip("torch")
    opt = mg.optim.SGD([nn.Parameter(mg.ones(1))], lr=0.2)
    topt = torch.optim.SGD([torch.nn.Parameter(torch.ones(1))], lr=0.2)
    sched = getattr(mg.optim.lr_scheduler, name)(opt, **kwargs)
    tsched = getattr(torch.optim.lr_scheduler, name)(topt, **kwargs)
    for _ in range(12):
        assert sched.get_last_lr() == pytest.approx(tsched.get_last_lr(), rel=1e-12)
        assert opt.param_groups[0]["lr"] == pytest.approx(topt.param_groups[0]["lr"], rel=1e-12)
        opt.step(), topt.step()
        sched.step(), tsched.step()


def test_scheduler_state_dict_and_errors():
    opt = mg.optim.SGD([nn.Parameter(mg.ones(1))], lr=1.0)
    sched = mg.optim.lr_scheduler.StepLR(opt, step_size=2)
    for _ in range(3):
        opt.step()
        sched.step()
    state = sched.state_dict()
    assert state["last_epoch"] == 3 and "optimizer" not in state
    other_opt = mg.optim.SGD([nn.Parameter(mg.ones(1))], lr=1.0)
    other = mg.optim.lr_scheduler.StepLR(other_opt, step_size=2)
    other_opt.load_state_dict(opt.state_dict())  # resuming takes both, as in PyTorch: the schedule is chainable
    other.load_state_dict(state)
    other.step()
    assert other.get_last_lr() == pytest.approx([0.01])
    with pytest.raises(ValueError, match="step_size"):
        mg.optim.lr_scheduler.StepLR(opt, step_size=0)
    with pytest.raises(TypeError, match="is not an Optimizer"):
        mg.optim.lr_scheduler.ExponentialLR(object(), gamma=0.5)
