"""Differentiable ops. Importing this package binds every op as a Tensor method.

One module per family; in each, an op's forward computation and its backward
closure sit side by side.
"""

from . import arithmetic, compare, conversion, elementwise, indexing, linalg, reduction, shape, trig  # noqa: F401
from .arithmetic import *  # noqa: F401,F403
from .compare import *  # noqa: F401,F403
from .conversion import *  # noqa: F401,F403
from .elementwise import *  # noqa: F401,F403
from .indexing import *  # noqa: F401,F403
from .linalg import *  # noqa: F401,F403
from .reduction import *  # noqa: F401,F403
from .shape import *  # noqa: F401,F403
from .trig import *  # noqa: F401,F403
from .scan import *  # noqa: F401,F403
from .matrix import *  # noqa: F401,F403
from .activation import *  # noqa: F401,F403
from .layout import *  # noqa: F401,F403
from .scattering import *  # noqa: F401,F403
from .sorting import *  # noqa: F401,F403
from .counting import *  # noqa: F401,F403
from .sampling import *  # noqa: F401,F403
from .splitting import *  # noqa: F401,F403
from .nan_reduction import *  # noqa: F401,F403
from .distance import *  # noqa: F401,F403
from .division import *  # noqa: F401,F403
from .special import *  # noqa: F401,F403
from .tensor_methods import *  # noqa: F401,F403
from .selection import *  # noqa: F401,F403
from .products import *  # noqa: F401,F403
from .arranging import *  # noqa: F401,F403
from .cumulative import *  # noqa: F401,F403
from .order_statistics import *  # noqa: F401,F403
from .moments import *  # noqa: F401,F403
from .promotion import *  # noqa: F401,F403
from .decompositions import *  # noqa: F401,F403

from . import activation, counting, distance, layout, matrix, nan_reduction, sampling, scan, scattering  # noqa: E402
from . import (
    arranging,
    cumulative,
    decompositions,
    division,
    moments,
    order_statistics,
    products,
    promotion,
    selection,
    sorting,
    special,
    splitting,
    tensor_methods,
)  # noqa: E402
from . import inplace  # noqa: F401,E402  (binds the in-place methods)
from ._entry import check_namespace  # noqa: E402
from ..tensor import Tensor  # noqa: E402

_MODULES = (
    arithmetic,
    compare,
    conversion,
    elementwise,
    indexing,
    linalg,
    reduction,
    shape,
    trig,
    scan,
    matrix,
    activation,
    layout,
    scattering,
    sorting,
    counting,
    sampling,
    splitting,
    nan_reduction,
    distance,
    division,
    special,
    tensor_methods,
    selection,
    products,
    arranging,
    cumulative,
    order_statistics,
    moments,
    promotion,
    decompositions,
)
check_namespace(globals(), [name for module in _MODULES for name in module.__all__], methods=Tensor)
check_namespace(vars(linalg), decompositions.LINALG_NAMES)  # torch.linalg's names, checked and batched too

from . import inplace_variants  # noqa: E402  (made from the checked methods above)

inplace_variants._bind()
