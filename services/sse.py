"""Server-sent events over the bus: ``event:`` is the event type, ``id:`` the bus id.

A client that reconnects with ``Last-Event-ID`` gets exactly the events after that id, because
the bus replays from the log before tailing. A comment line every ``keepalive`` seconds keeps
proxies from closing an idle stream; when the client leaves, litestar cancels the generator and
the subscription is dropped with it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable

from litestar.response import Stream

from events.bus import Bus, EventFilter, StoredEvent

__all__ = ["KEEPALIVE", "event_stream", "frame", "last_event_id", "open_streams", "sse_response"]

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
    """Where to resume: the ``Last-Event-ID`` header, else an ``after`` query value, else the start."""
    if header and header.strip().isdigit():
        return int(header.strip())
    return max(0, query_value or 0)


async def event_stream(bus: Bus, after_id: int, flt: EventFilter, *, keepalive: float,
                       until: Callable[[StoredEvent], bool] | None = None,
                       room_scope: str | None = None) -> AsyncIterator[bytes]:
    """Frames for every matching event after ``after_id`` (only ``room_scope``'s when given);
    ends after an event ``until`` accepts."""
    global _open
    _open += 1
    events = bus.subscribe(after_id, flt, room_scope=room_scope).__aiter__()
    waiting: asyncio.Future[StoredEvent] | None = None
    try:
        yield _RETRY
        while True:
            if waiting is None:
                waiting = asyncio.ensure_future(events.__anext__())
            # The pending read is kept across keep-alives: cancelling it would close the subscription.
            done, _ = await asyncio.wait({waiting}, timeout=keepalive)
            if not done:
                yield KEEPALIVE
                continue
            stored = waiting.result()
            waiting = None
            yield frame(stored)
            if until is not None and until(stored):
                return
    finally:
        _open -= 1
        if waiting is not None:
            waiting.cancel()
            with contextlib.suppress(asyncio.CancelledError, StopAsyncIteration):
                await waiting
        with contextlib.suppress(RuntimeError):
            await events.aclose()  # type: ignore[attr-defined]


def sse_response(stream: AsyncIterator[bytes]) -> Stream:
    return Stream(stream, media_type="text/event-stream",
                  headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
