"""Long-running processes: ``serve`` (HTTP + workers) and ``worker`` (workers only)."""

from __future__ import annotations

import asyncio
import logging
import signal

import uvicorn

from services.app import build_app
from services.bootstrap import Core, open_core
from services.jobs import Handler, run_worker
from services.settings import Settings

__all__ = ["job_handlers", "serve", "worker"]

log = logging.getLogger(__name__)


def job_handlers(core: Core) -> dict[str, Handler]:
    """Every job this codebase knows how to run; filled in by the services that own them."""
    return {}


def _stop_on_signals(stop: asyncio.Event) -> None:
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)


async def serve(settings: Settings, *, host: str, port: int) -> int:
    async with open_core(settings) as core:
        app = build_app(core)
        config = uvicorn.Config(app, host=host, port=port, log_level="info", lifespan="on")
        server = uvicorn.Server(config)
        stop = asyncio.Event()
        handlers = job_handlers(core)
        workers = (
            asyncio.create_task(
                run_worker(core.dsn, handlers, concurrency=settings.workers,
                           heartbeat_seconds=settings.heartbeat_seconds, stop=stop)
            )
            if handlers
            else None
        )
        log.info("tickmark serving on http://%s:%d (database %s)", host, port,
                 "DATABASE_URL" if settings.database_url else f"embedded in {settings.pgdata}")
        try:
            await server.serve()
        finally:
            stop.set()
            if workers is not None:
                await asyncio.wait_for(workers, timeout=30)
    return 0


async def worker(settings: Settings, *, concurrency: int) -> int:
    async with open_core(settings) as core:
        stop = asyncio.Event()
        _stop_on_signals(stop)
        handlers = job_handlers(core)
        log.info("tickmark worker taking %s jobs with %d slots", ", ".join(handlers) or "no", concurrency)
        await run_worker(core.dsn, handlers, concurrency=concurrency,
                         heartbeat_seconds=settings.heartbeat_seconds, stop=stop)
    return 0
