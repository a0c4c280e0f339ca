"""Server-sent events over the bus: ``event:`` is the event type, ``id:`` the bus id.

A client that reconnects with ``Last-Event-ID`` gets exactly the events after that id, because
the bus replays from the log before tailing. A comment line every ``keepalive`` seconds keeps
proxies from closing an idle stream; when the client leaves, litestar cancels the generator and
the subscription is dropped with it. A stream opened with a room token ends within
``GrantWatch.interval`` seconds of that token's revocation: one query per interval re-checks
every token that has a stream open in this process.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import AsyncIterator, Callable, Iterator

import asyncpg
from litestar.exceptions import ClientException
from litestar.response import Stream

from events.bus import Bus, EventFilter, StoredEvent
from services.sqlfiles import query

__all__ = ["KEEPALIVE", "MAX_EVENT_ID", "REVOKED", "GrantWatch", "event_stream", "frame", "last_event_id", "open_streams",
           "sse_response"]

log = logging.getLogger(__name__)

MAX_EVENT_ID = 2**63 - 1
"""Bus ids are PostgreSQL bigints."""
_EVENT_ID = re.compile(r"[0-9]{1,19}")

KEEPALIVE = b": keep-alive\n\n"
_RETRY = b"retry: 2000\n\n"
_open = 0


def open_streams() -> int:
    """SSE responses this process is streaming right now."""
    return _open


def frame(stored: StoredEvent) -> bytes:
    # The stored body is jsonb rendered by Postgres: one line, so one data: field suffices.
    return f"id: {stored.id}\nevent: {stored.type}\ndata: {stored.body}\n\n".encode()


def last_event_id(header: str | None, query_value: int | None = None) -> int:
    """Where to resume: the ``Last-Event-ID`` header, else an ``after`` query value, else the start.

    Raises 400 for a header that is not a bus id: ASCII digits within a bigint.
    """
    text = (header or "").strip(" \t")
    if text:
        # str.isdigit() accepts superscripts and other scripts' digits; a bus id is ASCII only.
        if not _EVENT_ID.fullmatch(text) or int(text) > MAX_EVENT_ID:
            shown = text if len(text) <= 40 else text[:40] + "…"
            raise ClientException(f"Last-Event-ID {shown!r} is not an event id: ASCII digits up to {MAX_EVENT_ID}")
        return int(text)
    return max(0, query_value or 0)


class GrantWatch:
    """Tells open streams when the token they were opened with is revoked."""

    __slots__ = ("_pool", "_task", "_watchers", "interval")

    def __init__(self, pool: asyncpg.Pool, interval: float = 2.0) -> None:
        self._pool = pool
        self.interval = interval
        self._watchers: dict[int, set[asyncio.Event]] = {}
        self._task: asyncio.Task[None] | None = None

    @contextlib.contextmanager
    def watch(self, token_id: int) -> Iterator[asyncio.Event]:
        """An event set once ``token_id`` is no longer live, for as long as the block runs."""
        revoked = asyncio.Event()
        self._watchers.setdefault(token_id, set()).add(revoked)
        if self._task is None or self._task.done():
            self._task = asyncio.ensure_future(self._poll())
        try:
            yield revoked
        finally:
            waiting = self._watchers.get(token_id)
            if waiting is not None:
                waiting.discard(revoked)
                if not waiting:
                    del self._watchers[token_id]

    async def _poll(self) -> None:
        while self._watchers:
            await asyncio.sleep(self.interval)
            ids = list(self._watchers)
            if not ids:
                return
            try:
                async with self._pool.acquire(timeout=self.interval * 2) as conn:
                    live = {r["id"] for r in await conn.fetch(query("live_tokens"), ids)}
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError) as exc:
                # Unable to confirm a grant is unable to keep it: streams end, clients reconnect.
                log.warning("re-checking stream grants failed (%s); closing their streams", exc)
                live = set()
            for token_id in ids:
                if token_id not in live:
                    for revoked in self._watchers.pop(token_id, ()):
                        revoked.set()


REVOKED = b": access revoked: the token this stream was opened with is no longer valid\n\n"


async def event_stream(bus: Bus, after_id: int, flt: EventFilter, *, keepalive: float,
                       until: Callable[[StoredEvent], bool] | None = None,
                       room_scope: str | None = None, grants: GrantWatch | None = None,
                       token_id: int | None = None) -> AsyncIterator[bytes]:
    """Frames for every matching event after ``after_id`` (only ``room_scope``'s when given);
    ends after an event ``until`` accepts, or once ``grants`` finds ``token_id`` revoked."""
    global _open
    _open += 1
    events = bus.subscribe(after_id, flt, room_scope=room_scope).__aiter__()
    waiting: asyncio.Future[StoredEvent] | None = None
    scope = contextlib.ExitStack()
    cut: asyncio.Future[object] | None = None
    if grants is not None and token_id is not None:
        cut = asyncio.ensure_future(scope.enter_context(grants.watch(token_id)).wait())
    try:
        yield _RETRY
        while True:
            if cut is not None and cut.done():
                yield REVOKED
                return
            if waiting is None:
                waiting = asyncio.ensure_future(events.__anext__())
            # The pending read is kept across keep-alives: cancelling it would close the subscription.
            done, _ = await asyncio.wait({waiting} if cut is None else {waiting, cut}, timeout=keepalive,
                                         return_when=asyncio.FIRST_COMPLETED)
            if not done:
                yield KEEPALIVE
                continue
            if waiting not in done:
                continue
            stored = waiting.result()
            waiting = None
            if cut is not None and cut.done():
                continue  # not delivered after the grant ended
            yield frame(stored)
            if until is not None and until(stored):
                return
    finally:
        _open -= 1
        scope.close()
        for pending in (waiting, cut):
            if pending is not None and not pending.done():
                pending.cancel()
                with contextlib.suppress(asyncio.CancelledError, StopAsyncIteration):
                    await pending
        with contextlib.suppress(RuntimeError):
            await events.aclose()  # type: ignore[attr-defined]


def sse_response(stream: AsyncIterator[bytes]) -> Stream:
    return Stream(stream, media_type="text/event-stream",
                  headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
