"""The parser and fact service: a file in a room becomes stored sections, tables, facts and
indexed passages, or a recorded failure with a reason. Idempotent: safe to run twice."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
from pathlib import Path

import asyncpg
import msgspec

from events.bus import Bus
from events.types import DocumentChanged, DocumentFailed, DocumentParsed, FactsUpdated
from parsers.entities import entity_key
from parsers.model import ParsedDocument, ParseFailure
from parsers.quantities import is_label
from services.parsing import CachedParse, ParserPool, encode_parse, decode_parse, parser_version
from services.search import PassageIndex
from services.sqlfiles import query

__all__ = ["DocumentOutcome", "DocumentService", "Refusal", "sha256_of"]

log = logging.getLogger(__name__)
_json = msgspec.json.Encoder(decimal_format="string")


def _is_blank(doc: ParsedDocument) -> bool:
    return not doc.facts and not doc.tables and not doc.passages


def sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class Refusal(msgspec.Struct, frozen=True):
    """Why a path of the room is not read at all (a link out of the room), in words a person can act on."""

    reason: str
    detail: str


class DocumentOutcome(msgspec.Struct):
    document_id: int
    path: str
    status: str
    cached: bool = False
    reason: str | None = None
    detail: str | None = None
    facts: int = 0


class DocumentService:
    """Parses filings into the fact store and the passage index."""

    def __init__(self, pool: asyncpg.Pool, bus: Bus, index: PassageIndex, parsers: ParserPool,
                 *, max_file_bytes: int) -> None:
        self._pool = pool
        self._bus = bus
        self._index = index
        self._parsers = parsers
        self._max_file_bytes = max_file_bytes

    async def ingest_file(self, room: str, room_dir: Path, path: Path, *, kind: str = "filing") -> DocumentOutcome:
        """Register and parse one file; the same bytes at the same path do nothing the second time."""
        rel = path.relative_to(room_dir).as_posix()
        try:
            size = path.stat().st_size
            if size > self._max_file_bytes:
                return await self._record_unreadable(room, rel, size, kind, ParseFailure(
                    "too-large", f"{size / 1e6:.0f} MB is over the {self._max_file_bytes / 1e6:.0f} MB limit "
                                 "for one document (TICKMARK_MAX_FILE_MB)"))
            data = path.read_bytes()
        except OSError as exc:
            return await self._record_unreadable(room, rel, 0, kind, ParseFailure(
                "corrupt", f"the file could not be read: {exc.strerror or exc}"))
        return await self.ingest_bytes(room, rel, data, kind=kind)

    async def ingest_bytes(self, room: str, rel: str, data: bytes, *, kind: str = "filing") -> DocumentOutcome:
        sha = sha256_of(data)
        async with self._pool.acquire() as conn:
            await conn.execute(query("ensure_room"), room)
            current = await conn.fetchrow(query("current_document"), room, rel)
            if current is not None and current["sha256"] == sha and current["status"] in ("parsed", "failed"):
                return DocumentOutcome(current["id"], rel, current["status"], cached=True)
            row = await conn.fetchrow(query("upsert_document"), room, rel, sha, len(data), kind)
        document_id = int(row["id"])
        if kind == "deck":
            return DocumentOutcome(document_id, rel, "pending")

        started = time.perf_counter()
        result, cached = await self._parse_cached(sha, rel, data)
        elapsed_ms = (time.perf_counter() - started) * 1000
        failure = result.failure
        if failure is None and (result.document is None or _is_blank(result.document)):
            failure = ParseFailure("no-content", "no text, tables or figures could be read from this file; "
                                                 "it may be scanned, scripted, or not a filing at all")
        if failure is not None or result.document is None:
            failure = failure or ParseFailure("corrupt", "the parser returned nothing")
            await self._store_failure(room, rel, document_id, failure)
            return DocumentOutcome(document_id, rel, "failed", cached=cached, reason=failure.reason,
                                   detail=failure.detail)
        facts = await self._store_parsed(room, rel, document_id, result.document, elapsed_ms, cached)
        return DocumentOutcome(document_id, rel, "parsed", cached=cached, facts=facts)

    async def _parse_cached(self, sha: str, rel: str, data: bytes) -> tuple[CachedParse, bool]:
        version = parser_version()
        async with self._pool.acquire() as conn:
            blob = await conn.fetchval(query("cached_parse"), sha, version)
        if blob is not None:
            return decode_parse(blob), True
        started = time.perf_counter()
        result = await self._parsers.parse_filing(data, rel)
        async with self._pool.acquire() as conn:
            await conn.execute(query("store_parse"), sha, version, encode_parse(result),
                               (time.perf_counter() - started) * 1000)
        return result, False

    async def _record_unreadable(self, room: str, rel: str, size: int, kind: str, failure: ParseFailure) -> DocumentOutcome:
        async with self._pool.acquire() as conn:
            await conn.execute(query("ensure_room"), room)
            row = await conn.fetchrow(query("upsert_document"), room, rel, f"unread:{size}", size, kind)
        await self._store_failure(room, rel, int(row["id"]), failure)
        return DocumentOutcome(int(row["id"]), rel, "failed", reason=failure.reason, detail=failure.detail)

    async def refuse(self, room: str, rel: str, reason: str, detail: str, *, kind: str = "filing") -> DocumentOutcome:
        """Record a path the room may not read as a failed document with the reason, once; a version
        read there before is retired first, so the decks that cited it are re-verified."""
        marker = f"refused:{reason}"
        async with self._pool.acquire() as conn:
            await conn.execute(query("ensure_room"), room)
            current = await conn.fetchrow(query("current_document"), room, rel)
        if current is not None and current["sha256"] == marker and current["status"] == "failed":
            return DocumentOutcome(current["id"], rel, "failed", cached=True, reason=reason, detail=detail)
        if current is not None:
            await self.remove(room, rel)
        async with self._pool.acquire() as conn:
            row = await conn.fetchrow(query("upsert_document"), room, rel, marker, 0, kind)
        await self._store_failure(room, rel, int(row["id"]), Refusal(reason, detail))
        return DocumentOutcome(int(row["id"]), rel, "failed", reason=reason, detail=detail)

    async def _store_failure(self, room: str, rel: str, document_id: int, failure: ParseFailure | Refusal) -> None:
        async with self._pool.acquire() as conn, conn.transaction():
            await conn.execute(query("mark_failed"), document_id, Path(rel).suffix.lstrip(".") or None,
                               failure.reason, failure.detail)
            await conn.fetch(query("supersede_older_versions"), document_id, room, rel)
            await self._bus.publish(
                DocumentFailed(room=room, path=rel, reason=failure.reason, detail=failure.detail,
                               document_id=document_id), conn)
        log.warning("%s/%s failed: %s (%s)", room, rel, failure.reason, failure.detail)

    async def _store_parsed(self, room: str, rel: str, document_id: int, doc: ParsedDocument,
                            elapsed_ms: float, cached: bool) -> int:
        info = doc.document
        entity = info.entity or ""
        key = entity_key(entity)
        section_rows = [
            (document_id, s.id, s.parent, s.title, s.level, s.pages[0] if s.pages else None,
             s.pages[1] if s.pages else None)
            for s in doc.sections
        ]
        table_rows = [
            (document_id, t.id, t.section, t.title, t.scale, t.scale_source, t.page, _json.encode(t).decode())
            for t in doc.tables
        ]
        fact_rows = [
            (document_id, room, f.entity or entity, entity_key(f.entity or entity), f.metric, f.label, f.basis,
             f.period, f.period_start, f.period_end, f.value, f.unit, f.scale, f.currency, f.as_printed,
             _json.encode(f.source).decode(), _json.encode(f.dimensions).decode())
            for f in doc.facts
        ]
        async with self._pool.acquire() as conn, conn.transaction():
            await conn.execute(query("clear_document_rows"), document_id)
            await conn.copy_records_to_table(
                "section", records=section_rows,
                columns=["document_id", "node_id", "parent", "title", "level", "page_first", "page_last"])
            await conn.copy_records_to_table(
                "doc_table", records=table_rows,
                columns=["document_id", "table_id", "section", "title", "scale", "scale_source", "page", "grid"])
            await conn.copy_records_to_table(
                "fact", records=fact_rows,
                columns=["document_id", "room", "entity", "entity_key", "metric", "label", "basis", "period",
                         "period_start", "period_end", "value", "unit", "scale", "currency", "as_printed",
                         "source", "dimensions"])
            await conn.execute(query("mark_parsed"), document_id, info.format, info.entity, key, info.form,
                               info.fiscal_year_end, info.periods, info.names)
            superseded = [r["id"] for r in await conn.fetch(query("supersede_older_versions"), document_id, room, rel)]
            await self._bus.publish(
                DocumentParsed(room=room, document_id=document_id, path=rel, format=info.format,
                               entity=info.entity, sections=len(doc.sections), tables=len(doc.tables),
                               facts=len(doc.facts), passages=len(doc.passages), elapsed_ms=round(elapsed_ms, 1),
                               cached=cached), conn)
            await self._bus.publish(
                FactsUpdated(room=room, document_id=document_id, entity=info.entity,
                             metrics=sorted({f.metric for f in doc.facts if not is_label(f.metric)}),
                             periods=sorted({f.period for f in doc.facts}),
                             superseded_document_id=superseded[0] if superseded else None), conn)
        # Off the event loop: a 10-K's index commit takes long enough to hold up every flip and
        # delivery this process has in flight.
        await asyncio.to_thread(self._index.replace_document, room, document_id, rel, doc.passages,
                                drop=superseded)
        return len(doc.facts)

    async def remove(self, room: str, rel: str, conn: asyncpg.Connection | None = None) -> list[int]:
        """A file gone from the room: its current version is marked removed (kept for history, its
        facts superseded and its passages unindexed, so it is never cited again), and the removal
        is published with it, so the decks whose claims touched it are re-verified."""
        async with contextlib.AsyncExitStack() as stack:
            if conn is None:
                conn = await stack.enter_async_context(self._pool.acquire())
            async with conn.transaction():
                rows = await conn.fetch(query("mark_removed"), room, rel)
                for r in rows:
                    await self._bus.publish(DocumentChanged(room=room, path=rel, sha256=r["sha256"], size=0,
                                                            document_id=r["id"], removed=True), conn)
        ids = [int(r["id"]) for r in rows]
        self._index.remove_documents(ids)
        return ids

    async def retire_missing(self, room: str, present: set[str]) -> list[int]:
        """Retire every current filing of the room whose path is not in ``present`` (what is on disk)."""
        async with self._pool.acquire() as conn:
            known = [r["path"] for r in await conn.fetch(query("current_filing_paths"), room)]
        retired: list[int] = []
        for rel in known:
            if rel not in present:
                retired += await self.remove(room, rel)
        return retired
