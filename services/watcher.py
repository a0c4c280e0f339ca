"""Watches every room under ``TICKMARK_ROOMS``: settled files become parse jobs or runs.

A large copy fires many events and nothing says "write finished", so a file is submitted only
once its size and sha256 are the same across ``settle_seconds``. A file in ``<room>/decks/``
starts a verification run; any other file is a filing; a deleted file marks its document removed.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from pathlib import Path

from watchfiles import Change, awatch

from services.documents import DocumentService
from services.pipeline import Pipeline
from services.rooms import DECKS_FOLDER
from services.sqlfiles import query

__all__ = ["RoomWatcher", "room_and_path"]

log = logging.getLogger(__name__)


def room_and_path(root: Path, path: Path) -> tuple[str, str] | None:
    """(room, path inside the room) for a file under ``root``; None for what is not a room file."""
    try:
        parts = path.relative_to(root).parts
    except ValueError:
        return None
    if len(parts) < 2 or any(p.startswith(".") or p.startswith("~$") for p in parts):
        return None
    return parts[0], "/".join(parts[1:])


def _read_settled_digest(path: Path) -> tuple[int, str, bytes]:
    data = path.read_bytes()
    return len(data), hashlib.sha256(data).hexdigest(), data


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
        self._pending: dict[Path, asyncio.Task[None]] = {}
        self._dirty: set[Path] = set()
        self.ready = asyncio.Event()
        """Set once the start-up scan has submitted what changed while no watcher ran."""

    async def run(self, stop: asyncio.Event) -> None:
        self._root.mkdir(parents=True, exist_ok=True)
        log.info("watching rooms under %s%s", self._root, " (polling)" if self._polling else "")
        watch = awatch(self._root, stop_event=stop, force_polling=self._polling, poll_delay_ms=300,
                       step=50, recursive=True, ignore_permission_denied=True)
        try:
            # Started first so nothing written during the scan is missed; the scan then settles
            # every file present, and a path already settling is not settled twice.
            changes_iter = watch.__aiter__()
            first = asyncio.ensure_future(changes_iter.__anext__())
            await self._scan()
            self.ready.set()
            pending: asyncio.Future[set[tuple[Change, str]]] | None = first
            while True:
                assert pending is not None
                try:
                    changes = await pending
                except StopAsyncIteration:
                    return
                for change, raw in changes:
                    self._changed(Path(raw), removed=change == Change.deleted)
                pending = asyncio.ensure_future(changes_iter.__anext__())
        finally:
            for task in list(self._pending.values()):
                task.cancel()
            for task in list(self._pending.values()):
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    async def _scan(self) -> None:
        present: set[tuple[str, str]] = set()
        for path in sorted(self._root.rglob("*")):
            if path.is_file() and (where := room_and_path(self._root, path)) is not None:
                present.add(where)
                self._changed(path, removed=False)
        async with self._pool.acquire() as conn:  # type: ignore[attr-defined]
            known = {(r["room"], r["path"]) for r in await conn.fetch(query("present_files"))}
        for room, rel in sorted(known - present):
            # Rooms now outside the watched root are not ours to mark.
            if (self._root / room).is_dir():
                await self._pipeline.file_removed(room, rel)

    def _changed(self, path: Path, *, removed: bool) -> None:
        if not removed and path.is_dir():
            # A file written into a just-created folder (a new room, decks/) before the watch on
            # that folder is in place raises no event of its own: look inside the folder.
            for inner in sorted(path.rglob("*")):
                if inner.is_file():
                    self._changed(inner, removed=False)
            return
        if room_and_path(self._root, path) is None:
            return
        task = self._pending.get(path)
        if task is not None and not task.done():
            self._dirty.add(path)  # its loop settles the file again once this round is submitted
            return
        task = asyncio.create_task(self._settle_then_submit(path))
        self._pending[path] = task
        task.add_done_callback(lambda t, p=path: self._forget(p, t))

    def _forget(self, path: Path, task: asyncio.Task[None]) -> None:
        if self._pending.get(path) is task:
            del self._pending[path]
        if not task.cancelled() and task.exception() is not None:
            log.error("watcher: %s", path, exc_info=task.exception())

    async def _settle_then_submit(self, path: Path) -> None:
        while True:
            self._dirty.discard(path)
            await self._settle_once(path)
            if path not in self._dirty:
                return

    async def _settle_once(self, path: Path) -> None:
        where = room_and_path(self._root, path)
        assert where is not None
        room, rel = where
        previous: tuple[int, str] | None = None
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
            previous = (size, digest)
            await asyncio.sleep(self._settle)
        if rel.split("/", 1)[0] == DECKS_FOLDER and "/" in rel:
            submitted = await self._pipeline.submit_deck(room, rel, data, trigger="watch")
        else:
            submitted = await self._pipeline.submit_filing(room, rel, data)
        if submitted.queued:
            log.info("%s/%s settled (%d bytes)%s", room, rel, size,
                     f"; run {submitted.run_id} queued" if submitted.run_id else "; parse queued")
