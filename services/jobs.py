"""Work that exactly one worker must do, as pgqueuer jobs on the same PostgreSQL.

A job is enqueued in the same transaction as the rows it concerns; any ``tickmark worker`` on
any host picks it up. A worker that dies stops heartbeating and its job is taken again by
another worker once ``heartbeat_seconds`` pass, so handlers must be idempotent.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
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
    limits: Mapping[str, int] | None = None,
) -> None:
    """Take jobs for ``handlers`` until ``stop`` is set (or forever); ``limits`` caps an entrypoint's
    jobs in flight in this process (0 or absent: no cap)."""
    conn = await asyncpg.connect(dsn)
    manager = QueueManager(Queries.from_asyncpg_connection(conn))
    for name, handler in handlers.items():
        manager.register_executor(
            name,
            DatabaseRetryEntrypointExecutor(
                EntrypointExecutorParameters(
                    func=_adapt(name, handler),
                    concurrency_limit=(limits or {}).get(name, 0),
                    accepts_context=False,
                    on_failure="hold",
                ),
                max_attempts=max_attempts,
            ),
        )

    async def _stopper() -> None:
        assert stop is not None
        await stop.wait()
        manager.shutdown.set()

    stopper = asyncio.create_task(_stopper()) if stop is not None else None
    try:
        await manager.run(
            batch_size=max(1, concurrency),
            max_concurrent_tasks=max(3, concurrency * 3),
            heartbeat_timeout=timedelta(seconds=heartbeat_seconds),
            dequeue_timeout=timedelta(seconds=min(5.0, heartbeat_seconds)),
        )
    finally:
        if stopper is not None:
            stopper.cancel()
        if not conn.is_closed():
            await conn.close()


def _adapt(name: str, handler: Handler) -> Callable[[Job], Awaitable[None]]:
    async def run(job: Job) -> None:
        try:
            await handler(job.payload or b"")
        except Exception:
            log.exception("job %s #%s failed (attempt %s)", name, job.id, job.attempts + 1)
            raise

    return run
