"""Running the explorer: a socket on 127.0.0.1, uvicorn, and the user's browser.

The socket is bound before anything else, so ``--port 0`` can pick a free port and the page's
address (and the ``Host`` values the server accepts) are known before the first request.
Ctrl-C stops uvicorn, which cancels the player's-view jobs on its way out; searches still
running are in daemon threads and end with the process.  A Ctrl-C pressed before uvicorn put its
own handler in place, and lost on its way (raised inside a finaliser while a module loaded),
stops the server at its next tick.
"""

from __future__ import annotations

import logging
import socket
import threading
import webbrowser
from collections.abc import Callable

from stich.files.interrupt import pressed

from .app import create_app
from .session import ExploreSession

HOST = "127.0.0.1"           # never another interface: the page answers only its own user


class ListenError(OSError):
    """The port cannot be listened on (in use, or not allowed)."""


def listen(port: int) -> socket.socket:
    """A listening socket on 127.0.0.1:``port`` (0: a free port)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind((HOST, port))
        sock.listen(64)
    except OSError as exc:
        sock.close()
        raise ListenError(f"cannot listen on {HOST}:{port}: {exc.strerror or exc}") from None
    return sock


def serve(session: ExploreSession, port: int = 0, open_browser: bool = True,
          announce: Callable[[str], None] = print) -> None:
    """Serve ``session`` until Ctrl-C (uvicorn re-raises it here as KeyboardInterrupt)."""
    import uvicorn

    sock = listen(port)
    port = sock.getsockname()[1]
    hosts = {f"{HOST}:{port}", f"localhost:{port}"}
    url = f"http://{HOST}:{port}/"
    config = uvicorn.Config(create_app(session, hosts), log_level="warning", access_log=False,
                            lifespan="on", timeout_graceful_shutdown=1)
    announce(url)
    if open_browser:
        threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
    server = stopping_on_lost_ctrl_c(config)
    quiet = QuietWhenStopping(server)
    logging.getLogger("uvicorn.error").addFilter(quiet)
    try:
        server.run(sockets=[sock])
    finally:
        logging.getLogger("uvicorn.error").removeFilter(quiet)
        sock.close()
        session.close()


def stopping_on_lost_ctrl_c(config):
    """uvicorn's server for ``config``, which also stops once Ctrl-C was pressed and lost: the
    command then ends as every interrupted one does (``watching()``)."""
    import uvicorn

    class Server(uvicorn.Server):
        async def on_tick(self, counter: int) -> bool:
            if pressed():
                self.should_exit = True
            return await super().on_tick(counter)
    return Server(config)


class QuietWhenStopping(logging.Filter):
    """Once Ctrl-C has stopped the server, a request still waiting for its search is cancelled:
    uvicorn would log that as an ERROR with a traceback.  It is no error; the command says in
    one line that it stopped."""

    def __init__(self, server) -> None:
        super().__init__()
        self.server = server

    def filter(self, record: logging.LogRecord) -> bool:
        return not self.server.should_exit
