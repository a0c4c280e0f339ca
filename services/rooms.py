"""Rooms on disk: which files are filings, which are decks, and ingesting a whole folder."""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Iterator
from pathlib import Path

from services.documents import DocumentOutcome, DocumentService

__all__ = ["DECKS_FOLDER", "filings_in", "ingest_room", "room_name_for"]

DECKS_FOLDER = "decks"


def room_name_for(room_dir: Path, rooms_root: Path) -> str:
    """A watched room is named by its folder; any other folder gets its name plus a path digest,
    so two folders that share a name never share a room."""
    room_dir = room_dir.resolve()
    try:
        rel = room_dir.relative_to(rooms_root.resolve())
        if len(rel.parts) == 1:
            return rel.parts[0]
    except ValueError:
        pass
    digest = hashlib.sha256(str(room_dir).encode()).hexdigest()[:8]
    return f"{room_dir.name}-{digest}"


def _visible(path: Path, root: Path) -> bool:
    return not any(part.startswith(".") or part.startswith("~$") for part in path.relative_to(root).parts)


def filings_in(room_dir: Path) -> Iterator[Path]:
    """Every file in the room except decks and hidden or temporary files, in a stable order."""
    for path in sorted(room_dir.rglob("*")):
        if not path.is_file() or not _visible(path, room_dir):
            continue
        if path.relative_to(room_dir).parts[0] == DECKS_FOLDER:
            continue
        yield path


async def ingest_room(documents: DocumentService, room: str, room_dir: Path, *, parallel: int = 2,
                      skip: set[Path] | None = None) -> list[DocumentOutcome]:
    """Parse every filing in ``room_dir`` (cached by content), ``parallel`` at a time."""
    gate = asyncio.Semaphore(parallel)
    skip = {p.resolve() for p in (skip or set())}

    async def one(path: Path) -> DocumentOutcome:
        async with gate:
            return await documents.ingest_file(room, room_dir, path)

    return list(await asyncio.gather(*(one(p) for p in filings_in(room_dir) if p.resolve() not in skip)))
