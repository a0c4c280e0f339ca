"""Deck uploads streamed from the request to the blob table, never held whole in memory.

A multipart body is read chunk by chunk: the file part goes to an anonymous temporary file
(hashed and size-checked as it arrives), then into ``blob`` by a binary COPY read back from that
file in chunks. Every upload first reserves its declared size against one process-wide bound on
upload bytes in flight; beyond it the request is refused at once with a reason and Retry-After.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
import struct
import tempfile
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import IO

import asyncpg
from litestar.exceptions import ClientException, HTTPException

from services.sqlfiles import query

__all__ = ["MAX_FILENAME", "MULTIPART_SLACK", "InFlight", "Received", "receive_file", "store_blob"]

MAX_FILENAME = 255
MAX_PART_HEADERS = 8192
MULTIPART_SLACK = 64 * 1024
"""Room for a multipart body's boundaries and part headers beyond the file's own bytes."""
_MAX_FIELD = 64 * 1024
_CHUNK = 1 << 20
_HEAD = 4096
_COPY_HEADER = b"PGCOPY\n\xff\r\n\x00" + struct.pack("!ii", 0, 0)
_BOUNDARY = re.compile(r'boundary=(?:"([^"]{1,70})"|([^\s;,"]{1,70}))', re.I)
_PARAM = re.compile(r';\s*([A-Za-z0-9_*-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]*))')


class InFlight:
    """Upload bytes reserved by requests in progress, against one bound for the whole process."""

    __slots__ = ("capacity", "reserved")

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.reserved = 0

    @contextlib.contextmanager
    def reserve(self, size: int) -> Iterator[None]:
        """Hold ``size`` bytes for the block, or raise 503 (with Retry-After) when they do not fit.
        An upload is always admitted when nothing else is in flight, so a cap set below the
        upload limit slows uploads down to one at a time instead of refusing them for ever."""
        if self.reserved and self.reserved + size > self.capacity:
            raise HTTPException(
                status_code=503, headers={"Retry-After": "5"},
                detail=f"uploads in progress hold {self.reserved} of the {self.capacity} bytes this server "
                       f"accepts at once (TICKMARK_UPLOAD_INFLIGHT_MB); this one needs {size}: retry shortly",
                extra={"in_flight_bytes": self.reserved, "capacity_bytes": self.capacity, "retry_after_s": 5})
        self.reserved += size
        try:
            yield
        finally:
            self.reserved -= size


class Received:
    """A file part spooled to disk: its name, size, sha256 and first bytes."""

    __slots__ = ("filename", "size", "sha256", "head", "file")

    def __init__(self, filename: str, file: IO[bytes]) -> None:
        self.filename = filename
        self.file = file
        self.size = 0
        self.sha256 = ""
        self.head = b""


def boundary_of(content_type: str | None) -> bytes:
    """The multipart boundary, or 415 saying what the body must be."""
    media = (content_type or "").split(";", 1)[0].strip().lower()
    found = _BOUNDARY.search(content_type or "")
    if media != "multipart/form-data" or found is None:
        raise HTTPException(status_code=415, detail="a deck is uploaded as multipart/form-data with a boundary "
                                                    f"and a 'file' part (got Content-Type {media or 'none'!r})")
    return (found.group(1) or found.group(2)).encode("latin-1")


def _disposition(raw: bytes) -> tuple[str | None, str | None]:
    """(name, filename) from a part's headers; filename None when the part is not a file."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ClientException("a multipart part's headers are not UTF-8") from None
    name = filename = None
    for line in text.split("\r\n"):
        key, _, value = line.partition(":")
        if key.strip().lower() != "content-disposition":
            continue
        for m in _PARAM.finditer(value):
            param = m.group(1).lower()
            val = m.group(2) if m.group(2) is not None else m.group(3)
            if m.group(2) is not None:
                val = re.sub(r"\\(.)", r"\1", val)
            if param == "name":
                name = val
            elif param == "filename":
                filename = val
    return name, filename


def _check_filename(filename: str) -> str:
    if not filename.strip():
        raise ClientException("the file part has an empty file name; send the deck's name with its extension "
                              "(.pdf, .pptx, .md, .txt)")
    if len(filename) > MAX_FILENAME:
        raise ClientException(f"the file name is {len(filename)} characters long; at most {MAX_FILENAME}")
    if bad := next((c for c in filename if ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0), None):
        raise ClientException(f"the file name contains the control character {bad!r}")
    return filename


async def receive_file(chunks: AsyncIterator[bytes], boundary: bytes, spool_dir: Path, *,
                       limit: int, check_head: Callable[[str, bytes], None] | None = None) -> Received:
    """Stream the multipart body's ``file`` part into a temporary file under ``spool_dir``.

    Raises 400 for a malformed body or file name, 413 once the file passes ``limit`` bytes.
    ``check_head(filename, first_bytes)`` runs as soon as the first 4 KB (or the whole, smaller
    file) have arrived, so a wrong type is refused before the rest is read. The caller closes
    ``Received.file`` (it is deleted on close).
    """
    sep = b"\r\n--" + boundary
    keep = len(sep) + 1
    # A leading CRLF makes the first delimiter look like every later one.
    buf = bytearray(b"\r\n")
    state = "preamble"
    received: Received | None = None
    digest = hashlib.sha256()
    skipped = 0
    spool_dir.mkdir(parents=True, exist_ok=True)
    try:
        async for chunk in chunks:
            buf += chunk
            while True:
                if state in ("preamble", "file", "field"):
                    at = buf.find(sep)
                    end = at if at >= 0 else max(0, len(buf) - keep)
                    if state == "file" and end:
                        assert received is not None
                        piece = bytes(buf[:end])
                        if received.size + len(piece) > limit:
                            raise _too_large(limit)
                        if len(received.head) < _HEAD:
                            received.head += piece[:_HEAD - len(received.head)]
                            if len(received.head) == _HEAD and check_head is not None:
                                check_head(received.filename, received.head)
                        received.file.write(piece)
                        digest.update(piece)
                        received.size += len(piece)
                    elif state == "field":
                        skipped += end
                        if skipped > _MAX_FIELD:
                            raise ClientException(f"a multipart field other than 'file' is over {_MAX_FIELD} bytes")
                    del buf[:end]
                    if at < 0:
                        break
                    del buf[:len(sep)]
                    state = "delimiter"
                if state == "delimiter":
                    if len(buf) < 2:
                        break
                    if buf[:2] == b"--":
                        state = "done"
                        break
                    if buf[:2] != b"\r\n":
                        raise ClientException("the multipart body is malformed: a boundary is not followed by CRLF")
                    del buf[:2]
                    state = "headers"
                if state == "headers":
                    at = buf.find(b"\r\n\r\n")
                    if at < 0 and len(buf) <= MAX_PART_HEADERS:
                        break
                    if at < 0 or at > MAX_PART_HEADERS:
                        raise ClientException(f"a multipart part's headers are over {MAX_PART_HEADERS} bytes; "
                                              f"a file name may be at most {MAX_FILENAME} characters")
                    name, filename = _disposition(bytes(buf[:at]))
                    del buf[:at + 4]
                    if name == "file" and filename is not None:
                        if received is not None:
                            raise ClientException("the upload carries more than one 'file' part; send one deck")
                        received = Received(_check_filename(filename),
                                            tempfile.TemporaryFile(dir=spool_dir, prefix="upload-"))
                        state = "file"
                    elif name == "file":
                        raise ClientException("the 'file' part has no filename; send the deck as a file")
                    else:
                        skipped, state = 0, "field"
            if state == "done":
                break
        if state != "done":
            raise ClientException("the multipart body ended before its closing boundary")
        if received is None:
            raise ClientException("the upload has no 'file' part")
        if len(received.head) < _HEAD and check_head is not None:
            check_head(received.filename, received.head)
    except BaseException:
        if received is not None:
            received.file.close()
        raise
    received.sha256 = digest.hexdigest()
    received.file.flush()
    return received


def _too_large(limit: int) -> HTTPException:
    return HTTPException(status_code=413, detail=f"the upload is over the limit of {limit} bytes "
                                                 "(TICKMARK_MAX_UPLOAD_MB)", extra={"limit_bytes": limit})


async def _copy_rows(sha: str, size: int, file: IO[bytes]) -> AsyncIterator[bytes]:
    # PostgreSQL's binary COPY: header, one tuple of (text sha256, bytea data), trailer.
    key = sha.encode()
    yield _COPY_HEADER + struct.pack("!hi", 2, len(key)) + key + struct.pack("!i", size)
    file.seek(0)
    while piece := file.read(_CHUNK):
        yield piece
    yield struct.pack("!h", -1)


async def store_blob(pool: asyncpg.Pool, received: Received) -> None:
    """Put the spooled bytes into ``blob`` under their sha256 (nothing to do when already there)."""
    async with pool.acquire() as conn:
        if await conn.fetchval(query("blob_exists"), received.sha256):
            return
        # Two uploads of the same bytes at once: the second COPY meets the first's row.
        with contextlib.suppress(asyncpg.UniqueViolationError):
            await conn.copy_to_table("blob", source=_copy_rows(received.sha256, received.size, received.file),
                                     columns=["sha256", "data"], format="binary")
