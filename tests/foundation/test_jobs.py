"""pgqueuer jobs: a job whose worker dies is taken again by another worker."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import asyncpg

from services.jobs import enqueue, run_worker

HERE = Path(__file__).resolve().parent


async def test_job_of_a_killed_worker_is_taken_by_another_worker(pool: asyncpg.Pool, pg_dsn: str):
    async with pool.acquire() as conn:
        await conn.execute("CREATE TABLE IF NOT EXISTS job_probe (payload text, worker text)")
        await conn.execute("TRUNCATE job_probe")
        await enqueue(conn, "probe", b"job-1")

    env = {**os.environ, "PYTHONPATH": str(HERE.parents[1])}
    doomed = subprocess.Popen([sys.executable, str(HERE / "_hanging_worker.py"), pg_dsn], env=env)
    try:
        for _ in range(200):
            async with pool.acquire() as conn:
                if await conn.fetchval("SELECT count(*) FROM job_probe WHERE worker = 'doomed'"):
                    break
            await asyncio.sleep(0.1)
        else:
            raise AssertionError("the first worker never took the job")
    finally:
        doomed.send_signal(signal.SIGKILL)
        doomed.wait()

    done = asyncio.Event()

    async def finish(payload: bytes) -> None:
        async with pool.acquire() as conn:
            await conn.execute("INSERT INTO job_probe (payload, worker) VALUES ($1, 'survivor')", payload.decode())
        done.set()

    stop = asyncio.Event()
    survivor = asyncio.create_task(run_worker(pg_dsn, {"probe": finish}, concurrency=1, heartbeat_seconds=2, stop=stop))
    try:
        await asyncio.wait_for(done.wait(), 30)
    finally:
        stop.set()
        await asyncio.wait_for(survivor, 30)
    async with pool.acquire() as conn:
        rows = await conn.fetch("SELECT payload, worker FROM job_probe ORDER BY worker")
    assert [(r["payload"], r["worker"]) for r in rows] == [("job-1", "doomed"), ("job-1", "survivor")]


async def test_each_job_runs_once_when_two_workers_share_the_queue(pool: asyncpg.Pool, pg_dsn: str):
    async with pool.acquire() as conn:
        await conn.execute("CREATE TABLE IF NOT EXISTS job_runs (payload text, worker int)")
        await conn.execute("TRUNCATE job_runs")
        for i in range(40):
            await enqueue(conn, "count", str(i).encode())

    finished = asyncio.Event()

    def handler(worker: int):
        async def run(payload: bytes) -> None:
            async with pool.acquire() as conn:
                await conn.execute("INSERT INTO job_runs VALUES ($1, $2)", payload.decode(), worker)
                if await conn.fetchval("SELECT count(*) FROM job_runs") >= 40:
                    finished.set()
            await asyncio.sleep(0.01)
        return run

    stop = asyncio.Event()
    workers = [asyncio.create_task(run_worker(pg_dsn, {"count": handler(w)}, concurrency=2, stop=stop)) for w in (1, 2)]
    try:
        await asyncio.wait_for(finished.wait(), 30)
        await asyncio.sleep(0.5)
    finally:
        stop.set()
        await asyncio.gather(*workers)
    async with pool.acquire() as conn:
        rows = await conn.fetch("SELECT payload, worker FROM job_runs")
    assert sorted(int(r["payload"]) for r in rows) == list(range(40))


async def _most_at_once(pg_dsn: str, pool: asyncpg.Pool, *, workers: int, slots: int, jobs: int,
                        lanes: list[frozenset[str]] | None = None, entrypoints: tuple[str, ...] = ("slow",)) -> int:
    """Run ``jobs`` jobs of each entrypoint that each take 0.3 s; how many ran at the same time, at most."""
    async with pool.acquire() as conn:
        for name in entrypoints:
            for i in range(jobs):
                await enqueue(conn, name, f"{name}-{i}".encode())
    running = most = done = 0
    finished = asyncio.Event()

    async def slow(payload: bytes) -> None:
        nonlocal running, most, done
        running += 1
        most = max(most, running)
        await asyncio.sleep(0.3)
        running -= 1
        done += 1
        if done >= jobs * len(entrypoints):
            finished.set()

    stop = asyncio.Event()
    tasks = [asyncio.create_task(run_worker(pg_dsn, {name: slow for name in entrypoints}, concurrency=slots,
                                            stop=stop, lanes=lanes or [])) for _ in range(workers)]
    try:
        await asyncio.wait_for(finished.wait(), 60)
    finally:
        stop.set()
        await asyncio.gather(*tasks)
    return most


async def test_one_slot_runs_one_job_at_a_time_in_its_process(pool: asyncpg.Pool, pg_dsn: str):
    assert await _most_at_once(pg_dsn, pool, workers=1, slots=1, jobs=4) == 1


async def test_two_workers_with_one_slot_each_run_two_jobs_of_one_kind_at_once(pool: asyncpg.Pool, pg_dsn: str):
    # A job kind in a lane of its own is capped per process, not across the fleet.
    assert await _most_at_once(pg_dsn, pool, workers=2, slots=1, jobs=6, lanes=[frozenset({"slow"})]) == 2


async def test_a_lane_has_slots_of_its_own_beside_the_other_jobs(pool: asyncpg.Pool, pg_dsn: str):
    # One slot, two lanes: a parse-like job and a verify-like job run side by side in one process.
    most = await _most_at_once(pg_dsn, pool, workers=1, slots=1, jobs=3, lanes=[frozenset({"bulk"})],
                               entrypoints=("bulk", "urgent"))
    assert most == 2
