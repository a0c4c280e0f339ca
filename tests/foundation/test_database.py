"""Migrations and the embedded server's life cycle, on real PostgreSQL."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import asyncpg

from services.database import migrate
from services.sqlfiles import migrations, query

REPO = Path(__file__).resolve().parents[2]


async def test_migrations_apply_twice_cleanly_and_are_recorded(pool: asyncpg.Pool):
    assert await migrate(pool) == []  # the session fixture applied them already
    assert await migrate(pool) == []
    async with pool.acquire() as conn:
        versions = [r["version"] for r in await conn.fetch(query("applied_versions"))]
        tables = {r["tablename"] for r in await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname='public'")}
    assert versions == [m.version for m in migrations()]
    assert {"document", "fact", "event", "run", "verdict", "webhook", "delivery", "pgqueuer"} <= tables


def _run(code: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update(TICKMARK_HOME=str(home), PYTHONPATH=str(REPO))
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env, capture_output=True,
                          text=True, timeout=120)


WRITE = """
    import asyncio, asyncpg
    from services.settings import load_settings
    from services.database import resolve_dsn
    async def main():
        conn = await asyncpg.connect(await resolve_dsn(load_settings()))
        await conn.execute("CREATE TABLE IF NOT EXISTS note (t text)")
        await conn.execute("INSERT INTO note VALUES ('kept')")
        print(await conn.fetchval("SELECT count(*) FROM note"))
        await conn.close()
    asyncio.run(main())
"""


def test_embedded_server_starts_stops_and_restarts_on_the_same_data(tmp_path: Path):
    first = _run(WRITE, tmp_path)
    assert first.returncode == 0, first.stderr
    assert first.stdout.strip() == "1"
    assert not (tmp_path / "pgdata" / "postmaster.pid").exists(), "the last process should stop the server"
    second = _run(WRITE, tmp_path)
    assert second.returncode == 0, second.stderr
    assert second.stdout.strip() == "2"


def test_second_process_reuses_the_running_server(tmp_path: Path):
    holder = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent("""
            import sys, time
            from services.settings import load_settings
            from services.database import embedded_server_dsn
            embedded_server_dsn(load_settings().pgdata)
            print("up", flush=True)
            sys.stdin.read()
        """)],
        env={**os.environ, "TICKMARK_HOME": str(tmp_path), "PYTHONPATH": str(REPO)},
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "up"
        pid_before = (tmp_path / "pgdata" / "postmaster.pid").read_text().split()[0]
        other = _run(WRITE, tmp_path)
        assert other.returncode == 0, other.stderr
        assert (tmp_path / "pgdata" / "postmaster.pid").read_text().split()[0] == pid_before
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(60)


def test_unusable_data_directory_gets_a_clear_message(tmp_path: Path):
    blocker = tmp_path / "pgdata"
    blocker.parent.mkdir(exist_ok=True)
    blocker.write_text("not a directory")
    out = _run(WRITE, tmp_path)
    assert out.returncode != 0
    assert "TICKMARK_HOME" in out.stderr or "DATABASE_URL" in out.stderr
