"""Evaluation on the dev set (../shared/data/gold), not a behaviour test: the extractor's recall,
non-claims and slot agreement on the hand-checked gold decks."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from parsers.claims import extract_claims
from parsers.decks import load_deck
from parsers.model import Claim, Deck, ParsedDeck

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
GOLD = DATA / "gold"

# Gold metric ids are descriptive; ours are registry ids (or label:...). What each gold id should become.
EXPECTED_METRIC = {
    "revenue": "revenue", "gross_margin_pct": "gross_margin", "operating_margin_pct": "operating_margin",
    "net_income": "net_income", "research_and_development_expense": "research_and_development",
    "iphone_net_sales": "revenue", "ipad_net_sales": "revenue", "diluted_eps": "eps_diluted",
    "active_installed_base_devices": "label:", "net_income_growth_yoy_pct": "net_income",
    "operating_income_growth_yoy_pct": "operating_income", "revenue_growth_yoy_pct": "revenue",
    "paid_memberships": "paid_memberships", "vehicle_deliveries": "deliveries", "fsd_revenue_recognized": "revenue",
    "operating_cash_flow_to_capex_ratio": "operating_cash_flow", "energy_revenue_growth_yoy_pct": "revenue",
    "free_cash_flow": "free_cash_flow", "cash_and_marketable_securities": "cash",
    "threads_monthly_active_users": "label:", "aws_operating_margin_pct": "operating_margin",
    "aws_revenue_growth_yoy_pct": "revenue", "cloud_revenue": "cloud_revenue",
    "cloud_revenue_share_pct": "cloud_revenue", "customers_acv_over_100k": "label:", "deferred_revenue": "deferred_revenue",
    "genai_customers": "label:", "operating_cash_flow": "operating_cash_flow", "gross_margin": "gross_margin",
}
NUM = re.compile(r"\d[\d,]*\.?\d*")


def _numbers(s: str) -> set[str]:
    return {m.group(0).replace(",", "").rstrip(".") for m in NUM.finditer(s or "")}


def _gold_number(c: dict) -> str:
    ns = _numbers(str(c.get("value", ""))) or _numbers(c.get("text", ""))
    return sorted(ns, key=len)[-1] if ns else ""


def _matches(gc: dict, sc: Claim) -> bool:
    """score_gold.py's rule: same page, and the gold number is in the claim's value or text."""
    g = _gold_number(gc)
    return sc.page == int(gc["page"]) and bool(g) and (g in _numbers(str(sc.value)) or g in _numbers(sc.text))


def _leaks(nc: dict, claims: list[Claim]) -> bool:
    key = " ".join(nc["text"].split())[:40].lower()
    return any(c.page == int(nc["page"]) and key in " ".join(c.text.split()).lower() for c in claims)


def _best(gc: dict, claims: list[Claim]) -> Claim | None:
    found = [c for c in claims if _matches(gc, c)]
    exact = [c for c in found if _gold_number(gc) in _numbers(str(abs(c.value)))]
    return (exact or found or [None])[0]


def _same_period(gold: str, ours: str | None) -> bool:
    return ours is not None and gold.replace("FY", "").split() == ours.replace("FY", "").split()


def _same_basis(gold: str, claim: Claim) -> bool:
    if gold.startswith("segment"):
        return claim.basis.startswith("segment:")
    return gold == claim.basis


def _same_metric(gold: str, claim: Claim) -> bool:
    want = EXPECTED_METRIC.get(gold, gold)
    return (claim.metric or "").startswith("label:") if want == "label:" else claim.metric == want


def _parsed(name: str) -> tuple[dict, ParsedDeck]:
    if not GOLD.is_dir():
        pytest.skip(f"needs the gold decks at {GOLD}, which this checkout does not have")
    gold = json.loads((GOLD / f"{name}.json").read_text())
    deck = load_deck((GOLD / gold["deck"]).read_bytes(), gold["deck"])
    assert isinstance(deck, Deck), deck
    return gold, extract_claims(deck)


DECKS = ["dev-apple-netflix", "dev-tesla-meta-amazon", "dev-elastic-pepsico-bestbuy"]


def agreement() -> dict[str, float | int | list[str]]:
    """Recall, leaks and slot agreement over all gold decks (also printed by the benchmark)."""
    total = found = 0
    hits = {"metric": 0, "period": 0, "basis": 0, "entity": 0}
    misses: list[str] = []
    leaked: list[str] = []
    for name in DECKS:
        gold, parsed = _parsed(name)
        for gc in gold["claims"]:
            total += 1
            c = _best(gc, parsed.claims)
            if c is None:
                misses.append(f"{name}:{gc['id']} missed")
                continue
            found += 1
            checks = {
                "metric": _same_metric(gc["metric"], c),
                "period": _same_period(gc["period"], c.period),
                "basis": _same_basis(gc["basis"], c),
                "entity": bool(c.entity) and gc["entity"].lower().startswith(c.entity.lower()),
            }
            for k, ok in checks.items():
                hits[k] += ok
                if not ok:
                    misses.append(f"{name}:{gc['id']} {k}: gold {gc.get(k)!r} got {getattr(c, k)!r}")
        leaked += [f"{name} p{nc['page']}: {nc['text']}" for nc in gold["non_claims"] if _leaks(nc, parsed.claims)]
    return {"total": total, "found": found, "recall": found / total, "leaked": leaked,
            **{f"{k}_agreement": v / max(found, 1) for k, v in hits.items()}, "disagreements": misses}


@pytest.mark.parametrize("name", DECKS)
def test_gold_claims_are_found_on_their_page(name: str) -> None:
    gold, parsed = _parsed(name)
    missed = [gc["text"] for gc in gold["claims"] if _best(gc, parsed.claims) is None]
    assert len(missed) <= 0.05 * len(gold["claims"]), missed


@pytest.mark.parametrize("name", DECKS)
def test_gold_non_claims_never_become_claims(name: str) -> None:
    gold, parsed = _parsed(name)
    assert [nc["text"] for nc in gold["non_claims"] if _leaks(nc, parsed.claims)] == []


@pytest.mark.parametrize("name", DECKS)
def test_gold_non_claims_with_figures_are_discarded_with_a_reason(name: str) -> None:
    gold, parsed = _parsed(name)
    texts = {" ".join(d.text.split()) for d in parsed.discarded if d.why}
    with_figures = [nc for nc in gold["non_claims"] if re.search(r"\d", nc["text"])]
    assert [nc["text"] for nc in with_figures if " ".join(nc["text"].split()) not in texts] == []


def test_metric_period_and_basis_agree_with_gold_for_most_claims() -> None:
    r = agreement()
    assert r["recall"] >= 0.95
    for k in ("metric_agreement", "period_agreement", "basis_agreement", "entity_agreement"):
        assert r[k] >= 0.8, (k, r[k], r["disagreements"])


def test_each_gold_claim_has_stable_ids_across_parses() -> None:
    _, a = _parsed("dev-apple-netflix")
    _, b = _parsed("dev-apple-netflix")
    assert [c.id for c in a.claims] == [c.id for c in b.claims]
    assert len({c.id for c in a.claims}) == len(a.claims)


if __name__ == "__main__":
    print(json.dumps(agreement(), indent=1))
