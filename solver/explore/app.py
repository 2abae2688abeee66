"""The explorer's web server: its page, a small JSON API, and the checks that keep it local.

``GET /`` is the page (plain HTML, CSS and JavaScript from ``static/``, no build step, no
network).  The API takes JSON and answers JSON; a bad request gets ``{"error": "..."}`` with
status 400 (404 for an unknown job or path) and the server goes on serving.  Every request
must name this server in ``Host`` (127.0.0.1 or localhost and its port: a page of another
site cannot reach it through DNS rebinding) and, if it has an ``Origin``, come from this
page; anything else gets 403.  Searches run in worker threads (``session``), never here.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import sys
from concurrent.futures import Future
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .deals import pasted_deal, random_deal, whole_table
from .position import RequestError, checked_start, read_start
from .session import ExploreSession, UnknownJob

STATIC = Path(__file__).parent / "static"
MAX_BODY = 256 * 1024
HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}
PAGE_HEADERS = {**HEADERS, "Content-Security-Policy": "default-src 'self'; img-src 'self' data:",
                "Referrer-Policy": "no-referrer"}


def error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=HEADERS)


class LocalOnly:
    """ASGI middleware: only requests to this server (``Host``) from its own page
    (``Origin``, when there is one) pass; ``hosts`` are filled in once the port is known."""

    def __init__(self, app, hosts: set[str]):
        self.app, self.hosts = app, hosts

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            headers: dict[str, list[str]] = {}
            for k, v in scope["headers"]:
                headers.setdefault(k.decode("latin-1").lower(), []).append(v.decode("latin-1"))
            problem = self.repeated(headers) or self.problem(
                *(headers.get(name, [None])[0] for name in ("host", "origin")))
            if problem:
                await error(problem, 403)(scope, receive, send)
                return
        await self.app(scope, receive, send)

    @staticmethod
    def repeated(headers: dict[str, list[str]]) -> str | None:
        """Two ``Host`` or ``Origin`` headers: which one counts is up to each server, so none does."""
        for name in ("Host", "Origin"):
            if len(headers.get(name.lower(), [])) > 1:
                return f"refused: more than one {name} header"
        return None

    def problem(self, host: str | None, origin: str | None) -> str | None:
        if host not in self.hosts:
            return f"refused: Host {host!r} is not this server ({', '.join(sorted(self.hosts))})"
        if origin is not None and origin not in {f"http://{h}" for h in self.hosts}:
            return f"refused: Origin {origin!r} is not this server's page"
        return None


def api(handler):
    """A JSON endpoint: bad requests become 400 with their message; anything unexpected is
    one line on the server's standard error and a 500 the page shows; the server goes on."""

    @functools.wraps(handler)
    async def wrapped(request: Request):
        try:
            return JSONResponse(await handler(request), headers=HEADERS)
        except TooLarge as exc:
            return error(str(exc), 413)
        except RequestError as exc:
            return error(str(exc))
        except UnknownJob as exc:
            return error(str(exc), 404)
        except Exception as exc:  # noqa: BLE001 - one request failed, not the server
            print(f"stich: explore: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
            return error(f"internal error: {type(exc).__name__}: {exc}", 500)
    return wrapped


class TooLarge(RequestError):
    """A request body over ``MAX_BODY`` (status 413): refused before it is read."""


async def body(request: Request) -> dict:
    """The request's JSON object (at most ``MAX_BODY`` bytes): a ``Content-Length`` over the
    limit is refused unread, and a body without one is read only up to the limit."""
    too_large = TooLarge(f"the request is larger than {MAX_BODY // 1024} KB")
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise too_large
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise too_large
        chunks.append(chunk)
    raw = b"".join(chunks)
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise RequestError("the request is not JSON") from None
    if not isinstance(data, dict):
        raise RequestError("the request must be a JSON object")
    return data


def routes(session: ExploreSession) -> list:
    """The page and the API of one session."""

    async def page(request: Request):
        return FileResponse(STATIC / "index.html", headers=PAGE_HEADERS)

    @api
    async def about(request: Request):
        return session.session_json()

    @api
    async def position(request: Request):
        data = await body(request)
        return await run_in_threadpool(session.position, data.get("start"), data.get("moves"),
                                       data.get("view") is True)

    @api
    async def analysis(request: Request):
        data = await body(request)
        return await session.analysis(data.get("start"), data.get("moves"), data.get("objective"))

    @api
    async def view(request: Request):
        data = await body(request)
        job = await run_in_threadpool(session.start_view, data.get("start"), data.get("moves"),
                                      data.get("objective"), data.get("samples"),
                                      data.get("seed", 0), data.get("exact", False))
        return job.as_json()

    @api
    async def view_job(request: Request):
        return session.job(request.path_params["job"]).as_json()

    @api
    async def cancel(request: Request):
        job = session.job(request.path_params["job"])
        job.cancel()
        return job.as_json()

    post = ["POST"]
    return [Route("/", page), Route("/api/session", about),
            Route("/api/position", position, methods=post), Route("/api/analysis", analysis, methods=post),
            Route("/api/view", view, methods=post), Route("/api/view/{job}", view_job),
            Route("/api/view/{job}/cancel", cancel, methods=post), *deal_routes(session),
            Mount("/static", StaticFiles(directory=STATIC), name="static")]


def deal_routes(session: ExploreSession) -> list:
    """Any deal from the page (``deals``): a pasted file, a random deal, the whole-deal
    table; each table is computed once per session, on the search thread."""
    tables: dict[str, Future] = {}

    @api
    async def paste(request: Request):
        return await run_in_threadpool(pasted_deal, (await body(request)).get("text"), session.games)

    @api
    async def random(request: Request):
        return await run_in_threadpool(random_deal, await body(request))

    @api
    async def table(request: Request):
        start = checked_start((await body(request)).get("start"), session.games)
        read_start(start, session.games)                    # a bad start: its error, no search
        future = tables.get(start)
        if future is None or (future.done() and future.exception() is not None):
            while len(tables) >= 64:
                tables.pop(next(iter(tables)))
            future = tables[start] = session.search(whole_table, start, session.options.tt_megabytes)
        return await asyncio.shield(asyncio.wrap_future(future))

    post = ["POST"]
    return [Route("/api/deal/paste", paste, methods=post), Route("/api/deal/random", random, methods=post),
            Route("/api/deal/table", table, methods=post)]


async def not_found(request: Request, exc: Exception) -> JSONResponse:
    """Starlette's HTTP errors (an unknown path, a wrong method) as the API's JSON errors."""
    if not isinstance(exc, HTTPException):
        return error("internal error", 500)
    return error(exc.detail if isinstance(exc.detail, str) else "not found", exc.status_code)


def create_app(session: ExploreSession, hosts: set[str]) -> LocalOnly:
    """The ASGI app of ``session``; ``hosts``: the ``Host`` values this server answers to
    (the set may be filled in later, once the port is known)."""

    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        session.close()

    app = Starlette(routes=routes(session), exception_handlers={HTTPException: not_found},
                    lifespan=lifespan)
    return LocalOnly(app, hosts)
