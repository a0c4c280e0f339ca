"""The deck-verification service: claims out of a deck, evidence out of the room, verdicts out
of the rules, each claim's rule steps and verdict published on the bus the moment it is judged."""

from __future__ import annotations

import asyncio
import heapq
import json
import logging
import re
import time
from collections import Counter, OrderedDict
from collections.abc import AsyncIterator, Sequence
from decimal import Decimal
from typing import Any

import asyncpg
import msgspec

from events.bus import Bus
from events.types import ClaimExtracted, DeckSubmitted, Event, RuleEvaluated, RunFinished, VerdictReached
from parsers.catalogue import Catalogue, RoomDocument, build_catalogue
from parsers.claims import extract_claims
from parsers.entities import entity_key, same_entity
from parsers.model import Claim, Fact, FactSource, ParseFailure, ParsedDeck
from parsers.quantities import is_label, label_id, label_text
from parsers.resolve import resolve_claims
from services.llm_claims import LLMSettings, extract_with_model
from services.parsing import ParserPool
from services.search import PassageIndex
from services.sqlfiles import query
from verdicts.model import Coverage, Evidence, RuleOutcome, Verdict
from verdicts.rules import evaluate, needed_metrics

__all__ = ["VERDICTS", "Verifier", "claim_json"]

log = logging.getLogger(__name__)
VERDICTS = ("supported", "contradicted", "different-basis", "no-evidence")
_json = msgspec.json.Encoder(decimal_format="string")
_source_decoder = msgspec.json.Decoder(FactSource)
_dims_decoder = msgspec.json.Decoder(dict[str, str])
_LABEL_WORD = re.compile(r"[a-z][a-z0-9&]{3,}")


class DecodedFacts:
    """Facts already read out of the database, by row id, for every later run to reuse.

    A stored fact row never changes: a document's new version is new rows, a crashed parse's rows
    are deleted before they are written again (new ids), and retiring a version only flips the
    ``superseded`` flag the id queries filter on. So a run asks the room which ids it needs, in
    order, and decodes only those no run has decoded before; the rules never mutate a fact (they
    derive copies). Decoding a row costs more than the rules' use of it, and a warm run against a
    large room would otherwise decode the same rows again on every deck. Least recently used rows
    go first once ``limit`` is reached: a decoded fact is about a kilobyte, and the 49-claim gold
    deck against its 10-filing room reads some six thousand."""

    def __init__(self, limit: int = 100_000) -> None:
        self._limit = limit
        self._facts: OrderedDict[int, Fact] = OrderedDict()

    async def read(self, conn: asyncpg.Connection, room: str, ids: Sequence[int]) -> list[Fact]:
        """The facts of ``ids`` in that order, fetching and decoding only the rows not held."""
        held = self._facts
        if missing := [i for i in ids if i not in held]:
            for r in await conn.fetch(query("facts_by_id"), room, missing):
                held[r["id"]] = _fact_of(r)
        out: list[Fact] = []
        for i in ids:
            held.move_to_end(i)
            out.append(held[i])
        while len(held) > self._limit:
            held.popitem(last=False)
        return out


def _fact_of(r: asyncpg.Record) -> Fact:
    return Fact(entity=r["entity"], metric=r["metric"], label=r["label"], basis=r["basis"], period=r["period"],
                period_start=r["period_start"], period_end=r["period_end"], value=Decimal(r["value"]),
                unit=r["unit"], scale=r["scale"], currency=r["currency"], as_printed=r["as_printed"],
                source=_source_decoder.decode(r["source"]), document=r["document"], document_id=r["document_id"],
                dimensions=_dims_decoder.decode(r["dimensions"]))


class RoomFacts:
    """The facts a run read, grouped by company and metric: each claim takes its own company's rows for
    its own metrics, not a scan of all. Each row keeps its place in the room's order, which the rules
    break ties by."""

    def __init__(self, facts: list[Fact]) -> None:
        self.by_metric: dict[str, list[tuple[int, Fact]]] = {}
        self.labels: list[tuple[int, Fact]] = []
        self.by_entity: dict[str, dict[str, list[tuple[int, Fact]]]] = {}
        self.labels_by_entity: dict[str, list[tuple[int, Fact]]] = {}
        for row in enumerate(facts):
            fact = row[1]
            self.by_metric.setdefault(fact.metric, []).append(row)
            self.by_entity.setdefault(fact.entity, {}).setdefault(fact.metric, []).append(row)
            if is_label(fact.metric):
                self.labels.append(row)
                self.labels_by_entity.setdefault(fact.entity, []).append(row)

    def rows(self, metrics: Sequence[str], entity: str | None) -> list[Fact]:
        """The facts of ``metrics`` (any label metric: every label fact) in room order; of the
        companies the room names as ``entity`` alone when one is given (as the rules read them)."""
        exact = [m for m in metrics if not is_label(m)]
        labels = len(exact) < len(metrics)
        if entity:
            groups = []
            for name, by_metric in self.by_entity.items():
                if same_entity(name, entity):
                    groups += [by_metric.get(m, ()) for m in exact]
                    if labels:
                        groups.append(self.labels_by_entity.get(name, ()))
        else:
            groups = [self.by_metric.get(m, ()) for m in exact]
            if labels:
                groups.append(self.labels)
        return [f for _, f in heapq.merge(*groups, key=lambda row: row[0])]


def claim_json(claim: Claim, verdict: Verdict | None) -> dict[str, Any]:
    """One claim in the ``tickmark verify --json`` contract (with a few extra fields)."""
    out: dict[str, Any] = {
        "id": claim.id,
        "page": claim.page,
        "text": claim.text,
        "value": str(claim.value),
        "printed": claim.printed,
        "metric": claim.metric or claim.label,
        "period": claim.period,
        "basis": claim.basis,
        "entity": claim.entity,
        "kind": claim.kind,
        "bbox": list(claim.bbox) if claim.bbox else None,
        "resolved": {"entity": claim.resolution.entity, "period": claim.resolution.period},
    }
    if verdict is not None:
        out.update(
            verdict=verdict.verdict,
            reason=verdict.reason,
            claimed=None if verdict.claimed is None else str(verdict.claimed),
            found=None if verdict.found is None else str(verdict.found),
            tolerance=None if verdict.tolerance is None else str(verdict.tolerance),
            citations=[msgspec.to_builtins(c) for c in verdict.citations],
            trace=[{"rule": t.rule, "outcome": t.outcome, "detail": t.detail} for t in verdict.trace],
        )
    return out


class Verifier:
    """Verifies a deck against its room's current filings."""

    def __init__(self, pool: asyncpg.Pool, bus: Bus, index: PassageIndex, parsers: ParserPool, *,
                 llm: LLMSettings | None = None) -> None:
        self._pool = pool
        self._bus = bus
        self._index = index
        self._parsers = parsers
        self._llm = llm
        self._decoded = DecodedFacts()

    async def start_run(self, room: str, deck_path: str, *, trigger: str, deck_document_id: int | None = None,
                        cause_document_id: int | None = None) -> int:
        async with self._pool.acquire() as conn, conn.transaction():
            await conn.execute(query("ensure_room"), room)
            run_id = int(await conn.fetchval(query("create_run"), room, deck_document_id, deck_path, trigger,
                                             cause_document_id))
            await self._bus.publish(DeckSubmitted(room=room, run_id=run_id, path=deck_path, trigger=trigger,
                                                  document_id=deck_document_id), conn)
        return run_id

    async def run(self, run_id: int, room: str, deck_path: str, data: bytes) -> dict[str, Any]:
        """Verify ``data`` (the deck's bytes) as run ``run_id``; returns the contract JSON.

        Safe to call again for the same run (a job re-taken after its worker died): a finished
        run returns its stored result, and an interrupted one resumes where it stopped, so no
        claim, rule outcome or verdict is stored or published twice.
        """
        started = time.perf_counter()
        async with self._pool.acquire() as conn:
            row = await conn.fetchrow(query("get_run"), run_id)
            progress = {r["claim_id"]: r["verdict"] for r in await conn.fetch(query("run_progress"), run_id)}
        if row is not None and row["status"] in ("finished", "failed") and row["result"]:
            return json.loads(row["result"])

        parsed = await self._extract(data, deck_path)
        if isinstance(parsed, ParseFailure):
            result = {"deck": deck_path, "room": room, "run_id": run_id, "claims": [], "discarded": [],
                      "error": {"reason": parsed.reason, "detail": parsed.detail},
                      "elapsed_ms": round((time.perf_counter() - started) * 1000, 1)}
            await self._finish(run_id, room, "failed", f"{parsed.reason}: {parsed.detail}", Counter(), result, 0)
            return result

        coverage, catalogue = await self._room_documents(room)
        parsed = resolve_claims(parsed, catalogue)
        claims = parsed.claims
        await self.record_claims(run_id, room, claims, skip=set(progress))

        facts = await self._room_facts(room, claims)
        bodies: dict[str, dict[str, Any]] = {}
        for claim in claims:
            if stored := progress.get(claim.id):
                bodies[claim.id] = json.loads(stored)
                continue
            evidence = Evidence(coverage=coverage, facts=self._facts_for(claim, facts),
                                passages=await asyncio.to_thread(self._passages, room, claim))
            bodies[claim.id] = claim_json(claim, await self._judge(run_id, room, claim, evidence))

        counts = Counter(b["verdict"] for b in bodies.values())
        result = {
            "deck": deck_path,
            "room": room,
            "run_id": run_id,
            "entity": parsed.entity,
            "claims": [bodies[c.id] for c in claims],
            "discarded": [{"page": d.page, "text": d.text, "why": d.why} for d in parsed.discarded],
            "counts": {v: counts.get(v, 0) for v in VERDICTS},
            "elapsed_ms": round((time.perf_counter() - started) * 1000, 1),
        }
        await self._finish(run_id, room, "finished", None, counts, result, len(parsed.discarded))
        return result

    async def read_deck(self, data: bytes, name: str) -> ParsedDeck | ParseFailure:
        """The deck's claims as printed, not yet resolved against any room."""
        return await self._extract(data, name)

    async def resolve(self, room: str, parsed: ParsedDeck) -> ParsedDeck:
        """Claims resolved against the room as it is now."""
        _, catalogue = await self._room_documents(room)
        return resolve_claims(parsed, catalogue)

    async def judge_claims(self, run_id: int, room: str, claims: list[Claim]) -> AsyncIterator[dict[str, Any]]:
        """Judge resolved claims already stored in run ``run_id`` against the room as it is now,
        yielding each claim's contract body once its verdict is stored and published."""
        if not claims:
            return
        coverage, _ = await self._room_documents(room)
        facts = await self._room_facts(room, claims)
        for claim in claims:
            evidence = Evidence(coverage=coverage, facts=self._facts_for(claim, facts),
                                passages=await asyncio.to_thread(self._passages, room, claim))
            yield claim_json(claim, await self._judge(run_id, room, claim, evidence))

    async def record_claims(self, run_id: int, room: str, claims: list[Claim], *, skip: set[str]) -> None:
        """Store the run's claims and publish each as ``claim.extracted``, in one transaction; claims in
        ``skip`` (already stored by an interrupted attempt) are left as they are."""
        fresh = [c for c in claims if c.id not in skip]
        if not fresh:
            return
        async with self._pool.acquire() as conn, conn.transaction():
            await conn.executemany(query("insert_claim"), [
                (run_id, c.id, room, c.page, entity_key(c.entity), c.metric, c.period, _json.encode(c).decode())
                for c in fresh])
            await self._bus.publish_many([
                ClaimExtracted(room=room, run_id=run_id, claim_id=c.id, page=c.page, text=c.text,
                               claim=msgspec.to_builtins(c)) for c in fresh], conn)

    async def _extract(self, data: bytes, name: str) -> ParsedDeck | ParseFailure:
        # Loading runs in a bounded parser process: a deck arrives from anywhere (zip bombs too).
        deck = await self._parsers.load_deck(data, name)
        if isinstance(deck, ParseFailure):
            return deck
        if self._llm is None:
            return await asyncio.to_thread(extract_claims, deck)
        parsed, check = await asyncio.to_thread(extract_with_model, deck, self._llm)
        if check is not None:
            log.info("model proposals: %d kept, %d dropped", len(check.claims), check.dropped)
        return parsed

    async def _judge(self, run_id: int, room: str, claim: Claim, evidence: Evidence) -> Verdict:
        # The rules run first, outside any transaction (publishing holds the event log's lock until
        # commit); then one transaction stores the claim's rule outcomes, verdict row and verdict
        # event together, so a run resumed after a crash never publishes a claim's rules twice.
        steps = list(evaluate(claim, evidence))
        verdict = steps[-1]
        assert isinstance(verdict, Verdict), "the rules always end with a verdict"
        body = claim_json(claim, verdict)
        events: list[Event] = [
            RuleEvaluated(room=room, run_id=run_id, claim_id=claim.id, rule=s.rule, outcome=s.outcome,
                          detail=s.detail) for s in steps if isinstance(s, RuleOutcome)]
        events.append(VerdictReached(room=room, run_id=run_id, claim_id=claim.id, verdict=verdict.verdict,
                                     reason=verdict.reason, result=body))
        async with self._pool.acquire() as conn, conn.transaction():
            await conn.execute(query("insert_verdict"), run_id, claim.id, room, verdict.verdict,
                               verdict.reason, _json.encode(body).decode())
            await self._bus.publish_many(events, conn)
        return verdict

    async def _finish(self, run_id: int, room: str, status: str, error: str | None, counts: Counter[str],
                      result: dict[str, Any], discarded: int) -> None:
        count_map = {v: counts.get(v, 0) for v in VERDICTS}
        async with self._pool.acquire() as conn, conn.transaction():
            await conn.execute(query("finish_run"), run_id, status, error, _json.encode(count_map).decode(),
                               _json.encode(result).decode())
            await self._bus.publish(RunFinished(room=room, run_id=run_id, counts=count_map,
                                                elapsed_ms=result["elapsed_ms"], status=status, error=error,
                                                discarded=discarded), conn)

    # ------------------------------------------------------------ evidence

    async def _room_documents(self, room: str) -> tuple[list[Coverage], Catalogue]:
        async with self._pool.acquire() as conn:
            docs = await conn.fetch(query("room_coverage"), room)
        coverage = [
            Coverage(document=d["path"], entity=d["entity"], form=d["form"], periods=list(d["periods"]),
                     fiscal_year_end=d["fiscal_year_end"])
            for d in docs
        ]
        catalogue = build_catalogue(
            RoomDocument(path=d["path"], entity=d["entity"], fiscal_year_end=d["fiscal_year_end"],
                         periods=tuple(d["periods"]), names=tuple(d["names"]))
            for d in docs
        )
        return coverage, catalogue

    async def _room_facts(self, room: str, claims: list[Claim]) -> RoomFacts:
        wanted: set[str] = set()
        for c in claims:
            wanted |= needed_metrics(c)
        exact = sorted(m for m in wanted if not is_label(m))
        patterns = sorted({label_id(f"%{w}%") for m in wanted if is_label(m) for w in _LABEL_WORD.findall(label_text(m))})
        keys = [entity_key(c.entity) for c in claims]
        # One snapshot for the ids and the rows they name, so a version retired in between is
        # read whole or not at all.
        async with self._pool.acquire() as conn, conn.transaction(isolation="repeatable_read", readonly=True):
            if keys and all(keys):
                # Every claim names its company and the rules read that company's facts alone
                # (see _facts_for): fetch only those companies' rows.
                ids = [r[0] for r in await conn.fetch(query("fact_ids_for_entities"), room, exact, patterns,
                                                       sorted({k.split()[0] for k in keys}))]
            else:
                ids = [r[0] for r in await conn.fetch(query("fact_ids_for_metrics"), room, exact, patterns)]
            return RoomFacts(await self._decoded.read(conn, room, ids))

    @staticmethod
    def _facts_for(claim: Claim, facts: RoomFacts) -> list[Fact]:
        # The rules read a named company's facts only (locate's first test): asked here once per
        # distinct name instead of once per fact and rule, a claim's cost stops growing with the
        # number of other companies in the room.
        return facts.rows(sorted(needed_metrics(claim)), claim.entity or None)

    def _passages(self, room: str, claim: Claim):  # type: ignore[no-untyped-def]
        words = claim.label or claim.metric or ""
        return self._index.search(room, f"{words} {claim.printed}", limit=8)

