"""Per-room bearer tokens, and database access scoped to one room by row-level security.

A request that carries a token sees one room: the app checks the room it names, and every
query it makes runs in a transaction as ``tickmark_app`` with ``tickmark.room`` set, so
PostgreSQL itself hides every other room's rows (``sql/004_access.sql``). Background work
(workers, dispatcher, watcher) uses the owner's pool, which RLS does not restrict.
"""

from __future__ import annotations

import contextlib
import hashlib
import ipaddress
import re
import secrets
from collections.abc import AsyncIterator
from datetime import datetime
from typing import Any, Protocol

import asyncpg
import msgspec
from litestar.connection import ASGIConnection
from litestar.exceptions import ClientException, NotAuthorizedException, PermissionDeniedException
from litestar.handlers.base import BaseRouteHandler

from services.sqlfiles import query

__all__ = [
    "INT64_MAX",
    "ROOM_NAME",
    "TOKEN_PREFIX",
    "Access",
    "Acquirer",
    "RoomPool",
    "TokenCreated",
    "TokenOut",
    "auth_required",
    "authorize",
    "create_token",
    "hash_token",
    "list_tokens",
    "path_problem",
    "provide_access",
    "revoke_token",
    "room_name_problem",
]

TOKEN_PREFIX = "tm_"
_GUARDED = "/api/"
INT64_MAX = 2**63 - 1
"""Row ids are PostgreSQL bigints: a larger number names nothing and must not reach a query."""
ROOM_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
"""A room name, matched whole (``fullmatch``): no control characters, no path separators."""
_MAX_PATH_TEXT = 200


def room_name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a room name, or None."""
    if ROOM_NAME.fullmatch(name):
        return None
    shown = name if len(name) <= 60 else name[:60] + "…"
    return f"{shown!r} is not a room name: a letter or digit, then letters, digits, '.', '_' or '-', up to 100"


def path_problem(params: dict[str, Any]) -> str | None:
    """Why a request's path parameters cannot name anything, or None: the one check every route shares."""
    for key, value in params.items():
        if key == "room" and isinstance(value, str):
            if (problem := room_name_problem(value)) is not None:
                return problem
        elif isinstance(value, int) and not isinstance(value, bool) and not 0 <= value <= INT64_MAX:
            return f"{key} {value} is out of range: ids are 0 to {INT64_MAX}"
        elif isinstance(value, str):
            if len(value) > _MAX_PATH_TEXT:
                return f"{key} is {len(value)} characters long; at most {_MAX_PATH_TEXT}"
            if any(ord(c) < 0x20 or ord(c) == 0x7F for c in value):
                return f"{key} contains a control character"
    return None


class Acquirer(Protocol):
    """What the reads need from a pool: ``acquire()`` as an async context manager."""

    def acquire(self, *, timeout: float | None = None) -> Any: ...


class RoomPool:
    """A pool whose every connection is one transaction bound to one room by RLS."""

    __slots__ = ("_pool", "room")

    def __init__(self, pool: asyncpg.Pool, room: str) -> None:
        self._pool = pool
        self.room = room

    @contextlib.asynccontextmanager
    async def acquire(self, *, timeout: float | None = None) -> AsyncIterator[asyncpg.Connection]:
        async with self._pool.acquire(timeout=timeout) as conn, conn.transaction():
            await conn.execute(query("scope_to_room"), self.room)
            yield conn


class Access(msgspec.Struct, frozen=True):
    """Who is asking: one room's token, or (open mode, no token) every room."""

    room: str | None
    token_id: int | None = None

    def allows(self, room: str) -> bool:
        return self.room is None or self.room == room

    def db(self, pool: asyncpg.Pool) -> Acquirer:
        """The owner's pool for every room; an RLS-bound one for a token's room."""
        return pool if self.room is None else RoomPool(pool, self.room)


class TokenCreated(msgspec.Struct):
    id: int
    room: str
    token: str
    """Shown once; only its sha256 is stored."""


class TokenOut(msgspec.Struct):
    id: int
    room: str
    name: str
    prefix: str
    created_at: datetime
    revoked_at: datetime | None = None


def hash_token(token: str) -> str:
    # Tokens carry 256 random bits, so a fast hash is enough: there is nothing to brute-force.
    return hashlib.sha256(token.encode()).hexdigest()


async def create_token(pool: asyncpg.Pool, room: str, name: str = "") -> TokenCreated:
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    async with pool.acquire() as conn, conn.transaction():
        await conn.execute(query("ensure_room"), room)
        row = await conn.fetchrow(query("create_token"), room, name, hash_token(token), token[:12])
    return TokenCreated(id=row["id"], room=room, token=token)


async def revoke_token(pool: asyncpg.Pool, ident: str) -> list[tuple[int, str]]:
    """Revoke by id or by the printed prefix; returns (id, room) of what was revoked."""
    by_id = int(ident) if re.fullmatch(r"[0-9]{1,18}", ident) else -1
    async with pool.acquire() as conn:
        rows = await conn.fetch(query("revoke_token"), by_id, ident[:12])
    return [(r["id"], r["room"]) for r in rows]


async def list_tokens(pool: asyncpg.Pool) -> list[TokenOut]:
    async with pool.acquire() as conn:
        rows = await conn.fetch(query("list_tokens"))
    return [TokenOut(id=r["id"], room=r["room"], name=r["name"], prefix=r["prefix"], created_at=r["created_at"],
                     revoked_at=r["revoked_at"]) for r in rows]


def auth_required(mode: str, host: str) -> bool:
    """``required`` always, ``open`` never, ``auto`` unless serving on a loopback address only."""
    if mode in ("required", "open"):
        return mode == "required"
    if host == "localhost":
        return False
    try:
        return not ipaddress.ip_address(host).is_loopback
    except ValueError:
        return True


def _presented(connection: ASGIConnection[Any, Any, Any, Any]) -> str | None:
    header = connection.headers.get("authorization") or ""
    scheme, _, value = header.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    # EventSource cannot send headers: the page passes the token as a query parameter.
    return connection.query_params.get("token") or None


async def authorize(connection: ASGIConnection[Any, Any, Any, Any], _: BaseRouteHandler) -> None:
    """Guard for every ``/api/`` route: resolve the token and check the room the path names."""
    if not connection.url.path.startswith(_GUARDED):
        return
    if (problem := path_problem(connection.path_params)) is not None:
        raise ClientException(problem)
    core = connection.app.state.core
    token = _presented(connection)
    if token is None:
        if auth_required(core.settings.auth, core.settings.host):
            raise NotAuthorizedException("a room token is required: send 'Authorization: Bearer <token>'",
                                         headers={"WWW-Authenticate": 'Bearer realm="tickmark"'})
        access = Access(room=None)
    else:
        async with core.pool.acquire() as conn:
            row = await conn.fetchrow(query("token_room"), hash_token(token))
        if row is None:
            raise NotAuthorizedException("the token is unknown or revoked",
                                         headers={"WWW-Authenticate": 'Bearer error="invalid_token"'})
        access = Access(room=row["room"], token_id=row["id"])
    room = connection.path_params.get("room")
    if isinstance(room, str) and not access.allows(room):
        raise PermissionDeniedException("this token does not grant access to that room")
    connection.state.access = access


def provide_access(request: Any) -> Access:
    """The ``access`` dependency: what :func:`authorize` resolved for this request."""
    return request.state.access  # type: ignore[no-any-return]
