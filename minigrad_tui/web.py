"""``minigrad-tui --web``: the same debugger, served to a browser by textual-serve.

textual-serve starts one debugger process per browser tab (the command below,
without ``--web``) and relays its screen over a websocket. Whoever drives that
websocket runs the script, so the server asks for a token, as Jupyter does
(:mod:`minigrad_tui.web_server`). It listens on 127.0.0.1 unless ``--host`` says
otherwise, so a lab server shares it only on purpose.
"""

from __future__ import annotations

import secrets
import shlex
import socket
import sys

from .child_python import python_running
from .cli import Options, is_loopback


def debugger_command(options: Options) -> str:
    """The shell command that runs the debugger in a terminal for ``options`` (what each tab runs)."""
    argv = python_running("import minigrad_tui; sys.exit(minigrad_tui.main())")
    if options.replay:
        argv += ["--replay", options.replay]
    if options.device:
        argv += ["--device", options.device]
    if options.torch:
        argv.append("--torch")
    for spec in options.break_specs:
        argv += ["--break", spec]
    if options.export_dir is not None:
        argv += ["--export-dir", options.export_dir]
    if not options.no_token:  # the browser presented the token: its user may use the console (Python)
        argv.append("--web-token")
    if options.script:
        argv += [options.script, *options.script_args]
    return shlex.join(argv)


def server_token(options: Options) -> str | None:
    """The token the server asks for: ``--token``'s, none with ``--no-token``, else a new random one."""
    if options.no_token:
        return None
    return options.token or secrets.token_urlsafe(32)


def server_url(host: str, port: int, token: str | None) -> str:
    """The URL to open: on every address (0.0.0.0, ::), this machine's name, which other machines can use."""
    if host in ("0.0.0.0", "::"):
        host = socket.gethostname()
    elif ":" in host:  # an IPv6 address
        host = f"[{host}]"
    return f"http://{host}:{port}/" + (f"?token={token}" if token else "")


def serve(options: Options) -> int:
    """Serve the debugger at ``http://HOST:PORT/?token=...`` until interrupted; 1 when the address cannot be
    had, 2 when textual-serve is missing."""
    try:
        from .web_server import GuardedServer
    except ImportError:
        print(
            "minigrad-tui: --web needs the textual-serve package: pip install 'minigrad[web]'",
            file=sys.stderr,
        )
        return 2
    token = server_token(options)
    server = GuardedServer(
        debugger_command(options),
        host=options.host,
        port=options.port,
        token=token,
        max_sessions=options.max_sessions,
    )
    try:
        address, port = server.listen()
    except OSError as error:
        reason = error.strerror or str(error)
        print(
            f"minigrad-tui: cannot listen on {options.host}:{options.port}: {reason}"
            " (--port 0 takes a free port and prints it)",
            file=sys.stderr,
        )
        return 1
    if not is_loopback(address):  # what was bound: localhost is 127.0.0.1, a name for this machine may not be
        print(
            f"minigrad-tui: warning: listening on {options.host}: anyone on the network who has the token"
            " can run this script, with your permissions",
            file=sys.stderr,
            flush=True,
        )
    print(f"minigrad-tui: open {server_url(options.host, port, token)} in a browser (ctrl+c stops)", flush=True)
    server.serve()
    return 0
