"""The parser and fact service on real PostgreSQL and a real tantivy index."""

from __future__ import annotations

import contextlib
import shutil
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from events.bus import EventFilter
from services.bootstrap import Core, open_core
from services.settings import load_settings

REPO = Path(__file__).resolve().parents[2]
TEN_K = REPO / "examples" / "room" / "nvda-10-K-FY2025-excerpt.html"


@pytest.fixture
async def core(pg_dsn: str, tmp_path: Path) -> AsyncIterator[Core]:
    async with open_core(load_settings({"TICKMARK_HOME": str(tmp_path / "home")}), dsn=pg_dsn) as c:
        yield c


@pytest.fixture
def room(tmp_path: Path) -> tuple[str, Path]:
    d = tmp_path / "room"
    d.mkdir()
    return f"docs-{uuid.uuid4().hex[:8]}", d


async def events_of(core: Core, room: str, n: int) -> list:
    got = []
    async with contextlib.aclosing(core.bus.subscribe(0, EventFilter(room=room))) as events:
        async for stored in events:
            got.append(stored)
            if len(got) == n:
                break
    return got


async def test_parsed_filing_is_stored_indexed_and_announced(core: Core, room: tuple[str, Path]):
    name, folder = room
    shutil.copy(TEN_K, folder / TEN_K.name)
    outcome = await core.documents.ingest_file(name, folder, folder / TEN_K.name)
    assert outcome.status == "parsed" and outcome.facts > 0
    async with core.pool.acquire() as conn:
        value = await conn.fetchval(
            "SELECT value FROM fact WHERE room=$1 AND metric='revenue' AND period='FY2025' AND source->>'kind'='table'",
            name)
    assert value == 130_497_000_000
    hits = core.index.search(name, "excerpt reproduces figures", limit=5)
    assert hits and hits[0].document == TEN_K.name and "reproduces figures" in hits[0].text
    assert core.index.search(name + "-elsewhere", "excerpt reproduces figures") == []
    types = [s.type for s in await events_of(core, name, 2)]
    assert types == ["document.parsed", "facts.updated"]


async def test_same_bytes_in_another_room_reuse_the_parse(core: Core, room: tuple[str, Path], tmp_path: Path):
    name, folder = room
    shutil.copy(TEN_K, folder / TEN_K.name)
    first = await core.documents.ingest_file(name, folder, folder / TEN_K.name)
    other = tmp_path / "other"
    other.mkdir()
    shutil.copy(TEN_K, other / "copy.html")
    second = await core.documents.ingest_file(name + "-b", other, other / "copy.html")
    assert first.status == second.status == "parsed"
    assert second.cached, "the parse cache is keyed by content, not by room or path"


async def test_changed_file_supersedes_the_old_version_without_deleting_its_facts(core: Core, room: tuple[str, Path]):
    name, folder = room
    path = folder / "10k.html"
    shutil.copy(TEN_K, path)
    old = await core.documents.ingest_file(name, folder, path)
    path.write_text(TEN_K.read_text().replace("130,497", "130,498"))
    new = await core.documents.ingest_file(name, folder, path)
    assert new.document_id != old.document_id
    async with core.pool.acquire() as conn:
        superseded_by = await conn.fetchval("SELECT superseded_by FROM document WHERE id=$1", old.document_id)
        live = await conn.fetch(
            "SELECT value, superseded FROM fact WHERE room=$1 AND metric='revenue' AND period='FY2025' "
            "AND source->>'kind'='table' ORDER BY superseded", name)
    assert superseded_by == new.document_id
    assert [(r["value"], r["superseded"]) for r in live] == [(130_498_000_000, False), (130_497_000_000, True)]


async def test_unchanged_file_is_not_parsed_twice(core: Core, room: tuple[str, Path]):
    name, folder = room
    shutil.copy(TEN_K, folder / "a.html")
    await core.documents.ingest_file(name, folder, folder / "a.html")
    again = await core.documents.ingest_file(name, folder, folder / "a.html")
    assert again.cached and again.status == "parsed"


@pytest.mark.parametrize(
    ("name", "content", "reason"),
    [
        ("empty.html", b"", "empty"),
        ("garbage.pdf", b"%PDF-1.4\n\x00\x01 not really a pdf", "corrupt"),
    ],
)
async def test_unreadable_file_is_recorded_as_a_failure_with_a_reason(
    core: Core, room: tuple[str, Path], name: str, content: bytes, reason: str
):
    room_name, folder = room
    (folder / name).write_bytes(content)
    outcome = await core.documents.ingest_file(room_name, folder, folder / name)
    assert outcome.status == "failed" and outcome.reason == reason and outcome.detail
    async with core.pool.acquire() as conn:
        row = await conn.fetchrow("SELECT status, error_reason, error_detail FROM document WHERE id=$1",
                                  outcome.document_id)
    assert row["status"] == "failed" and row["error_reason"] == reason
    failed = await events_of(core, room_name, 1)
    assert failed[0].type == "document.failed" and failed[0].event.reason == reason


async def test_oversized_file_fails_before_it_is_read(pg_dsn: str, tmp_path: Path, room: tuple[str, Path]):
    name, folder = room
    (folder / "big.html").write_bytes(b"<html>" + b" " * 3_000_000 + b"</html>")
    settings = load_settings({"TICKMARK_HOME": str(tmp_path / "h2"), "TICKMARK_MAX_FILE_MB": "1"})
    async with open_core(settings, dsn=pg_dsn) as core:
        outcome = await core.documents.ingest_file(name, folder, folder / "big.html")
    assert outcome.status == "failed" and outcome.reason == "too-large"
    assert "TICKMARK_MAX_FILE_MB" in (outcome.detail or "")


async def test_deleted_file_is_marked_removed_and_its_facts_superseded(core: Core, room: tuple[str, Path]):
    name, folder = room
    shutil.copy(TEN_K, folder / "k.html")
    outcome = await core.documents.ingest_file(name, folder, folder / "k.html")
    assert await core.documents.remove(name, "k.html") == [outcome.document_id]
    async with core.pool.acquire() as conn:
        status = await conn.fetchval("SELECT status FROM document WHERE id=$1", outcome.document_id)
        live = await conn.fetchval("SELECT count(*) FROM fact WHERE document_id=$1 AND NOT superseded",
                                   outcome.document_id)
    assert status == "removed" and live == 0
    assert core.index.search(name, "excerpt reproduces figures") == []
