"""The room folder as a trust boundary: nothing outside a room's real folder is read into it, and
a filing that leaves the room stops being evidence (removed, never cited, its verdicts flipped),
whether it leaves while serve runs or while nothing runs."""

from __future__ import annotations

import asyncio
import json
import os
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import msgspec
import pytest

from services.bootstrap import Core, open_core
from services.pipeline import ParseJob
from services.rooms import OUTSIDE_ROOM, Refused, RoomFile, ingest_room, is_room_folder, place, walk_room
from services.settings import load_settings
from tests.e2e._e2e import Receiver, Served, deck_md, filing_html, serving, wait_for, write_atomically

SECRET = b"root:x:0:0:not for any room\n"


@pytest.fixture
def rooms(tmp_path: Path) -> Path:
    """A rooms root with room ``b`` holding a filing, and a folder outside every room."""
    write_atomically(tmp_path / "rooms" / "b" / "aapl-10k.html", filing_html(entity="Apple Inc."))
    (tmp_path / "outside" / "sub").mkdir(parents=True)
    (tmp_path / "outside" / "passwd").write_bytes(SECRET)
    (tmp_path / "outside" / "sub" / "secret.md").write_bytes(SECRET)
    (tmp_path / "rooms" / "w" / "filings").mkdir(parents=True)
    return tmp_path / "rooms"


# ---------------------------------------------------------------- where a path leads


def test_a_link_to_a_file_outside_the_room_is_refused_under_the_links_own_name(rooms: Path):
    w = rooms / "w"
    (w / "passwd.md").symlink_to(rooms.parent / "outside" / "passwd")
    (w / "x.html").symlink_to(Path("..") / "b" / "aapl-10k.html")
    found = list(walk_room(w))
    assert [f.rel for f in found] == ["passwd.md", "x.html"]
    assert all(isinstance(f, Refused) and "outside this room" in f.detail for f in found)
    # What the room is told never names where the link points; the operator's log does.
    assert all(isinstance(f, Refused) and f.target and f.target not in f.detail for f in found)


def test_a_linked_folder_outside_the_room_is_one_refusal_and_is_not_walked(rooms: Path):
    w = rooms / "w"
    (w / "sub").symlink_to(rooms.parent / "outside" / "sub", target_is_directory=True)
    assert [(type(f), f.rel) for f in walk_room(w)] == [(Refused, "sub")]
    # A watcher that follows the link reports the files behind it: each is the same one refusal.
    assert place(w.resolve(), w.resolve() / "sub" / "secret.md").rel == "sub"  # type: ignore[union-attr]


def test_a_link_inside_the_room_is_read_once_under_its_real_path(rooms: Path):
    w = rooms / "w"
    write_atomically(w / "filings" / "2024.html", filing_html())
    (w / "current.html").symlink_to(Path("filings") / "2024.html")
    (w / "latest").symlink_to(Path("filings"), target_is_directory=True)
    assert list(walk_room(w)) == [RoomFile("filings/2024.html", (w / "filings" / "2024.html").resolve())]
    assert place(w.resolve(), w.resolve() / "current.html") == RoomFile("filings/2024.html",
                                                                       (w / "filings" / "2024.html").resolve())
    assert place(w.resolve(), w.resolve() / "latest" / "2024.html").rel == "filings/2024.html"  # type: ignore[union-attr]


def test_a_loop_of_links_is_refused_and_a_room_folder_that_is_a_link_is_no_room(rooms: Path):
    w = rooms / "w"
    (w / "a.html").symlink_to("b.html")
    (w / "b.html").symlink_to("a.html")
    assert {f.rel for f in walk_room(w) if isinstance(f, Refused)} == {"a.html", "b.html"}
    (rooms / "alias").symlink_to(rooms / "b", target_is_directory=True)
    (rooms / "escape").symlink_to(rooms.parent / "outside", target_is_directory=True)
    assert is_room_folder(rooms / "b") and not is_room_folder(rooms / "alias") and not is_room_folder(rooms / "escape")


# ---------------------------------------------------------------- ingest and verify --room


@pytest.fixture
async def core(pg_dsn: str, tmp_path: Path) -> AsyncIterator[Core]:
    async with open_core(load_settings({"TICKMARK_HOME": str(tmp_path / "home")}), dsn=pg_dsn) as c:
        yield c


async def _documents(core: Core, room: str) -> dict[str, tuple[str, str | None]]:
    async with core.pool.acquire() as conn:
        rows = await conn.fetch("SELECT path, status, error_reason FROM document WHERE room = $1 "
                                "AND superseded_by IS NULL ORDER BY path", room)
    return {r["path"]: (r["status"], r["error_reason"]) for r in rows}


async def test_ingest_records_each_link_out_as_refused_and_stores_none_of_its_bytes(core: Core, rooms: Path):
    room, w = f"w-{uuid.uuid4().hex[:8]}", rooms / "w"
    write_atomically(w / "acme-10k.html", filing_html())
    (w / "passwd.md").symlink_to(rooms.parent / "outside" / "passwd")
    (w / "x.html").symlink_to(Path("..") / "b" / "aapl-10k.html")
    (w / "sub").symlink_to(rooms.parent / "outside" / "sub", target_is_directory=True)
    outcomes = {o.path: o for o in await ingest_room(core.documents, room, w)}
    assert {p: (o.status, o.reason) for p, o in outcomes.items()} == {
        "acme-10k.html": ("parsed", None), "passwd.md": ("failed", OUTSIDE_ROOM),
        "x.html": ("failed", OUTSIDE_ROOM), "sub": ("failed", OUTSIDE_ROOM)}
    assert await _documents(core, room) == {"acme-10k.html": ("parsed", None), "passwd.md": ("failed", OUTSIDE_ROOM),
                                            "sub": ("failed", OUTSIDE_ROOM), "x.html": ("failed", OUTSIDE_ROOM)}
    async with core.pool.acquire() as conn:
        entities = await conn.fetchval("SELECT array_agg(DISTINCT entity) FROM fact WHERE room = $1", room)
    assert entities == ["Acme Corporation"], "room b's Apple filing was read into room w"
    assert core.index.search(room, "not for any room") == []
    # A second ingest finds the refusals recorded and records them again nowhere.
    again = {o.path: o for o in await ingest_room(core.documents, room, w)}
    assert again["passwd.md"].cached and again["passwd.md"].reason == OUTSIDE_ROOM


async def test_a_filing_gone_between_two_ingests_is_retired_and_never_cited(core: Core, rooms: Path):
    room, w = f"gone-{uuid.uuid4().hex[:8]}", rooms / "w"
    write_atomically(w / "acme-10k.html", filing_html())
    await ingest_room(core.documents, room, w)

    async def verdicts() -> dict[str, str]:
        run_id = await core.verifier.start_run(room, "deck.md", trigger="cli")
        result = await core.verifier.run(run_id, room, "deck.md", deck_md())
        return {c["text"]: c["verdict"] for c in result["claims"]}

    assert (await verdicts())["Net income of $610M"] == "supported"
    (w / "acme-10k.html").unlink()
    await ingest_room(core.documents, room, w)
    assert await _documents(core, room) == {"acme-10k.html": ("removed", None)}
    assert set((await verdicts()).values()) == {"no-evidence"}
    assert core.index.search(room, "discussion of results of operations") == []


async def test_a_filing_removed_while_its_parse_is_under_way_ends_removed(core: Core, rooms: Path):
    room, rel = f"race-{uuid.uuid4().hex[:8]}", "acme-10k.html"
    # Large and unique: the parse is slow enough to be caught under way, and not a cache hit.
    data = filing_html(entity=f"Acme {uuid.uuid4().hex[:6]} Corporation", padding_kb=3000)
    submitted = await core.pipeline.submit_filing(room, rel, data)
    parse = asyncio.create_task(core.pipeline.parse_job(msgspec.json.encode(ParseJob(room, rel, submitted.sha256))))

    async def under_way() -> bool:
        async with core.pool.acquire() as conn:
            return await conn.fetchval("SELECT status FROM document WHERE room = $1", room) == "pending"

    while not await under_way():
        assert not parse.done(), "the parse finished before it could be caught under way"
        await asyncio.sleep(0.005)
    await core.pipeline.file_removed(room, rel)
    await parse
    assert await _documents(core, room) == {rel: ("removed", None)}
    async with core.pool.acquire() as conn:
        live = await conn.fetchval("SELECT count(*) FROM fact WHERE room = $1 AND NOT superseded", room)
    assert live == 0


# ---------------------------------------------------------------- the watcher, through a real serve


def _docs(s: Served, room: str) -> dict[str, dict]:
    r = httpx.get(f"{s.base}/api/rooms/{room}/documents", timeout=5)
    return {d["path"]: d for d in r.json()} if r.status_code == 200 else {}


def _state(s: Served, room: str) -> dict[str, str]:
    """Each filing's status, with the reason when it failed (decks, uploaded or watched, left out)."""
    return {p: d["status"] if d["status"] != "failed" else f"failed:{d['error_reason']}"
            for p, d in _docs(s, room).items() if d["kind"] == "filing"}


def _until(s: Served, room: str, want: dict[str, str], what: str, timeout: float = 60) -> None:
    seen: list[dict[str, str]] = [{}]

    def reached() -> bool:
        seen[0] = _state(s, room)
        return seen[0] == want

    try:
        wait_for(reached, timeout, what)
    except AssertionError as exc:
        raise AssertionError(f"{exc}; room {room} is {seen[0]}, not {want}") from None


def _upload(s: Served, room: str) -> int:
    r = httpx.post(f"{s.base}/api/rooms/{room}/decks", files={"file": ("deck.md", deck_md(), "text/markdown")},
                   timeout=10)
    assert r.status_code == 202, r.text
    run_id = r.json()["run_id"]
    wait_for(lambda: httpx.get(f"{s.base}/api/runs/{run_id}", timeout=5).json()["status"] == "finished", 60,
             f"run {run_id} to finish")
    return run_id


def _verdicts(s: Served, run_id: int) -> dict[str, str]:
    return {c["text"]: c["verdict"] for c in httpx.get(f"{s.base}/api/runs/{run_id}", timeout=5).json()["claims"]}


def _flips(receiver: Receiver, room: str) -> list[dict]:
    bodies = [json.loads(r.body) for r in receiver.received if r.headers.get("X-Tickmark-Event") == "verdict.changed"]
    return [b for b in bodies if b["room"] == room]


@pytest.fixture(scope="module")
def served(pg_dsn: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with serving(pg_dsn, tmp_path_factory.mktemp("boundary")) as s:
        yield s


@pytest.mark.slow
def test_links_out_of_a_watched_room_are_refused_and_recorded(served: Served, tmp_path: Path):
    outside = tmp_path / "outside"
    (outside / "sub").mkdir(parents=True)
    (outside / "passwd").write_bytes(SECRET)
    (outside / "sub" / "secret.md").write_bytes(SECRET)
    b, w = served.rooms / "lb", served.rooms / "lw"
    write_atomically(b / "aapl-10k.html", filing_html(entity="Apple Inc."))
    write_atomically(w / "acme-10k.html", filing_html())
    _until(served, "lb", {"aapl-10k.html": "parsed"}, "room lb's filing", 30)
    (w / "x.html").symlink_to(Path("..") / "lb" / "aapl-10k.html")
    (w / "passwd.md").symlink_to(outside / "passwd")
    (w / "sub").symlink_to(outside / "sub", target_is_directory=True)
    (served.rooms / "escape").symlink_to(outside, target_is_directory=True)
    want = {"acme-10k.html": "parsed", "x.html": f"failed:{OUTSIDE_ROOM}", "passwd.md": f"failed:{OUTSIDE_ROOM}",
            "sub": f"failed:{OUTSIDE_ROOM}"}
    _until(served, "lw", want, "each link out of room lw refused", 30)
    assert "outside this room" in _docs(served, "lw")["passwd.md"]["error_detail"]
    wait_for(lambda: "escape is a symbolic link, not a room folder" in served.log_text(), 30, "the logged reason")
    rooms = {r["name"] for r in httpx.get(f"{served.base}/api/rooms", timeout=5).json()}
    assert "escape" not in rooms
    # Room lw's token-free view of its facts holds its own filing only.
    run_id = _upload(served, "lw")
    assert _verdicts(served, run_id)["Net income of $610M"] == "supported"
    cited = {c["document"] for claim in httpx.get(f"{served.base}/api/runs/{run_id}", timeout=5).json()["claims"]
             for c in claim.get("citations") or []}
    assert cited <= {"acme-10k.html"}
    # The link taken away, its refusal is retired like any file.
    (w / "passwd.md").unlink()
    wait_for(lambda: _state(served, "lw").get("passwd.md") == "removed", 30, "the refusal retired")


@pytest.mark.slow
def test_a_filing_deleted_while_serving_flips_the_verdicts_that_cited_it(served: Served):
    room = served.rooms / "del"
    write_atomically(room / "acme-10k.html", filing_html())
    _until(served, "del", {"acme-10k.html": "parsed"}, "the filing", 30)
    run_id = _upload(served, "del")
    assert _verdicts(served, run_id)["Net income of $610M"] == "supported"
    with Receiver() as receiver:
        assert httpx.post(f"{served.base}/api/rooms/del/webhooks", json={"url": receiver.url, "format": "json"},
                          timeout=5).status_code == 201
        (room / "acme-10k.html").unlink()
        flips = wait_for(lambda: len(_flips(receiver, "del")) >= 3 and _flips(receiver, "del"), 60,
                         "verdict.changed for every claim")
    assert sorted((f["data"]["before"], f["data"]["after"]) for f in flips) == [
        ("contradicted", "no-evidence"), ("supported", "no-evidence"), ("supported", "no-evidence")]
    assert {f["data"]["cause_document"] for f in flips} == {"acme-10k.html"}
    assert _state(served, "del")["acme-10k.html"] == "removed"
    assert set(_verdicts(served, _upload(served, "del")).values()) == {"no-evidence"}


@pytest.mark.slow
def test_a_room_folder_renamed_while_serving_retires_it_under_the_old_name(served: Served):
    write_atomically(served.rooms / "ren1" / "acme-10k.html", filing_html())
    _until(served, "ren1", {"acme-10k.html": "parsed"}, "the filing", 30)
    os.rename(served.rooms / "ren1", served.rooms / "ren2")
    _until(served, "ren1", {"acme-10k.html": "removed"}, "room ren1 retired", 30)
    _until(served, "ren2", {"acme-10k.html": "parsed"}, "room ren2 read", 30)


@pytest.mark.slow
def test_a_room_folder_swapped_for_a_link_while_serving_is_retired_and_the_link_not_read(served: Served,
                                                                                         tmp_path: Path):
    write_atomically(served.rooms / "swap" / "acme-10k.html", filing_html())
    write_atomically(tmp_path / "elsewhere" / "acme-10k.html", filing_html(operating_income="900"))
    _until(served, "swap", {"acme-10k.html": "parsed"}, "the filing", 30)
    os.rename(served.rooms / "swap", served.rooms / ".swap-old")
    (served.rooms / "swap").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    _until(served, "swap", {"acme-10k.html": "removed"}, "room swap retired, the link not read", 30)
    wait_for(lambda: "swap is a symbolic link, not a room folder" in served.log_text(), 30, "the logged reason")


@pytest.mark.slow
def test_what_left_the_rooms_while_nothing_ran_is_retired_at_start_up(pg_dsn: str, tmp_path: Path):
    rooms = tmp_path / "rooms"
    write_atomically(rooms / "up" / "acme-10k.html", filing_html())
    write_atomically(rooms / "up" / "acme-10q.html", filing_html(entity="Acme Corporation", padding_kb=1))
    write_atomically(rooms / "upmoved" / "acme-10k.html", filing_html())
    with Receiver() as receiver:
        with serving(pg_dsn, tmp_path, log_name="first.log") as first:
            wait_for(lambda: _state(first, "up") == {"acme-10k.html": "parsed", "acme-10q.html": "parsed"}
                     and _state(first, "upmoved") == {"acme-10k.html": "parsed"}, 60, "both rooms")
            run_id = _upload(first, "up")
            assert _verdicts(first, run_id)["Net income of $610M"] == "supported"
            assert httpx.post(f"{first.base}/api/rooms/up/webhooks", json={"url": receiver.url, "format": "json"},
                              timeout=5).status_code == 201
        # Nothing runs: one filing goes, the other changes into a link out, a room folder is renamed.
        (rooms / "up" / "acme-10k.html").unlink()
        (rooms / "up" / "acme-10q.html").unlink()
        (rooms / "up" / "acme-10q.html").symlink_to(rooms / "upmoved" / "acme-10k.html")
        os.rename(rooms / "upmoved", rooms / "upnew")
        with serving(pg_dsn, tmp_path, log_name="second.log") as second:
            _until(second, "up", {"acme-10k.html": "removed", "acme-10q.html": f"failed:{OUTSIDE_ROOM}"}, "room up")
            _until(second, "upmoved", {"acme-10k.html": "removed"}, "the renamed room", 60)
            _until(second, "upnew", {"acme-10k.html": "parsed"}, "its new name", 60)
            wait_for(lambda: len(_flips(receiver, "up")) >= 3, 60, "verdict.changed for room up")
            assert set(_verdicts(second, _upload(second, "up")).values()) == {"no-evidence"}
    assert {(f["data"]["before"], f["data"]["after"]) for f in _flips(receiver, "up")} == {
        ("supported", "no-evidence"), ("contradicted", "no-evidence")}
