"""The command line and the served health endpoints, as real processes."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

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
        body = health.json()
        assert body["database"] == "ok"
        assert body["migrations"]["applied"] == body["migrations"]["known"] >= 1
        assert "lag" in body["bus"]
        metrics = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=5)
        assert metrics.status_code == 200
        assert "# TYPE tickmark_event_log_head gauge" in metrics.text
        assert "tickmark_bus_lag_events" in metrics.text
    finally:
        proc.terminate()
        proc.wait(30)
