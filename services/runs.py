"""Reads behind the API: a run's result (finished or still streaming), rooms, documents, tables."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from typing import Any

import msgspec

from services.access import Acquirer, room_name_problem
from services.rooms import is_room_folder
from services.sqlfiles import query
from services.verifier import VERDICTS

__all__ = ["DocumentOut", "RoomOut", "TableOut", "documents_of", "room_exists", "rooms", "run_end_event",
           "run_exists", "run_result", "table_of"]

_CLAIM_ORDER = re.compile(r"p(\d+)-c(\d+)$")


class RoomOut(msgspec.Struct):
    name: str
    filings_parsed: int = 0
    filings_failed: int = 0
    filings_pending: int = 0
    decks: int = 0
    last_run_id: int | None = None
    watched: bool = False
    """A folder for it exists under TICKMARK_ROOMS."""


class DocumentOut(msgspec.Struct):
    id: int
    path: str
    kind: str
    status: str
    sha256: str
    size: int
    format: str | None = None
    entity: str | None = None
    form: str | None = None
    periods: list[str] = []
    error_reason: str | None = None
    error_detail: str | None = None
    parsed_at: datetime | None = None
    created_at: datetime | None = None


class TableOut(msgspec.Struct):
    document_id: int
    table_id: str
    room: str
    document: str
    title: str
    scale: int
    scale_source: str
    grid: dict[str, Any]
    page: int | None = None
    section: str | None = None


def _claim_key(claim_id: str) -> tuple[int, int, str]:
    m = _CLAIM_ORDER.search(claim_id)
    return (int(m.group(1)), int(m.group(2)), claim_id) if m else (10**9, 0, claim_id)


async def run_result(pool: Acquirer, run_id: int) -> dict[str, Any] | None:
    """The ``tickmark verify --json`` shape, plus the run's status; partial while it runs."""
    async with pool.acquire() as conn:
        run = await conn.fetchrow(query("api_run"), run_id)
        if run is None:
            return None
        claims = None if run["result"] else await conn.fetch(query("api_run_claims"), run_id)
        docs = await conn.fetch(query("room_documents"), run["room"])
    if run["result"]:
        out = msgspec.json.decode(run["result"])
    else:
        rows = sorted(claims or [], key=lambda r: _claim_key(r["claim_id"]))
        listed = []
        for r in rows:
            if r["verdict"]:
                listed.append(msgspec.json.decode(r["verdict"]))
            else:
                c = msgspec.json.decode(r["claim"])
                listed.append({"id": c["id"], "page": c["page"], "text": c["text"], "printed": c.get("printed"),
                               "metric": c.get("metric") or c.get("label"), "period": c.get("period"),
                               "verdict": None})
        counts = {v: sum(1 for c in listed if c.get("verdict") == v) for v in VERDICTS}
        out = {"deck": run["deck_path"], "room": run["room"], "run_id": run_id, "claims": listed,
               "discarded": [], "counts": counts}
    out.update(run_id=run_id, status=run["status"], trigger=run["trigger"], deck=run["deck_path"],
               room=run["room"], error=out.get("error") or run["error"],
               baseline_run_id=run["baseline_run_id"], cause_document_id=run["cause_document_id"],
               created_at=run["created_at"], finished_at=run["finished_at"])
    out["documents"] = [{"path": d["path"], "status": d["status"], "reason": d["error_reason"]}
                        for d in docs if d["kind"] == "filing"]
    return out


async def run_exists(pool: Acquirer, run_id: int) -> bool:
    async with pool.acquire() as conn:
        return await conn.fetchrow(query("run_trigger"), run_id) is not None


async def run_end_event(pool: Acquirer, run_id: int) -> int | None:
    async with pool.acquire() as conn:
        return await conn.fetchval(query("api_run_end_event"), run_id)


async def room_exists(pool: Acquirer, room: str) -> bool:
    async with pool.acquire() as conn:
        return bool(await conn.fetchval(query("api_room_exists"), room))


async def rooms(pool: Acquirer, rooms_root: Path) -> list[RoomOut]:
    async with pool.acquire() as conn:
        rows = await conn.fetch(query("api_rooms"))
    folders = {p.name for p in rooms_root.iterdir()
               if is_room_folder(p) and not p.name.startswith(".") and room_name_problem(p.name) is None} \
        if rooms_root.is_dir() else set()
    known = {r["name"]: RoomOut(name=r["name"], filings_parsed=r["filings_parsed"],
                                filings_failed=r["filings_failed"], filings_pending=r["filings_pending"],
                                decks=r["decks"], last_run_id=r["last_run_id"], watched=r["name"] in folders)
             for r in rows}
    for name in folders - known.keys():
        known[name] = RoomOut(name=name, watched=True)
    return [known[n] for n in sorted(known)]


async def documents_of(pool: Acquirer, room: str) -> list[DocumentOut]:
    async with pool.acquire() as conn:
        rows = await conn.fetch(query("room_documents"), room)
    return [DocumentOut(id=r["id"], path=r["path"], kind=r["kind"], status=r["status"], sha256=r["sha256"],
                        size=r["size"], format=r["format"], entity=r["entity"], form=r["form"],
                        periods=list(r["periods"] or []), error_reason=r["error_reason"],
                        error_detail=r["error_detail"], parsed_at=r["parsed_at"], created_at=r["created_at"])
            for r in rows]


async def table_of(pool: Acquirer, document_id: int, table_id: str) -> TableOut | None:
    async with pool.acquire() as conn:
        r = await conn.fetchrow(query("document_table"), document_id, table_id)
    if r is None:
        return None
    return TableOut(document_id=document_id, table_id=table_id, room=r["room"], document=r["path"],
                    title=r["title"], scale=r["scale"], scale_source=r["scale_source"],
                    grid=msgspec.json.decode(r["grid"]), page=r["page"], section=r["section"])
