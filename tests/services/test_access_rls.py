"""Room tokens and row-level security: one room's token sees nothing of another room, in the
database itself; webhook targets pass the egress policy; secrets never reach a log line."""

from __future__ import annotations

import io
import logging
import uuid

import asyncpg
import pytest

from services import access, redact
from services.access import Access, RoomPool, auth_required
from services.api import deck_type_problem
from services.egress import EgressPolicy, TargetRefused
from services.sqlfiles import query


@pytest.fixture
async def two_rooms(pool: asyncpg.Pool) -> tuple[str, str]:
    """Rooms a and b, each with a document, fact, run, claim, verdict, event, webhook and delivery."""
    a, b = f"rls-a-{uuid.uuid4().hex[:6]}", f"rls-b-{uuid.uuid4().hex[:6]}"
    async with pool.acquire() as conn, conn.transaction():
        for room in (a, b):
            await conn.execute(query("ensure_room"), room)
            doc = await conn.fetchval("INSERT INTO document (room, path, sha256, size, kind, status) "
                                      "VALUES ($1, 'f.html', $1, 1, 'filing', 'parsed') RETURNING id", room)
            await conn.execute("INSERT INTO doc_table (document_id, table_id, title, scale, scale_source, grid) "
                               "VALUES ($1, 't1', 'T', 0, 'none', '{}')", doc)
            await conn.execute("INSERT INTO fact (document_id, room, entity, entity_key, metric, label, basis, period,"
                               " value, unit, scale, as_printed, source) VALUES ($1, $2, 'E', 'e', 'revenue', 'r',"
                               " 'gaap', 'FY2024', 1, 'USD', 0, '1', '{}')", doc, room)
            run = await conn.fetchval("INSERT INTO run (room, deck_path, trigger) VALUES ($1, 'd.md', 'cli') "
                                      "RETURNING id", room)
            await conn.execute("INSERT INTO claim (run_id, claim_id, room, page, body) VALUES ($1, 'p1-c1', $2, 1, "
                               "'{}')", run, room)
            await conn.execute("INSERT INTO verdict (run_id, claim_id, room, verdict, reason, body) VALUES "
                               "($1, 'p1-c1', $2, 'supported', 'r', '{}')", run, room)
            event = await conn.fetchval(query("publish_event"), "run.finished", room, run, "{}")
            hook = await conn.fetchval("INSERT INTO webhook (room, url, format, secret) VALUES ($1, 'http://x', "
                                       "'json', 's') RETURNING id", room)
            await conn.execute("INSERT INTO delivery (webhook_id, room, event_id, idempotency_key) VALUES "
                               "($1, $2, $3, $2)", hook, room, event)
    return a, b


TABLES = ["room", "document", "doc_table", "fact", "run", "claim", "verdict", "event", "webhook", "delivery"]


async def _visible(db: access.Acquirer, table: str, room: str) -> int:
    column = {"room": "name"}.get(table, "room")
    if table == "doc_table":
        sql = "SELECT count(*) FROM doc_table t JOIN document d ON d.id = t.document_id WHERE d.room = $1"
        unscoped = "SELECT count(*) FROM doc_table WHERE document_id IN (SELECT id FROM document WHERE room = $1)"
        async with db.acquire() as conn:
            return int(await conn.fetchval(sql, room)) + int(await conn.fetchval(unscoped, room))
    async with db.acquire() as conn:
        return int(await conn.fetchval(f"SELECT count(*) FROM {table} WHERE {column} = $1", room))


@pytest.mark.parametrize("table", TABLES)
async def test_row_level_security_hides_another_rooms_rows(pool: asyncpg.Pool, two_rooms: tuple[str, str],
                                                           table: str):
    a, b = two_rooms
    scoped = RoomPool(pool, a)
    assert await _visible(scoped, table, a) > 0
    assert await _visible(scoped, table, b) == 0, f"room {a}'s scope sees room {b}'s {table} rows"
    assert await _visible(pool, table, b) > 0, "the owner (background work) sees every room"


async def test_the_scoped_role_cannot_bypass_rls_and_sees_nothing_without_a_room(pool: asyncpg.Pool,
                                                                                   two_rooms: tuple[str, str]):
    async with pool.acquire() as conn:
        role = await conn.fetchrow("SELECT rolbypassrls, rolsuper, rolcanlogin FROM pg_roles "
                                   "WHERE rolname = 'tickmark_app'")
        assert tuple(role.values()) == (False, False, False)
        async with conn.transaction():
            await conn.execute("SET LOCAL ROLE tickmark_app")
            assert await conn.fetchval("SELECT count(*) FROM event") == 0
            assert await conn.fetchval("SELECT count(*) FROM run") == 0
            with pytest.raises(asyncpg.InsufficientPrivilegeError):
                await conn.fetchval("SELECT count(*) FROM blob")
        async with conn.transaction():
            await conn.execute(query("scope_to_room"), two_rooms[0])
            # Writing into another room is refused by the policy's check, not only hidden.
            with pytest.raises(asyncpg.InsufficientPrivilegeError):
                await conn.execute("INSERT INTO webhook (room, url, format, secret) VALUES ($1, 'http://x', "
                                   "'json', 's')", two_rooms[1])
        # The role does not leak past the transaction into the pooled connection.
        assert await conn.fetchval("SELECT current_user") != "tickmark_app"


async def test_tokens_are_stored_hashed_and_revoke_by_id_or_prefix(pool: asyncpg.Pool):
    room = f"tok-{uuid.uuid4().hex[:6]}"
    made = await access.create_token(pool, room, "analyst")
    assert made.token.startswith(access.TOKEN_PREFIX) and len(made.token) > 40
    async with pool.acquire() as conn:
        stored = await conn.fetchrow("SELECT * FROM api_token WHERE id = $1", made.id)
        assert made.token not in str(dict(stored)), "the token itself must never be stored"
        assert (await conn.fetchrow(query("token_room"), access.hash_token(made.token)))["room"] == room
    assert await access.revoke_token(pool, made.token[:12]) == [(made.id, room)]
    assert await access.revoke_token(pool, str(made.id)) == []
    async with pool.acquire() as conn:
        assert await conn.fetchrow(query("token_room"), access.hash_token(made.token)) is None


def test_auth_defaults_to_open_on_loopback_only():
    assert not auth_required("auto", "127.0.0.1") and not auth_required("auto", "::1")
    assert not auth_required("auto", "localhost")
    assert auth_required("auto", "0.0.0.0") and auth_required("auto", "10.1.2.3")
    assert auth_required("required", "127.0.0.1") and not auth_required("open", "0.0.0.0")
    assert Access(room=None).allows("x") and not Access(room="a").allows("b")


@pytest.mark.parametrize("address, refused", [
    ("169.254.169.254", "metadata"), ("169.254.10.1", "169.254.0.0/16"), ("fe80::1", "fe80::/10"),
    ("::ffff:169.254.169.254", "metadata"), ("100.100.100.200", "metadata"), ("fd00:ec2::254", "metadata"),
    ("127.0.0.1", "loopback"), ("::1", "loopback"), ("0.0.0.0", "0.0.0.0/8"), ("224.0.0.1", "224.0.0.0/4"),
    ("93.184.216.34", None), ("10.0.0.5", None),
])
def test_egress_policy_refuses_link_local_metadata_and_loopback_by_default(address: str, refused: str | None):
    why = EgressPolicy().refusal(address)
    assert (why is None) if refused is None else (why is not None and refused in why), why


def test_egress_policy_allow_and_deny_lists():
    assert EgressPolicy(allow_loopback=True).refusal("127.0.0.1") is None
    assert EgressPolicy(allow_loopback=True).refusal("169.254.169.254") is not None, "metadata stays denied"
    assert "denied network" in (EgressPolicy(deny=("10.0.0.0/8",)).refusal("10.1.1.1") or "")
    allow = EgressPolicy(allow=("203.0.113.0/24",))
    assert allow.refusal("203.0.113.9") is None and "outside" in (allow.refusal("198.51.100.1") or "")


async def test_egress_check_resolves_the_host_and_checks_every_address():
    with pytest.raises(TargetRefused, match="loopback"):
        await EgressPolicy().check("http://localhost:9/hook")
    with pytest.raises(TargetRefused, match="metadata"):
        await EgressPolicy(allow_loopback=True).check("http://169.254.169.254/latest/meta-data/")
    with pytest.raises(TargetRefused, match="credentials"):
        await EgressPolicy().check("http://user:pw@example.com/")
    with pytest.raises(TargetRefused, match="http"):
        await EgressPolicy().check("file:///etc/passwd")
    assert await EgressPolicy(allow_loopback=True).check("http://127.0.0.1:9/hook") == ["127.0.0.1"]


@pytest.mark.parametrize(
    ("url", "address", "target", "host", "extensions"),
    [
        ("http://hooks.example.com/x?a=1", "203.0.113.7", "http://203.0.113.7/x?a=1", "hooks.example.com", {}),
        ("https://hooks.example.com:8443/x", "203.0.113.7", "https://203.0.113.7:8443/x", "hooks.example.com:8443",
         {"sni_hostname": "hooks.example.com"}),
        ("http://hooks.example.com", "2001:db8::1", "http://[2001:db8::1]/", "hooks.example.com", {}),
    ],
)
def test_delivery_connects_to_the_checked_address_not_a_fresh_lookup(url, address, target, host, extensions):
    from services.webhooks import pinned

    assert pinned(url, address) == (target, host, extensions)


def test_log_records_are_masked_whatever_logger_or_argument_carries_the_secret():
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.addFilter(redact.RedactSecrets())
    logger = logging.getLogger(f"tickmark.test.{uuid.uuid4().hex[:6]}")
    logger.addHandler(handler)
    logger.propagate = False
    redact.remember("whsec-correct-horse-battery")
    try:
        logger.warning("connecting to %s", "postgresql://tickmark:hunter2pw@db:5432/tickmark")
        logger.warning('%s - "%s %s HTTP/%s" %d', "127.0.0.1:5", "GET",
                       "/api/rooms/a/events?token=tm_AbCdEfGhIjKlMnOpQrStUvWx", "1.1", 200)
        logger.warning("Authorization: Bearer tm_0123456789abcdefghijklmn; secret whsec-correct-horse-battery")
        try:
            raise RuntimeError("cannot reach postgres://u:hunter2pw@h/db")
        except RuntimeError:
            logger.exception("failed")
    finally:
        logger.removeHandler(handler)
    text = out.getvalue()
    for secret in ("hunter2pw", "tm_AbCdEfGhIjKlMnOpQrStUvWx", "tm_0123456789abcdefghijklmn",
                   "whsec-correct-horse-battery"):
        assert secret not in text
    assert "tickmark:***@db" in text and "200" in text and "RuntimeError" in text


@pytest.mark.parametrize("name, head, ok", [
    ("deck.pdf", b"%PDF-1.7\n", True), ("deck.pdf", b"<html>", False), ("deck.pptx", b"PK\x03\x04...", True),
    ("deck.pptx", b"%PDF-1.4", False), ("deck.md", "# Résumé\n".encode(), True), ("deck.md", b"\x00\x01\x02", False),
    ("deck.txt", b"\xff\xfe\xfa bad", False), ("deck.exe", b"MZ", False), ("deck", b"# x", False),
    ("deck.html", b"<html>", False),
])
def test_deck_uploads_are_checked_by_extension_and_first_bytes(name: str, head: bytes, ok: bool):
    assert (deck_type_problem(name, head) is None) == ok
