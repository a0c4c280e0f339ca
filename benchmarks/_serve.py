"""A real ``tickmark serve`` for the end-to-end benchmarks: its own folders, a free port, the
embedded database unless ``DATABASE_URL`` is set; on exit serve is stopped with SIGTERM, the
embedded database with it, and the work folder is removed."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import msgspec

__all__ = ["Served", "serving", "wait_until"]

REPO = Path(__file__).resolve().parents[1]


class Served(msgspec.Struct, frozen=True):
    base: str
    dsn: str
    work: Path
    rooms: Path
    pid: int


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def serving(prefix: str, **env_extra: str) -> Iterator[Served]:
    """Start ``serve`` in a fresh work folder and wait for ``/healthz``; its log is ``serve.log`` there."""
    work = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        with _serving_in(work, **env_extra) as served:
            yield served
    finally:
        shutil.rmtree(work, ignore_errors=True)


@contextlib.contextmanager
def _serving_in(work: Path, **env_extra: str) -> Iterator[Served]:
    home, rooms = work / "home", work / "rooms"
    rooms.mkdir(parents=True)
    dsn = os.environ.get("DATABASE_URL")
    pgdata = None
    if not dsn:
        from services.database import _with_database, embedded_server_dsn

        pgdata = home / "pgdata"
        dsn = _with_database(embedded_server_dsn(pgdata), "postgres")
    port = _free_port()
    env = {**os.environ, "DATABASE_URL": dsn, "TICKMARK_HOME": str(home), "TICKMARK_ROOMS": str(rooms),
           "TICKMARK_PORT": str(port), **env_extra}
    with (work / "serve.log").open("w") as log:
        proc = subprocess.Popen([sys.executable, "-m", "services.cli", "serve", "--port", str(port)], cwd=REPO,
                                env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 60
        while True:
            try:
                if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.time() > deadline or proc.poll() is not None:
                tail = (work / "serve.log").read_text(errors="replace")[-3000:]
                raise SystemExit(f"serve did not come up; its log ends with:\n{tail}")
            time.sleep(0.2)
        yield Served(base=base, dsn=dsn, work=work, rooms=rooms, pid=proc.pid)
    finally:
        # SIGTERM, as a service manager stops it: serve drains and stops its parser processes.
        proc.terminate()
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
        if pgdata is not None:
            from services.database import release_embedded_server

            release_embedded_server(pgdata)


async def wait_until(predicate, timeout: float, what: str, interval: float = 0.05):  # type: ignore[no-untyped-def]
    """Poll the async ``predicate`` until it returns something truthy (and return that), or raise
    ``TimeoutError(what)`` after ``timeout`` seconds."""
    deadline = time.time() + timeout
    while True:
        got = await predicate()
        if got:
            return got
        if time.time() > deadline:
            raise TimeoutError(what)
        await asyncio.sleep(interval)
