"""The argument types an op's signature declares, as annotations the op's entry checks.

``def clamp(a: Tensor, min: Tensor | Number | None = None, ...)``: the entry
(``minigrad.ops._entry``) reads each annotation and refuses another type with PyTorch's
``TypeError``; static tools read the same annotations (``tensor.pyi``). A dim given as an integer
tensor of one element is read as the int it holds, as in PyTorch.
"""

from __future__ import annotations

from ..tensor import Tensor

__all__ = ["Number", "Dim", "Dims", "DimOrBool", "Ints", "Size", "Padding", "NormOrder", "SplitSize"]

#: A Python (or NumPy) number: ``int``, ``float`` or ``bool``.
Number = int | float | bool
#: One dim, several, or None for every dim (reductions).
Dim = int | tuple[int, ...] | list[int] | None
#: One dim or several, given.
Dims = int | tuple[int, ...] | list[int]
#: ``var``'s and ``std``'s second argument: dims, or the old ``unbiased`` flag.
DimOrBool = int | tuple[int, ...] | list[int] | bool | None
#: A tuple (or list) of ints: a shape, ``pad``'s widths.
Ints = tuple[int, ...] | list[int]
#: A size per spatial dim, or one for all (``kernel_size``, ``dilation``).
Size = int | tuple[int, ...] | list[int]
#: A padding per spatial dim, one for all, or ``"same"``/``"valid"``.
Padding = int | tuple[int, ...] | list[int] | str
#: A norm's order: a number, ``"fro"``/``"nuc"``, or a 0-d tensor holding one.
NormOrder = int | float | str | Tensor | None
#: ``split``'s sizes: one size, a list of sizes, or a 0-d tensor holding one.
SplitSize = int | tuple[int, ...] | list[int] | Tensor
