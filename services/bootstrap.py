"""The composition root: the one place that builds the pool, bus, queue handlers, index and app."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import AsyncIterator

import asyncpg

from events.bus import Bus
from services.database import connect_pool, migrate, resolve_dsn
from services.settings import Settings
from services.sqlfiles import query

__all__ = ["Core", "open_core"]


@dataclasses.dataclass(slots=True)
class Core:
    """What every service needs, built once per process."""

    settings: Settings
    dsn: str
    pool: asyncpg.Pool
    bus: Bus


@contextlib.asynccontextmanager
async def open_core(settings: Settings, *, dsn: str | None = None) -> AsyncIterator[Core]:
    """Start (or reuse) the database, apply migrations, and build the bus."""
    dsn = dsn or await resolve_dsn(settings)
    pool = await connect_pool(dsn, max_size=max(10, settings.workers * 4))
    try:
        await migrate(pool)
        bus = Bus(pool, dsn, query)
        try:
            yield Core(settings=settings, dsn=dsn, pool=pool, bus=bus)
        finally:
            await bus.close()
    finally:
        await pool.close()
