"""Long-running processes: ``serve`` (HTTP, watcher, dispatcher, workers) and ``worker``."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Coroutine, Iterator
from typing import Any

import asyncpg
import msgspec
import uvicorn

from services import redact
from services.access import auth_required
from services.api import API_ROUTES
from services.app import build_app
from services.bootstrap import Core, open_core
from services.dispatch import Dispatcher
from services.jobs import Handler, run_worker
from services.page import PAGE_ROUTES
from services.pipeline import JOB_PARSE
from services.settings import Settings
from services.watcher import RoomWatcher
from services.webhooks import JOB_DELIVER

__all__ = ["background", "job_handlers", "route_handlers", "serve", "worker"]

log = logging.getLogger(__name__)


def job_handlers(core: Core) -> dict[str, Handler]:
    """Every job this codebase knows how to run: parse, verify, reverify and deliver."""
    return {**core.pipeline.handlers(), **core.webhooks.handlers()}


def route_handlers() -> list[object]:
    """The API and the analyst's page."""
    return [*API_ROUTES, *PAGE_ROUTES]


def _stop_on_signals(stop: asyncio.Event, server: uvicorn.Server | None = None) -> None:
    """SIGINT and SIGTERM (what ``docker stop``, systemd and Kubernetes send) both ask every part
    to stop and drain; a second one also stops waiting for open HTTP connections."""
    loop = asyncio.get_running_loop()

    def stop_now(sig: signal.Signals) -> None:
        log.info("%s: stopping", sig.name)
        if server is not None:
            server.force_exit = server.should_exit
            server.should_exit = True
        stop.set()

    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop_now, sig)


class _Server(uvicorn.Server):
    """uvicorn, minus its signal handling: it re-raises the signal that stopped it once HTTP is
    down, and a re-raised SIGTERM kills the process before the database, the parser processes
    and the job slots it started are stopped. Here a signal only sets ``should_exit``."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


async def _work_until_stopped(core: Core, stop: asyncio.Event, concurrency: int) -> None:
    """Job slots that outlive the database: when PostgreSQL restarts, the queue's connection dies
    and its manager shuts down; take jobs again on a fresh connection once the server is back."""
    while not stop.is_set():
        try:
            # Deliveries and parses have lanes of their own: a hanging endpoint or a drop of many
            # filings never starves verification.
            await run_worker(core.dsn, job_handlers(core), concurrency=concurrency,
                             heartbeat_seconds=core.settings.heartbeat_seconds, stop=stop,
                             lanes=[frozenset({JOB_PARSE}), frozenset({JOB_DELIVER})])
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            log.warning("worker: %s; taking jobs again in %.0fs", exc, _RESTART_WORKER_S)
        else:
            if stop.is_set():
                return
            log.warning("worker: the queue stopped (database connection lost?); taking jobs again in %.0fs",
                        _RESTART_WORKER_S)
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(stop.wait(), _RESTART_WORKER_S)


_RESTART_WORKER_S = 1.0


def background(core: Core, stop: asyncio.Event, *, concurrency: int, watch: bool) -> list[asyncio.Task[None]]:
    """The work a process does besides HTTP: job slots, the bus-to-jobs dispatcher, the watcher.
    With ``concurrency`` 0 there are no job slots: ``tickmark worker`` processes take the jobs."""
    work: list[Coroutine[Any, Any, None]] = [Dispatcher(core.pool, core.bus, core.dsn, core.webhooks).run(stop)]
    if concurrency > 0:
        work.insert(0, _work_until_stopped(core, stop, concurrency))
    if watch:
        s = core.settings
        work.append(RoomWatcher(s.rooms, core.pipeline, core.documents, core.pool, polling=s.watch_polling,
                                settle_seconds=s.settle_seconds, max_file_bytes=s.max_file_bytes).run(stop))
    return [asyncio.create_task(w) for w in work]


async def _drain(tasks: list[asyncio.Task[None]], timeout: float = 30) -> None:
    done, pending = await asyncio.wait(tasks, timeout=timeout)
    for task in pending:
        task.cancel()
    for task in pending:
        with contextlib.suppress(asyncio.CancelledError):
            await task
    for task in done:
        if not task.cancelled() and task.exception() is not None:
            log.error("background task ended with an error", exc_info=task.exception())


async def serve(settings: Settings, *, host: str, port: int) -> int:
    """Serve until SIGINT or SIGTERM, then drain and stop everything started; 0 after a clean stop."""
    stop = asyncio.Event()
    _stop_on_signals(stop)
    async with open_core(settings) as core:
        app = build_app(core, route_handlers())
        config = uvicorn.Config(app, host=host, port=port, log_level="info", lifespan="on",
                                timeout_graceful_shutdown=5)
        redact.install()  # uvicorn's own handlers exist only once its Config is built
        server = _Server(config)
        _stop_on_signals(stop, server)
        server.should_exit = stop.is_set()
        tasks = background(core, stop, concurrency=settings.workers, watch=True)
        # With no job slots this process parses nothing: workers elsewhere do.
        warming = asyncio.create_task(core.parsers.warm()) if settings.workers > 0 else None
        log.info("tickmark serving on http://%s:%d (database %s), watching %s", host, port,
                 "DATABASE_URL" if settings.database_url else f"embedded in {settings.pgdata}",
                 settings.rooms.resolve())
        log.info("API access: %s", "room tokens required" if auth_required(settings.auth, host)
                 else "open on loopback (a token, when sent, narrows to its room)")
        try:
            await server.serve()
        finally:
            stop.set()
            if warming is not None:
                warming.cancel()
            await _drain(tasks)
    log.info("tickmark stopped")
    return 0


async def worker(settings: Settings, *, concurrency: int) -> int:
    """Take jobs until SIGINT or SIGTERM, then drain and stop; 0 after a clean stop."""
    stop = asyncio.Event()
    _stop_on_signals(stop)
    # The worker's slots size its parser processes too: one slot parses one file at a time.
    async with open_core(msgspec.structs.replace(settings, workers=concurrency)) as core:
        tasks = background(core, stop, concurrency=concurrency, watch=False)
        warming = asyncio.create_task(core.parsers.warm())
        log.info("tickmark worker taking %s jobs with %d slots", ", ".join(job_handlers(core)), concurrency)
        stopped = asyncio.create_task(stop.wait())
        await asyncio.wait([stopped, *tasks], return_when=asyncio.FIRST_COMPLETED)
        stop.set()
        warming.cancel()
        await _drain([stopped, *tasks])
    return 0
