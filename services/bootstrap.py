"""The composition root: the one place that builds the pool, bus, index, parsers and services."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import AsyncIterator

import asyncpg

from events.bus import Bus
from services.database import connect_pool, migrate, resolve_dsn
from services.documents import DocumentService
from services.egress import EgressPolicy
from services.llm_claims import LLMSettings
from services.parsing import ParserPool
from services.pipeline import Pipeline
from services.search import PassageIndex
from services.settings import Settings
from services.sqlfiles import query
from services.verifier import Verifier
from services.webhooks import Webhooks

__all__ = ["Core", "open_core"]


@dataclasses.dataclass(slots=True)
class Core:
    """What every service needs, built once per process."""

    settings: Settings
    dsn: str
    pool: asyncpg.Pool
    bus: Bus
    index: PassageIndex
    parsers: ParserPool
    documents: DocumentService
    verifier: Verifier
    pipeline: Pipeline
    webhooks: Webhooks


@contextlib.asynccontextmanager
async def open_core(settings: Settings, *, dsn: str | None = None) -> AsyncIterator[Core]:
    """Start (or reuse) the database, apply migrations, and build every service."""
    dsn = dsn or await resolve_dsn(settings)
    pool = await connect_pool(dsn, max_size=max(10, settings.workers * 4))
    # One filing parser per job slot (at most one per core): a worker's slots are its parallelism.
    parsers = ParserPool(settings.workers or None, max_file_bytes=settings.max_file_bytes,
                         timeout_s=settings.parse_timeout_s, memory_bytes=settings.parse_memory_bytes)
    try:
        await migrate(pool)
        bus = Bus(pool, dsn, query)
        index = PassageIndex(settings.index_dir)
        documents = DocumentService(pool, bus, index, parsers, max_file_bytes=settings.max_file_bytes)
        verifier = Verifier(pool, bus, index, parsers, llm=LLMSettings.from_settings(settings))
        pipeline = Pipeline(pool, bus, documents, verifier)
        webhooks = Webhooks(pool, bus, public_url=settings.public_url or f"http://{settings.host}:{settings.port}",
                            max_attempts=settings.webhook_max_attempts,
                            backoff_seconds=settings.webhook_backoff_seconds,
                            timeout_seconds=settings.webhook_timeout_seconds,
                            egress=EgressPolicy(allow_loopback=settings.webhook_allow_loopback,
                                                allow=settings.webhook_allow, deny=settings.webhook_deny))
        try:
            yield Core(settings=settings, dsn=dsn, pool=pool, bus=bus, index=index, parsers=parsers,
                       documents=documents, verifier=verifier, pipeline=pipeline, webhooks=webhooks)
        finally:
            await webhooks.close()
            await bus.close()
    finally:
        parsers.close()
        await pool.close()
