"""``minigrad-tui --web``: the same debugger, served to a browser by textual-serve.

textual-serve starts one debugger process per browser tab (the command below,
without ``--web``) and relays its screen over a websocket. It listens on
127.0.0.1 unless ``--host`` says otherwise, so a lab server shares it only on
purpose.
"""

from __future__ import annotations

import shlex
import sys

from .cli import Options


def debugger_command(options: Options) -> str:
    """The shell command that runs the debugger in a terminal for ``options`` (what each tab runs)."""
    argv = [sys.executable, "-m", "tui.app"]
    if options.replay:
        argv += ["--replay", options.replay]
    if options.device:
        argv += ["--device", options.device]
    for spec in options.break_specs:
        argv += ["--break", spec]
    argv += ["--export-dir", options.export_dir]
    if options.script:
        argv += [options.script, *options.script_args]
    return shlex.join(argv)


def serve(options: Options) -> int:
    """Serve the debugger at ``http://HOST:PORT`` until interrupted; 2 when textual-serve is missing."""
    try:
        from textual_serve.server import Server
    except ImportError:
        print(
            "minigrad-tui: --web needs the textual-serve package: pip install 'minigrad[web]'",
            file=sys.stderr,
        )
        return 2
    server = Server(debugger_command(options), host=options.host, port=options.port, title="minigrad-tui")
    print(f"minigrad-tui: open http://{options.host}:{options.port} in a browser (ctrl+c stops)", flush=True)
    server.serve()
    return 0
