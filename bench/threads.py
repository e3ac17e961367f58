"""Pin every thread pool to one thread; must run before NumPy or PyTorch are imported."""

import os

MINIGRAD_PATH_VAR = "BENCH_MINIGRAD_PATH"  # a worker imports minigrad from this checkout (--compare-to)

THREAD_VARS = (
    "OMP_NUM_THREADS",
    "MKL_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
    "NUMEXPR_NUM_THREADS",
)


def pin_env(env=None) -> dict:
    """Set the thread-count variables to 1 in ``env`` (``os.environ`` by default); return it."""
    env = os.environ if env is None else env
    for var in THREAD_VARS:
        env[var] = "1"
    return env
