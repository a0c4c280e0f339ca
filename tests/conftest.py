"""Shared fixtures: one real PostgreSQL for the whole test session (embedded by default)."""

from __future__ import annotations

import os
import tempfile
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from events.bus import Bus
from services.database import _with_database, connect_pool, embedded_server_dsn, migrate
from services.sqlfiles import query

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"


def shared_data() -> Path:
    """``../shared/data``, or skip the calling test with the reason."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"needs the shared data set at {SHARED_DATA}, which this checkout does not have")
    return SHARED_DATA


@pytest.fixture(scope="session")
def pg_admin_dsn() -> str:
    """A server for the session: DATABASE_URL when set, else the embedded one in a temp dir."""
    if url := os.environ.get("DATABASE_URL"):
        return url
    home = Path(tempfile.mkdtemp(prefix="tickmark-test-pg-"))
    return embedded_server_dsn(home / "pgdata")


@pytest.fixture(scope="session")
async def pg_dsn(pg_admin_dsn: str) -> AsyncIterator[str]:
    """A fresh database for this session, dropped at the end."""
    name = f"tm_test_{uuid.uuid4().hex[:10]}"
    admin = await asyncpg.connect(pg_admin_dsn)
    await admin.execute(f'CREATE DATABASE "{name}"')
    await admin.close()
    yield _with_database(pg_admin_dsn, name)
    admin = await asyncpg.connect(pg_admin_dsn)
    await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    await admin.close()


@pytest.fixture(scope="session")
async def pool(pg_dsn: str) -> AsyncIterator[asyncpg.Pool]:
    p = await connect_pool(pg_dsn, max_size=20)
    await migrate(p)
    yield p
    await p.close()


@pytest.fixture
async def bus(pool: asyncpg.Pool, pg_dsn: str) -> AsyncIterator[Bus]:
    b = Bus(pool, pg_dsn, query, poll_interval=0.5)
    yield b
    await b.close()


@pytest.fixture
def room_name() -> str:
    return f"room-{uuid.uuid4().hex[:8]}"


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    # pytest exits 5 when it collected nothing; a suite that ran no test has not passed.
    if exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
