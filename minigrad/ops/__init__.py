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
from . import inplace  # noqa: F401,E402  (binds the in-place methods last)
