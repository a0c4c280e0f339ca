"""The differential check: the independent facts against what ``tickmark parse FILE --json`` stores.

A fact is keyed by concept, context id and explicit dimensions; the two readings agree when the
value (after scale and sign), the period and the unit are the same. Disagreements on the primary
statements' consolidated facts (the concepts the benchmark labels with, no dimensions) are listed.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from benchmarks.dealroom.facts import Fact, Filing
from benchmarks.dealroom.vocab import METRICS

__all__ = ["differential", "PRIMARY"]

PRIMARY = frozenset(c for m in METRICS.values() for c in m.concepts) | {
    "us-gaap:Assets", "us-gaap:Liabilities", "us-gaap:StockholdersEquity", "us-gaap:CostOfRevenue",
    "us-gaap:CostOfGoodsAndServicesSold", "us-gaap:CashAndCashEquivalentsAtCarryingValue",
    "us-gaap:EarningsPerShareBasic", "us-gaap:OperatingExpenses", "us-gaap:IncomeTaxExpenseBenefit",
    "us-gaap:NetCashProvidedByUsedInInvestingActivities", "us-gaap:NetCashProvidedByUsedInFinancingActivities",
}


def _unit(u: str | None) -> str:
    u = (u or "").lower().replace(" ", "").replace("shares", "share")
    return "usd/share" if u in ("usdpershare", "usd/share") else u


def _num(v: Any) -> Decimal | None:
    try:
        return Decimal(str(v))
    except (InvalidOperation, TypeError):
        return None


def _theirs(path: Path, timeout: int) -> tuple[dict[tuple, list[dict[str, Any]]], str | None]:
    exe = Path(sys.executable).with_name("tickmark")
    try:
        done = subprocess.run([str(exe), "parse", str(path), "--json"], capture_output=True, text=True, timeout=timeout)
        body = json.loads(done.stdout)
    except (subprocess.TimeoutExpired, json.JSONDecodeError) as exc:
        return {}, f"{type(exc).__name__}: {str(exc)[:200]}"
    if "error" in body:
        return {}, f"{body['error'].get('reason')}: {body['error'].get('detail')}"
    out: dict[tuple, list[dict[str, Any]]] = {}
    for f in body.get("facts", []):
        src = f.get("source") or {}
        if src.get("kind") != "ixbrl" or not src.get("concept"):
            continue
        key = (src["concept"], src.get("context") or "", tuple(sorted((f.get("dimensions") or {}).items())))
        # A filing may tag the same concept and context twice (a table's 9,265 and the text's $9.3 billion).
        out.setdefault(key, []).append(f)
    return out, None


def _problems(ours: Fact, theirs: dict[str, Any]) -> list[str]:
    value = _num(theirs.get("value"))
    if value is not None and _unit(theirs.get("unit")) == "percent" and _unit(ours.unit) == "pure":
        # The project stores a pure ratio as a percentage (0.062 as 6.2 percent): same quantity.
        value, unit_ok = value / 100, True
    elif _unit(theirs.get("unit")) == "currency":
        # A currency other than the dollar is stored as unit "currency" with the code beside it.
        unit_ok = (theirs.get("currency") or "").upper() == ours.unit.upper()
    else:
        unit_ok = _unit(theirs.get("unit")) == _unit(ours.unit)
    problems = []
    if value != Decimal(ours.value):
        problems.append("value")
    if (theirs.get("period_start") or None) != ours.start or (theirs.get("period_end") or "") != ours.end:
        problems.append("period")
    if not unit_ok:
        problems.append("unit")
    return problems


def differential(filings: list[Filing], data: Path, *, timeout: int = 300) -> dict[str, Any]:
    """Agreement of every independent fact with the project's parse of the same filing."""
    total = agree = 0
    kinds: Counter = Counter()
    listed: list[dict[str, Any]] = []
    per_file: dict[str, Any] = {}
    failures: dict[str, str] = {}
    for filing in filings:
        theirs, failed = _theirs(data / filing.path, timeout)
        if failed:
            failures[filing.path] = failed
        file_total = file_agree = 0
        for f in filing.facts:
            file_total += 1
            candidates = theirs.get((f.concept, f.context, f.dims), [])
            problems = min((_problems(f, t) for t in candidates), key=len) if candidates else ["missing"]
            t = candidates[0] if candidates else None
            if not problems:
                file_agree += 1
                continue
            kinds.update(problems)
            if f.concept in PRIMARY and not f.dims:
                listed.append({"file": filing.path, "concept": f.concept, "context": f.context,
                               "period": f"{f.start or ''}..{f.end}", "ours": {"value": f.value, "unit": f.unit},
                               "theirs": None if t is None else {"value": str(t.get("value")), "unit": t.get("unit"),
                                                                 "period": f"{t.get('period_start') or ''}..{t.get('period_end')}"},
                               "problems": problems})
        per_file[filing.path] = {"facts": file_total, "agree": file_agree,
                                 "agreement": round(file_agree / file_total, 4) if file_total else None}
        total += file_total
        agree += file_agree
    return {"facts": total, "agree": agree, "agreement": round(agree / total, 4) if total else None,
            "disagreement_kinds": dict(kinds), "files": per_file, "parse_failures": failures,
            "primary_disagreements": listed}
