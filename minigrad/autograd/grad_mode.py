"""Grad modes: no_grad, enable_grad, set_grad_enabled, inference_mode (thread-local).

Each mode is a context manager and a decorator (with or without parentheses for
no_grad, enable_grad and inference_mode). A decorated generator function runs
under the mode each time it is resumed, and not between yields. The state lives
in ``minigrad._state.grad``, a ``threading.local``: a new thread starts with
grad mode on, whatever the thread that started it is doing.
"""

from __future__ import annotations

import functools
import inspect

from .. import _state

__all__ = [
    "no_grad",
    "enable_grad",
    "set_grad_enabled",
    "inference_mode",
    "is_grad_enabled",
    "is_inference_mode_enabled",
]


state = _state.grad


def is_grad_enabled() -> bool:
    """True when ops on tensors that require grad record a graph (per thread)."""
    return state.enabled


def is_inference_mode_enabled() -> bool:
    """True inside ``inference_mode()`` (per thread)."""
    return state.inference


class _GradModeContext:
    """Base for the grad-mode switches: a context manager that is also a decorator."""

    def __new__(cls, *args, **kwargs):
        # ``@no_grad`` without parentheses: the function arrives as the only argument.
        if (
            cls._bare_decorator
            and len(args) == 1
            and not kwargs
            and callable(args[0])
            and not isinstance(args[0], bool)
        ):
            return cls()(args[0])
        return super().__new__(cls)

    _bare_decorator = True

    def _enter_state(self):
        raise NotImplementedError

    def __enter__(self):
        self._prev = (state.enabled, state.inference)
        self._enter_state()
        return self

    def __exit__(self, *exc):
        state.enabled, state.inference = self._prev
        return False

    def __call__(self, fn):
        make = functools.partial(self.__class__, *self._ctor_args())
        if inspect.isgeneratorfunction(fn):

            @functools.wraps(fn)
            def generator(*args, **kwargs):
                gen = fn(*args, **kwargs)
                resume, value = gen.send, None
                while True:
                    try:
                        with make():
                            value = resume(value)
                    except StopIteration as stop:
                        return stop.value
                    try:
                        value, resume = (yield value), gen.send
                    except GeneratorExit:
                        with make():
                            gen.close()
                        raise
                    except BaseException as exc:  # thrown in by the caller: deliver it under the mode
                        value, resume = exc, gen.throw

            return generator

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with make():
                return fn(*args, **kwargs)

        return wrapper

    def _ctor_args(self):
        return ()


class no_grad(_GradModeContext):
    """Disable graph recording inside the block or decorated function."""

    def _enter_state(self):
        state.enabled = False


class enable_grad(_GradModeContext):
    """Enable graph recording inside the block, even within no_grad."""

    def _enter_state(self):
        state.enabled = True


class set_grad_enabled(_GradModeContext):
    """Set grad mode on or off. Takes effect at once, and as a context manager restores on exit."""

    _bare_decorator = False

    def __init__(self, mode: bool):
        if not isinstance(mode, bool):
            raise TypeError(
                f"set_grad_enabled(): argument 'enabled' (position 1) must be bool, not {type(mode).__name__}"
            )
        self.mode = mode
        self._before_init = (state.enabled, state.inference)
        state.enabled = mode

    def __enter__(self):
        self._prev = self._before_init
        state.enabled = self.mode
        return self

    def __call__(self, fn):
        # Used as a decorator, construction must not leave the mode switched.
        state.enabled, state.inference = self._before_init
        return super().__call__(fn)

    def _enter_state(self):
        state.enabled = self.mode

    def _ctor_args(self):
        return (self.mode,)

    def __repr__(self) -> str:
        return f"minigrad.autograd.grad_mode.set_grad_enabled(mode={self.mode})"


class inference_mode(_GradModeContext):
    """Grad mode off and ``is_inference_mode_enabled()`` true; ``inference_mode(False)`` turns both back.

    Tensors made inside are inference tensors (``t.is_inference()``), as in
    PyTorch: outside the mode they refuse in-place writes, ``requires_grad_()``
    and being saved by a recorded op, with PyTorch's messages (``clone()`` one
    to get a normal tensor).
    """

    def __init__(self, mode: bool = True):
        self.mode = bool(mode)

    def _enter_state(self):
        state.enabled = not self.mode
        state.inference = self.mode
        if self.mode:
            _state.inference_tensors.entered = True

    def _ctor_args(self):
        return (self.mode,)
