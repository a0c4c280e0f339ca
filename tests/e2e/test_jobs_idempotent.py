"""Every job run twice, as a worker that died after its work but before its ack would: no double work."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from decimal import Decimal
from pathlib import Path

import msgspec
import pytest
from _e2e import deck_md, filing_html

from parsers.model import Claim
from services.bootstrap import Core, open_core
from services.pipeline import ReverifyJob, VerifyJob, touches
from services.settings import load_settings


@pytest.fixture
async def core(pg_dsn: str, tmp_path: Path) -> AsyncIterator[Core]:
    settings = load_settings({"TICKMARK_HOME": str(tmp_path), "DATABASE_URL": pg_dsn})
    async with open_core(settings, dsn=pg_dsn) as c:
        yield c


async def _count(core: Core, sql: str, *args: object) -> int:
    async with core.pool.acquire() as conn:
        return int(await conn.fetchval(sql, *args))


async def _parse_twice(core: Core, room: str, data: bytes) -> int:
    sub = await core.pipeline.submit_filing(room, "acme-10k.html", data)
    payload = msgspec.json.encode({"room": room, "path": "acme-10k.html", "sha256": sub.sha256})
    await core.pipeline.parse_job(payload)
    await core.pipeline.parse_job(payload)
    async with core.pool.acquire() as conn:
        return int(await conn.fetchval("SELECT id FROM document WHERE room = $1 AND sha256 = $2", room, sub.sha256))


async def test_parse_verify_and_reverify_jobs_twice_do_the_work_once(core: Core):
    room = f"idem-{uuid.uuid4().hex[:8]}"
    first_doc = await _parse_twice(core, room, filing_html("840"))
    assert await _count(core, "SELECT count(*) FROM document WHERE room = $1", room) == 1
    facts = await _count(core, "SELECT count(*) FROM fact WHERE document_id = $1", first_doc)
    assert facts > 0

    run_id = (await core.pipeline.submit_deck(room, "decks/acme-deck.md", deck_md(), trigger="upload")).run_id
    assert run_id is not None
    job = msgspec.json.encode(VerifyJob(run_id))
    await core.pipeline.verify_job(job)
    await core.pipeline.verify_job(job)
    assert await _count(core, "SELECT count(*) FROM verdict WHERE run_id = $1", run_id) == 3
    assert await _count(core, "SELECT count(*) FROM event WHERE run_id = $1 AND type = 'run.finished'", run_id) == 1

    # A worker killed mid-run leaves it 'running'; the re-taken job upserts the same rows.
    async with core.pool.acquire() as conn:
        await conn.execute("UPDATE run SET status = 'running' WHERE id = $1", run_id)
    await core.pipeline.verify_job(job)
    assert await _count(core, "SELECT count(*) FROM verdict WHERE run_id = $1", run_id) == 3
    assert await _count(core, "SELECT count(*) FROM claim WHERE run_id = $1", run_id) == 3

    changed_doc = await _parse_twice(core, room, filing_html("900"))
    assert changed_doc != first_doc
    async with core.pool.acquire() as conn:
        event_id = int(await conn.fetchval("SELECT max(id) FROM event WHERE room = $1 AND type = 'facts.updated'",
                                           room))
    reverify = msgspec.json.encode(ReverifyJob(room=room, document_id=changed_doc, event_id=event_id))
    await core.pipeline.reverify_job(reverify)
    await core.pipeline.reverify_job(reverify)
    reruns = await _count(core, "SELECT count(*) FROM run WHERE room = $1 AND trigger = 'reverify'", room)
    assert reruns == 1
    async with core.pool.acquire() as conn:
        rerun = int(await conn.fetchval("SELECT id FROM run WHERE room = $1 AND trigger = 'reverify'", room))
    await core.pipeline.verify_job(msgspec.json.encode(VerifyJob(rerun)))
    await core.pipeline.verify_job(msgspec.json.encode(VerifyJob(rerun)))
    assert await _count(core, "SELECT count(*) FROM verdict_change WHERE run_id = $1", rerun) == 1
    assert await _count(core, "SELECT count(*) FROM event WHERE run_id = $1 AND type = 'verdict.changed'",
                        rerun) == 1
    async with core.pool.acquire() as conn:
        flip = await conn.fetchrow("SELECT body FROM event WHERE run_id = $1 AND type = 'verdict.changed'", rerun)
    body = msgspec.json.decode(flip["body"])
    assert (body["claim_id"], body["before"], body["after"]) == ("p1-c2", "contradicted", "supported")
    assert body["cause_document"] == "acme-10k.html" and body["previous_run_id"] == run_id

    # Reverting the filing to bytes seen before is new evidence too: the verdict flips back.
    assert await _parse_twice(core, room, filing_html("840")) == first_doc
    async with core.pool.acquire() as conn:
        event_id = int(await conn.fetchval("SELECT max(id) FROM event WHERE room = $1 AND type = 'facts.updated'",
                                           room))
    await core.pipeline.reverify_job(msgspec.json.encode(ReverifyJob(room=room, document_id=first_doc,
                                                                     event_id=event_id)))
    async with core.pool.acquire() as conn:
        back = int(await conn.fetchval("SELECT max(id) FROM run WHERE room = $1 AND trigger = 'reverify'", room))
    assert back != rerun
    await core.pipeline.verify_job(msgspec.json.encode(VerifyJob(back)))
    async with core.pool.acquire() as conn:
        flip = await conn.fetchrow("SELECT before, after, baseline_run_id FROM verdict_change WHERE run_id = $1", back)
    assert (flip["before"], flip["after"], flip["baseline_run_id"]) == ("supported", "contradicted", rerun)


async def test_a_stale_parse_job_never_replaces_a_newer_version(core: Core):
    room = f"stale-{uuid.uuid4().hex[:8]}"
    old = await core.pipeline.submit_filing(room, "acme-10k.html", filing_html("840"))
    new = await core.pipeline.submit_filing(room, "acme-10k.html", filing_html("900"))
    await core.pipeline.parse_job(msgspec.json.encode({"room": room, "path": "acme-10k.html", "sha256": new.sha256}))
    await core.pipeline.parse_job(msgspec.json.encode({"room": room, "path": "acme-10k.html", "sha256": old.sha256}))
    async with core.pool.acquire() as conn:
        current = await conn.fetch("SELECT sha256 FROM document WHERE room = $1 AND superseded_by IS NULL", room)
    assert [r["sha256"] for r in current] == [new.sha256]


def _claim(metric: str = "operating_income", period: str = "FY2024", **kw: object) -> Claim:
    return Claim(id="p1-c1", page=1, text="x", value=Decimal("900"), printed="$900M", decimals=0, unit="USD",
                 scale=6, metric=metric, period=period, entity="Acme Corporation", **kw)  # type: ignore[arg-type]


def test_a_claim_is_touched_only_by_its_own_metric_period_and_entity():
    slots = {("acme", "operating_income", "FY2024")}
    assert touches(_claim(), "acme", slots)
    assert not touches(_claim(period="FY2023"), "acme", slots)
    assert not touches(_claim(metric="net_income"), "acme", slots)
    assert not touches(_claim(), "globex", slots)


def test_a_growth_claim_is_touched_by_its_comparison_period():
    growth = _claim(metric="revenue", kind="growth", comparison_period="FY2023")
    assert touches(growth, "acme", {("acme", "revenue", "FY2023")})


async def test_a_filing_that_lands_during_a_decks_first_run_is_checked_once_that_run_finishes(core: Core):
    room = f"race-{uuid.uuid4().hex[:8]}"
    await _parse_twice(core, room, filing_html("840"))
    first = (await core.pipeline.submit_deck(room, "decks/acme-deck.md", deck_md(), trigger="upload")).run_id
    assert first is not None  # queued, not yet run: it has no result to compare a new filing against

    changed = await _parse_twice(core, room, filing_html("900"))
    async with core.pool.acquire() as conn:
        event_id = int(await conn.fetchval("SELECT max(id) FROM event WHERE room = $1 AND type = 'facts.updated'",
                                           room))
    await core.pipeline.reverify_job(msgspec.json.encode(ReverifyJob(room=room, document_id=changed,
                                                                     event_id=event_id)))
    assert await _count(core, "SELECT count(*) FROM run WHERE room = $1 AND trigger = 'reverify'", room) == 0
    waiting = await _count(core, "SELECT count(*) FROM pgqueuer WHERE entrypoint = 'reverify' AND dedupe_key = $1",
                           f"reverify:{event_id}:wait1")
    assert waiting == 1, "the re-verification is queued again for after the run under way"

    await core.pipeline.verify_job(msgspec.json.encode(VerifyJob(first)))
    await core.pipeline.reverify_job(msgspec.json.encode(ReverifyJob(room=room, document_id=changed,
                                                                     event_id=event_id, waits=1)))
    async with core.pool.acquire() as conn:
        rerun = await conn.fetchrow("SELECT baseline_run_id FROM run WHERE room = $1 AND trigger = 'reverify'", room)
    assert rerun is not None and rerun["baseline_run_id"] == first
