"""Grad modes: no_grad, enable_grad, set_grad_enabled, inference_mode (thread-local)."""

from __future__ import annotations

import functools

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
    return state.inference


class _GradModeContext:
    """Base for the grad-mode switches: a context manager that is also a decorator."""

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
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self.__class__(*self._ctor_args()):
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

    def __init__(self, mode: bool):
        if not isinstance(mode, bool):
            raise TypeError(f"set_grad_enabled(): argument 'mode' must be bool, not {type(mode).__name__}")
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


class inference_mode(_GradModeContext):
    """Like no_grad, and marks tensors made inside as inference tensors (never recorded)."""

    def __init__(self, mode: bool = True):
        self.mode = mode

    def _enter_state(self):
        if self.mode:
            state.enabled = False
            state.inference = True

    def _ctor_args(self):
        return (self.mode,)
