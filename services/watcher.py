"""Watches every room under ``TICKMARK_ROOMS``: settled files become parse jobs or runs.

A large copy fires many events and nothing says "write finished", so a file is submitted only
once its size and sha256 are the same across ``settle_seconds``. A file in ``<room>/decks/``
starts a verification run; any other file is a filing. A file or folder that is gone (deleted,
renamed away, a room folder renamed) retires the documents read from it. Links are placed by
``services.rooms``: read as their target inside the room, refused with a reason outside it.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
from collections.abc import Awaitable, Callable, Hashable
from pathlib import Path

from services.documents import DocumentService
from services.pipeline import Pipeline
from services.access import room_name_problem
from services.rooms import DECKS_FOLDER, OUTSIDE_ROOM, Refused, RoomFile, is_room_folder, place, walk_room
from services.sqlfiles import query

__all__ = ["RoomWatcher", "room_and_path"]

log = logging.getLogger(__name__)


def _hidden(name: str) -> bool:
    return name.startswith(".") or name.startswith("~$")


def room_and_path(root: Path, path: Path) -> tuple[str, str] | None:
    """(room, path inside the room) for a file under ``root``; None for what is not a room file."""
    try:
        parts = path.relative_to(root).parts
    except ValueError:
        return None
    if len(parts) < 2 or any(_hidden(p) for p in parts):
        return None
    return parts[0], "/".join(parts[1:])


def _read_settled_digest(path: Path) -> tuple[int, str, bytes]:
    data = path.read_bytes()
    return len(data), hashlib.sha256(data).hexdigest(), data


def _kind_of(rel: str) -> str:
    return "deck" if rel.split("/", 1)[0] == DECKS_FOLDER and "/" in rel else "filing"


class RoomWatcher:
    """One per deployment: rooms are folders under ``root``, created or removed at any time."""

    def __init__(self, root: Path, pipeline: Pipeline, documents: DocumentService, pool: object, *,
                 polling: bool, settle_seconds: float, max_file_bytes: int) -> None:
        self._root = root.resolve()
        self._pipeline = pipeline
        self._documents = documents
        self._pool = pool
        self._polling = polling
        self._settle = settle_seconds
        self._max_file_bytes = max_file_bytes
        self._pending: dict[Hashable, asyncio.Task[None]] = {}
        self._dirty: set[Hashable] = set()
        self._noted: set[str] = set()
        self._not_rooms: set[str] = set()
        self.ready = asyncio.Event()
        """Set once the start-up scan has submitted what changed while no watcher ran."""

    async def run(self, stop: asyncio.Event) -> None:
        self._root.mkdir(parents=True, exist_ok=True)
        log.info("watching rooms under %s%s", self._root, " (polling)" if self._polling else "")
        watch = _awatch(self._root, stop, self._polling)
        try:
            # Started first so nothing written during the scan is missed; the scan then settles
            # every file present, and a path already settling is not settled twice.
            changes_iter = watch.__aiter__()
            first = asyncio.ensure_future(changes_iter.__anext__())
            await self._scan()
            self.ready.set()
            pending: asyncio.Future[set[tuple[object, str]]] | None = first
            while True:
                assert pending is not None
                try:
                    changes = await pending
                except StopAsyncIteration:
                    return
                for _, raw in sorted(changes, key=lambda c: c[1]):
                    self._changed(Path(raw))
                pending = asyncio.ensure_future(changes_iter.__anext__())
        finally:
            for task in list(self._pending.values()):
                task.cancel()
            for task in list(self._pending.values()):
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    # ------------------------------------------------------------ what is where

    def _room_dir(self, name: str) -> Path | None:
        """The room folder ``name`` under the root, or None (with a logged reason, once) for a link
        or a folder whose name is not a room name (the API could never name that room)."""
        path = self._root / name
        if (problem := room_name_problem(name)) is not None:
            if name not in self._not_rooms:
                self._not_rooms.add(name)
                log.warning("%s is not watched: %s", path, problem)
            return None
        if is_room_folder(path):
            self._not_rooms.discard(name)
            return path
        if path.is_symlink() and name not in self._not_rooms:
            self._not_rooms.add(name)
            log.warning("%s is a symbolic link, not a room folder; it is not watched (a room is a real "
                        "folder under %s, so no room reads another folder's files)", path, self._root)
        return None

    async def _scan(self) -> None:
        present: set[tuple[str, str]] = set()
        rooms: set[str] = set()
        for entry in sorted(self._root.iterdir()):
            if _hidden(entry.name) or (room_dir := self._room_dir(entry.name)) is None:
                continue
            rooms.add(entry.name)
            for found in walk_room(room_dir):
                present.add((entry.name, found.rel))
                self._found(entry.name, found)
        async with self._pool.acquire() as conn:  # type: ignore[attr-defined]
            known = {(r["room"], r["path"]) for r in await conn.fetch(query("present_files"))}
            folders = {r["name"]: r["folder"] for r in await conn.fetch(query("room_folders"))}
            cut_short = {(r["room"], r["path"]) for r in await conn.fetch(query("gone_but_current"))}

        def ours(room: str) -> bool:
            # A room folder gone from where it was watched was renamed or deleted while nothing ran;
            # a room last watched under another root is not ours to retire.
            return room in rooms or folders.get(room) == str(self._root / room)

        # A path still present (a file, or a link refused with a reason) is handled by what it now is;
        # retiring it here too would race that handling.
        for room, rel in sorted((known | cut_short) - present):
            if ours(room):
                await self._pipeline.file_removed(room, rel)

    def _changed(self, path: Path) -> None:
        try:
            parts = path.relative_to(self._root).parts
        except ValueError:
            return
        if not parts or _hidden(parts[0]):
            return
        room, rel = parts[0], "/".join(parts[1:])
        if not os.path.lexists(path):
            self._start(("gone", room, rel), lambda: self._retire(room, rel))
            return
        room_dir = self._room_dir(room)
        if room_dir is None:
            # A room folder replaced by a link (or a file) is no room: what was read from it goes.
            self._start(("gone", room, ""), lambda: self._retire(room, "", room_gone=True))
            return
        if rel and (found := place(room_dir, path)) is not None:
            self._found(room, found)
        elif path.is_dir() and not path.is_symlink() and not any(_hidden(p) for p in parts):
            # A file written into a just-created folder (a new room, decks/) before the watch on
            # that folder is in place raises no event of its own: look inside the folder.
            start = path.resolve()
            if start.is_relative_to(room_dir):
                for found in walk_room(room_dir, start):
                    self._found(room, found)

    def _found(self, room: str, found: RoomFile | Refused) -> None:
        if isinstance(found, Refused):
            self._start(("refused", room, found.rel), lambda: self._refuse(room, found))
        else:
            self._start(("file", room, found.rel), lambda: self._settle_once(room, found))

    # ------------------------------------------------------------ one task per path at a time

    def _start(self, key: Hashable, work: Callable[[], Awaitable[None]]) -> None:
        task = self._pending.get(key)
        if task is not None and not task.done():
            self._dirty.add(key)  # its loop does the work again once this round is done
            return
        task = asyncio.create_task(self._repeat(key, work))
        self._pending[key] = task
        task.add_done_callback(lambda t, k=key: self._forget(k, t))

    def _forget(self, key: Hashable, task: asyncio.Task[None]) -> None:
        if self._pending.get(key) is task:
            del self._pending[key]
        if not task.cancelled() and task.exception() is not None:
            log.error("watcher: %s", key, exc_info=task.exception())

    async def _repeat(self, key: Hashable, work: Callable[[], Awaitable[None]]) -> None:
        while True:
            self._dirty.discard(key)
            await work()
            if key not in self._dirty:
                return

    # ------------------------------------------------------------ the work

    async def _retire(self, room: str, rel: str, *, room_gone: bool = False) -> None:
        """Everything last seen at ``rel`` or below it ('' is the whole room) that is gone now."""
        async with self._pool.acquire() as conn:  # type: ignore[attr-defined]
            known = [r["path"] for r in await conn.fetch(query("present_files_under"), room, rel)]
        for path in known:
            if room_gone or not os.path.lexists(self._root / room / path):
                await self._pipeline.file_removed(room, path)

    async def _refuse(self, room: str, refused: Refused) -> None:
        marker = f"refused:{OUTSIDE_ROOM}"
        async with self._pool.acquire() as conn:  # type: ignore[attr-defined]
            latest = await conn.fetchrow(query("latest_file"), room, refused.rel)
        if latest is not None and latest["sha256"] != marker:
            # A file read here before is retired first, under its parse lock, as any removal is.
            await self._pipeline.file_removed(room, refused.rel)
        outcome = await self._documents.refuse(room, refused.rel, OUTSIDE_ROOM, refused.detail,
                                               kind=_kind_of(refused.rel))
        if not outcome.cached:
            log.warning("%s/%s refused: it links to %s, outside the room", room, refused.rel, refused.target)
        async with self._pool.acquire() as conn:  # type: ignore[attr-defined]
            # Recorded as seen, so the refusal is retired like any file once the link is gone.
            await conn.execute(query("see_file"), room, refused.rel, marker, 0)
        await self._note_folder(room)

    async def _note_folder(self, room: str) -> None:
        if room in self._noted:
            return
        async with self._pool.acquire() as conn:  # type: ignore[attr-defined]
            await conn.execute(query("note_room_folder"), room, str(self._root / room))
        self._noted.add(room)

    async def _settle_once(self, room: str, found: RoomFile) -> None:
        rel, path = found.rel, found.path
        previous: tuple[int, str] | None = None
        wait = self._settle
        while True:
            if not path.is_file():
                if not path.exists():
                    await self._pipeline.file_removed(room, rel)
                return
            try:
                size = path.stat().st_size
                if size > self._max_file_bytes:
                    # Recorded as failed with the reason; its bytes are never read in.
                    await self._documents.ingest_file(room, self._root / room, path)
                    return
                size, digest, data = await asyncio.to_thread(_read_settled_digest, path)
            except FileNotFoundError:
                continue
            if previous == (size, digest):
                break
            if previous is not None:
                # Still being written: each time it has moved, give the writer twice as long to pause.
                wait = min(wait * 2, _SETTLE_CAP_S)
            previous = (size, digest)
            await asyncio.sleep(wait)
        if _kind_of(rel) == "deck":
            submitted = await self._pipeline.submit_deck(room, rel, data, trigger="watch")
        else:
            submitted = await self._pipeline.submit_filing(room, rel, data)
        await self._note_folder(room)
        if submitted.queued:
            log.info("%s/%s settled (%d bytes)%s", room, rel, size,
                     f"; run {submitted.run_id} queued" if submitted.run_id else "; parse queued")


_SETTLE_CAP_S = 2.0


def _awatch(root: Path, stop: asyncio.Event, polling: bool):  # type: ignore[no-untyped-def]
    from watchfiles import awatch

    return awatch(root, stop_event=stop, force_polling=polling, poll_delay_ms=300, step=50, recursive=True,
                  ignore_permission_denied=True)
