"""The scorer: run the verifier over every deck and room, match claims, count what it got right.

The verifier is run through the same calls ``tickmark verify`` makes (``open_core``,
``ingest_room``, ``Verifier.start_run``/``run``) on one embedded database, so filings shared by
several rooms are parsed once; if that in-process path is unavailable it falls back to the CLI,
``tickmark verify DECK --room DIR --json``. Only the ``verify --json`` contract is read: a
labelled claim is matched to a verifier claim on the same page whose printed figure (else its
text) carries the same number, one to one, as ``../shared/tools/score_gold.py`` does.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import re
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from benchmarks.dealroom.model import VERDICTS, LabelledClaim, NonClaim

__all__ = ["verify_decks", "score", "upper_bound"]

_NUM = re.compile(r"\d[\d,]*\.?\d*")
_MARKS = "¹²³"


def numbers(s: str) -> set[str]:
    return {m.group(0).replace(",", "").rstrip(".") for m in _NUM.finditer(s or "")}


async def _in_process(jobs: list[tuple[str, Path, Path]], home: Path) -> dict[str, dict[str, Any]]:
    from services.bootstrap import open_core
    from services.database import release_embedded_server
    from services.rooms import ingest_room
    from services.settings import load_settings

    out: dict[str, dict[str, Any]] = {}
    settings = load_settings({"TICKMARK_HOME": str(home)})
    try:
        async with open_core(settings) as core:
            for name, deck, room_dir in jobs:
                started = time.perf_counter()
                room = "dealroom-" + deck.stem
                try:
                    await ingest_room(core.documents, room, room_dir)
                    run_id = await core.verifier.start_run(room, deck.name, trigger="cli")
                    result = await core.verifier.run(run_id, room, deck.name, deck.read_bytes())
                except Exception as exc:  # one deck's failure is reported, not fatal to the run
                    result = {"claims": [], "error": {"reason": type(exc).__name__, "detail": str(exc)[:500]}}
                result["seconds"] = round(time.perf_counter() - started, 2)
                out[name] = result
    finally:
        # The embedded server otherwise lives until this process exits, and its folder goes next.
        release_embedded_server(settings.pgdata)
    return out


def _cli(jobs: list[tuple[str, Path, Path]], home: Path, timeout: int) -> dict[str, dict[str, Any]]:
    exe = Path(sys.executable).with_name("tickmark")
    env = {**os.environ, "TICKMARK_HOME": str(home)}
    out: dict[str, dict[str, Any]] = {}
    for name, deck, room_dir in jobs:
        started = time.perf_counter()
        try:
            done = subprocess.run([str(exe), "verify", str(deck), "--room", str(room_dir), "--json"], env=env,
                                  capture_output=True, text=True, timeout=timeout)
            result = json.loads(done.stdout) if done.stdout.strip() else {
                "claims": [], "error": {"reason": f"exit {done.returncode}", "detail": done.stderr[-500:]}}
        except (subprocess.TimeoutExpired, json.JSONDecodeError) as exc:
            result = {"claims": [], "error": {"reason": type(exc).__name__, "detail": str(exc)[:500]}}
        result["seconds"] = round(time.perf_counter() - started, 2)
        out[name] = result
    return out


def verify_decks(jobs: list[tuple[str, Path, Path]], home: Path, *, mode: str = "auto",
                 timeout: int = 900) -> tuple[dict[str, dict[str, Any]], str]:
    """Each (deck name, deck file, room folder) verified; returns the results and the path used."""
    if mode in ("auto", "in-process"):
        try:
            return asyncio.run(_in_process(jobs, home)), "in-process"
        except ImportError:
            if mode == "in-process":
                raise
    return _cli(jobs, home, timeout), "cli"


def upper_bound(errors: int, trials: int, confidence: float = 0.95) -> float:
    """One-sided upper bound on a rate from ``errors`` in ``trials`` (Clopper-Pearson; 1 - a^(1/K) at 0)."""
    if trials == 0:
        return 1.0
    alpha = 1 - confidence
    if errors == 0:
        return 1 - alpha ** (1 / trials)
    if errors >= trials:
        return 1.0

    def cdf(p: float) -> float:
        return sum(math.exp(math.lgamma(trials + 1) - math.lgamma(k + 1) - math.lgamma(trials - k + 1)
                            + k * math.log(p) + (trials - k) * math.log1p(-p)) for k in range(errors + 1))

    lo, hi = errors / trials, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if cdf(mid) > alpha else (lo, mid)
    return hi


def _match(claims: list[LabelledClaim], given: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Labelled claim id -> the verifier claim it is matched to (page and printed number, one to one)."""
    by_page: dict[int, list[tuple[int, dict[str, Any]]]] = defaultdict(list)
    for i, g in enumerate(given):
        by_page[int(g.get("page") or -1)].append((i, g))
    taken: set[int] = set()
    out: dict[str, dict[str, Any]] = {}
    for field in ("printed", "value", "text"):
        for c in claims:
            if c.id in out:
                continue
            # A footnote marker glued to the figure is still the same figure.
            keys = {c.number} | {c.number + str(n) for n in range(1, len(_MARKS) + 1) if any(m in c.text for m in _MARKS)}
            for i, g in by_page.get(c.page, []):
                if i not in taken and keys & numbers(str(g.get(field) or "")):
                    taken.add(i)
                    out[c.id] = g
                    break
    return out


def _acc(rows: list[tuple[str, str]]) -> dict[str, Any]:
    n = len(rows)
    ok = sum(1 for want, got in rows if want == got)
    given = Counter(f"{want}->{got}" for want, got in rows if want != got)
    return {"claims": n, "correct": ok, "accuracy": round(ok / n, 4) if n else None, "misses": dict(given.most_common())}


def score(claims: list[LabelledClaim], non_claims: list[NonClaim], results: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The report's scoring half: confusion, strata, false verdicts, recall, leaks and the error list."""
    by_deck: dict[str, list[LabelledClaim]] = defaultdict(list)
    for c in claims:
        by_deck[c.deck].append(c)
    got: dict[str, str] = {}
    reasons: dict[str, dict[str, Any]] = {}
    leaked: list[dict[str, Any]] = []
    extra = 0
    for deck, labelled in by_deck.items():
        given = results.get(deck, {}).get("claims", [])
        matched = _match(labelled, given)
        for c in labelled:
            g = matched.get(c.id)
            got[c.id] = (g.get("verdict") or "unverified") if g else "unmatched"
            if g:
                reasons[c.id] = g
        used = {id(g) for g in matched.values()}
        rest = [g for g in given if id(g) not in used]
        for nc in (n for n in non_claims if n.deck == deck):
            hit = next((g for g in rest if int(g.get("page") or -1) == nc.page and
                        nc.number in numbers(str(g.get("printed") or "")) | numbers(str(g.get("text") or ""))), None)
            if hit:
                leaked.append({"id": nc.id, "deck": deck, "page": nc.page, "category": nc.category, "text": nc.text,
                               "verdict": hit.get("verdict")})
        extra += len(rest)
    confusion = {want: {g: 0 for g in (*VERDICTS, "unmatched")} for want in VERDICTS}
    for c in claims:
        confusion[c.expected][got[c.id] if got[c.id] in confusion[c.expected] else "unmatched"] += 1
    strata: dict[str, dict[str, Any]] = {}
    for dim in ("format", "layout", "kind", "trap"):
        groups: dict[str, list[tuple[str, str]]] = defaultdict(list)
        for c in claims:
            groups[getattr(c.stratum, dim)].append((c.expected, got[c.id]))
        strata[dim] = {k: _acc(v) for k, v in sorted(groups.items())}
    called_supported = sum(1 for c in claims if got[c.id] == "supported")
    false_supported = sum(1 for c in claims if got[c.id] == "supported" and c.expected != "supported")
    false_contradicted = sum(1 for c in claims if got[c.id] == "contradicted" and c.expected != "contradicted")
    matched_n = sum(1 for c in claims if got[c.id] not in ("unmatched",))
    errors = []
    for c in claims:
        if got[c.id] == c.expected:
            continue
        g = reasons.get(c.id, {})
        errors.append({"id": c.id, "deck": c.deck, "page": c.page, "text": c.text, "expected": c.expected,
                       "got": got[c.id], "reason": g.get("reason") or ("no verifier claim on the page carries "
                                                                       f"{c.number}" if not g else ""),
                       "found": g.get("found"), "label_why": c.why, "stratum": [c.stratum.format, c.stratum.layout,
                                                                                 c.stratum.kind, c.stratum.trap]})
    correct = sum(1 for c in claims if got[c.id] == c.expected)
    return {
        "accuracy": round(correct / len(claims), 4) if claims else 0.0,
        "correct": correct,
        "confusion": confusion,
        "false_supported": false_supported,
        "false_contradicted": false_contradicted,
        "supported_verdicts": called_supported,
        "false_supported_upper_bound": round(upper_bound(false_supported, called_supported), 4),
        "claim_recall": round(matched_n / len(claims), 4) if claims else 0.0,
        "verifier_claims_unlabelled": extra,
        "non_claims": len(non_claims),
        "non_claims_leaked": len(leaked),
        "leaked": leaked,
        "strata": strata,
        "verdicts_given": dict(Counter(got.values())),
        "errors": errors,
    }
