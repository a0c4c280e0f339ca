"""The HTTP API: thin handlers over the pipeline, the run reads, SSE, webhooks and exports."""

from __future__ import annotations

import asyncio
import re
from pathlib import PurePath
from typing import Annotated, Any

import msgspec
from litestar import Request, Response, delete, get, post
from litestar.datastructures import State
from litestar.exceptions import ClientException, HTTPException, NotFoundException
from litestar.params import Parameter
from litestar.response import Stream

from events.bus import EventFilter, StoredEvent
from services import exports, pdfexport, runs
from services import uploads
from services.access import INT64_MAX, Access, room_name_problem
from services.egress import TargetRefused, target_of
from services.pipeline import StoredBlob
from services.page import deck_of_run
from services.sse import MAX_EVENT_ID, event_stream, last_event_id, sse_response
from services.webhooks import WebhookIn, WebhookOut

__all__ = ["API_ROUTES", "DECK_TYPES", "DeckAccepted", "ROOM_EVENT_TYPES", "deck_type_problem"]

ROOM_EVENT_TYPES = frozenset({
    "document.changed", "document.parsed", "document.failed", "facts.updated", "deck.submitted",
    "run.finished", "verdict.changed", "webhook.delivered", "webhook.failed",
})
DECK_TYPES = {"pdf": "PDF", "pptx": "PowerPoint", "md": "Markdown", "markdown": "Markdown", "txt": "text",
              "json": "docling JSON"}

EventId = Annotated[int | None, Parameter(ge=0, le=MAX_EVENT_ID, description="resume after this bus id")]
RowId = Annotated[int, Parameter(ge=1, le=INT64_MAX)]


class DeckAccepted(msgspec.Struct):
    run_id: int
    room: str
    deck: str
    run_url: str
    events_url: str


def _room(room: str) -> str:
    if (problem := room_name_problem(room)) is not None:
        raise ClientException(problem)
    return room


def _deck_name(filename: str | None) -> str:
    name = PurePath((filename or "").replace("\\", "/")).name.strip()
    if not name or name.startswith("."):
        raise ClientException("the upload needs a file name with its extension (.pdf, .pptx, .md, .txt)")
    return name


def deck_type_problem(name: str, head: bytes) -> str | None:
    """Why an upload is not a deck this service reads (by extension and by its first bytes), or None."""
    ext = name.lower().rsplit(".", 1)[-1] if "." in name else ""
    if ext not in DECK_TYPES:
        return f"{name!r}: a deck must be one of .{', .'.join(DECK_TYPES)}"
    if ext == "pdf" and not head.startswith(b"%PDF-"):
        return f"{name!r} is named .pdf but is not a PDF"
    if ext == "pptx" and not head.startswith(b"PK\x03\x04"):
        return f"{name!r} is named .pptx but is not a PowerPoint (zip) file"
    if ext not in ("pdf", "pptx"):
        if b"\x00" in head:
            return f"{name!r} is named .{ext} but holds binary data"
        try:
            head.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            if exc.start < len(head) - 4:  # a multi-byte character cut at the sample's end is fine
                return f"{name!r} is named .{ext} but is not UTF-8 text"
    return None


def _too_large(size: int, limit: int) -> HTTPException:
    return HTTPException(status_code=413, detail=f"the upload is {size} bytes; the limit is {limit} bytes "
                                                 "(TICKMARK_MAX_UPLOAD_MB)", extra={"limit_bytes": limit})


async def _result(state: State, access: Access, run_id: int) -> dict[str, Any]:
    result = await runs.run_result(access.db(state.core.pool), run_id)
    if result is None or not access.allows(result["room"]):
        raise NotFoundException(f"no run {run_id}")
    return result


def _check_deck(filename: str, head: bytes) -> None:
    """Refuse an upload by its name and first bytes, before the rest of it is read."""
    name = _deck_name(filename)
    if not head:
        raise ClientException("the uploaded file is empty")
    if (problem := deck_type_problem(name, head)) is not None:
        raise HTTPException(status_code=415, detail=problem, extra={"accepted": sorted(DECK_TYPES)})


def _declared_length(request: Request[Any, Any, Any]) -> int | None:
    raw = request.headers.get("content-length")
    if raw is None:
        return None
    if not re.fullmatch(r"[0-9]{1,19}", raw.strip()):
        raise ClientException(f"Content-Length {raw[:40]!r} is not a byte count")
    return int(raw.strip())


@post("/api/rooms/{room:str}/decks", status_code=202, summary="Upload a deck and start its verification")
async def upload_deck(state: State, request: Request[Any, Any, Any], room: str) -> DeckAccepted:
    """A multipart/form-data body with the deck in its ``file`` part, streamed to storage; answers
    at once with the run and the URL of its event stream. 503 with Retry-After while other uploads
    hold the server's bytes in flight (``TICKMARK_UPLOAD_INFLIGHT_MB``)."""
    core = state.core
    room = _room(room)
    limit = core.settings.max_upload_bytes
    most = limit + uploads.MULTIPART_SLACK
    declared = _declared_length(request)
    if declared is not None and declared > most:
        raise _too_large(declared, limit)
    boundary = uploads.boundary_of(request.headers.get("content-type"))
    with state.uploads.reserve(declared if declared is not None else most):
        received = await uploads.receive_file(request.stream(), boundary, core.settings.home / "uploads",
                                              limit=limit, check_head=_check_deck)
        with received.file:
            name = _deck_name(received.filename)
            await uploads.store_blob(core.pool, received)
    submitted = await core.pipeline.submit_deck(room, f"decks/{name}", StoredBlob(received.sha256, received.size),
                                                trigger="upload")
    run_id = submitted.run_id
    assert run_id is not None
    return DeckAccepted(run_id=run_id, room=room, deck=f"decks/{name}", run_url=f"/api/runs/{run_id}",
                        events_url=f"/api/runs/{run_id}/events")


@get("/api/runs/{run_id:int}", summary="A run's result, as `tickmark verify --json` prints it")
async def get_run(state: State, access: Access, run_id: RowId) -> dict[str, Any]:
    """Partial (claims so far, verdicts where reached) while the run is still going."""
    return await _result(state, access, run_id)


@get("/api/runs/{run_id:int}/events", summary="A run's events over SSE, ending with run.finished")
async def run_events(state: State, request: Request, access: Access, run_id: RowId,
                     after: EventId = None) -> Response[Any]:
    """``Last-Event-ID`` (or ``?after=``) resumes after that bus id; nothing is skipped or repeated."""
    core = state.core
    db = access.db(core.pool)
    start = last_event_id(request.headers.get("last-event-id"), after)
    if not await runs.run_exists(db, run_id):
        raise NotFoundException(f"no run {run_id}")
    end = await runs.run_end_event(db, run_id)
    if end is not None and end <= start:
        # 204 tells an EventSource not to reconnect: the run has nothing more to say.
        return Response(content=b"", status_code=204)

    def finished(stored: StoredEvent) -> bool:
        return stored.type == "run.finished"

    return sse_response(event_stream(core.bus, start, EventFilter(run_id=run_id, room=access.room),
                                     keepalive=core.settings.sse_keepalive_seconds, until=finished,
                                     room_scope=access.room, grants=state.grants, token_id=access.token_id))


@get("/api/rooms", summary="Every room: watched folders and rooms with uploads")
async def list_rooms(state: State, access: Access) -> list[runs.RoomOut]:
    """A room token lists its own room only."""
    listed = await runs.rooms(access.db(state.core.pool), state.core.settings.rooms)
    return [r for r in listed if access.allows(r.name)]


@get("/api/rooms/{room:str}/documents", summary="A room's current documents with status and errors")
async def room_documents(state: State, access: Access, room: str) -> list[runs.DocumentOut]:
    db = access.db(state.core.pool)
    if not await runs.room_exists(db, room):
        raise NotFoundException(f"no room {room!r}")
    return await runs.documents_of(db, room)


@get("/api/rooms/{room:str}/events", summary="A room's events over SSE: documents, runs, verdict changes")
async def room_events(state: State, request: Request, access: Access, room: str,
                      after: EventId = None) -> Stream:
    """Never ends by itself; ``Last-Event-ID`` resumes."""
    core = state.core
    start = last_event_id(request.headers.get("last-event-id"), after)
    return sse_response(event_stream(core.bus, start, EventFilter(room=room, types=ROOM_EVENT_TYPES),
                                     keepalive=core.settings.sse_keepalive_seconds, room_scope=access.room,
                                     grants=state.grants, token_id=access.token_id))


@get("/api/documents/{document_id:int}/tables/{table_id:str}", summary="One parsed table, for the citation view")
async def document_table(state: State, access: Access, document_id: RowId, table_id: str) -> runs.TableOut:
    table = await runs.table_of(access.db(state.core.pool), document_id, table_id)
    if table is None or not access.allows(table.room):
        raise NotFoundException(f"no table {table_id!r} in document {document_id}")
    return table


@post("/api/rooms/{room:str}/webhooks", status_code=201, summary="Register a webhook for the room")
async def create_webhook(state: State, access: Access, room: str, data: WebhookIn) -> WebhookOut:
    """The answer carries the signing secret; it is not shown again. The URL must pass the
    egress policy (no link-local or metadata addresses; loopback only when allowed)."""
    try:
        target_of(data.url)
        return await state.core.webhooks.register(_room(room), data, db=access.db(state.core.pool))
    except TargetRefused as exc:
        raise ClientException(f"webhook target refused: {exc}") from None


@get("/api/rooms/{room:str}/webhooks", summary="The room's webhooks with delivery counts")
async def list_webhooks(state: State, access: Access, room: str) -> list[WebhookOut]:
    return await state.core.webhooks.list(room, db=access.db(state.core.pool))


@delete("/api/rooms/{room:str}/webhooks", status_code=204, summary="Remove a webhook (?id=)")
async def delete_webhook(state: State, access: Access, room: str, id: RowId) -> None:
    if not await state.core.webhooks.delete(room, id, db=access.db(state.core.pool)):
        raise NotFoundException(f"no webhook {id} in room {room!r}")


@delete("/api/rooms/{room:str}/webhooks/{webhook_id:int}", status_code=204, summary="Remove a webhook")
async def delete_webhook_by_path(state: State, access: Access, room: str, webhook_id: RowId) -> None:
    if not await state.core.webhooks.delete(room, webhook_id, db=access.db(state.core.pool)):
        raise NotFoundException(f"no webhook {webhook_id} in room {room!r}")


def _download(body: bytes, media_type: str, run_id: int, ext: str) -> Response[bytes]:
    return Response(body, media_type=media_type,
                    headers={"Content-Disposition": f'attachment; filename="tickmark-run-{run_id}.{ext}"'})


@get("/api/runs/{run_id:int}/export.csv", summary="The run's verdicts as CSV")
async def export_csv(state: State, access: Access, run_id: RowId) -> Response[bytes]:
    return _download(exports.to_csv(await _result(state, access, run_id)), "text/csv; charset=utf-8", run_id, "csv")


@get("/api/runs/{run_id:int}/export.xlsx", summary="The run's verdicts as an Excel workbook")
async def export_xlsx(state: State, access: Access, run_id: RowId) -> Response[bytes]:
    media = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    return _download(exports.to_xlsx(await _result(state, access, run_id)), media, run_id, "xlsx")


@get("/api/runs/{run_id:int}/export.pdf", summary="The deck with every claim tickmarked, then the numbered claim list")
async def export_pdf(state: State, access: Access, run_id: int) -> Response[bytes]:
    """Marks are PDF annotations on one layer per verdict, so a reviewer can toggle them."""
    result = await _result(state, access, run_id)
    deck = await deck_of_run(state, access, run_id)
    body = await asyncio.to_thread(pdfexport.export_pdf, result, deck.pdf)
    return _download(body, "application/pdf", run_id, "pdf")


API_ROUTES = [
    export_pdf,
    upload_deck, get_run, run_events, list_rooms, room_documents, room_events, document_table,
    create_webhook, list_webhooks, delete_webhook, delete_webhook_by_path, export_csv, export_xlsx,
]
