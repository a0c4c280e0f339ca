"""The analyst's page: the static files under ``frontend/`` and the few reads only the page needs
(a PDF page region with the cited cell's box drawn, a room's recent runs)."""

from __future__ import annotations

import hashlib
from datetime import datetime
from functools import lru_cache
from pathlib import Path

import msgspec
import pymupdf
from litestar import MediaType, Response, get
from litestar.datastructures import State
from litestar.exceptions import HTTPException, NotFoundException
from litestar.static_files import create_static_files_router

from services.access import Access
from services.sqlfiles import query

__all__ = ["FRONTEND_DIR", "PAGE_ROUTES", "render_crop"]

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
    create_static_files_router(path="/static", directories=[FRONTEND_DIR], name="frontend",
                               include_in_schema=False),
]
