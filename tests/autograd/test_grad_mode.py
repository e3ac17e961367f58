"""Grad modes: context managers, decorators, nesting, threads."""

import threading

import pytest

import minigrad as mg
from minigrad.autograd import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)


def _records(x):
    return (x * 2).requires_grad


def test_no_grad_context_and_nesting():
    x = mg.tensor([1.0], requires_grad=True)
    with no_grad():
        assert not is_grad_enabled() and not _records(x)
        with enable_grad():
            assert is_grad_enabled() and _records(x)
        assert not is_grad_enabled()
    assert is_grad_enabled() and _records(x)


def test_results_under_no_grad_are_leaves():
    x = mg.tensor([1.0], requires_grad=True)
    with no_grad():
        y = x * 2
    assert y.is_leaf and y.grad_fn is None


def test_decorators_with_and_without_parentheses():
    x = mg.tensor([1.0], requires_grad=True)

    @no_grad()
    def a():
        return _records(x)

    @no_grad
    def b():
        return _records(x)

    @inference_mode
    def c():
        return _records(x), is_inference_mode_enabled()

    @set_grad_enabled(False)
    def d():
        return _records(x)

    assert a.__name__ == "a"
    assert (a(), b(), c(), d()) == (False, False, (False, True), False)
    assert is_grad_enabled() and not is_inference_mode_enabled()

    @no_grad()
    def e():
        @enable_grad
        def inner():
            return _records(x)

        return inner()

    assert e() is True


def test_mode_restored_when_the_block_raises():
    with pytest.raises(KeyError):
        with no_grad():
            raise KeyError("x")
    assert is_grad_enabled()


def test_set_grad_enabled_as_function_and_context():
    try:
        set_grad_enabled(False)
        assert not is_grad_enabled()
        with set_grad_enabled(True):
            assert is_grad_enabled()
        assert not is_grad_enabled()
    finally:
        set_grad_enabled(True)
    with set_grad_enabled(False):
        assert not is_grad_enabled()
    assert is_grad_enabled()


def test_set_grad_enabled_rejects_non_bool():
    with pytest.raises(TypeError, match="argument 'enabled' \\(position 1\\) must be bool, not int"):
        set_grad_enabled(1)


def test_inference_mode_and_its_off_switch():
    with inference_mode():
        assert not is_grad_enabled() and is_inference_mode_enabled()
        with inference_mode(False):
            assert is_grad_enabled() and not is_inference_mode_enabled()
        assert is_inference_mode_enabled()
    assert is_grad_enabled() and not is_inference_mode_enabled()


def test_decorated_generator_runs_under_the_mode_only_while_resumed():
    x = mg.tensor([1.0], requires_grad=True)

    @no_grad()
    def gen():
        received = yield _records(x)
        yield received, _records(x)
        return "done"

    g = gen()
    assert next(g) is False
    assert is_grad_enabled()
    assert g.send(41) == (41, False)
    assert is_grad_enabled()
    with pytest.raises(StopIteration) as stop:
        next(g)
    assert stop.value.value == "done"


def test_grad_mode_is_thread_local():
    seen = {}
    ready = threading.Event()
    release = threading.Event()

    def worker():
        seen["start"] = is_grad_enabled()
        with no_grad():
            ready.set()
            release.wait(5)
            seen["inside"] = is_grad_enabled()

    with no_grad():
        t = threading.Thread(target=worker)
        t.start()
        assert ready.wait(5)
        assert not is_grad_enabled()
        release.set()
        t.join(5)
    assert is_grad_enabled()  # the worker's no_grad never leaked into this thread
    assert seen == {"start": True, "inside": False}


def test_backward_respects_create_graph_not_the_callers_mode():
    x = mg.tensor([2.0], dtype=mg.float64, requires_grad=True)
    y = (x**3).sum()
    with no_grad():
        (g,) = mg.autograd.grad(y, x, create_graph=True)
        assert not is_grad_enabled()  # the pass's own mode was restored
    assert g.requires_grad  # create_graph records the pass even inside no_grad


def test_inference_tensors_refuse_later_autograd_use_as_in_torch():
    torch = pytest.importorskip("torch")
    outcomes = []
    for lib in (mg, torch):
        with lib.inference_mode():
            a = lib.ones(2)
            b = a * 2
            b.add_(1)  # in place inside the mode is fine
        w = lib.ones(2, requires_grad=True)
        row = [a.is_inference(), b.is_inference(), a.clone().is_inference(), (b * 3).tolist()]
        attempts = (
            lambda a, w: a * w,
            lambda a, w: a.add_(1),
            lambda a, w: a.requires_grad_(),
            lambda a, w: a.__setitem__(0, 1.0),
        )
        for attempt in attempts:
            try:
                attempt(a, w)
                row.append(None)
            except RuntimeError as exc:
                row.append(str(exc).replace("torch.", "minigrad.").split(" (Triggered")[0])
        with lib.no_grad():
            with pytest.raises(RuntimeError, match="Inplace update to inference tensor outside InferenceMode"):
                a.mul_(2)
        row.append((a.clone() * w).sum().requires_grad)
        outcomes.append(row)
    assert outcomes[0] == outcomes[1]


def test_set_grad_enabled_as_function_and_context_as_in_torch():
    torch = pytest.importorskip("torch")
    seen = []
    for lib in (mg, torch):
        x = lib.ones(2, requires_grad=True)
        row = []
        lib.set_grad_enabled(False)
        row.append((x * 2).requires_grad)
        lib.set_grad_enabled(True)
        row.append((x * 2).requires_grad)
        with lib.set_grad_enabled(False):
            row.append((x * 2).requires_grad)
            with lib.set_grad_enabled(True):
                row.append((x * 2).requires_grad)
            row.append(lib.is_grad_enabled())
        row.append(lib.is_grad_enabled())

        @lib.set_grad_enabled(False)
        def f(t):
            return (t * 2).requires_grad

        row.append((f(x), lib.is_grad_enabled()))
        seen.append(row)
    assert seen[0] == seen[1]
