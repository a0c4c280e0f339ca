"""The durable bus over real PostgreSQL: order, replay, resume, concurrency, transactions."""

from __future__ import annotations

import asyncio

import asyncpg

from events.bus import Bus, EventFilter
from events.types import DocumentChanged, RunFinished, decode_event


def changed(room: str, n: int) -> DocumentChanged:
    return DocumentChanged(room=room, path=f"f{n}.html", sha256=f"{n:064x}", size=n)


async def take(bus: Bus, n: int, after: int = 0, flt: EventFilter | None = None, timeout: float = 20):
    got = []

    async def run() -> None:
        async for stored in bus.subscribe(after, flt):
            got.append(stored)
            if len(got) == n:
                return

    await asyncio.wait_for(run(), timeout)
    return got


async def test_published_events_arrive_in_order_with_their_bodies(bus: Bus, room_name: str):
    ids = [await bus.publish(changed(room_name, i)) for i in range(5)]
    got = await take(bus, 5, after=ids[0] - 1, flt=EventFilter(room=room_name))
    assert [s.id for s in got] == ids
    assert [s.event.path for s in got] == [f"f{i}.html" for i in range(5)]
    assert all(s.type == "document.changed" for s in got)


async def test_live_subscriber_sees_events_published_after_it_started(bus: Bus, room_name: str):
    task = asyncio.create_task(take(bus, 3, flt=EventFilter(room=room_name)))
    await asyncio.sleep(0.3)
    ids = [await bus.publish(changed(room_name, i)) for i in range(3)]
    got = await task
    assert [s.id for s in got] == ids


async def test_replay_starts_after_the_given_id(bus: Bus, room_name: str):
    ids = [await bus.publish(changed(room_name, i)) for i in range(6)]
    got = await take(bus, 3, after=ids[2], flt=EventFilter(room=room_name))
    assert [s.id for s in got] == ids[3:]


async def test_filter_by_type_and_run(bus: Bus, room_name: str):
    await bus.publish(changed(room_name, 1))
    want = await bus.publish(RunFinished(room=room_name, run_id=42, counts={}, elapsed_ms=1.0))
    await bus.publish(RunFinished(room=room_name, run_id=43, counts={}, elapsed_ms=1.0))
    got = await take(bus, 1, flt=EventFilter(room=room_name, run_id=42, types=frozenset({"run.finished"})))
    assert [s.id for s in got] == [want]


async def test_resuming_from_the_last_seen_id_gets_every_event_exactly_once(bus: Bus, room_name: str):
    flt = EventFilter(room=room_name)
    first = [await bus.publish(changed(room_name, i)) for i in range(10)]
    seen = await take(bus, 4, after=first[0] - 1, flt=flt)  # the client leaves after 4
    more = [await bus.publish(changed(room_name, i)) for i in range(10, 15)]
    rest = await take(bus, 11, after=seen[-1].id, flt=flt)
    all_ids = [s.id for s in seen + rest]
    assert all_ids == first + more
    assert len(set(all_ids)) == len(all_ids)


async def test_event_published_in_a_rolled_back_transaction_is_never_seen(bus: Bus, pool: asyncpg.Pool, room_name: str):
    async with pool.acquire() as conn:
        tx = conn.transaction()
        await tx.start()
        await bus.publish(changed(room_name, 1), conn)
        await tx.rollback()
    kept = await bus.publish(changed(room_name, 2))
    got = await take(bus, 1, flt=EventFilter(room=room_name))
    assert [s.id for s in got] == [kept]


async def test_event_in_a_committed_transaction_is_seen_with_the_work(bus: Bus, pool: asyncpg.Pool, room_name: str):
    async with pool.acquire() as conn, conn.transaction():
        await conn.execute("INSERT INTO room (name) VALUES ($1)", room_name)
        eid = await bus.publish(changed(room_name, 1), conn)
    got = await take(bus, 1, flt=EventFilter(room=room_name))
    assert got[0].id == eid


async def test_ten_thousand_events_reach_two_concurrent_subscribers_complete_and_in_order(
    bus: Bus, pool: asyncpg.Pool, room_name: str
):
    flt = EventFilter(room=room_name)
    subs = [asyncio.create_task(take(bus, 10_000, flt=flt, timeout=120)) for _ in range(2)]
    await asyncio.sleep(0.3)

    async def publisher(offset: int) -> list[int]:
        ids = []
        async with pool.acquire() as conn:
            for i in range(2_500):
                ids.append(await bus.publish(changed(room_name, offset + i), conn))
        return ids

    published = sorted(sum(await asyncio.gather(*(publisher(k * 10_000) for k in range(4))), []))
    for got in await asyncio.gather(*subs):
        ids = [s.id for s in got]
        assert ids == published


async def test_decoded_body_round_trips_the_struct(bus: Bus, room_name: str):
    # A run id no real run reaches: the session's database is shared, and a later test's run 7 would
    # otherwise replay this event on its own stream.
    ev = RunFinished(room=room_name, run_id=2**62 + 7, counts={"supported": 3}, elapsed_ms=12.5, discarded=2)
    await bus.publish(ev)
    got = await take(bus, 1, flt=EventFilter(room=room_name))
    assert decode_event(got[0].body) == ev


async def test_events_published_together_keep_their_order_and_wake_a_live_subscriber(
        bus: Bus, pool: asyncpg.Pool, room_name: str):
    task = asyncio.create_task(take(bus, 200, flt=EventFilter(room=room_name)))
    await asyncio.sleep(0.3)
    async with pool.acquire() as conn, conn.transaction():
        await bus.publish_many([changed(room_name, i) for i in range(200)], conn)
    got = await task
    assert [s.event.size for s in got] == list(range(200))
    assert [s.id for s in got] == sorted(s.id for s in got)
