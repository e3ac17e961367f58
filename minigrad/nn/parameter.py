"""Parameter: a tensor that a Module registers as trainable."""

from __future__ import annotations

from .. import backend as B
from ..serialization import register_tensor_kind
from ..tensor import Tensor, format_tensor


class Parameter(Tensor):
    """A leaf tensor that requires grad and that a Module collects in ``parameters()``.

    ``Parameter(data, requires_grad=True)``: given a Tensor, the parameter shares
    its storage (as ``torch.nn.Parameter`` does); other data is copied. A Module
    sets ``name`` to the parameter's qualified name (``fc1.weight``) so graphs
    and the debugger show it.
    """

    __slots__ = ()

    def __init__(self, data=None, requires_grad: bool = True):
        if data is None:
            data = B.CPU.xp.zeros(0, dtype=B.get_default_dtype())
        if isinstance(data, Tensor):
            super().__init__(data.array, device=data.device)
            self.array = data.array
        else:
            super().__init__(data)
        self.requires_grad_(requires_grad)

    def __repr__(self) -> str:
        return "Parameter containing:\n" + format_tensor(self)

    def __reduce_ex__(self, protocol):
        return (_rebuild_parameter, (B.to_host(self.array), str(self.device), self.requires_grad, self.name))


def _rebuild_parameter(arr, device, requires_grad, name):
    p = Parameter(Tensor(arr, device=device), requires_grad)
    p.name = name
    return p


register_tensor_kind("parameter", Parameter, lambda leaf, requires_grad: Parameter(leaf, requires_grad=requires_grad))
