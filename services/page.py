"""The analyst's page: the static files under ``frontend/`` and the few reads only the page needs
(a PDF page region with the cited cell's box drawn, a room's recent runs, the run's deck drawn
with its claims' places, and each claim's verdicts across re-verifications)."""

from __future__ import annotations

import asyncio
import hashlib
import math
from datetime import datetime
from functools import lru_cache
from pathlib import Path

import msgspec
import pymupdf
from litestar import MediaType, Response, get
from litestar.datastructures import State
from litestar.exceptions import HTTPException, NotFoundException
from litestar.static_files import create_static_files_router

from services import deckview
from services.access import Access
from services.sqlfiles import query

__all__ = ["FRONTEND_DIR", "HistoryEntry", "PAGE_ROUTES", "deck_of_run", "render_crop"]

FRONTEND_DIR = Path(__file__).resolve().parent.parent / "frontend"
_CONTEXT_POINTS = 90.0
"""How much of the page above and below the cited box the crop keeps, so the row label and
column header printed near the figure stay in view."""
_CROP_DPI = 144
_BOX_COLOUR = (0.80, 0.10, 0.10)


class RunSummary(msgspec.Struct):
    id: int
    deck_path: str
    trigger: str
    status: str
    counts: dict[str, int]
    created_at: datetime
    finished_at: datetime | None


class HistoryEntry(msgspec.Struct):
    """A claim's verdict in one run of its deck; ``before`` is set when that run flipped it."""

    run_id: int
    trigger: str
    status: str
    verdict: str
    reason: str | None
    created_at: datetime
    finished_at: datetime | None = None
    cause_document: str | None = None
    """The filing whose change started this re-verification."""
    before: str | None = None
    changed_at: datetime | None = None


@get("/", include_in_schema=False)
async def index() -> Response[bytes]:
    """The single page; views are addressed by the URL fragment, so one HTML file serves them all."""
    return Response((FRONTEND_DIR / "index.html").read_bytes(), media_type=MediaType.HTML,
                    headers={"Cache-Control": "no-cache"})


@get("/api/rooms/{room:str}/runs")
async def room_runs(state: State, access: Access, room: str, limit: int = 20) -> list[RunSummary]:
    """The room's most recent verification runs, newest first."""
    async with access.db(state.core.pool).acquire() as conn:
        rows = await conn.fetch(query("page_room_runs"), room, max(1, min(limit, 200)))
    return [RunSummary(id=r["id"], deck_path=r["deck_path"], trigger=r["trigger"], status=r["status"],
                       counts=msgspec.json.decode(r["counts"] or "{}"), created_at=r["created_at"],
                       finished_at=r["finished_at"]) for r in rows]


@get("/api/events/head")
async def event_head(state: State, access: Access) -> dict[str, int]:
    """The newest event id: a view that has just read a snapshot streams only what comes after it,
    instead of replaying the room's whole history."""
    async with access.db(state.core.pool).acquire() as conn:
        return {"head": int(await conn.fetchval(query("last_event_id")))}


@get("/api/documents/{document_id:int}/pages/{page:int}/image", media_type="image/png")
async def page_image(state: State, access: Access, document_id: int, page: int,
                     bbox: str | None = None) -> Response[bytes]:
    """A PDF page as PNG; with ``bbox=x0,y0,x1,y1`` (PDF points, top-left origin) only the band
    of the page around that box, with the box drawn."""
    box = _parse_bbox(bbox) if bbox else None
    async with access.db(state.core.pool).acquire() as conn:
        row = await conn.fetchrow(query("page_document_file"), document_id)
    if row is None or not access.allows(row["room"]):
        raise NotFoundException(f"no document {document_id}")
    if row["format"] != "pdf":
        raise HTTPException(status_code=409, detail=f"{row['path']} is {row['format'] or 'not parsed'}, not a PDF")
    source = _room_file(state.core.settings.rooms, row["room"], row["path"])
    if _sha256(source) != row["sha256"]:
        raise HTTPException(status_code=410, detail=f"{row['path']} has changed on disk since this version was parsed")
    try:
        png = render_crop(source.read_bytes(), page, box)
    except IndexError:
        raise NotFoundException(f"{row['path']} has no page {page}") from None
    # A document id names one version of the bytes, so its renders never change.
    return Response(png, media_type="image/png", headers={"Cache-Control": "private, max-age=86400"})


async def deck_of_run(state: State, access: Access, run_id: int) -> deckview.RunDeck:
    """The run's deck as PDF pages, or the HTTP answer that says why there are none."""
    try:
        deck = await deckview.run_deck(state.core, access.db(state.core.pool), run_id)
    except deckview.DeckUnavailable as exc:
        raise HTTPException(status_code=409, detail=str(exc)) from None
    if deck is None or not access.allows(deck.room):
        raise NotFoundException(f"no run {run_id}")
    return deck


@get("/api/runs/{run_id:int}/deck", summary="The run's deck: its pages, and where each claim and discard is printed")
async def run_deck_layout(state: State, access: Access, run_id: int) -> deckview.DeckLayout:
    """Boxes are PDF points from the page's top-left; marks are numbered in reading order, the
    numbers the tickmarked PDF prints. Discards appear once the run has finished."""
    deck = await deck_of_run(state, access, run_id)
    async with access.db(state.core.pool).acquire() as conn:
        claims = [msgspec.json.decode(r["body"]) for r in await conn.fetch(query("page_run_claim_bodies"), run_id)]
        stored = await conn.fetchrow(query("api_run"), run_id)
    result = msgspec.json.decode(stored["result"]) if stored and stored["result"] else {}
    return await asyncio.to_thread(deckview.layout, run_id, deck.deck_path, deck.format, deck.pdf, claims,
                                   result.get("discarded") or [])


@get("/api/runs/{run_id:int}/deck/pages/{page:int}/image", media_type="image/jpeg",
     summary="One slide of the run's deck as an image")
async def run_deck_page(state: State, access: Access, run_id: int, page: int) -> Response[bytes]:
    deck = await deck_of_run(state, access, run_id)
    cache = deckview.pages_under(state.core.settings.home)
    try:
        image = await asyncio.to_thread(cache.image, deck.sha256, deck.pdf, page)
    except IndexError:
        raise NotFoundException(f"{deck.deck_path} has no page {page}") from None
    # A deck version's pages never change.
    return Response(image, media_type="image/jpeg", headers={"Cache-Control": "private, max-age=86400"})


async def _history(state: State, access: Access, run_id: int, claim_id: str | None) -> dict[str, list[HistoryEntry]]:
    async with access.db(state.core.pool).acquire() as conn:
        if await conn.fetchrow(query("page_run_deck"), run_id) is None:
            raise NotFoundException(f"no run {run_id}")
        rows = await conn.fetch(query("page_claim_history"), run_id, claim_id)
    out: dict[str, list[HistoryEntry]] = {}
    for r in rows:
        out.setdefault(r["claim_id"], []).append(HistoryEntry(
            run_id=r["run_id"], trigger=r["trigger"], status=r["status"], verdict=r["verdict"], reason=r["reason"],
            created_at=r["created_at"], finished_at=r["finished_at"], cause_document=r["cause_document"],
            before=r["before"], changed_at=r["changed_at"]))
    return out


@get("/api/runs/{run_id:int}/history", summary="Every claim's verdicts across the runs of this deck version")
async def run_history(state: State, access: Access, run_id: int) -> dict[str, list[HistoryEntry]]:
    """Keyed by claim id, oldest run first; runs after this one are included."""
    return await _history(state, access, run_id, None)


@get("/api/runs/{run_id:int}/claims/{claim_id:str}/history", summary="One claim's verdicts across re-verifications")
async def claim_history(state: State, access: Access, run_id: int, claim_id: str) -> list[HistoryEntry]:
    """Which run said what, which filing caused each re-verification, and when each verdict flipped."""
    return (await _history(state, access, run_id, claim_id)).get(claim_id, [])


def render_crop(pdf: bytes, page_number: int, box: tuple[float, float, float, float] | None) -> bytes:
    """PNG of page ``page_number`` (from 1), cropped to the band around ``box`` with the box drawn."""
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        if not 1 <= page_number <= doc.page_count:
            raise IndexError(page_number)
        page = doc[page_number - 1]
        if box is None:
            return page.get_pixmap(dpi=96).tobytes("png")
        rect = pymupdf.Rect(*box)
        page.draw_rect(rect + (-3, -2, 3, 2), color=_BOX_COLOUR, width=1.6)
        band = pymupdf.Rect(page.rect.x0, rect.y0 - _CONTEXT_POINTS, page.rect.x1, rect.y1 + _CONTEXT_POINTS)
        return page.get_pixmap(dpi=_CROP_DPI, clip=band & page.rect).tobytes("png")


def _parse_bbox(text: str) -> tuple[float, float, float, float]:
    try:
        x0, y0, x1, y1 = (float(part) for part in text.split(","))
    except ValueError:
        raise HTTPException(status_code=400, detail="bbox must be four numbers: x0,y0,x1,y1") from None
    if not all(math.isfinite(v) for v in (x0, y0, x1, y1)):
        raise HTTPException(status_code=400, detail="bbox must be four finite numbers: x0,y0,x1,y1")
    if x1 <= x0 or y1 <= y0:
        raise HTTPException(status_code=400, detail="bbox must have x1 > x0 and y1 > y0")
    return x0, y0, x1, y1


def _room_file(rooms_root: Path, room: str, rel: str) -> Path:
    root = rooms_root.resolve()
    path = (root / room / rel).resolve()
    if not path.is_relative_to(root / room) or not path.is_file():
        raise NotFoundException(f"{room}/{rel} is not in the rooms folder")
    return path


def _sha256(path: Path) -> str:
    stat = path.stat()
    return _sha256_of_version(path, stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=256)
def _sha256_of_version(path: Path, mtime_ns: int, size: int) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


PAGE_ROUTES: list[object] = [
    index,
    room_runs,
    event_head,
    page_image,
    run_deck_layout,
    run_deck_page,
    run_history,
    claim_history,
    create_static_files_router(path="/static", directories=[FRONTEND_DIR], name="frontend",
                               include_in_schema=False),
]
