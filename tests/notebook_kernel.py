"""Run a notebook in a kernel reached through socket files of its own, never through TCP ports.

jupyter_client picks a kernel's five TCP ports by binding port 0 and closing the socket; the kernel,
another process, binds them a moment later. Two kernels started at once (pytest-xdist's workers each
running a notebook) can be handed the same free port in between, and the second to bind dies with
ZMQ's "Address already in use". On the ``ipc`` transport a kernel listens on Unix sockets named after
its connection file, here in a temporary folder no other kernel uses: there is no port to share.
"""

from __future__ import annotations

import tempfile
from pathlib import Path


def private_kernel_config(folder: str):
    """The traitlets config of a kernel on the ipc transport whose connection file and sockets live in ``folder``."""
    from traitlets.config import Config

    return Config({"KernelManager": {"transport": "ipc", "connection_file": str(Path(folder) / "kernel.json")}})


def execute_notebook(notebook, *, timeout: int, cwd: Path | None = None):
    """Execute ``notebook`` (an nbformat notebook, changed in place and returned) in a fresh python3 kernel
    of its own, in ``cwd`` when given."""
    import nbclient

    resources = {"metadata": {"path": str(cwd)}} if cwd is not None else {}
    with tempfile.TemporaryDirectory(prefix="kernel-") as folder:
        client = nbclient.NotebookClient(
            notebook,
            timeout=timeout,
            kernel_name="python3",
            resources=resources,
            config=private_kernel_config(folder),
        )
        client.execute()
    return notebook
