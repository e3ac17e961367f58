"""The HTTP side of ``minigrad-tui --web``: textual-serve's server behind a token, an Origin check
and a limit on the debuggers it runs at once.

Whoever drives a tab's websocket runs the script with the server's permissions. So
:class:`GuardedServer` lets in only a browser that presented the server's token
(``/?token=...``, which sets a cookie the page's assets and websocket then carry),
refuses a websocket that a page of another site opened (its ``Origin`` is not the host
it connected to), and starts at most ``max_sessions`` debugger processes at once.
"""

from __future__ import annotations

import asyncio
import secrets
import signal
import socket
from urllib.parse import urlsplit

from aiohttp import web
from textual_serve.server import Server

WEBSOCKET_PATH = "/ws"


def same_origin(origin: str | None, host: str) -> bool:
    """A websocket's ``Origin`` header names the host it connected to (``host``: its Host header).

    Browsers send Origin on every websocket; a request without one does not come from a web
    page (a script, curl), and it still needs the token.
    """
    if origin is None:
        return True
    return urlsplit(origin).netloc.lower() == host.lower()


class GuardedServer(Server):
    """textual-serve's Server that checks every request before textual-serve sees it.

    ``token``: what a request must present, as ``?token=`` or in the cookie a page with it
    received; None lets every request in (the command line allows that on loopback only).
    ``max_sessions``: debugger processes running at once; the next tab is told so and closed.
    ``live_sessions``: how many run now.

    :meth:`listen` binds the address (``port`` 0: one the system picks) and :meth:`serve` serves
    on it, so the address is taken, or refused, before anyone is told the URL.
    """

    def __init__(self, command: str, *, host: str, port: int, token: str | None, max_sessions: int) -> None:
        super().__init__(command, host=host, port=port, title="minigrad-tui")
        self.token = token
        self.max_sessions = max_sessions
        self.live_sessions = 0
        self.socket: socket.socket | None = None

    @property
    def cookie(self) -> str:
        """The token cookie's name, one per port: a browser sends a host's cookies to all its ports."""
        return f"minigrad-tui-token-{self.port}"

    def listen(self) -> tuple[str, int]:
        """Bind ``host``:``port``; returns the address and port bound (a name resolved, port 0 the system's pick).

        Raises OSError when the address cannot be had (in use, not this machine's, an unknown name)."""
        family = socket.getaddrinfo(self.host, self.port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0][0]
        self.socket = socket.create_server((self.host, self.port), family=family)
        address, self.port = self.socket.getsockname()[:2]
        return address, self.port

    def serve(self, debug: bool = False) -> None:
        """Serve on the bound socket (:meth:`listen`) until ctrl+c or SIGTERM."""
        if self.socket is None:
            self.listen()
        self.debug = debug
        self.initialize_logging()
        loop = asyncio.new_event_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            try:
                loop.add_signal_handler(signum, self.request_exit)
            except NotImplementedError:  # Windows: ctrl+c reaches the loop as KeyboardInterrupt
                break
        web.run_app(self._make_app(), sock=self.socket, handle_signals=False, loop=loop, print=lambda *args: None)

    async def on_startup(self, app: web.Application) -> None:
        """Print nothing: textual-serve's banner names the URL without its token (serve() prints it with)."""

    async def handle_index(self, request: web.Request) -> web.Response:
        # The page's websocket and assets at the address the browser used (textual-serve writes --host
        # into them, and no browser elsewhere reaches ws://0.0.0.0); no await runs between the two lines.
        self.public_url = f"{request.scheme}://{request.host}"
        return await super().handle_index(request)

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        app.middlewares.append(self._check_access)
        return app

    def _token_ok(self, request: web.Request) -> bool:
        if self.token is None:
            return True
        presented = request.query.get("token") or request.cookies.get(self.cookie)
        return presented is not None and secrets.compare_digest(presented.encode(), self.token.encode())

    @web.middleware
    async def _check_access(self, request: web.Request, handler) -> web.StreamResponse:
        if not self._token_ok(request):
            raise web.HTTPForbidden(
                text="minigrad-tui: forbidden: open the URL with ?token=... that minigrad-tui --web printed\n"
            )
        origin = request.headers.get("Origin")
        if request.path == WEBSOCKET_PATH and not same_origin(origin, request.host):
            raise web.HTTPForbidden(text=f"minigrad-tui: forbidden: a page of {origin} cannot drive this debugger\n")
        response = await handler(request)
        if self.token is not None and "token" in request.query and not response.prepared:
            response.set_cookie(self.cookie, self.token, httponly=True, samesite="Strict", path="/")
        return response

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        if self.live_sessions >= self.max_sessions:
            return await self._refuse_session(request)
        self.live_sessions += 1
        try:
            return await super().handle_websocket(request)
        finally:
            self.live_sessions -= 1

    async def _refuse_session(self, request: web.Request) -> web.WebSocketResponse:
        """Say on the tab's terminal why no debugger starts, then close its websocket."""
        websocket = web.WebSocketResponse()
        await websocket.prepare(request)
        await websocket.send_bytes(
            f"minigrad-tui: {self.live_sessions} debugger sessions are open, the most this server runs at once"
            f" (--max-sessions {self.max_sessions}).\r\nClose one of them and reload this page.\r\n".encode()
        )
        await websocket.close()
        return websocket
