"""The durable bus: publish into the ``event`` table, subscribe with replay then live tail.

One ``Bus`` per process. It keeps a single dedicated LISTEN connection (a pooled connection
loses its listeners when it goes back to the pool) and fans new events out to the in-process
subscribers; each subscriber replays what it missed from the table first, so a consumer that
restarts, or an SSE client reconnecting with Last-Event-ID, sees every event once and in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import asyncpg
import msgspec

from events.types import Event, decode_event, encode_event, event_type

__all__ = ["Bus", "EventFilter", "StoredEvent"]

log = logging.getLogger(__name__)
CHANNEL = "tickmark_events"
_REPLAY_BATCH = 500
_LIVE_QUEUE_LIMIT = 10_000


class EventFilter(msgspec.Struct, frozen=True):
    """Which events a subscriber wants; ``None`` means any."""

    room: str | None = None
    run_id: int | None = None
    types: frozenset[str] | None = None

    def matches(self, stored: StoredEvent) -> bool:
        return (
            (self.room is None or stored.room == self.room)
            and (self.run_id is None or stored.run_id == self.run_id)
            and (self.types is None or stored.type in self.types)
        )


class StoredEvent(msgspec.Struct, frozen=True):
    """An event as the log holds it: its id, routing columns and the JSON body as stored."""

    id: int
    type: str
    room: str | None
    run_id: int | None
    body: str
    published_at: float = 0.0
    """Monotonic clock when this process first saw it; for lag and latency figures."""

    @property
    def event(self) -> Event:
        return decode_event(self.body)


class _Subscriber:
    __slots__ = ("filter", "queue", "overflowed")

    def __init__(self, filter: EventFilter) -> None:
        self.filter = filter
        self.queue: asyncio.Queue[StoredEvent] = asyncio.Queue()
        self.overflowed = False


class Bus:
    """Publish and subscribe over PostgreSQL; the event table is the source of truth."""

    def __init__(
        self,
        pool: asyncpg.Pool,
        dsn: str,
        sql: Callable[[str], str],
        *,
        poll_interval: float = 2.0,
    ) -> None:
        self._pool = pool
        self._dsn = dsn
        self._publish_sql = sql("publish_event")
        self._publish_many_sql = sql("publish_events")
        self._after_sql = sql("events_after")
        self._last_sql = sql("last_event_id")
        self._scope_sql = sql("scope_to_room")
        self._poll_interval = poll_interval
        self._subscribers: set[_Subscriber] = set()
        self._wake = asyncio.Event()
        self._pump_task: asyncio.Task[None] | None = None
        self._head = 0
        self._listening = False
        self._closing = False
        self.delivered = 0

    # ------------------------------------------------------------ publish

    async def publish(self, event: Event, conn: asyncpg.Connection | None = None) -> int:
        """Append ``event``; inside ``conn``'s transaction when given, so it commits with the work."""
        args = (event_type(event), event.room, event.run_id, encode_event(event).decode())
        if conn is not None:
            return int(await conn.fetchval(self._publish_sql, *args))
        async with self._pool.acquire() as own:
            return int(await own.fetchval(self._publish_sql, *args))

    async def publish_many(self, events: list[Event], conn: asyncpg.Connection) -> None:
        """Append ``events`` in order in one round trip, inside ``conn``'s transaction. Publishing takes
        the log's lock until the transaction commits, so callers publish last, after their other work."""
        if events:
            await conn.execute(self._publish_many_sql, [event_type(e) for e in events], [e.room for e in events],
                               [e.run_id for e in events], [encode_event(e).decode() for e in events])

    # ------------------------------------------------------------ subscribe

    async def subscribe(
        self, after_id: int = 0, filter: EventFilter | None = None, *, room_scope: str | None = None
    ) -> AsyncIterator[StoredEvent]:
        """Every matching event with id > ``after_id``, in id order, then live ones as they commit.

        With ``room_scope`` only that room's events: replays read the log under its row-level
        security, and live events are filtered to the room.
        """
        flt = filter or EventFilter()
        if room_scope is not None:
            if flt.room not in (None, room_scope):
                return
            flt = msgspec.structs.replace(flt, room=room_scope)
        await self._ensure_pump()
        sub = _Subscriber(flt)
        # Registered before the replay query: anything committed after that query reaches the
        # queue, anything before it is in the replay; duplicates are dropped by id below.
        self._subscribers.add(sub)
        last = after_id
        try:
            while True:
                async for stored in self._replay(last, flt, room_scope):
                    last = stored.id
                    yield stored
                while not sub.overflowed:
                    stored = await sub.queue.get()
                    if stored.id <= last:
                        continue
                    last = stored.id
                    yield stored
                # The consumer fell behind: drop the backlog and catch up from the table. The
                # fresh queue is in place before the replay query, so nothing falls between.
                sub.queue = asyncio.Queue()
                sub.overflowed = False
        finally:
            self._subscribers.discard(sub)

    async def _replay(self, after_id: int, flt: EventFilter, room_scope: str | None = None
                      ) -> AsyncIterator[StoredEvent]:
        types = sorted(flt.types) if flt.types is not None else None
        last = after_id
        while True:
            async with self._pool.acquire() as conn, conn.transaction():
                if room_scope is not None:
                    await conn.execute(self._scope_sql, room_scope)
                rows = await conn.fetch(self._after_sql, last, flt.room, flt.run_id, types, _REPLAY_BATCH)
            for r in rows:
                last = r["id"]
                yield StoredEvent(r["id"], r["type"], r["room"], r["run_id"], r["body"])
            if len(rows) < _REPLAY_BATCH:
                return

    # ------------------------------------------------------------ the pump

    @property
    def head(self) -> int:
        """The last event id this process has fanned out."""
        return self._head

    @property
    def listening(self) -> bool:
        return self._listening

    async def _ensure_pump(self) -> None:
        if self._pump_task is None or self._pump_task.done():
            async with self._pool.acquire() as conn:
                self._head = int(await conn.fetchval(self._last_sql))
            self._pump_task = asyncio.create_task(self._pump(), name="tickmark-bus-pump")

    async def _pump(self) -> None:
        listener: asyncpg.Connection | None = None
        backoff = 0.2
        try:
            while not self._closing:
                if listener is None or listener.is_closed():
                    listener = await self._connect_listener()
                    self._wake.set()  # catch up on whatever was committed while we were away
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), self._poll_interval)
                self._wake.clear()
                if self._closing:
                    break
                try:
                    await self._fan_out()
                    backoff = 0.2
                except Exception as exc:  # noqa: BLE001 - the pump must outlive any one failed read
                    log.warning("bus: reading new events failed (%s); retrying in %.1fs", exc, backoff)
                    await asyncio.sleep(backoff)
                    backoff = min(backoff * 2, 5.0)
        finally:
            self._listening = False
            if listener is not None and not listener.is_closed():
                await listener.close()

    async def _connect_listener(self) -> asyncpg.Connection | None:
        try:
            conn = await asyncpg.connect(self._dsn)
            await conn.add_listener(CHANNEL, self._on_notify)
            conn.add_termination_listener(self._on_listener_lost)
            self._listening = True
            return conn
        except (OSError, asyncpg.PostgresError) as exc:
            # Polling still delivers everything, only later; keep trying to listen.
            log.warning("bus: LISTEN connection failed (%s); polling every %.1fs", exc, self._poll_interval)
            self._listening = False
            return None

    def _on_notify(self, _conn: Any, _pid: int, _channel: str, _payload: str) -> None:
        self._wake.set()

    def _on_listener_lost(self, _conn: Any) -> None:
        self._listening = False
        self._wake.set()

    async def _fan_out(self) -> None:
        while True:
            async with self._pool.acquire() as conn:
                rows = await conn.fetch(self._after_sql, self._head, None, None, None, _REPLAY_BATCH)
            now = time.monotonic()
            for r in rows:
                stored = StoredEvent(r["id"], r["type"], r["room"], r["run_id"], r["body"], now)
                for sub in self._subscribers:
                    if sub.overflowed or not sub.filter.matches(stored):
                        continue
                    if sub.queue.qsize() >= _LIVE_QUEUE_LIMIT:
                        sub.overflowed = True
                        continue
                    sub.queue.put_nowait(stored)
                    self.delivered += 1
                self._head = stored.id
            if len(rows) < _REPLAY_BATCH:
                return

    async def close(self) -> None:
        """Stop the pump between reads: cancelling it inside a query would hand the pool a
        connection still busy with that query."""
        if self._pump_task is not None:
            self._closing = True
            self._wake.set()
            try:
                await asyncio.wait_for(asyncio.shield(self._pump_task), 10)
            except asyncio.TimeoutError:
                self._pump_task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self._pump_task
            self._pump_task = None
