"""The command line and the served health endpoints, as real processes."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import asyncpg
import httpx

from services.settings import load_settings

REPO = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_settings_default_to_the_local_data_directory_and_honour_the_environment(tmp_path: Path):
    s = load_settings({})
    assert s.home == Path.home() / ".local" / "share" / "tickmark"
    assert s.database_url is None and s.port == 8000 and s.host == "127.0.0.1"
    s = load_settings({"TICKMARK_HOME": str(tmp_path), "DATABASE_URL": "postgresql://x/y", "TICKMARK_PORT": "9"})
    assert s.home == tmp_path and s.database_url == "postgresql://x/y" and s.port == 9


async def _counts(dsn: str) -> tuple[int, int]:
    """The event log's head and the current facts, read from the database itself."""
    conn = await asyncpg.connect(dsn)
    try:
        head = await conn.fetchval("SELECT coalesce(max(id), 0) FROM event")
        facts = await conn.fetchval("SELECT count(*) FROM fact WHERE NOT superseded")
        return int(head), int(facts)
    finally:
        await conn.close()


def _gauges(text: str) -> dict[str, float]:
    """Unlabelled samples of a Prometheus text page, by name."""
    out = {}
    for line in text.splitlines():
        if line and not line.startswith("#") and "{" not in line:
            name, value = line.split()
            out[name] = float(value)
    return out


def test_serve_answers_healthz_and_metrics(pg_dsn: str, tmp_path: Path):
    port = free_port()
    env = {**os.environ, "DATABASE_URL": pg_dsn, "TICKMARK_HOME": str(tmp_path), "TICKMARK_ROOMS": str(tmp_path / "rooms")}
    proc = subprocess.Popen([sys.executable, "-m", "services.cli", "serve", "--port", str(port)], cwd=REPO, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.time() + 60
        while True:
            try:
                health = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2)
                break
            except httpx.TransportError:
                if time.time() > deadline or proc.poll() is not None:
                    raise AssertionError(f"serve did not come up: {proc.stderr.read() if proc.stderr else ''}")
                time.sleep(0.2)
        assert health.status_code == 200
        # The bus starts listening just after the server answers; wait for it rather than race it.
        while not (body := health.json())["bus"]["listening"] and time.time() < deadline:
            time.sleep(0.2)
            health = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2)
        assert body["database"] == "ok" and body["status"] == "ok"
        assert body["migrations"]["applied"] == body["migrations"]["known"] >= 1
        # The database is shared with earlier tests, whose queued jobs this serve may still be
        # finishing: once it idles, its bus has fanned out the whole log and the gauges agree.
        while True:
            log_head, facts = asyncio.run(_counts(pg_dsn))
            bus = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5).json()["bus"]
            metrics = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=5)
            assert metrics.status_code == 200
            gauges = _gauges(metrics.text)
            if (bus["log_head"] == log_head == gauges["tickmark_event_log_head"] and bus["lag"] == 0) \
                    or time.time() > deadline:
                break
            time.sleep(0.3)
        assert bus["log_head"] == log_head and bus["lag"] == 0 and bus["listening"] is True
        assert gauges["tickmark_event_log_head"] == log_head
        assert gauges["tickmark_bus_lag_events"] == 0 and gauges["tickmark_sse_streams"] == 0
        assert gauges["tickmark_facts"] == facts
    finally:
        proc.terminate()
        proc.wait(30)
