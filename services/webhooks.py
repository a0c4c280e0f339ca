"""Chat webhooks per room: finished runs and flipped verdicts, signed, retried, every attempt kept.

A delivery row is created in the dispatcher's transaction with a unique idempotency key
(webhook, event), and a ``deliver`` job sends it; a failure schedules the next attempt as a
delayed job, so a slow or dead endpoint holds a worker slot for one timeout at most and never
touches verification. Delivery is at-least-once: receivers dedupe on the idempotency key.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
import time
from datetime import datetime, timedelta
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import httpx
import msgspec

from events.bus import Bus, StoredEvent
from events.types import WebhookDelivered, WebhookFailed
from services import redact
from services.access import Acquirer
from services.egress import EgressPolicy, TargetRefused
from services.jobs import Handler, enqueue
from services.sqlfiles import query

__all__ = [
    "JOB_DELIVER",
    "NOTIFY_TYPES",
    "DeliverJob",
    "WebhookIn",
    "WebhookOut",
    "Webhooks",
    "pinned",
    "render",
    "sign",
]

log = logging.getLogger(__name__)

JOB_DELIVER = "deliver"
NOTIFY_TYPES = frozenset({"run.finished", "verdict.changed"})
SIGNATURE_HEADER = "X-Tickmark-Signature"
_RETRYABLE_STATUS = frozenset({408, 425, 429})

Format = Literal["slack", "teams", "json"]


class WebhookIn(msgspec.Struct, forbid_unknown_fields=True):
    url: Annotated[str, msgspec.Meta(max_length=2048)]
    format: Format = "json"
    secret: Annotated[str, msgspec.Meta(min_length=1, max_length=256, pattern=r"^[\x21-\x7e]+$")] | None = None
    """Shared HMAC secret (up to 256 printable ASCII characters); one is generated when omitted and returned once."""


class WebhookOut(msgspec.Struct):
    id: int
    room: str
    url: str
    format: str
    created_at: datetime
    secret: str | None = None
    """Only in the answer to the POST that created it."""
    delivered: int = 0
    pending: int = 0
    failed: int = 0
    last_delivered_at: datetime | None = None


class DeliverJob(msgspec.Struct, frozen=True):
    delivery_id: int


class _Attempt(msgspec.Struct, frozen=True):
    status_code: int | None
    error: str | None
    retryable: bool
    duration_ms: float


def pinned(url: str, address: str) -> tuple[str, str, dict[str, str]]:
    """``url`` aimed at ``address``, with the Host header value and the TLS server name it needs."""
    parts = urlsplit(url)
    hostname = parts.hostname or ""
    ip = f"[{address}]" if ":" in address else address
    netloc = f"{ip}:{parts.port}" if parts.port else ip
    host = f"{hostname}:{parts.port}" if parts.port else hostname
    extensions = {"sni_hostname": hostname} if parts.scheme == "https" else {}
    return urlunsplit((parts.scheme, netloc, parts.path or "/", parts.query, "")), host, extensions


def sign(secret: str, body: bytes) -> str:
    """The ``X-Tickmark-Signature`` value: ``sha256=`` and the hex HMAC of the exact body."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def _summary(event_type: str, body: dict[str, Any], room: str, deck: str | None) -> str:
    if event_type == "verdict.changed":
        cause = f" after {body['cause_document']}" if body.get("cause_document") else ""
        return (f"Tickmark · {room}: “{body.get('text', '')}” changed from {body['before']} to "
                f"{body['after']}{cause}. {body.get('reason', '')}").strip()
    counts = body.get("counts", {})
    tally = ", ".join(f"{n} {verdict}" for verdict, n in counts.items())
    if body.get("status") == "failed":
        return f"Tickmark · {room}: verifying {deck or 'a deck'} failed: {body.get('error')}"
    return f"Tickmark · {room}: {deck or 'a deck'} verified: {tally}."


def render(fmt: str, *, event_id: int, event_type: str, body: dict[str, Any], room: str, deck: str | None,
           link: str | None, idempotency_key: str) -> bytes:
    """The request body for one delivery; byte-identical on every retry."""
    text = _summary(event_type, body, room, deck)
    if fmt == "slack":
        shown = f"{text}\n<{link}|Open the run>" if link else text
        out: dict[str, Any] = {"text": text,
                               "blocks": [{"type": "section", "text": {"type": "mrkdwn", "text": shown}}]}
    elif fmt == "teams":
        out = {"@type": "MessageCard", "@context": "https://schema.org/extensions", "summary": text,
               "title": f"Tickmark · {room}", "text": text}
        if link:
            out["potentialAction"] = [{"@type": "OpenUri", "name": "Open the run",
                                       "targets": [{"os": "default", "uri": link}]}]
    else:
        out = {"id": idempotency_key, "event_id": event_id, "type": event_type, "room": room,
               "run_id": body.get("run_id"), "deck": deck, "summary": text, "link": link, "data": body}
    return msgspec.json.encode(out)


class Webhooks:
    """Registers webhooks, turns notifiable events into deliveries, and sends them."""

    def __init__(self, pool: asyncpg.Pool, bus: Bus, *, public_url: str, max_attempts: int,
                 backoff_seconds: float, timeout_seconds: float, egress: EgressPolicy | None = None) -> None:
        self._pool = pool
        self._egress = egress or EgressPolicy()
        self._bus = bus
        self._public_url = public_url.rstrip("/")
        self._max_attempts = max(1, max_attempts)
        self._backoff = backoff_seconds
        self._timeout = timeout_seconds
        self._client: httpx.AsyncClient | None = None

    async def register(self, room: str, spec: WebhookIn, *, db: Acquirer | None = None) -> WebhookOut:
        """Raises TargetRefused when the URL's host resolves to an address the policy forbids."""
        await self._egress.check(spec.url)
        secret = spec.secret or secrets.token_hex(24)
        redact.remember(secret)
        async with (db or self._pool).acquire() as conn:
            await conn.execute(query("ensure_room"), room)
            row = await conn.fetchrow(query("create_webhook"), room, spec.url, spec.format, secret)
        return WebhookOut(id=row["id"], room=room, url=spec.url, format=spec.format, created_at=row["created_at"],
                          secret=secret)

    async def list(self, room: str, *, db: Acquirer | None = None) -> list[WebhookOut]:
        async with (db or self._pool).acquire() as conn:
            rows = await conn.fetch(query("list_webhooks"), room)
        return [WebhookOut(id=r["id"], room=room, url=r["url"], format=r["format"], created_at=r["created_at"],
                           delivered=r["delivered"], pending=r["pending"], failed=r["failed"],
                           last_delivered_at=r["last_delivered_at"]) for r in rows]

    async def delete(self, room: str, webhook_id: int, *, db: Acquirer | None = None) -> bool:
        async with (db or self._pool).acquire() as conn:
            return await conn.fetchval(query("deactivate_webhook"), room, webhook_id) is not None

    async def fan_out(self, conn: asyncpg.Connection, stored: StoredEvent) -> int:
        """One delivery and one job per active webhook of the event's room, in ``conn``'s transaction."""
        if stored.room is None:
            return 0
        made = 0
        for hook in await conn.fetch(query("active_webhooks"), stored.room):
            key = f"tm-{hook['id']}-{stored.id}"
            delivery_id = await conn.fetchval(query("create_delivery"), hook["id"], stored.room, stored.id, key)
            if delivery_id is None:
                continue
            await enqueue(conn, JOB_DELIVER, msgspec.json.encode(DeliverJob(delivery_id)),
                          dedupe_key=f"deliver:{delivery_id}:1")
            made += 1
        return made

    def handlers(self) -> dict[str, Handler]:
        return {JOB_DELIVER: self.deliver_job}

    async def deliver_job(self, payload: bytes) -> None:
        """One attempt at one delivery; a failure queues the next attempt after a backoff."""
        job = msgspec.json.decode(payload, type=DeliverJob)
        async with self._pool.acquire() as conn:
            d = await conn.fetchrow(query("delivery_for_job"), job.delivery_id)
            if d is None or d["status"] != "pending":
                return
            run = await conn.fetchrow(query("run_trigger"), d["run_id"]) if d["run_id"] else None
        attempt = d["attempts"] + 1
        redact.remember(d["secret"])
        if not d["active"]:
            async with self._pool.acquire() as conn:
                await conn.execute(query("delivery_done"), d["id"], "failed", d["attempts"], "webhook deleted")
            return
        body = render(d["format"], event_id=d["event_id"], event_type=d["type"],
                      body=msgspec.json.decode(d["body"]), room=d["room"], deck=run["deck_path"] if run else None,
                      link=f"{self._public_url}/api/runs/{d['run_id']}" if d["run_id"] else None,
                      idempotency_key=d["idempotency_key"])
        headers = {
            "Content-Type": "application/json",
            SIGNATURE_HEADER: sign(d["secret"], body),
            "X-Tickmark-Idempotency-Key": d["idempotency_key"],
            "Idempotency-Key": d["idempotency_key"],
            "X-Tickmark-Event": d["type"],
            "X-Tickmark-Delivery": str(d["id"]),
            "X-Tickmark-Attempt": str(attempt),
            "User-Agent": "tickmark-webhooks/1",
        }
        await self._record(d, attempt, await self._post(d["url"], body, headers))

    async def _post(self, url: str, body: bytes, headers: dict[str, str]) -> _Attempt:
        # Checked again at every attempt: DNS may have changed since the webhook was registered.
        try:
            addresses = await self._egress.check(url)
        except TargetRefused as exc:
            return _Attempt(None, f"target refused: {exc}", False, 0.0)
        if self._client is None:
            self._client = httpx.AsyncClient(timeout=self._timeout, follow_redirects=False)
        # Connect to the address just checked, not to whatever the name resolves to a moment
        # later (DNS rebinding); the Host header and TLS server name keep the original host.
        target, host, extensions = pinned(url, addresses[0])
        started = time.perf_counter()
        try:
            resp = await self._client.post(target, content=body, headers={**headers, "Host": host},
                                           extensions=extensions)
        except httpx.HTTPError as exc:
            return _Attempt(None, f"{type(exc).__name__}: {exc}".rstrip(": "), True, _ms(started))
        if 200 <= resp.status_code < 300:
            return _Attempt(resp.status_code, None, False, _ms(started))
        retry = resp.status_code >= 500 or resp.status_code in _RETRYABLE_STATUS
        return _Attempt(resp.status_code, f"HTTP {resp.status_code}", retry, _ms(started))

    async def _record(self, d: asyncpg.Record, attempt: int, outcome: _Attempt) -> None:
        message, status, retry = outcome.error, outcome.status_code, outcome.retryable
        async with self._pool.acquire() as conn, conn.transaction():
            await conn.execute(query("record_attempt"), d["id"], attempt, status, message, outcome.duration_ms)
            if message is None:
                await conn.execute(query("delivery_done"), d["id"], "delivered", attempt, None)
                await self._bus.publish(WebhookDelivered(room=d["room"], run_id=d["run_id"], webhook_id=d["webhook_id"],
                                                         delivery_id=d["id"], status_code=status or 0,
                                                         attempts=attempt), conn)
                return
            will_retry = retry and attempt < self._max_attempts
            await conn.execute(query("delivery_done"), d["id"], "pending" if will_retry else "failed", attempt,
                               message)
            if will_retry:
                delay = timedelta(seconds=self._backoff * 2 ** (attempt - 1))
                await enqueue(conn, JOB_DELIVER, msgspec.json.encode(DeliverJob(d["id"])),
                              dedupe_key=f"deliver:{d['id']}:{attempt + 1}", execute_after=delay)
            await self._bus.publish(WebhookFailed(room=d["room"], run_id=d["run_id"], webhook_id=d["webhook_id"],
                                                  delivery_id=d["id"], error=message, attempts=attempt,
                                                  will_retry=will_retry), conn)
        log.warning("webhook %s delivery %s attempt %d: %s%s", d["webhook_id"], d["id"], attempt, message,
                    "; will retry" if will_retry else "; giving up")

    async def close(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 1)
