"""A worker process for the crash test: it takes one job, records that it started, then hangs."""

from __future__ import annotations

import asyncio
import sys

import asyncpg

from services.jobs import run_worker


async def main(dsn: str) -> None:
    async def hang(payload: bytes) -> None:
        conn = await asyncpg.connect(dsn)
        await conn.execute("INSERT INTO job_probe (payload, worker) VALUES ($1, 'doomed')", payload.decode())
        await conn.close()
        await asyncio.sleep(3600)

    await run_worker(dsn, {"probe": hang}, concurrency=1, heartbeat_seconds=2)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
