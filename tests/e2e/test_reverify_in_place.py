"""Re-verification in place: only the claims new facts can move are judged again, each flip is
published as it is found, and filings that land together flip each claim once."""

from __future__ import annotations

import asyncio
import re
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import msgspec
import pytest
from _e2e import deck_md, filing_html

from services.bootstrap import Core, open_core
from services.pipeline import ReverifyJob, VerifyJob
from services.settings import load_settings

_OTHER_FILING = """<html><head><title>Acme Corporation - Quarterly Report (Form 10-Q)</title></head><body>
<div>ACME CORPORATION</div><div>FORM 10-Q</div>
<div><span style="font-weight:700">CONSOLIDATED STATEMENTS OF OPERATIONS</span></div>
<div>(In millions)</div>
<table>
<tr><td colspan="3"></td><td colspan="3">Years ended December 31, 2024</td></tr>
<tr><td colspan="3">Net income</td><td>$</td><td>{net_income}</td><td></td></tr>
</table></body></html>
"""


@pytest.fixture
async def core(pg_dsn: str, tmp_path: Path) -> AsyncIterator[Core]:
    settings = load_settings({"TICKMARK_HOME": str(tmp_path), "DATABASE_URL": pg_dsn})
    async with open_core(settings, dsn=pg_dsn) as c:
        yield c


async def _ingest(core: Core, room: str, path: str, data: bytes) -> tuple[int, int]:
    """Parse ``data`` as ``path``: (document id, id of the facts.updated event it published)."""
    sub = await core.pipeline.submit_filing(room, path, data)
    await core.pipeline.parse_job(msgspec.json.encode({"room": room, "path": path, "sha256": sub.sha256}))
    async with core.pool.acquire() as conn:
        doc = int(await conn.fetchval("SELECT id FROM document WHERE room = $1 AND sha256 = $2", room, sub.sha256))
        event = int(await conn.fetchval("SELECT max(id) FROM event WHERE room = $1 AND type = 'facts.updated' "
                                        "AND (body->>'document_id')::bigint = $2", room, doc))
    return doc, event


async def _first_run(core: Core, room: str) -> int:
    run_id = (await core.pipeline.submit_deck(room, "decks/acme-deck.md", deck_md(), trigger="upload")).run_id
    assert run_id is not None
    await core.pipeline.verify_job(msgspec.json.encode(VerifyJob(run_id)))
    return run_id


async def test_a_changed_filing_judges_only_the_claims_its_facts_touch_and_flips_at_once(core: Core):
    room = f"inplace-{uuid.uuid4().hex[:8]}"
    await _ingest(core, room, "acme-10k.html", filing_html("840"))
    first = await _first_run(core, room)
    doc, event = await _ingest(core, room, "acme-10k.html", filing_html("900"))

    await core.pipeline.reverify_job(msgspec.json.encode(ReverifyJob(room=room, document_id=doc, event_id=event)))

    async with core.pool.acquire() as conn:
        rerun = await conn.fetchrow("SELECT id, status, baseline_run_id, result::text AS result FROM run "
                                    "WHERE room = $1 AND trigger = 'reverify'", room)
        judged = {r["claim"] for r in await conn.fetch(
            "SELECT DISTINCT body->>'claim_id' AS claim FROM event WHERE run_id = $1 AND type = 'rule.evaluated'",
            rerun["id"])}
        flips = await conn.fetch("SELECT body->>'claim_id' AS claim, body->>'before' AS before, "
                                 "body->>'after' AS after FROM event WHERE run_id = $1 AND type = 'verdict.changed'",
                                 rerun["id"])
        queued = await conn.fetchval("SELECT count(*) FROM pgqueuer WHERE dedupe_key = $1", f"verify:{rerun['id']}")
    result = msgspec.json.decode(rerun["result"])
    # The whole 10-K changed, so every claim's slot was touched; a change that leaves the deck's
    # slots alone is the next test's second filing.
    assert rerun["status"] == "finished" and rerun["baseline_run_id"] == first
    assert queued == 0, "done in the re-verify job itself, not queued for another"
    assert [(f["claim"], f["before"], f["after"]) for f in flips] == [("p1-c2", "contradicted", "supported")]
    assert judged == {c["id"] for c in result["claims"]} == {"p1-c1", "p1-c2", "p1-c3"}


async def test_a_filing_that_touches_one_slot_rejudges_that_claim_alone_and_keeps_the_others(core: Core):
    room = f"oneslot-{uuid.uuid4().hex[:8]}"
    await _ingest(core, room, "acme-10k.html", filing_html("840"))
    await _first_run(core, room)
    doc, event = await _ingest(core, room, "acme-10q.html", _OTHER_FILING.format(net_income="610").encode())

    await core.pipeline.reverify_job(msgspec.json.encode(ReverifyJob(room=room, document_id=doc, event_id=event)))

    async with core.pool.acquire() as conn:
        rerun = await conn.fetchval("SELECT id FROM run WHERE room = $1 AND trigger = 'reverify'", room)
        judged = {r["claim"] for r in await conn.fetch(
            "SELECT DISTINCT body->>'claim_id' AS claim FROM event WHERE run_id = $1 AND type = 'rule.evaluated'",
            rerun)}
        verdicts = await conn.fetchval("SELECT count(*) FROM verdict WHERE run_id = $1", rerun)
        reached = await conn.fetchval("SELECT count(*) FROM event WHERE run_id = $1 AND type = 'verdict.reached'",
                                      rerun)
    assert judged == {"p1-c3"}, "only the net income claim reads a slot the 10-Q states"
    assert verdicts == 3 and reached == 3, "the untouched claims keep their verdicts, and say so"


async def _reverify(core: Core, room: str, *changes: tuple[int, int]) -> None:
    await asyncio.gather(*(core.pipeline.reverify_job(msgspec.json.encode(
        ReverifyJob(room=room, document_id=doc, event_id=event))) for doc, event in changes))


async def _flips(core: Core, room: str) -> list[tuple[str, str, str, str | None]]:
    async with core.pool.acquire() as conn:
        return [(r["claim_id"], r["before"], r["after"], r["path"]) for r in await conn.fetch(
            "SELECT v.claim_id, v.before, v.after, d.path FROM verdict_change v "
            "LEFT JOIN document d ON d.id = v.cause_document_id WHERE v.room = $1 ORDER BY v.claim_id", room)]


def _without_net_income(html: bytes) -> bytes:
    return re.sub(rb"<tr><td colspan=\"3\">Net income</td>.*?</tr>", b"", html)


async def test_filings_landing_together_are_judged_in_one_run_that_names_each_flips_own_filing(core: Core):
    room = f"together-{uuid.uuid4().hex[:8]}"
    await _ingest(core, room, "acme-10k.html", _without_net_income(filing_html("840")))
    first = await _first_run(core, room)
    # The amended 10-K moves operating income and the 10-Q brings net income; both are in before
    # either's re-verification starts, as when a drop's parses finish together.
    a = await _ingest(core, room, "acme-10k.html", _without_net_income(filing_html("900")))
    b = await _ingest(core, room, "acme-10q.html", _OTHER_FILING.format(net_income="610").encode())

    await _reverify(core, room, a, b)

    async with core.pool.acquire() as conn:
        runs = await conn.fetch("SELECT id, baseline_run_id FROM run WHERE room = $1 AND trigger = 'reverify'", room)
    assert [r["baseline_run_id"] for r in runs] == [first], "one run took in both; the later job found it covered"
    assert await _flips(core, room) == [("p1-c2", "contradicted", "supported", "acme-10k.html"),
                                        ("p1-c3", "no-evidence", "supported", "acme-10q.html")]


async def test_a_filing_after_a_re_verification_compares_against_it_and_flips_each_claim_once(core: Core):
    room = f"after-{uuid.uuid4().hex[:8]}"
    await _ingest(core, room, "acme-10k.html", filing_html("840"))
    await _first_run(core, room)
    await _reverify(core, room, await _ingest(core, room, "acme-10k.html", filing_html("900")))
    await _reverify(core, room, await _ingest(core, room, "acme-10q.html",
                                              _OTHER_FILING.format(net_income="610").encode()))

    async with core.pool.acquire() as conn:
        runs = await conn.fetch("SELECT id, baseline_run_id FROM run WHERE room = $1 AND trigger = 'reverify' "
                                "ORDER BY id", room)
    assert len(runs) == 2 and runs[1]["baseline_run_id"] == runs[0]["id"], "the second compares against the first"
    assert await _flips(core, room) == [("p1-c2", "contradicted", "supported", "acme-10k.html")]


async def _parse_queued(core: Core, room: str, path: str, data: bytes) -> tuple[int, int]:
    """``_ingest`` as a worker does it: the parse job leaves the queue once its facts are in."""
    found = await _ingest(core, room, path, data)
    async with core.pool.acquire() as conn:
        await conn.execute("DELETE FROM pgqueuer WHERE entrypoint = 'parse' "
                           "AND convert_from(payload, 'UTF8')::jsonb->>'room' = $1", room)
    return found


async def test_a_re_verification_right_after_another_waits_for_the_filings_still_parsing_and_takes_them_in(
        core: Core):
    room = f"spaced-{uuid.uuid4().hex[:8]}"
    await _parse_queued(core, room, "acme-10k.html", _without_net_income(filing_html("840")))
    await _first_run(core, room)
    await _reverify(core, room, await _parse_queued(core, room, "acme-10k.html",
                                                    _without_net_income(filing_html("900"))))
    # A drop goes on: the 10-Q is queued for parsing when the 10-K's next change is re-verified.
    await core.pipeline.submit_filing(room, "acme-10q.html", _OTHER_FILING.format(net_income="610").encode())
    amended = await _ingest(core, room, "acme-10k.html", _without_net_income(filing_html("840")))
    waiting = asyncio.create_task(_reverify(core, room, amended))
    await asyncio.sleep(0.3)
    assert not waiting.done(), "the room still had a filing to parse"
    await _parse_queued(core, room, "acme-10q.html", _OTHER_FILING.format(net_income="610").encode())
    await asyncio.wait_for(waiting, 10)

    async with core.pool.acquire() as conn:
        runs = await conn.fetch("SELECT id FROM run WHERE room = $1 AND trigger = 'reverify' ORDER BY id", room)
    assert len(runs) == 2, "the 10-Q's facts went into the waiting run"
    assert sorted(await _flips(core, room)) == [("p1-c2", "contradicted", "supported", "acme-10k.html"),
                                                ("p1-c2", "supported", "contradicted", "acme-10k.html"),
                                                ("p1-c3", "no-evidence", "supported", "acme-10q.html")]
