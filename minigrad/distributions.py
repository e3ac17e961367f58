"""Probability distributions with differentiable log-densities, as ``torch.distributions``.

``Normal`` (with the reparameterised ``rsample``), ``Categorical`` and ``kl_divergence`` between two
Normals: what policy-gradient code (``log_prob`` of a sampled action times a return) and VAEs (``rsample``,
the KL term) use. Every method is built from minigrad's ops, so a debugger shows a ``log_prob`` as the
ops it is made of, each with its own rule; ``sample`` draws outside the graph, ``rsample`` inside it.
"""

from __future__ import annotations

import math

import numpy as np

from . import backend as B
from .autograd.grad_mode import no_grad
from .creation import randn
from .ops.sampling import multinomial
from .tensor import Tensor, shape_str, tensor

__all__ = ["Distribution", "Normal", "Categorical", "kl_divergence"]

_HALF_LOG_TWO_PI = 0.5 * math.log(2 * math.pi)


def _as_tensor(value, like: Tensor | None = None) -> Tensor:
    if isinstance(value, Tensor):
        return value
    if like is not None:
        return tensor(value, dtype=like.dtype, device=like.device)
    return tensor(float(value))


def _param_repr(t: Tensor) -> str:
    """A parameter as torch's distributions print it: its value when it has one, else its size."""
    return f"{t.item():g}" if t.numel() == 1 else f"Size({list(t.shape)})"


def _size(sample_shape) -> tuple:
    return tuple(sample_shape) if not isinstance(sample_shape, int) else (sample_shape,)


class Distribution:
    """What every distribution has: ``batch_shape``, ``event_shape``, ``sample``/``rsample``, ``log_prob``."""

    has_rsample = False

    def __init__(self, batch_shape: tuple = (), event_shape: tuple = ()) -> None:
        self.batch_shape = tuple(batch_shape)
        self.event_shape = tuple(event_shape)

    def _extended_shape(self, sample_shape=()) -> tuple:
        return _size(sample_shape) + self.batch_shape + self.event_shape

    def sample(self, sample_shape=()) -> Tensor:
        """A draw of ``sample_shape + batch_shape + event_shape``, outside the graph."""
        with no_grad():
            return self.rsample(sample_shape)

    def rsample(self, sample_shape=()) -> Tensor:
        raise NotImplementedError(f"{type(self).__name__} has no reparameterised sample (rsample)")

    def log_prob(self, value: Tensor) -> Tensor:
        raise NotImplementedError

    def entropy(self) -> Tensor:
        raise NotImplementedError

    @property
    def stddev(self) -> Tensor:
        return self.variance.sqrt()

    def _refuse(self, name: str, value: Tensor, constraint: str) -> None:
        raise ValueError(
            f"Expected parameter {name} (Tensor of shape {shape_str(value.shape)}) of distribution "
            f"{type(self).__name__} to satisfy the constraint {constraint}, but found invalid values:\n{value}"
        )


class Normal(Distribution):
    """The normal distribution ``N(loc, scale**2)``, batched over the broadcast shape of ``loc`` and ``scale``."""

    has_rsample = True

    def __init__(self, loc, scale, validate_args=None) -> None:
        like = loc if isinstance(loc, Tensor) else scale if isinstance(scale, Tensor) else None
        loc, scale = _as_tensor(loc, like), _as_tensor(scale, like)
        if validate_args is not False and not bool((scale.detach() > 0).all()):
            self._refuse("scale", scale, "GreaterThan(lower_bound=0.0)")
        shape = np.broadcast_shapes(loc.shape, scale.shape)
        self.loc, self.scale = loc.expand(*shape), scale.expand(*shape)
        super().__init__(shape)

    @property
    def mean(self) -> Tensor:
        return self.loc

    @property
    def mode(self) -> Tensor:
        return self.loc

    @property
    def variance(self) -> Tensor:
        return self.scale.square()

    @property
    def stddev(self) -> Tensor:
        return self.scale

    def rsample(self, sample_shape=()) -> Tensor:
        """``loc + scale * eps`` with ``eps ~ N(0, 1)``: gradients flow into ``loc`` and ``scale``."""
        eps = randn(*self._extended_shape(sample_shape), dtype=self.loc.dtype, device=self.loc.device)
        return self.loc + eps * self.scale

    def log_prob(self, value) -> Tensor:
        """``-(value - loc)**2 / (2 scale**2) - log(scale) - log(sqrt(2 pi))``."""
        value = _as_tensor(value, self.loc)
        return -((value - self.loc).square()) / (2 * self.variance) - self.scale.log() - _HALF_LOG_TWO_PI

    def cdf(self, value) -> Tensor:
        value = _as_tensor(value, self.loc)
        return 0.5 * (1 + ((value - self.loc) / (self.scale * math.sqrt(2))).erf())

    def icdf(self, value) -> Tensor:
        value = _as_tensor(value, self.loc)
        return self.loc + self.scale * (2 * value - 1).erfinv() * math.sqrt(2)

    def entropy(self) -> Tensor:
        """``1/2 + log(sqrt(2 pi)) + log(scale)``."""
        return 0.5 + _HALF_LOG_TWO_PI + self.scale.log()

    def __repr__(self) -> str:
        return f"Normal(loc: {_param_repr(self.loc)}, scale: {_param_repr(self.scale)})"


class Categorical(Distribution):
    """A distribution over ``0 .. K-1`` given by ``probs`` (normalised) or ``logits`` (log-probabilities up to
    a constant) along the last dimension; the dimensions before it are the batch."""

    def __init__(self, probs=None, logits=None, validate_args=None) -> None:
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        given = probs if probs is not None else logits
        if not isinstance(given, Tensor):
            given = tensor(given, dtype=B.get_default_dtype())
        if given.ndim < 1:
            raise ValueError(
                f"`{'probs' if probs is not None else 'logits'}` parameter must be at least one-dimensional."
            )
        if probs is not None:
            if validate_args is not False and not bool((given.detach() >= 0).all()):
                self._refuse("probs", given, "Simplex()")
            self.probs = given / given.sum(-1, keepdim=True)
            self.logits = self.probs.clamp(min=float(np.finfo(self.probs.dtype).tiny)).log()
        else:
            self.logits = given - given.logsumexp(-1, keepdim=True)
            self.probs = self.logits.exp()
        self._num_events = given.shape[-1]
        super().__init__(given.shape[:-1])

    @property
    def param_shape(self) -> tuple:
        return self.probs.shape

    @property
    def mean(self) -> Tensor:
        return tensor(np.full(self.batch_shape, np.nan), dtype=self.probs.dtype)

    @property
    def mode(self) -> Tensor:
        return self.probs.argmax(-1)

    @property
    def variance(self) -> Tensor:
        return tensor(np.full(self.batch_shape, np.nan), dtype=self.probs.dtype)

    def sample(self, sample_shape=()) -> Tensor:
        """Category indices (int64) of ``sample_shape + batch_shape``."""
        shape = _size(sample_shape)
        count = int(np.prod(shape, dtype=np.int64))
        with no_grad():
            flat = self.probs.detach().reshape(-1, self._num_events)
            draws = multinomial(flat, count, replacement=True)  # [batch, count]
            return draws.T.reshape(*shape, *self.batch_shape)

    def log_prob(self, value) -> Tensor:
        """The log-probability of each category index in ``value`` (broadcast against the batch)."""
        value = _as_tensor(value).long()
        shape = np.broadcast_shapes(value.shape, self.batch_shape)
        index = value.expand(*shape).unsqueeze(-1)
        logits = self.logits.expand(*shape, self._num_events)
        return logits.gather(-1, index).squeeze(-1)

    def entropy(self) -> Tensor:
        """``-sum(p log p)`` over the categories (a category of probability 0 adds 0)."""
        floor = float(np.finfo(self.logits.dtype).min)
        return -(self.probs * self.logits.clamp(min=floor)).sum(-1)

    def enumerate_support(self, expand: bool = True) -> Tensor:
        values = tensor(np.arange(self._num_events)).reshape(-1, *(1,) * len(self.batch_shape))
        return values.expand(-1, *self.batch_shape) if expand else values

    def __repr__(self) -> str:
        return f"Categorical(probs: {_param_repr(self.probs)})"


def kl_divergence(p: Distribution, q: Distribution) -> Tensor:
    """``KL(p || q)``; between two Normals: ``log(sq/sp) + (sp**2 + (mp - mq)**2) / (2 sq**2) - 1/2``."""
    if isinstance(p, Normal) and isinstance(q, Normal):
        var_ratio = (p.scale / q.scale).square()
        t1 = ((p.loc - q.loc) / q.scale).square()
        return 0.5 * (var_ratio + t1 - 1 - var_ratio.log())
    if isinstance(p, Categorical) and isinstance(q, Categorical):
        t = p.probs * (p.logits - q.logits)
        return t.masked_fill(p.probs == 0, 0.0).sum(-1)
    raise NotImplementedError(f"kl_divergence is not implemented for {type(p).__name__} and {type(q).__name__}")
