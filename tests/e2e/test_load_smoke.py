"""``python -m benchmarks.load`` at a small size: its streams lose and repeat nothing, and the
filing it changes mid-load leaves every deck in the room verified against the new figure."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import asyncpg
import pytest
from _e2e import REPO

pytestmark = pytest.mark.slow

LATEST_OPERATING_INCOME = """
SELECT DISTINCT ON (r.deck_path) r.deck_path, v.verdict
FROM run r JOIN claim c ON c.run_id = r.id JOIN verdict v ON (v.run_id, v.claim_id) = (c.run_id, c.claim_id)
WHERE r.room = 'load' AND r.status = 'finished' AND c.metric = 'operating_income'
ORDER BY r.deck_path, r.id DESC
"""


async def test_the_load_benchmark_loses_nothing_and_leaves_every_deck_reverified(pg_dsn: str):
    env = {**os.environ, "DATABASE_URL": pg_dsn, "BENCH_DECKS": "3", "BENCH_CLIENTS_PER_RUN": "4"}
    out = subprocess.run([sys.executable, "-m", "benchmarks.load"], cwd=REPO, env=env, capture_output=True,
                         text=True, timeout=180)
    assert out.returncode == 0, out.stderr[-2000:]
    figures = json.loads(out.stdout)
    # 3 decks of 9 claims, each run streamed to 4 clients.
    assert figures["sse_clients"] == 12 and figures["claims_verified"] == 27
    events = figures["events"]
    assert events["sent"] == events["received"] > 0 and events["lost"] == 0 and events["duplicated"] == 0
    # The warm-up deck was verified against an operating income of $840M before the filing changed to
    # $900M, the figure its claim prints: that verdict must flip, and every deck's latest run agrees.
    assert figures["reverify"]["verdict_changed"] >= 1
    db = await asyncpg.connect(pg_dsn)
    try:
        latest = {r["deck_path"]: r["verdict"] for r in await db.fetch(LATEST_OPERATING_INCOME)}
    finally:
        await db.close()
    assert latest == {f"decks/{name}.md": "supported" for name in ("warm", "deck-0", "deck-1", "deck-2")}
