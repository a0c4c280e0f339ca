"""Access that outlives its grant: an SSE stream opened with a room token ends within seconds of
that token's revocation (room streams and run streams alike), nothing reaches it afterwards, and
a stream opened with another, live token of the same room keeps going."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg
import httpx
import pytest

from services.access import revoke_token
from services.sqlfiles import query
from tests.e2e._e2e import REPO, Served, deck_md, env_for, serving, wait_for

pytestmark = pytest.mark.slow
ROOM = "revoked"


def _cli(dsn: str, workdir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "services.cli", *args], cwd=REPO, capture_output=True, text=True,
                          timeout=60, env=env_for(dsn, workdir / "home", workdir / "rooms"))


@dataclass
class Stream:
    """An SSE client in a thread: every line it receives, and when the server ended the stream."""

    url: str
    token: str
    in_query: bool = False
    """Send the token as ``?token=``, as the page's EventSource does."""
    lines: list[str] = field(default_factory=list)
    ended_at: float | None = None
    status: int | None = None
    error: str | None = None

    def start(self) -> Stream:
        threading.Thread(target=self._read, daemon=True).start()
        wait_for(lambda: self.status is not None or self.error is not None, 30, f"{self.url} to answer")
        return self

    def _read(self) -> None:
        try:
            auth = {"params": {"token": self.token}} if self.in_query else \
                {"headers": {"Authorization": f"Bearer {self.token}"}}
            with httpx.stream("GET", self.url, timeout=httpx.Timeout(10, read=60), **auth) as r:  # type: ignore[arg-type]
                self.status = r.status_code
                for line in r.iter_lines():
                    self.lines.append(line)
        except httpx.HTTPError as exc:
            self.error = repr(exc)
        finally:
            self.ended_at = time.time()

    def events(self) -> list[str]:
        return [line.split(":", 1)[1].strip() for line in self.lines if line.startswith("event:")]


@dataclass
class Setup:
    served: Served
    dsn: str
    workdir: Path
    tokens: dict[str, tuple[int, str]]
    run_id: int


def _queued_run(dsn: str) -> int:
    """A run that stays queued (no job is enqueued for it), so its stream stays open."""
    async def make() -> int:
        conn = await asyncpg.connect(dsn)
        try:
            await conn.execute(query("ensure_room"), ROOM)
            doc = await conn.fetchrow(query("upsert_document"), ROOM, "decks/held.md", "held-" + "0" * 59, 1, "deck")
            return int(await conn.fetchval(query("create_queued_run"), ROOM, doc["id"], "decks/held.md", "upload"))
        finally:
            await conn.close()

    return asyncio.run(make())


@pytest.fixture(scope="module")
def setup(pg_dsn: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Setup]:
    workdir = tmp_path_factory.mktemp("revocation")
    tokens = {}
    made = {}
    for who in ("leaver", "stayer", "runner"):
        made[who] = _cli(pg_dsn, workdir, "token", "create", ROOM, "--name", who)
        assert made[who].returncode == 0, made[who].stderr
    listed = _cli(pg_dsn, workdir, "token", "list").stdout.splitlines()
    for who, out in made.items():
        token_id = int([line for line in listed if line.rstrip().endswith(who)][-1].split()[0])
        tokens[who] = (token_id, out.stdout.strip())
    with serving(pg_dsn, workdir, TICKMARK_AUTH="required") as s:
        yield Setup(s, pg_dsn, workdir, tokens, _queued_run(pg_dsn))


def _revoke(setup: Setup, who: str) -> float:
    """Revoke as ``tickmark token revoke`` does; returns the moment the revocation was committed."""
    async def revoke() -> float:
        pool = await asyncpg.create_pool(setup.dsn, min_size=1, max_size=1)
        try:
            assert await revoke_token(pool, str(setup.tokens[who][0]))
            return time.time()
        finally:
            await pool.close()

    return asyncio.run(revoke())


def test_revoking_a_token_closes_its_room_stream_and_spares_another_tokens(setup: Setup):
    base = setup.served.base
    leaver = Stream(f"{base}/api/rooms/{ROOM}/events", setup.tokens["leaver"][1]).start()
    stayer = Stream(f"{base}/api/rooms/{ROOM}/events", setup.tokens["stayer"][1]).start()
    assert leaver.status == stayer.status == 200
    wait_for(lambda: any(line.startswith(":") for line in leaver.lines), 30, "a keep-alive on the stream")

    revoked_at = _revoke(setup, "leaver")
    wait_for(lambda: leaver.ended_at is not None, 30, "the revoked token's stream to end")
    assert leaver.ended_at is not None
    print(json.dumps({"revoke_to_stream_closed_s": round(leaver.ended_at - revoked_at, 2), "stream": "room"}))
    assert any("access revoked" in line for line in leaver.lines), leaver.lines[-5:]

    # Events published after the revocation reach the live token's stream, not the revoked one.
    seen = len(leaver.lines)
    up = httpx.post(f"{base}/api/rooms/{ROOM}/decks", files={"file": ("after.md", deck_md(), "text/markdown")},
                    headers={"Authorization": f"Bearer {setup.tokens['stayer'][1]}"}, timeout=30)
    assert up.status_code == 202, up.text
    wait_for(lambda: "deck.submitted" in stayer.events(), 30, "the live token's stream to see the new run")
    assert stayer.ended_at is None
    assert len(leaver.lines) == seen

    again = httpx.get(f"{base}/api/rooms/{ROOM}/events", headers={"Authorization": f"Bearer {setup.tokens['leaver'][1]}"},
                      timeout=10)
    assert again.status_code == 401 and "revoked" in again.json()["reason"]


def test_revoking_a_token_closes_its_run_stream(setup: Setup):
    runner = Stream(f"{setup.served.base}/api/runs/{setup.run_id}/events", setup.tokens["runner"][1]).start()
    assert runner.status == 200, runner.error
    wait_for(lambda: any(line.startswith(":") for line in runner.lines), 30, "a keep-alive on the run stream")
    revoked_at = _revoke(setup, "runner")
    wait_for(lambda: runner.ended_at is not None, 30, "the revoked token's run stream to end")
    assert runner.ended_at is not None
    print(json.dumps({"revoke_to_stream_closed_s": round(runner.ended_at - revoked_at, 2), "stream": "run"}))
    assert "run.finished" not in runner.events(), "the run never finished: the stream ended because of the revocation"


def test_a_token_passed_as_a_query_parameter_is_rechecked_too(setup: Setup):
    made = _cli(setup.dsn, setup.workdir, "token", "create", ROOM, "--name", "page")
    listed = _cli(setup.dsn, setup.workdir, "token", "list").stdout.splitlines()
    token_id = int([line for line in listed if line.rstrip().endswith("page")][-1].split()[0])
    page = Stream(f"{setup.served.base}/api/rooms/{ROOM}/events", made.stdout.strip(), in_query=True).start()
    assert page.status == 200, page.error
    wait_for(lambda: any(line.startswith(":") for line in page.lines), 30, "a keep-alive on the page's stream")
    assert _cli(setup.dsn, setup.workdir, "token", "revoke", str(token_id)).returncode == 0
    wait_for(lambda: page.ended_at is not None, 30, "the page's stream to end")
