"""Faults with real processes: a worker killed mid-parse and mid-verify, the server killed
mid-stream, a webhook endpoint down for a while. Each ends with the work done once, whole."""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import msgspec
import pytest
from _e2e import (Receiver, deck_md, filing_html, free_port, kill_group, many_claims_deck, read_sse,
                  serving, start_worker, wait_for, write_atomically)

from services.bootstrap import Core, open_core
from services.settings import load_settings

pytestmark = pytest.mark.slow
FAST_RETAKE = {"TICKMARK_HEARTBEAT_SECONDS": "1"}
"""A killed worker's job is taken again once its heartbeat is this many seconds old."""


@pytest.fixture
async def core(pg_dsn: str, tmp_path: Path) -> AsyncIterator[Core]:
    settings = load_settings({"TICKMARK_HOME": str(tmp_path / "core"), "DATABASE_URL": pg_dsn})
    async with open_core(settings, dsn=pg_dsn) as c:
        yield c


async def _val(core: Core, sql: str, *args: object) -> object:
    async with core.pool.acquire() as conn:
        return await conn.fetchval(sql, *args)


async def _until(check, timeout: float, what: str, interval: float = 0.02) -> object:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not (got := await check()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        await asyncio.sleep(interval)
    return got


async def test_a_worker_killed_mid_parse_and_another_mid_verify_leave_the_work_done_once(
    core: Core, pg_dsn: str, tmp_path: Path
):
    room = f"kill-{uuid.uuid4().hex[:8]}"
    # ~2.5 s to parse and index: long enough to be caught in the middle.
    big = filing_html("840", padding_kb=8000)
    first = start_worker(pg_dsn, tmp_path, "worker-a", **FAST_RETAKE)
    others = []
    try:
        await asyncio.sleep(1.5)  # the worker is taking jobs
        sub = await core.pipeline.submit_filing(room, "acme-10k.html", big)
        key = f"parse:{room}:acme-10k.html:{sub.sha256}"
        await _until(lambda: _val(core, "SELECT status = 'picked' FROM pgqueuer WHERE dedupe_key = $1", key), 20,
                     "worker A to pick the parse job")
        await asyncio.sleep(0.3)
        assert await _val(core, "SELECT count(*) FROM document WHERE room = $1 AND status = 'parsed'", room) == 0, \
            "not mid-parse"
        kill_group(first)

        others.append(start_worker(pg_dsn, tmp_path, "worker-b", **FAST_RETAKE))
        document_id = await _until(lambda: _val(core, "SELECT id FROM document WHERE room = $1 AND status = "
                                                      "'parsed'", room), 40, "worker B to parse the filing")
        facts = await _val(core, "SELECT count(*) FROM fact WHERE document_id = $1", document_id)
        distinct = await _val(core, "SELECT count(DISTINCT (metric, basis, period, source::text, dimensions::text)) "
                                    "FROM fact WHERE document_id = $1", document_id)
        assert facts and facts == distinct, "a re-taken parse duplicated facts"
        assert await _val(core, "SELECT count(*) FROM document WHERE room = $1", room) == 1
        assert await _val(core, "SELECT count(*) FROM event WHERE room = $1 AND type = 'document.parsed'", room) == 1

        # Now worker B is killed in the middle of a 60-claim verification; worker C finishes it.
        run_id = (await core.pipeline.submit_deck(room, "decks/deck.md", many_claims_deck(20),
                                                  trigger="upload")).run_id

        async def midway() -> bool:
            done = await _val(core, "SELECT count(*) FROM verdict WHERE run_id = $1", run_id)
            return 0 < done < 60  # type: ignore[operator]

        await _until(midway, 30, "worker B to be part-way through the run", interval=0.005)
        kill_group(others[0])
        partial = await _val(core, "SELECT count(*) FROM verdict WHERE run_id = $1", run_id)
        assert await _val(core, "SELECT status FROM run WHERE id = $1", run_id) == "running"

        others.append(start_worker(pg_dsn, tmp_path, "worker-c", **FAST_RETAKE))
        await _until(lambda: _val(core, "SELECT status = 'finished' FROM run WHERE id = $1", run_id), 60,
                     "worker C to finish the run")
    finally:
        for proc in [first, *others]:
            if proc.poll() is None:
                kill_group(proc)
    print(f"killed mid-verify after {partial} of 60 verdicts")
    assert await _val(core, "SELECT count(*) FROM verdict WHERE run_id = $1", run_id) == 60
    assert await _val(core, "SELECT count(*) FROM claim WHERE run_id = $1", run_id) == 60
    async with core.pool.acquire() as conn:
        per_claim = await conn.fetch("SELECT body->>'claim_id' AS claim, count(*) AS n FROM event "
                                     "WHERE run_id = $1 AND type = 'verdict.reached' GROUP BY 1", run_id)
        finished = await conn.fetchval("SELECT count(*) FROM event WHERE run_id = $1 AND type = 'run.finished'",
                                       run_id)
        result = msgspec.json.decode(await conn.fetchval("SELECT result::text FROM run WHERE id = $1", run_id))
        table = {r["verdict"]: r["n"] for r in await conn.fetch(
            "SELECT verdict, count(*) AS n FROM verdict WHERE run_id = $1 GROUP BY 1", run_id)}
    assert finished == 1
    assert len(per_claim) == 60 and all(r["n"] == 1 for r in per_claim), "a verdict was published twice"
    # The stored result covers the verdicts reached before the kill as well as after it.
    assert {k: v for k, v in result["counts"].items() if v} == table and sum(table.values()) == 60
    assert [c["verdict"] for c in result["claims"][:3]] == ["supported", "contradicted", "supported"]


def _frames(base: str, url: str, last_id: int | None = None, stop=None) -> list:  # type: ignore[no-untyped-def]
    headers = {"Last-Event-ID": str(last_id)} if last_id is not None else {}
    out = []
    with httpx.stream("GET", f"{base}{url}", headers=headers, timeout=30) as resp:
        assert resp.status_code == 200, resp.status_code
        for f in read_sse(resp):
            out.append(f)
            if stop is not None and stop(f):
                break
    return out


def test_the_server_killed_mid_stream_and_restarted_resumes_every_client_from_last_event_id(
    pg_dsn: str, tmp_path: Path
):
    with serving(pg_dsn, tmp_path, log_name="serve-1.log", TICKMARK_WORKERS="1", **FAST_RETAKE) as first:
        write_atomically(first.rooms / "restart" / "acme-10k.html", filing_html("840"))
        wait_for(lambda: any(d["status"] == "parsed" for d in
                             httpx.get(f"{first.base}/api/rooms/restart/documents").json())
                 if httpx.get(f"{first.base}/api/rooms/restart/documents").status_code == 200 else False,
                 20, "the filing to be parsed")
        accepted = httpx.post(f"{first.base}/api/rooms/restart/decks",
                              files={"file": ("deck.md", many_claims_deck(20), "text/markdown")}).json()
        url = accepted["events_url"]
        before = _frames(first.base, url, stop=lambda f: f.event == "verdict.reached")
        first.kill()  # mid-run: the verify job dies with the process
    with serving(pg_dsn, tmp_path, log_name="serve-2.log", TICKMARK_WORKERS="1", **FAST_RETAKE) as second:
        after = _frames(second.base, url, last_id=before[-1].id)
        whole = _frames(second.base, url)
        assert f"verified run {accepted['run_id']} " in second.log_text(), "the run should finish in the new server"
    ids = [f.id for f in before + after]
    assert ids == [f.id for f in whole], "resuming across the restart skipped or repeated events"
    assert whole[-1].event == "run.finished"
    reached = [json.loads(f.data)["claim_id"] for f in whole if f.event == "verdict.reached"]
    assert len(reached) == len(set(reached)) == 60
    counts = json.loads(whole[-1].data)["counts"]
    assert sum(counts.values()) == 60
    verdicts = [json.loads(f.data)["verdict"] for f in whole if f.event == "verdict.reached"]
    assert {v: verdicts.count(v) for v in set(verdicts)} == {k: v for k, v in counts.items() if v}


async def test_a_webhook_endpoint_down_for_a_while_loses_nothing_and_holds_up_no_verification(
    pg_dsn: str, tmp_path: Path, core: Core
):
    # Time compressed: backoff 0.1 s doubling over 8 attempts spans ~12 s; the endpoint is down ~4 s.
    port = free_port()
    settings = {"TICKMARK_WEBHOOK_BACKOFF_SECONDS": "0.1", "TICKMARK_WEBHOOK_MAX_ATTEMPTS": "8"}
    with serving(pg_dsn, tmp_path, **settings) as s:
        write_atomically(s.rooms / "down" / "acme-10k.html", filing_html("840"))
        wait_for(lambda: httpx.get(f"{s.base}/api/rooms/down/documents").status_code == 200 and any(
            d["status"] == "parsed" for d in httpx.get(f"{s.base}/api/rooms/down/documents").json()), 20, "parse")
        hook = httpx.post(f"{s.base}/api/rooms/down/webhooks",
                          json={"url": f"http://127.0.0.1:{port}/hook", "format": "json"}).json()
        down_since = time.monotonic()
        run_ids = []
        # Each run finishes while the notifications of the runs before it are still failing: the
        # endpoint comes back only after the last one, so no run waited for a delivery.
        for i in range(4):
            run_id = httpx.post(f"{s.base}/api/rooms/down/decks",
                                files={"file": (f"deck-{i}.md", deck_md(), "text/markdown")}).json()["run_id"]
            wait_for(lambda r=run_id: httpx.get(f"{s.base}/api/runs/{r}").json()["status"] == "finished", 20,
                     f"run {run_id} while the endpoint is down")
            run_ids.append(run_id)
        wait_for(lambda: time.monotonic() - down_since > 4, 10, "the outage")

        async def every_notification_found_it_down() -> bool:
            return await _val(core, "SELECT count(DISTINCT a.delivery_id) FROM delivery_attempt a JOIN delivery d "
                                    "ON d.id = a.delivery_id WHERE d.webhook_id = $1 AND a.status_code IS NULL",
                              hook["id"]) == 4

        await _until(every_notification_found_it_down, 20, "each run's notification to find the endpoint down")
        with Receiver(port=port) as receiver:
            wait_for(lambda: len({r.headers["X-Tickmark-Idempotency-Key"] for r in receiver.received}) >= 4, 20,
                     "every delivery once the endpoint is back")
            time.sleep(0.5)
        keys = [r.headers["X-Tickmark-Idempotency-Key"] for r in receiver.received]
        delivered_runs = sorted(json.loads(r.body)["run_id"] for r in receiver.received)
    assert sorted(set(delivered_runs)) == sorted(run_ids), "a finished run's notification was lost"
    assert len(keys) == len(set(keys)), "a delivered notification was sent again"
    async with core.pool.acquire() as conn:
        rows = await conn.fetch("SELECT status, attempts FROM delivery WHERE webhook_id = $1", hook["id"])
    assert [r["status"] for r in rows] == ["delivered"] * 4
    assert all(r["attempts"] > 1 for r in rows)
