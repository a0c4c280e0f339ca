"""The one durable consumer of the event log that turns events into jobs.

New facts and removed documents become re-verification jobs; finished runs and flipped verdicts
become webhook deliveries. Each event is handled in one transaction with the consumer's offset,
so after any crash it resumes at the first event not yet acted on. One process at a time
consumes (a session advisory lock decides which); every job it enqueues is deduplicated, so the
short overlap when a lock holder dies unnoticed does no double work.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

import asyncpg
import msgspec

from events.bus import Bus, EventFilter, StoredEvent
from services.jobs import enqueue
from services.pipeline import JOB_REVERIFY, ReverifyJob
from services.sqlfiles import query
from services.webhooks import NOTIFY_TYPES, Webhooks

__all__ = ["CONSUMER", "Dispatcher"]

log = logging.getLogger(__name__)
CONSUMER = "dispatch"
_TYPES = frozenset({"facts.updated", "document.changed"}) | NOTIFY_TYPES
_retry_after = 2.0


class Dispatcher:
    """Reads the log from its saved offset and enqueues the jobs each event calls for."""

    def __init__(self, pool: asyncpg.Pool, bus: Bus, dsn: str, webhooks: Webhooks) -> None:
        self._pool = pool
        self._bus = bus
        self._dsn = dsn
        self._webhooks = webhooks

    async def run(self, stop: asyncio.Event) -> None:
        """Consume while holding the dispatch lock; stand by while another process holds it."""
        while not stop.is_set():
            try:
                await self._lead(stop)
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                log.warning("dispatcher: %s; retrying in %.0fs", exc, _retry_after)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(stop.wait(), _retry_after)

    async def _lead(self, stop: asyncio.Event) -> None:
        lock = await asyncpg.connect(self._dsn)
        try:
            if not await lock.fetchval(query("try_dispatch_lock")):
                return
            log.info("dispatcher: consuming the event log")
            consume = asyncio.create_task(self._consume())
            stopped = asyncio.create_task(stop.wait())
            alive = asyncio.create_task(self._watch_lock(lock))
            try:
                done, _ = await asyncio.wait({consume, stopped, alive}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for task in (consume, stopped, alive):
                    task.cancel()
                for task in (consume, stopped, alive):
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
            for task in done:
                if task is not stopped and task.exception() is not None:
                    raise task.exception()  # type: ignore[misc]
        finally:
            if not lock.is_closed():
                await lock.close()

    @staticmethod
    async def _watch_lock(lock: asyncpg.Connection) -> None:
        # The lock lives as long as this session: a dead connection means another process may lead.
        while True:
            await asyncio.sleep(5)
            await lock.fetchval("SELECT 1")

    async def _consume(self) -> None:
        async with self._pool.acquire() as conn:
            after = int(await conn.fetchval(query("consumer_offset"), CONSUMER) or 0)
        async for stored in self._bus.subscribe(after, EventFilter(types=_TYPES)):
            async with self._pool.acquire() as conn, conn.transaction():
                await self.handle(conn, stored)
                await conn.execute(query("advance_consumer"), CONSUMER, stored.id)

    async def handle(self, conn: asyncpg.Connection, stored: StoredEvent) -> None:
        """Enqueue what one event calls for, in ``conn``'s transaction."""
        body = msgspec.json.decode(stored.body)
        if stored.type == "facts.updated" or (stored.type == "document.changed" and body.get("removed")
                                              and body.get("document_id")):
            job = ReverifyJob(room=stored.room or "", document_id=int(body["document_id"]), event_id=stored.id)
            await enqueue(conn, JOB_REVERIFY, msgspec.json.encode(job), dedupe_key=f"reverify:{stored.id}")
        elif stored.type == "run.finished":
            run = await conn.fetchrow(query("run_trigger"), stored.run_id) if stored.run_id else None
            # A re-verification reports through its verdict.changed events, not a second summary.
            if run is None or run["trigger"] != "reverify":
                await self._webhooks.fan_out(conn, stored)
        elif stored.type == "verdict.changed":
            await self._webhooks.fan_out(conn, stored)
