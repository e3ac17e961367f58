"""The learning-rate schedules: PyTorch's values epoch by epoch (lr, momentum, get_last_lr), composed
schedules, ReduceLROnPlateau, state dicts and refusals."""

import warnings

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn


def _optimizer(lib, name="SGD", **kwargs):
    p, q = lib.nn.Parameter(lib.ones(1)), lib.nn.Parameter(lib.ones(1))
    return getattr(lib.optim, name)([{"params": [p]}, {"params": [q], "lr": 0.05}], lr=0.2, **kwargs)


def _s(lib):
    return lib.optim.lr_scheduler


CASES = {
    "LambdaLR": lambda lib, o: _s(lib).LambdaLR(o, lambda e: 0.9**e),
    "LambdaLR per group": lambda lib, o: _s(lib).LambdaLR(o, [lambda e: 1 / (e + 1), lambda e: 0.5]),
    "MultiplicativeLR": lambda lib, o: _s(lib).MultiplicativeLR(o, lambda e: 0.95),
    "StepLR": lambda lib, o: _s(lib).StepLR(o, step_size=3, gamma=0.5),
    "MultiStepLR": lambda lib, o: _s(lib).MultiStepLR(o, [2, 5, 5, 9], gamma=0.5),
    "ConstantLR": lambda lib, o: _s(lib).ConstantLR(o, factor=0.5, total_iters=4),
    "LinearLR": lambda lib, o: _s(lib).LinearLR(o, start_factor=0.25, end_factor=0.9, total_iters=6),
    "ExponentialLR": lambda lib, o: _s(lib).ExponentialLR(o, gamma=0.9),
    "PolynomialLR": lambda lib, o: _s(lib).PolynomialLR(o, total_iters=8, power=2.0),
    "CosineAnnealingLR": lambda lib, o: _s(lib).CosineAnnealingLR(o, T_max=5, eta_min=0.01),
    "CosineAnnealingWarmRestarts": lambda lib, o: _s(lib).CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=1e-3),
    "CyclicLR triangular2": lambda lib, o: _s(lib).CyclicLR(
        o, base_lr=0.01, max_lr=[0.1, 0.2], step_size_up=3, step_size_down=2, mode="triangular2"
    ),
    "CyclicLR exp_range": lambda lib, o: _s(lib).CyclicLR(o, 0.01, 0.1, step_size_up=4, mode="exp_range", gamma=0.9),
    "CyclicLR scale_fn": lambda lib, o: _s(lib).CyclicLR(
        o, 0.01, 0.1, step_size_up=2, scale_fn=lambda x: 1 / (x + 1), scale_mode="iterations"
    ),
    "OneCycleLR": lambda lib, o: _s(lib).OneCycleLR(o, max_lr=0.5, total_steps=20),
    "OneCycleLR three_phase linear": lambda lib, o: _s(lib).OneCycleLR(
        o, max_lr=[0.5, 1.0], epochs=4, steps_per_epoch=5, three_phase=True, anneal_strategy="linear"
    ),
    "SequentialLR": lambda lib, o: _s(lib).SequentialLR(
        o, [_s(lib).LinearLR(o, start_factor=0.1, total_iters=3), _s(lib).ExponentialLR(o, gamma=0.8)], milestones=[4]
    ),
    "ChainedScheduler": lambda lib, o: _s(lib).ChainedScheduler(
        [_s(lib).StepLR(o, step_size=3, gamma=0.5), _s(lib).ExponentialLR(o, gamma=0.9)]
    ),
    "ChainedScheduler cosine": lambda lib, o: _s(lib).ChainedScheduler(
        [_s(lib).ConstantLR(o, factor=0.1, total_iters=2), _s(lib).CosineAnnealingLR(o, T_max=4)]
    ),
}


def _trajectory(lib, make, optimizer_name="SGD", **kwargs):
    opt = _optimizer(lib, optimizer_name, **kwargs)
    sched = make(lib, opt)
    rows = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch's step-order notice
        for _ in range(20):
            momentum = [g["betas"][0] if "betas" in g else g["momentum"] for g in opt.param_groups]
            rows.append([float(g["lr"]) for g in opt.param_groups] + momentum + [float(v) for v in sched.get_last_lr()])
            opt.step()
            sched.step()
    return np.array(rows)


@pytest.mark.parametrize("name", CASES)
def test_schedules_match_pytorch(name):
    torch = pytest.importorskip("torch")
    ours = _trajectory(mg, CASES[name], momentum=0.9)
    theirs = _trajectory(torch, CASES[name], momentum=0.9)
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("name", ["CyclicLR triangular2", "OneCycleLR"])
def test_cycles_move_adams_beta1_as_pytorch(name):
    torch = pytest.importorskip("torch")
    np.testing.assert_allclose(
        _trajectory(mg, CASES[name], "Adam"), _trajectory(torch, CASES[name], "Adam"), rtol=1e-12
    )


def test_known_values_without_pytorch():
    lrs = _trajectory(mg, CASES["MultiStepLR"], momentum=0.9)[:, 0]
    np.testing.assert_allclose(lrs[:11], [0.2, 0.2, 0.1, 0.1, 0.1, 0.025, 0.025, 0.025, 0.025, 0.0125, 0.0125])
    lrs = _trajectory(mg, CASES["LinearLR"], momentum=0.9)[:, 0]
    np.testing.assert_allclose(lrs[[0, 3, 6, 10]], [0.05, 0.2 * (0.25 + 0.65 * 0.5), 0.18, 0.18])
    cycle = _trajectory(mg, CASES["CyclicLR triangular2"], momentum=0.9)
    np.testing.assert_allclose(cycle[:6, 0], [0.01, 0.04, 0.07, 0.1, 0.055, 0.01])  # up in 3, down in 2
    np.testing.assert_allclose(
        cycle[:6, 2], [0.9, 0.9 - 0.1 / 3, 0.9 - 0.2 / 3, 0.8, 0.85, 0.9]
    )  # momentum the other way
    np.testing.assert_allclose(cycle[8, 0], 0.055)  # the second cycle's peak is halved
    chained = _trajectory(mg, CASES["ChainedScheduler"], momentum=0.9)[:, 0]
    np.testing.assert_allclose(chained[:4], [0.2, 0.18, 0.162, 0.0729])  # the factors multiply


def test_one_cycle_refuses_a_step_past_its_end():
    opt = _optimizer(mg, momentum=0.9)
    sched = mg.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=3)
    for _ in range(3):
        opt.step()
        sched.step()
    with pytest.raises(ValueError, match="Tried to step 4 times. The specified number of total steps is 3"):
        sched.step()


def test_reduce_on_plateau():
    opt = _optimizer(mg)
    sched = mg.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=2, factor=0.5, cooldown=1, min_lr=[0.01, 0.02])
    seen = []
    for metric in [5, 4, 4, 4, 4, 4, 3.0, 4, 4, 4, 4, 4, 4, 4, 4]:
        sched.step(mg.tensor(metric))  # a 0-d tensor, as a loss is
        seen.append(sched.get_last_lr())
    assert seen[3] == [0.2, 0.05] and seen[4] == [0.1, 0.025]  # three epochs without improvement
    assert seen[-1] == [0.025, 0.02]  # floors at min_lr
    assert sched.best == 3.0


def test_reduce_on_plateau_matches_pytorch():
    torch = pytest.importorskip("torch")
    metrics = [1.0, 0.9, 0.95, 0.9, 0.91, 0.9, 0.899, 0.9, 0.9, 0.7, 0.8, 0.8, 0.8, 0.8, 0.8]
    runs = []
    for lib in (mg, torch):
        opt = _optimizer(lib)
        sched = _s(lib).ReduceLROnPlateau(opt, mode="max", patience=1, threshold=0.05, threshold_mode="abs")
        out = []
        for m in metrics:
            sched.step(m)
            out.append(sched.get_last_lr())
        runs.append(out)
    np.testing.assert_allclose(runs[0], runs[1], rtol=1e-12)


def test_state_dict_resumes_a_schedule():
    def run(resume_at=None):
        opt = _optimizer(mg, momentum=0.9)
        sched = mg.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.5, total_steps=12)
        lrs = []
        for step in range(10):
            if step == resume_at:
                saved_opt, saved = opt.state_dict(), sched.state_dict()
                opt = _optimizer(mg, momentum=0.9)
                opt.load_state_dict(saved_opt)
                sched = mg.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.5, total_steps=12, last_epoch=step - 1)
                sched.load_state_dict(saved)
            opt.step()
            sched.step()
            lrs.append(opt.param_groups[0]["lr"])
        return lrs

    assert run() == run(resume_at=4)


def test_composed_state_dicts_hold_their_members():
    opt = _optimizer(mg, momentum=0.9)
    s = mg.optim.lr_scheduler
    chained = s.ChainedScheduler([s.StepLR(opt, step_size=2), s.LambdaLR(opt, lambda e: 1.0)])
    state = chained.state_dict()
    assert "optimizer" not in state and len(state["_schedulers"]) == 2
    assert state["_schedulers"][1]["lr_lambdas"] == [None, None]  # functions are not saved, as in PyTorch
    chained.load_state_dict(state)


def test_an_lr_tensor_is_written_in_place():
    lr = mg.tensor(0.4, dtype=mg.float64)
    opt = mg.optim.SGD([nn.Parameter(mg.ones(1))], lr=lr)
    sched = mg.optim.lr_scheduler.MultiplicativeLR(opt, lambda e: 0.5)
    opt.step()
    sched.step()
    assert opt.param_groups[0]["lr"] is lr and lr.item() == 0.2
    assert sched.get_last_lr()[0] is not lr


def test_step_with_an_epoch_uses_the_closed_form_and_warns():
    opt = _optimizer(mg)
    sched = mg.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
    opt.step()
    with pytest.warns(UserWarning, match="epoch parameter in `scheduler.step\\(\\)`"):
        sched.step(5)
    assert sched.get_last_lr() == pytest.approx([0.05, 0.0125])


@pytest.mark.parametrize(
    "make,error,message",
    [
        (lambda o: mg.optim.lr_scheduler.ConstantLR(o, factor=2.0), ValueError, "between 0 and 1"),
        (lambda o: mg.optim.lr_scheduler.LinearLR(o, start_factor=0), ValueError, "Starting multiplicative factor"),
        (lambda o: mg.optim.lr_scheduler.LambdaLR(o, [lambda e: 1.0]), ValueError, "Expected 2 lr_lambdas, but got 1"),
        (lambda o: mg.optim.lr_scheduler.MultiplicativeLR(o, 0.5), TypeError, "lr_lambda should be a function"),
        (lambda o: mg.optim.lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=0), ValueError, "positive integer T_0"),
        (lambda o: mg.optim.lr_scheduler.CyclicLR(o, 0.1, 1.0, mode="zigzag"), ValueError, "mode is invalid"),
        (lambda o: mg.optim.lr_scheduler.OneCycleLR(o, 0.1), ValueError, "either total_steps OR"),
        (lambda o: mg.optim.lr_scheduler.OneCycleLR(o, 0.1, total_steps=5, pct_start=1), ValueError, "pct_start"),
        (lambda o: mg.optim.lr_scheduler.ReduceLROnPlateau(o, factor=1.0), ValueError, "Factor should be < 1.0."),
        (lambda o: mg.optim.lr_scheduler.ReduceLROnPlateau(o, mode="up"), ValueError, "mode up is unknown!"),
        (lambda o: mg.optim.lr_scheduler.SequentialLR(o, [], []), ValueError, "expects at least one scheduler"),
        (
            lambda o: mg.optim.lr_scheduler.ChainedScheduler([mg.optim.lr_scheduler.ReduceLROnPlateau(o)]),
            ValueError,
            "does not support `ReduceLROnPlateau`",
        ),
        (
            lambda o: mg.optim.lr_scheduler.SequentialLR(o, [mg.optim.lr_scheduler.StepLR(o, 2)], milestones=[3]),
            ValueError,
            "number of schedulers 1 and the number of milestones to be equal to 1",
        ),
        (lambda o: mg.optim.lr_scheduler.StepLR(o, 2, last_epoch=3), KeyError, "initial_lr"),
    ],
)
def test_refusals(make, error, message):
    with pytest.raises(error, match=message):
        make(_optimizer(mg, momentum=0.9))


def test_cycle_momentum_needs_a_momentum():
    opt = mg.optim.Adagrad([nn.Parameter(mg.ones(1))])
    with pytest.raises(ValueError, match="optimizer must support momentum or beta1"):
        mg.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=4)


def test_the_old_base_name_is_the_base():
    assert mg.optim.lr_scheduler._LRScheduler is mg.optim.lr_scheduler.LRScheduler


def test_stepping_the_schedule_first_warns_as_pytorch():
    opt = _optimizer(mg)
    sched = mg.optim.lr_scheduler.StepLR(opt, step_size=1)
    with pytest.warns(UserWarning, match=r"Detected call of `lr_scheduler.step\(\)` before `optimizer.step\(\)`"):
        sched.step()
    opt = _optimizer(mg)
    sched = mg.optim.lr_scheduler.StepLR(opt, step_size=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        opt.step()
        sched.step()
        sched.step()
