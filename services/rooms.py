"""Rooms on disk: which files are filings, which are decks, and ingesting a whole folder.

A room folder is a trust boundary: nothing outside a room's own real folder is read into that
room. A symbolic link is read as its target, under the target's path, when the target lies inside
the same room's folder (so it is read once, as the file it points at); a link that leads anywhere
else, file or folder, is refused and recorded in the room with the reason, and a folder behind
such a link is never walked. A room folder that is itself a link is not a room.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from services.access import ROOM_NAME
from services.documents import DocumentOutcome, DocumentService

__all__ = [
    "DECKS_FOLDER",
    "OUTSIDE_ROOM",
    "Refused",
    "RoomFile",
    "filings_in",
    "ingest_room",
    "is_room_folder",
    "place",
    "room_name_for",
    "walk_room",
]

log = logging.getLogger(__name__)

DECKS_FOLDER = "decks"
OUTSIDE_ROOM = "outside-room"


class RoomFile(NamedTuple):
    """A file that really lies in the room: its path inside the room, and where it is read from."""

    rel: str
    path: Path


class Refused(NamedTuple):
    """A link that leads out of the room: recorded under the link's own path, never read."""

    rel: str
    detail: str
    target: str
    """Where the link points, for the operator's log only: the room never sees it."""


def room_name_for(room_dir: Path, rooms_root: Path) -> str:
    """A watched room is named by its folder; any other folder gets its name plus a path digest,
    so two folders that share a name never share a room."""
    room_dir = room_dir.resolve()
    try:
        rel = room_dir.relative_to(rooms_root.resolve())
        if len(rel.parts) == 1 and ROOM_NAME.fullmatch(rel.parts[0]):
            return rel.parts[0]
    except ValueError:
        pass
    digest = hashlib.sha256(str(room_dir).encode()).hexdigest()[:8]
    # A folder name may hold spaces, newlines or any script; a room name may not.
    base = re.sub(r"[^A-Za-z0-9._-]+", "-", room_dir.name).strip("-._")[:80] or "room"
    return f"{base}-{digest}"


def is_room_folder(path: Path) -> bool:
    """A real folder: a link posing as a room would pour another folder's files into this room."""
    return path.is_dir() and not path.is_symlink()


def _hidden(parts: tuple[str, ...]) -> bool:
    return any(part.startswith(".") or part.startswith("~$") for part in parts)


def _refusal(room_real: Path, seen: Path, target: str) -> Refused:
    # The refusal is named by the outermost link on the way, so a linked folder is one record,
    # not one per file a watcher happened to see behind it.
    link = seen
    for parent in reversed([seen, *seen.parents]):
        if parent == room_real or not parent.is_relative_to(room_real):
            continue
        if parent.is_symlink():
            link = parent
            break
    what = "folder" if link.is_dir() else "file"
    return Refused(link.relative_to(room_real).as_posix(),
                   f"a symbolic link to a {what} outside this room's folder; only the room's own files are read "
                   "(copy the file into the room instead)", target)


def place(room_real: Path, seen: Path) -> RoomFile | Refused | None:
    """What ``seen`` (a path inside the room folder ``room_real``, itself resolved) is to the room:
    a room file read from its real path, a refused link, or None (gone, a folder, hidden)."""
    if _hidden(seen.relative_to(room_real).parts):
        return None
    try:
        real = seen.resolve()
    except (OSError, RuntimeError):  # a link loop
        return _refusal(room_real, seen, "(a loop of links)")
    if real == room_real or not real.is_relative_to(room_real):
        return _refusal(room_real, seen, str(real))
    rel = real.relative_to(room_real)
    if _hidden(rel.parts) or not real.is_file():
        return None
    return RoomFile(rel.as_posix(), real)


def walk_room(room_dir: Path, start: Path | None = None) -> Iterator[RoomFile | Refused]:
    """Every file of the room (or of its real folder ``start``) and every link out of it, in a
    stable order; links are never walked. A link whose target is inside the room is left to the
    walk, which reaches its target directly.
    """
    room_real = room_dir.resolve()
    for top, dirs, files in os.walk(start or room_real, followlinks=False):
        top_path = Path(top)
        dirs.sort()
        kept = []
        for name in dirs:
            path = top_path / name
            if _hidden((name,)):
                continue
            if path.is_symlink():
                if isinstance(found := place(room_real, path), Refused):
                    yield found
                continue
            kept.append(name)
        dirs[:] = kept
        for name in sorted(files):
            path = top_path / name
            if _hidden(path.relative_to(room_real).parts):
                continue
            found = place(room_real, path)
            if isinstance(found, Refused) or (found is not None and not path.is_symlink()):
                yield found


def _is_deck(rel: str) -> bool:
    return rel.split("/", 1)[0] == DECKS_FOLDER and "/" in rel


def filings_in(room_dir: Path) -> Iterator[Path]:
    """Every filing really in the room (not decks, not hidden or temporary files), in a stable order."""
    for found in walk_room(room_dir):
        if isinstance(found, RoomFile) and not _is_deck(found.rel):
            yield found.path


async def ingest_room(documents: DocumentService, room: str, room_dir: Path, *, parallel: int = 2,
                      skip: set[Path] | None = None) -> list[DocumentOutcome]:
    """Parse every filing in ``room_dir`` (cached by content), ``parallel`` at a time; record every
    link out of the room as refused, and retire the filings no longer in the folder."""
    gate = asyncio.Semaphore(parallel)
    room_real = room_dir.resolve()
    skip = {p.resolve() for p in (skip or set())}
    found = [f for f in walk_room(room_real)
             if isinstance(f, Refused) or (not _is_deck(f.rel) and f.path not in skip)]

    async def one(item: RoomFile | Refused) -> DocumentOutcome:
        if isinstance(item, Refused):
            log.warning("%s/%s refused: it links to %s, outside the room", room, item.rel, item.target)
            return await documents.refuse(room, item.rel, OUTSIDE_ROOM, item.detail)
        async with gate:
            return await documents.ingest_file(room, room_real, item.path)

    outcomes = list(await asyncio.gather(*(one(f) for f in found)))
    await documents.retire_missing(room, {f.rel for f in found} | {p.relative_to(room_real).as_posix()
                                                                   for p in skip if p.is_relative_to(room_real)})
    return outcomes
