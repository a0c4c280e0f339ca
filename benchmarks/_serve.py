"""A real ``tickmark serve`` for the end-to-end benchmarks: its own folders, a free port, the
embedded database unless ``DATABASE_URL`` is set, stopped on exit."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import msgspec

__all__ = ["Served", "serving"]

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
    home, rooms = work / "home", work / "rooms"
    rooms.mkdir(parents=True)
    dsn = os.environ.get("DATABASE_URL")
    if not dsn:
        from services.database import _with_database, embedded_server_dsn

        dsn = _with_database(embedded_server_dsn(home / "pgdata"), "postgres")
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
                raise SystemExit(f"serve did not come up; see {work / 'serve.log'}")
            time.sleep(0.2)
        yield Served(base=base, dsn=dsn, work=work, rooms=rooms, pid=proc.pid)
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
