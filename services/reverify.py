"""Re-verification in place: when a document's facts land, a deck's claims that those facts (or the
room's new shape) can move are judged again, the rest keep their verdicts, and every flip is
published the moment it is found.

Re-verifications of one deck run one at a time under a session advisory lock, and each compares
against the deck's latest finished run, so a drop of many filings flips each claim once per real
change however the parse jobs interleave.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import time
from collections import Counter
from collections.abc import AsyncIterator
from collections.abc import Set as AbstractSet
from typing import Any

import asyncpg
import msgspec

from events.bus import Bus
from events.types import RunFinished, VerdictChanged, VerdictReached
from parsers.entities import entity_key
from parsers.model import Claim, ParsedDeck, ParseFailure
from parsers.quantities import is_label
from services.sqlfiles import query
from services.verifier import VERDICTS, Verifier
from verdicts.rules import needed_metrics

__all__ = ["Reverifier", "Slot", "touches"]

log = logging.getLogger(__name__)
_json = msgspec.json.Encoder(decimal_format="string")
_claim_decoder = msgspec.json.Decoder(Claim)

Slot = tuple[str, str, str]
"""(entity key, metric, period) of a fact."""

_DECKS_KEPT = 32
_LOCK_POLL_S = 0.05


class _Cause(msgspec.Struct, frozen=True):
    """A document whose facts changed, as a re-verification takes it in."""

    document_id: int
    path: str | None
    slots: frozenset[Slot]


def _cause_of(claim: Claim, causes: list[_Cause], own: int | None) -> _Cause | None:
    """The change a flip of ``claim`` is put down to: the latest whose slots it reads, else the run's
    own cause (the room reads the claim otherwise now, say as another company's)."""
    key = entity_key(claim.entity)
    return next((c for c in reversed(causes) if touches(claim, key, c.slots)), None) or \
        next((c for c in causes if c.document_id == own), None)


def touches(claim: Claim, claim_entity_key: str | None, slots: AbstractSet[Slot]) -> bool:
    """Whether a changed set of fact slots can move this claim's verdict."""
    metrics = needed_metrics(claim)
    by_label = any(is_label(m) for m in metrics)
    periods = {p for p in (claim.period, claim.comparison_period) if p}
    for key, metric, period in slots:
        if claim_entity_key and key and key != claim_entity_key:
            continue
        if periods and period not in periods:
            continue
        if metric in metrics or (by_label and is_label(metric)):
            return True
    return False


class Reverifier:
    """Fills a re-verification run from its baseline run and the facts that changed."""

    def __init__(self, pool: asyncpg.Pool, bus: Bus, verifier: Verifier) -> None:
        self._pool = pool
        self._bus = bus
        self._verifier = verifier
        # Reading a deck is pure and the slow part of a re-verification; resolution is not (it
        # depends on the room), so only the reading is kept, per deck version.
        self._decks: collections.OrderedDict[str, ParsedDeck] = collections.OrderedDict()

    @contextlib.asynccontextmanager
    async def locked(self, deck_document_id: int) -> AsyncIterator[None]:
        """Hold the deck's re-verification lock (not re-entrant across connections: never nest)."""
        async with self._pool.acquire() as conn:
            # Polled, not waited on in the server: a drop of a hundred filings queues that many
            # re-verifications of one deck, longer than any statement may run.
            while not await conn.fetchval(query("try_lock_deck"), str(deck_document_id)):
                await asyncio.sleep(_LOCK_POLL_S)
            try:
                yield
            finally:
                await conn.execute(query("unlock_deck"), str(deck_document_id))

    async def run_locked(self, run_id: int, data: bytes, deck_sha: str) -> bool:
        """``run`` under the deck's lock, for a re-verification run taken up by a verify job."""
        async with self._pool.acquire() as conn:
            deck = await conn.fetchval(query("reverify_deck"), run_id)
        if deck is None:
            return False
        async with self.locked(int(deck)):
            return await self.run(run_id, data, deck_sha)

    async def run(self, run_id: int, data: bytes, deck_sha: str) -> bool:
        """Complete re-verification run ``run_id`` (the deck's bytes are ``data``); False when it is
        not a re-verification with a baseline to start from. Safe to call again after a crash."""
        started = time.perf_counter()
        async with self._pool.acquire() as conn:
            run = await conn.fetchrow(query("reverify_run"), run_id)
            if run is None or run["baseline_run_id"] is None or not run["baseline_done"]:
                return False
            if run["status"] in ("finished", "failed"):
                return True
            room, baseline = run["room"], int(run["baseline_run_id"])
            causes = await self._causes(conn, run_id, run["cause_document_id"])
            before = {r["claim_id"]: r for r in await conn.fetch(query("baseline_claims"), baseline)}
            progress = {r["claim_id"]: r["verdict"] for r in await conn.fetch(query("run_progress"), run_id)}
            await conn.execute(query("mark_run_running"), run_id)
        slots = set().union(*(c.slots for c in causes))

        parsed = await self._read(deck_sha, data, run["deck_path"])
        if isinstance(parsed, ParseFailure):
            return False
        parsed = await self._verifier.resolve(room, parsed)
        claims = parsed.claims

        await self._verifier.record_claims(run_id, room, claims, skip=set(progress))

        def moved(c: Claim) -> bool:
            old = before.get(c.id)
            if old is None or old["verdict"] is None or _claim_decoder.decode(old["body"]) != c:
                return True  # a claim the baseline did not judge, or one the room now reads otherwise
            return touches(c, entity_key(c.entity), slots)

        bodies: dict[str, dict[str, Any]] = {cid: json.loads(v) for cid, v in progress.items() if v}
        todo = [c for c in claims if c.id not in bodies]
        judge = [c for c in todo if moved(c)]
        claims_by_id = {c.id: c for c in judge}
        keep = [c.id for c in todo if not moved(c)]
        async for body in self._verifier.judge_claims(run_id, room, judge):
            bodies[body["id"]] = body
            old = before.get(body["id"])
            if old is not None and old["verdict"] is not None and old["verdict"] != body["verdict"]:
                cause = _cause_of(claims_by_id[body["id"]], causes, run["cause_document_id"])
                await self._flip(run_id, room, baseline, cause.document_id if cause else None,
                                 cause.path if cause else None, body, old["verdict"])
        if keep:
            async with self._pool.acquire() as conn, conn.transaction():
                copied = []
                for r in await conn.fetch(query("copy_verdicts"), run_id, baseline, keep):
                    body = json.loads(r["body"])
                    bodies[r["claim_id"]] = body
                    copied.append(VerdictReached(room=room, run_id=run_id, claim_id=r["claim_id"],
                                                 verdict=r["verdict"], reason=r["reason"], result=body))
                await self._bus.publish_many(copied, conn)
        await self._finish(run_id, room, run["deck_path"], parsed, bodies, started)
        log.info("re-verified run %s in place: %d of %d claims judged again", run_id, len(judge), len(claims))
        return True

    @staticmethod
    async def _causes(conn: asyncpg.Connection, run_id: int, cause_document_id: int | None) -> list[_Cause]:
        """The documents whose facts the run takes in, oldest change first, each with its slots."""
        rows = await conn.fetch(query("reverify_causes"), run_id)
        if not rows and cause_document_id is not None:  # a run from before runs took in several
            rows = [{"document_id": cause_document_id,
                     "path": await conn.fetchval(query("document_path"), cause_document_id)}]
        ids = list(dict.fromkeys(int(r["document_id"]) for r in rows))
        slots: dict[int, set[Slot]] = {i: set() for i in ids}
        for r in await conn.fetch(query("changed_slots_of"), ids):
            slots[int(r["document_id"])].add((r["entity_key"], r["metric"], r["period"]))
        latest = {int(r["document_id"]): r["path"] for r in rows}
        return [_Cause(i, latest[i], frozenset(slots[i])) for i in ids]

    async def _read(self, sha: str, data: bytes, name: str) -> ParsedDeck | ParseFailure:
        parsed = self._decks.get(sha)
        if parsed is not None:
            self._decks.move_to_end(sha)
            return parsed
        out = await self._verifier.read_deck(data, name)
        if isinstance(out, ParsedDeck):
            self._decks[sha] = out
            while len(self._decks) > _DECKS_KEPT:
                self._decks.popitem(last=False)
        return out

    async def _flip(self, run_id: int, room: str, baseline: int, cause_id: int | None, cause: str | None,
                    body: dict[str, Any], before: str) -> None:
        async with self._pool.acquire() as conn, conn.transaction():
            fresh = await conn.fetchval(query("record_flip"), run_id, body["id"], room, baseline, before,
                                        body["verdict"], cause_id)
            if fresh is not None:
                await self._bus.publish(VerdictChanged(room=room, run_id=run_id, claim_id=body["id"],
                                                       text=body.get("text") or "", before=before,
                                                       after=body["verdict"], reason=body.get("reason") or "",
                                                       cause_document=cause, previous_run_id=baseline), conn)

    async def _finish(self, run_id: int, room: str, deck_path: str, parsed: ParsedDeck,
                      bodies: dict[str, dict[str, Any]], started: float) -> None:
        counts = Counter(b["verdict"] for b in bodies.values())
        count_map = {v: counts.get(v, 0) for v in VERDICTS}
        elapsed = round((time.perf_counter() - started) * 1000, 1)
        result = {
            "deck": deck_path,
            "room": room,
            "run_id": run_id,
            "entity": parsed.entity,
            "claims": [bodies[c.id] for c in parsed.claims if c.id in bodies],
            "discarded": [{"page": d.page, "text": d.text, "why": d.why} for d in parsed.discarded],
            "counts": count_map,
            "elapsed_ms": elapsed,
        }
        async with self._pool.acquire() as conn, conn.transaction():
            await conn.execute(query("finish_run"), run_id, "finished", None, _json.encode(count_map).decode(),
                               _json.encode(result).decode())
            await self._bus.publish(RunFinished(room=room, run_id=run_id, counts=count_map, elapsed_ms=elapsed,
                                                discarded=len(parsed.discarded)), conn)
