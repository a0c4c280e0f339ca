"""Files and uploads become queued jobs; parse, verify and re-verify jobs run on any worker.

Every job is idempotent: a job re-taken after its worker died finds its rows (documents by
sha256, runs by id, re-verification runs by deck and cause, verdict flips by run and claim)
and finishes the work instead of repeating it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import timedelta
from pathlib import PurePosixPath

import asyncpg
import msgspec

from events.bus import Bus
from events.types import DeckSubmitted, DocumentChanged, RunFinished, VerdictChanged
from parsers.model import Claim
from services.documents import DocumentService, sha256_of
from services.jobs import Handler, enqueue
from services.reverify import Reverifier, touches
from services.sqlfiles import query
from services.verifier import VERDICTS, Verifier

__all__ = [
    "JOB_PARSE",
    "JOB_REVERIFY",
    "JOB_VERIFY",
    "ParseJob",
    "Pipeline",
    "ReverifyJob",
    "StoredBlob",
    "Submitted",
    "VerifyJob",
    "touches",
]

log = logging.getLogger(__name__)

JOB_PARSE = "parse"
JOB_VERIFY = "verify"
JOB_REVERIFY = "reverify"
PARSE_PRIORITY = -1
"""Below every other job's (0): queued verification, re-verification and delivery go first."""

# Connection trouble is worth a retry on another attempt; anything else would fail the same way.
_TRANSIENT = (OSError, asyncpg.PostgresConnectionError, asyncpg.InterfaceError, asyncpg.DeadlockDetectedError)


class ParseJob(msgspec.Struct, frozen=True):
    room: str
    path: str
    sha256: str


class VerifyJob(msgspec.Struct, frozen=True):
    run_id: int


# A re-verification waits this long, at most this many times, for runs under way to finish.
_REVERIFY_WAIT = timedelta(seconds=1)
_MAX_REVERIFY_WAITS = 300
REVERIFY_SPACING_S = 1.0
"""While more of a room's filings are being parsed, how long after one re-verification of a deck the
next may wait for them (see ``_let_the_drop_land``)."""
_PENDING_POLL_S = 0.05


class ReverifyJob(msgspec.Struct, frozen=True):
    room: str
    document_id: int
    event_id: int
    """The facts.updated (or removal) event: one re-verification per deck per event."""
    waits: int = 0
    """How many times this job has waited for runs that were under way when the facts changed."""


class StoredBlob(msgspec.Struct, frozen=True):
    """Bytes already in the blob table, by sha256 and size."""

    sha256: str
    size: int


class Submitted(msgspec.Struct):
    """What a submission did: queued a parse, queued a run, or nothing (bytes already known)."""

    room: str
    path: str
    sha256: str
    run_id: int | None = None
    queued: bool = True


def _format_of(path: str) -> str | None:
    return PurePosixPath(path).suffix.lstrip(".").lower() or None


class Pipeline:
    """Submissions from the watcher and the API, and the parse/verify/reverify job handlers."""

    def __init__(self, pool: asyncpg.Pool, bus: Bus, documents: DocumentService, verifier: Verifier) -> None:
        self._pool = pool
        self._bus = bus
        self._documents = documents
        self._verifier = verifier
        self._reverifier = Reverifier(pool, bus, verifier)

    # ------------------------------------------------------------ submissions

    async def submit_filing(self, room: str, rel: str, data: bytes) -> Submitted:
        """Queue a parse of ``data`` as the room's file ``rel``, unless these bytes are already in."""
        sha = sha256_of(data)
        async with self._pool.acquire() as conn, conn.transaction():
            await conn.execute(query("ensure_room"), room)
            await conn.execute(query("see_file"), room, rel, sha, len(data))
            current = await conn.fetchrow(query("current_document"), room, rel)
            if current is not None and current["sha256"] == sha and current["status"] in ("parsed", "failed"):
                return Submitted(room, rel, sha, queued=False)
            await conn.execute(query("store_blob"), sha, data)
            await self._bus.publish(DocumentChanged(room=room, path=rel, sha256=sha, size=len(data)), conn)
            # Parses yield to verification and delivery: a drop of many files must not hold the first
            # filing's flips behind the last filing's parse.
            await enqueue(conn, JOB_PARSE, msgspec.json.encode(ParseJob(room, rel, sha)),
                          dedupe_key=f"parse:{room}:{rel}:{sha}", priority=PARSE_PRIORITY)
        return Submitted(room, rel, sha)

    async def submit_deck(self, room: str, rel: str, data: bytes | StoredBlob, *, trigger: str) -> Submitted:
        """Register a deck version and queue its verification run, in one transaction.

        A watched deck whose bytes are already the current version starts nothing (a restart
        rescans every room); an upload always starts a run. A ``StoredBlob`` names bytes already
        in the blob table (an upload streamed there), so they are never held here.
        """
        sha, size = (data.sha256, data.size) if isinstance(data, StoredBlob) else (sha256_of(data), len(data))
        async with self._pool.acquire() as conn, conn.transaction():
            await conn.execute(query("ensure_room"), room)
            if trigger == "watch":
                await conn.execute(query("see_file"), room, rel, sha, size)
                current = await conn.fetchrow(query("current_document"), room, rel)
                if current is not None and current["sha256"] == sha and current["status"] == "parsed":
                    return Submitted(room, rel, sha, queued=False)
            if not isinstance(data, StoredBlob):
                await conn.execute(query("store_blob"), sha, data)
            doc = await conn.fetchrow(query("upsert_document"), room, rel, sha, size, "deck")
            document_id = int(doc["id"])
            await conn.fetch(query("supersede_older_versions"), document_id, room, rel)
            await conn.execute(query("mark_deck_ready"), document_id, _format_of(rel))
            run_id = int(await conn.fetchval(query("create_queued_run"), room, document_id, rel, trigger))
            await self._bus.publish(DeckSubmitted(room=room, run_id=run_id, path=rel, trigger=trigger,
                                                  document_id=document_id), conn)
            await enqueue(conn, JOB_VERIFY, msgspec.json.encode(VerifyJob(run_id)), dedupe_key=f"verify:{run_id}")
        return Submitted(room, rel, sha, run_id=run_id)

    async def file_removed(self, room: str, rel: str) -> list[int]:
        """A file left the room: its document is marked removed and the removal is published."""
        key = f"{room}/{rel}"
        async with self._pool.acquire() as conn:
            # Under the path's parse lock: a removal that lands while the file is being parsed waits
            # for the parse to store its document, then retires it (else the parse marks it current).
            await conn.execute(query("lock_path"), key)
            try:
                if await conn.fetchval(query("latest_file"), room, rel) is None:
                    return []
                await conn.fetchval(query("file_gone"), room, rel)
                return await self._documents.remove(room, rel, conn)
            finally:
                await conn.execute(query("unlock_path"), key)

    # ------------------------------------------------------------ jobs

    def handlers(self) -> dict[str, Handler]:
        return {JOB_PARSE: self.parse_job, JOB_VERIFY: self.verify_job, JOB_REVERIFY: self.reverify_job}

    async def parse_job(self, payload: bytes) -> None:
        """Parse one settled file version; a version overtaken by a newer one is skipped."""
        job = msgspec.json.decode(payload, type=ParseJob)
        key = f"{job.room}/{job.path}"
        async with self._pool.acquire() as lock:
            await lock.execute(query("lock_path"), key)
            try:
                latest = await lock.fetchrow(query("latest_file"), job.room, job.path)
                if latest is None or latest["removed"] or latest["sha256"] != job.sha256:
                    log.info("parse %s: skipped, the file has changed since", key)
                    return
                data = await lock.fetchval(query("get_blob"), job.sha256)
                if data is None:
                    return
                await self._documents.ingest_bytes(job.room, job.path, bytes(data))
            finally:
                await lock.execute(query("unlock_path"), key)

    async def verify_job(self, payload: bytes) -> None:
        """Run a queued verification; a finished one only has its verdict flips (re)recorded."""
        job = msgspec.json.decode(payload, type=VerifyJob)
        async with self._pool.acquire() as conn:
            run = await conn.fetchrow(query("run_for_job"), job.run_id)
            if run is None:
                return
            data = await conn.fetchval(query("get_blob"), run["sha256"]) if run["sha256"] else None
        room, deck_path = run["room"], run["deck_path"]
        if run["status"] in ("queued", "running"):
            if data is None:
                await self._fail_run(job.run_id, room, "the deck's bytes are not stored")
                return
            async with self._pool.acquire() as conn:
                await conn.execute(query("mark_run_running"), job.run_id)
            try:
                if run["trigger"] != "reverify" or not await self._reverifier.run_locked(
                        job.run_id, bytes(data), run["sha256"]):
                    await self._verifier.run(job.run_id, room, deck_path, bytes(data))
            except _TRANSIENT:
                raise
            except Exception as exc:  # noqa: BLE001 - a bug in one deck fails its run, visibly, not the worker
                log.exception("run %s of %s/%s failed", job.run_id, room, deck_path)
                await self._fail_run(job.run_id, room, f"{type(exc).__name__}: {exc}")
                return
            log.info("verified run %s (%s/%s)", job.run_id, room, deck_path)
        elif run["status"] != "finished":
            return
        if run["trigger"] == "reverify" and run["baseline_run_id"] is not None:
            await self._record_flips(job.run_id, room, int(run["baseline_run_id"]), run["cause_document_id"])

    async def reverify_job(self, payload: bytes) -> None:
        """Queue a re-verification of every deck in the room whose claims touch the changed facts."""
        job = msgspec.json.decode(payload, type=ReverifyJob)
        async with self._pool.acquire() as conn:
            # A run still going when the facts changed may have read the room before they did, and
            # a deck on its first run has nothing to compare against yet: wait until they finish,
            # then compare against their results.
            under_way = await conn.fetchval(query("first_runs_in_flight"), job.room, job.event_id)
            if under_way and job.waits < _MAX_REVERIFY_WAITS:
                later = msgspec.structs.replace(job, waits=job.waits + 1)
                await enqueue(conn, JOB_REVERIFY, msgspec.json.encode(later), execute_after=_REVERIFY_WAIT,
                              dedupe_key=f"reverify:{job.event_id}:wait{later.waits}")
                return
            slots = {(r["entity_key"], r["metric"], r["period"])
                     for r in await conn.fetch(query("changed_slots_of"), [job.document_id])}
            if not slots:
                return
            touched = []
            for cand in await conn.fetch(query("reverify_candidates"), job.room):
                if cand["covers"] >= job.event_id:
                    continue  # that run already judged the deck against these facts
                claims = await conn.fetch(query("run_claim_bodies"), cand["run_id"])
                if any(touches(msgspec.json.decode(c["body"], type=Claim), c["entity_key"], slots) for c in claims):
                    touched.append(cand)
        for cand in touched:
            await self._reverify_deck(job, cand["deck_document_id"], cand["deck_path"], int(cand["run_id"]))
        if touched:
            log.info("re-verifying %d deck(s) in %s after document %s", len(touched), job.room, job.document_id)

    # ------------------------------------------------------------ helpers

    async def _reverify_deck(self, job: ReverifyJob, deck_id: int, deck_path: str, candidate: int) -> None:
        """One deck's re-verification for one event, done here and now under the deck's lock.

        The run takes in every facts change of the room committed by now, so the jobs of the later
        ones, waiting on this lock meanwhile, find them covered and stop.
        """
        async with self._reverifier.locked(deck_id):
            await self._let_the_drop_land(job.room, deck_id)
            async with self._pool.acquire() as conn, conn.transaction():
                run = await conn.fetchrow(query("find_reverify_run"), deck_id, job.event_id)
                if run is None:
                    # Chosen under the lock: the run before this one may have finished a moment ago.
                    latest = await conn.fetchrow(query("latest_finished_run"), deck_id)
                    if latest is not None and latest["covers"] >= job.event_id:
                        return
                    through = await conn.fetchval(query("last_facts_change"), job.room)
                    run_id = await conn.fetchval(
                        query("create_reverify_run"), job.room, deck_id, deck_path, job.document_id,
                        int(latest["id"]) if latest is not None else candidate, job.event_id,
                        max(int(through or 0), job.event_id))
                    if run_id is None:  # another worker's job for this event made it first
                        run_id = (await conn.fetchrow(query("find_reverify_run"), deck_id, job.event_id))["id"]
                    await self._bus.publish(DeckSubmitted(room=job.room, run_id=run_id, path=deck_path,
                                                          trigger="reverify", document_id=deck_id), conn)
                else:
                    run_id = run["id"]
                run = await conn.fetchrow(query("run_for_job"), run_id)
                data = await conn.fetchval(query("get_blob"), run["sha256"]) if run["sha256"] else None
            try:
                if data is not None and run["baseline_run_id"] is not None and \
                        await self._reverifier.run(run_id, bytes(data), run["sha256"]):
                    await self._record_flips(run_id, job.room, int(run["baseline_run_id"]),
                                             run["cause_document_id"])
                    return
            except _TRANSIENT:
                raise
            except Exception:  # noqa: BLE001 - the verify job retries it and fails the run visibly
                log.exception("re-verification run %s failed in place; queued as a verify job", run_id)
        async with self._pool.acquire() as conn, conn.transaction():
            await enqueue(conn, JOB_VERIFY, msgspec.json.encode(VerifyJob(run_id)), dedupe_key=f"verify:{run_id}")

    async def _let_the_drop_land(self, room: str, deck_id: int) -> None:
        """Wait, up to the rest of ``REVERIFY_SPACING_S`` since the deck's last re-verification, while
        more of the room's filings are still being parsed.

        Without it a drop of ten filings re-judged the deck back to back, once per filing or two,
        and those runs took the CPU the last parses needed: all flips came later, not sooner. The
        deck's first re-verification, and one after a quiet spell, still go at once, and the wait
        ends the moment the last pending parse commits, which the run then takes in.
        """
        async with self._pool.acquire() as conn:
            since = await conn.fetchval(query("seconds_since_reverified"), deck_id)
            if since is None or since >= REVERIFY_SPACING_S:
                return
            deadline = time.monotonic() + REVERIFY_SPACING_S - since
            while time.monotonic() < deadline and await conn.fetchval(query("room_parses_pending"), room):
                await asyncio.sleep(min(_PENDING_POLL_S, max(0.0, deadline - time.monotonic())))

    async def _record_flips(self, run_id: int, room: str, baseline: int, cause_id: int | None) -> None:
        async with self._pool.acquire() as conn, conn.transaction():
            cause = await conn.fetchval(query("document_path"), cause_id) if cause_id else None
            for f in await conn.fetch(query("verdict_flips"), run_id, baseline):
                fresh = await conn.fetchval(query("record_flip"), run_id, f["claim_id"], room, baseline,
                                            f["before"], f["after"], cause_id)
                if fresh is None:
                    continue
                await self._bus.publish(VerdictChanged(room=room, run_id=run_id, claim_id=f["claim_id"],
                                                       text=f["text"] or "", before=f["before"], after=f["after"],
                                                       reason=f["reason"], cause_document=cause,
                                                       previous_run_id=baseline), conn)

    async def _fail_run(self, run_id: int, room: str, error: str) -> None:
        counts = {v: 0 for v in VERDICTS}
        body = msgspec.json.encode(counts).decode()
        result = msgspec.json.encode({"run_id": run_id, "room": room, "claims": [], "error": error}).decode()
        async with self._pool.acquire() as conn, conn.transaction():
            await conn.execute(query("finish_run"), run_id, "failed", error, body, result)
            await self._bus.publish(RunFinished(room=room, run_id=run_id, counts=counts, elapsed_ms=0.0,
                                                status="failed", error=error), conn)
