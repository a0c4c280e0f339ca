"""Work that exactly one worker must do, as pgqueuer jobs on the same PostgreSQL.

A job is enqueued in the same transaction as the rows it concerns; any ``tickmark worker`` on
any host picks it up. A worker that dies stops heartbeating and its job is taken again by
another worker once ``heartbeat_seconds`` pass, so handlers must be idempotent.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import timedelta

import asyncpg
from pgqueuer import Job, Queries, QueueManager
from pgqueuer.executors import DatabaseRetryEntrypointExecutor, EntrypointExecutorParameters

__all__ = ["Handler", "enqueue", "run_worker"]

log = logging.getLogger(__name__)

Handler = Callable[[bytes], Awaitable[None]]
"""A job handler takes the payload bytes; it raises only for errors worth a retry."""


async def enqueue(
    conn: asyncpg.Connection, entrypoint: str, payload: bytes, *, dedupe_key: str | None = None,
    execute_after: timedelta | None = None, priority: int = 0,
) -> int | None:
    """Queue one job in ``conn``'s transaction; with ``dedupe_key``, a queued twin is kept instead.
    Workers take higher ``priority`` first, then older jobs first."""
    queries = Queries.from_asyncpg_connection(conn)
    if dedupe_key is None:
        ids = await queries.enqueue(entrypoint, payload, priority, execute_after=execute_after)
    else:
        ids = await queries.enqueue(entrypoint, payload, priority, execute_after=execute_after,
                                    dedupe_key=dedupe_key, on_conflict="skip")
    return int(ids[0]) if ids and ids[0] is not None else None


async def run_worker(
    dsn: str,
    handlers: Mapping[str, Handler],
    *,
    concurrency: int = 2,
    heartbeat_seconds: float = 30.0,
    max_attempts: int = 5,
    stop: asyncio.Event | None = None,
    lanes: Sequence[frozenset[str]] = (),
) -> None:
    """Take jobs for ``handlers`` until ``stop`` is set (or forever).

    Each of ``lanes`` (a set of entrypoints), and the entrypoints in none of them, has a queue
    manager and ``concurrency`` slots of its own in this process: a backlog in one lane (a drop
    of many filings) never holds the jobs of another (verification). The slots are counted here,
    not by pgqueuer: its per-entrypoint limits count the picked jobs of every worker, so a limit
    of one slot would run one parse at a time across the whole fleet, however many workers run.
    """
    slots = max(1, concurrency)
    grouped = [lane & handlers.keys() for lane in lanes]
    rest = handlers.keys() - frozenset().union(*grouped)
    groups = [g for g in (*grouped, rest) if g]
    managers: list[QueueManager] = []
    connections: list[asyncpg.Connection] = []
    try:
        for group in groups:
            conn = await asyncpg.connect(dsn)
            connections.append(conn)
            manager = QueueManager(Queries.from_asyncpg_connection(conn))
            gate = asyncio.Semaphore(slots)
            for name in sorted(group):
                manager.register_executor(
                    name,
                    DatabaseRetryEntrypointExecutor(
                        EntrypointExecutorParameters(
                            func=_adapt(name, handlers[name], gate),
                            concurrency_limit=0,
                            accepts_context=False,
                            on_failure="hold",
                        ),
                        max_attempts=max_attempts,
                    ),
                )
            managers.append(manager)
        # pgqueuer picks at least two jobs per manager (twice its batch of one); a job picked
        # beyond the slots waits here for one, heartbeating, and is re-taken if this process dies.
        runs = [asyncio.create_task(m.run(
            batch_size=1,
            max_concurrent_tasks=max(2, slots),
            heartbeat_timeout=timedelta(seconds=heartbeat_seconds),
            dequeue_timeout=timedelta(seconds=min(5.0, heartbeat_seconds)),
        )) for m in managers]
        waits = list(runs)
        stopped = asyncio.create_task(stop.wait()) if stop is not None else None
        if stopped is not None:
            waits.append(stopped)
        try:
            # One manager ending (its connection lost) ends them all: the caller starts afresh.
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for m in managers:
                m.shutdown.set()
            if stopped is not None:
                stopped.cancel()
            results = await asyncio.gather(*runs, return_exceptions=True)
        for result in results:
            if isinstance(result, BaseException) and not isinstance(result, asyncio.CancelledError):
                raise result
    finally:
        for conn in connections:
            if not conn.is_closed():
                await conn.close()


def _adapt(name: str, handler: Handler, gate: asyncio.Semaphore) -> Callable[[Job], Awaitable[None]]:
    async def run(job: Job) -> None:
        try:
            async with gate:
                await handler(job.payload or b"")
        except Exception:
            log.exception("job %s #%s failed (attempt %s)", name, job.id, job.attempts + 1)
            raise

    return run
