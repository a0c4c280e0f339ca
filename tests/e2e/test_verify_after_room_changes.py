"""One long-lived verifier, many verifications: each judges the room as it is at that moment, even
though the figures an earlier run read are kept decoded between runs."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import msgspec
import pytest
from _e2e import deck_md, filing_html

from services.bootstrap import Core, open_core
from services.pipeline import VerifyJob
from services.settings import load_settings


@pytest.fixture
async def core(pg_dsn: str, tmp_path: Path) -> AsyncIterator[Core]:
    settings = load_settings({"TICKMARK_HOME": str(tmp_path), "DATABASE_URL": pg_dsn})
    async with open_core(settings, dsn=pg_dsn) as c:
        yield c


async def _ingest(core: Core, room: str, path: str, data: bytes) -> None:
    sub = await core.pipeline.submit_filing(room, path, data)
    await core.pipeline.parse_job(msgspec.json.encode({"room": room, "path": path, "sha256": sub.sha256}))


async def _verdicts(core: Core, room: str, entity: str = "Acme Corporation") -> dict[str, tuple[str, list[str]]]:
    """A fresh upload's verdicts: claim id -> (verdict, the documents its citations name)."""
    run_id = (await core.pipeline.submit_deck(room, "decks/deck.md", deck_md(entity), trigger="upload")).run_id
    assert run_id is not None
    await core.pipeline.verify_job(msgspec.json.encode(VerifyJob(run_id)))
    async with core.pool.acquire() as conn:
        result = msgspec.json.decode(await conn.fetchval("SELECT result::text FROM run WHERE id = $1", run_id))
    return {c["id"]: (c["verdict"], sorted({x["document"] for x in c["citations"]})) for c in result["claims"]}


async def test_a_replaced_filing_is_judged_by_its_new_figures_in_the_next_verification(core: Core):
    room = f"replaced-{uuid.uuid4().hex[:8]}"
    await _ingest(core, room, "acme-10k.html", filing_html("840"))
    assert (await _verdicts(core, room))["p1-c2"][0] == "contradicted"

    await _ingest(core, room, "acme-10k.html", filing_html("900"))

    assert (await _verdicts(core, room))["p1-c2"][0] == "supported"


async def test_a_removed_filing_is_no_evidence_for_the_next_verification(core: Core):
    room = f"removed-{uuid.uuid4().hex[:8]}"
    await _ingest(core, room, "acme-10k.html", filing_html("840"))
    await _ingest(core, room, "globex-10k.html", filing_html("900", entity="Globex Corporation"))
    assert {v for v, _ in (await _verdicts(core, room)).values()} >= {"supported"}

    await core.pipeline.file_removed(room, "acme-10k.html")

    after = await _verdicts(core, room)
    assert {v for v, _ in after.values()} == {"no-evidence"}
    assert all("acme-10k.html" not in docs for _, docs in after.values())


async def test_verifications_of_two_rooms_never_cite_each_others_filings(core: Core):
    ours, theirs = f"ours-{uuid.uuid4().hex[:8]}", f"theirs-{uuid.uuid4().hex[:8]}"
    await _ingest(core, theirs, "acme-10k.html", filing_html("900"))
    assert (await _verdicts(core, theirs))["p1-c2"][0] == "supported"
    await _ingest(core, ours, "acme-10k.html", filing_html("840"))

    assert (await _verdicts(core, ours))["p1-c2"][0] == "contradicted"
