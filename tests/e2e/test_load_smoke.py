"""``python -m benchmarks.load`` at a small size: it runs, and its streams lose and repeat nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from _e2e import REPO

pytestmark = pytest.mark.slow


def test_the_load_benchmark_runs_and_every_client_gets_every_event(pg_dsn: str):
    env = {**os.environ, "DATABASE_URL": pg_dsn, "BENCH_DECKS": "3", "BENCH_CLIENTS_PER_RUN": "4"}
    out = subprocess.run([sys.executable, "-m", "benchmarks.load"], cwd=REPO, env=env, capture_output=True,
                         text=True, timeout=180)
    assert out.returncode == 0, out.stderr[-2000:]
    figures = json.loads(out.stdout)
    assert figures["sse_clients"] == 12 and figures["claims_verified"] == 27
    events = figures["events"]
    assert events["sent"] == events["received"] > 0 and events["lost"] == 0 and events["duplicated"] == 0
    assert figures["reverify"]["runs"] >= 1 and figures["peak_rss_mb"]["serve"] > 0
