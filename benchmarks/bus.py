"""Bus throughput and latency on the embedded PostgreSQL: ``python -m benchmarks.bus``.

Prints JSON: events/s published (one connection, each event its own transaction), and p50/p99
publish-to-subscriber latency with 1 and 10 live subscribers in the same process.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
import time
import uuid
from pathlib import Path

import asyncpg

from events.bus import Bus, EventFilter
from events.types import DocumentChanged
from services.database import _with_database, connect_pool, embedded_server_dsn, migrate
from services.sqlfiles import query


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] * 1000, 3)


async def _latency(bus: Bus, pool: asyncpg.Pool, subscribers: int, n: int) -> dict[str, float]:
    room = f"bench-{uuid.uuid4().hex[:6]}"
    sent: dict[int, float] = {}
    lat: list[float] = []
    ready = asyncio.Barrier(subscribers + 1)

    async def sub() -> None:
        it = bus.subscribe(await _head(pool), EventFilter(room=room)).__aiter__()
        first = asyncio.ensure_future(it.__anext__())
        await ready.wait()
        got = 0
        stored = await first
        while True:
            lat.append(time.perf_counter() - sent[stored.id])
            got += 1
            if got == n:
                return
            stored = await it.__anext__()

    tasks = [asyncio.create_task(sub()) for _ in range(subscribers)]
    await asyncio.sleep(0.2)
    async with pool.acquire() as conn:
        for i in range(n):
            if i == 1:
                await ready.wait()
            t = time.perf_counter()
            eid = await bus.publish(DocumentChanged(room=room, path=f"{i}", sha256="0", size=i), conn)
            sent[eid] = t
            await asyncio.sleep(0.002)  # a steady stream, not a burst: latency, not backlog
    await asyncio.gather(*tasks)
    return {"subscribers": subscribers, "events": n, "p50_ms": _pct(lat, 50), "p99_ms": _pct(lat, 99)}


async def _head(pool: asyncpg.Pool) -> int:
    async with pool.acquire() as conn:
        return int(await conn.fetchval(query("last_event_id")))


async def main() -> dict[str, object]:
    home = Path(tempfile.mkdtemp(prefix="tickmark-bench-"))
    admin = await asyncio.to_thread(embedded_server_dsn, home / "pgdata")
    conn = await asyncpg.connect(admin)
    await conn.execute("CREATE DATABASE bench")
    await conn.close()
    dsn = _with_database(admin, "bench")
    pool = await connect_pool(dsn, max_size=20)
    await migrate(pool)
    bus = Bus(pool, dsn, query, poll_interval=1.0)
    try:
        n = 5000
        async with pool.acquire() as c:
            t = time.perf_counter()
            for i in range(n):
                await bus.publish(DocumentChanged(room="bench", path=f"{i}", sha256="0", size=i), c)
            single = n / (time.perf_counter() - t)

        async def publisher(k: int) -> None:
            async with pool.acquire() as c:
                for i in range(n // 4):
                    await bus.publish(DocumentChanged(room="bench", path=f"{k}-{i}", sha256="0", size=i), c)

        t = time.perf_counter()
        await asyncio.gather(*(publisher(k) for k in range(4)))
        concurrent = n / (time.perf_counter() - t)
        return {
            "benchmark": "bus",
            "publish_events_per_s": {"one_connection": round(single), "four_connections": round(concurrent)},
            "latency": [await _latency(bus, pool, 1, 1000), await _latency(bus, pool, 10, 1000)],
        }
    finally:
        await bus.close()
        await pool.close()


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main()), indent=1))
