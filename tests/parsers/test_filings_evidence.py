"""Evidence on the real filings in ../shared/data (skipped when that folder is absent)."""

from __future__ import annotations

import json
from decimal import Decimal
from functools import lru_cache
from pathlib import Path

import pytest

from parsers.filings import ixbrl_agreement, parse_filing, sniff
from parsers.model import ParsedDocument

DATA = Path(__file__).parents[2].parent / "shared" / "data"
pytestmark = pytest.mark.skipif(not DATA.is_dir(), reason=f"shared data folder {DATA} is absent")

PDF_10K_REVENUE = {
    # latest fiscal year's total revenue on the income statement, in millions as printed
    "AMCOR_2022_10K.pdf": ("FY2022", "14544"),
    "AMCOR_2023_10K.pdf": ("FY2023", "14694"),
    "BESTBUY_2023_10K.pdf": ("FY2023", "46298"),
    "CORNING_2020_10K.pdf": ("FY2020", "11303"),
    "CORNING_2021_10K.pdf": ("FY2021", "14082"),
    "CORNING_2022_10K.pdf": ("FY2022", "14189"),
    "JOHNSON_JOHNSON_2022_10K.pdf": ("FY2022", "94943"),
    "MGMRESORTS_2021_10K.pdf": ("FY2021", "9680.140"),
    "MGMRESORTS_2022_10K.pdf": ("FY2022", "13127.485"),
    "PEPSICO_2021_10K.pdf": ("FY2021", "79474"),
    "PEPSICO_2022_10K.pdf": ("FY2022", "86392"),
    "VERIZON_2021_10K.pdf": ("FY2021", "133613"),
    "VERIZON_2022_10K.pdf": ("FY2022", "136835"),
}
_STATEMENT = ("statement of income", "statements of income", "statements of operations", "statement of operations",
              "statements of earnings", "statement of earnings")


@lru_cache(maxsize=None)
def parsed(rel: str) -> ParsedDocument:
    doc = parse_filing((DATA / rel).read_bytes(), rel)
    assert isinstance(doc, ParsedDocument), doc
    return doc


def _statement_facts(doc: ParsedDocument, metric: str, period: str):
    titles = {t.id: t.title.lower() for t in doc.tables}
    return [f for f in doc.facts if f.source.kind == "table" and f.metric == metric and f.period == period
            and not f.dimensions and any(s in titles[f.source.table] for s in _STATEMENT)]


def test_nvidia_revenue_is_cited_to_its_income_statement_cells():
    doc = parsed("filings/NVDA/nvda-10-K-FY2025_2025-01-26.html")
    for period, millions in (("FY2025", 130_497), ("FY2024", 60_922)):
        facts = _statement_facts(doc, "revenue", period)
        assert facts, period
        f = facts[0]
        assert f.value == Decimal(millions) * 10**6 and f.as_printed.replace(",", "") == str(millions)
        table = next(t for t in doc.tables if t.id == f.source.table)
        cell = next(c for c in table.rows[f.source.row].cells if c.column == f.source.column)
        assert cell.concept == "us-gaap:Revenues" and cell.value == millions
        assert "Consolidated Statements of Income" in f.source.locator


def test_apple_fiscal_year_ends_in_late_september():
    doc = parsed("filings/AAPL/aapl-10-K-FY2024_2024-11-01.html")
    month, day = doc.document.fiscal_year_end.strip("-").split("-")
    assert month == "09" and int(day) >= 24
    rev = [f for f in doc.facts if f.metric == "revenue" and f.period == "FY2024" and f.source.kind == "table"]
    assert any(f.value == Decimal("391035000000") for f in rev)


def test_apple_revenue_is_cited_to_the_income_statement():
    doc = parsed("filings/AAPL/aapl-10-K-FY2024_2024-11-01.html")
    assert any(f.value == Decimal("391035000000") for f in _statement_facts(doc, "revenue", "FY2024"))


def test_union_pacific_non_gaap_measures():
    doc = parsed("filings/UNP/unp-10-K-FY2024.html")
    for metric in ("adjusted_ebitda", "free_cash_flow"):
        facts = [f for f in doc.facts if f.metric == metric and f.period == "FY2024" and f.source.kind == "table"]
        assert facts, metric
        assert all(f.basis == "non-GAAP" for f in facts), metric


@pytest.mark.parametrize("name", sorted(PDF_10K_REVENUE))
def test_pdf_10k_gives_latest_year_revenue_from_income_statement(name):
    period, millions = PDF_10K_REVENUE[name]
    doc = parsed(f"filings_pdf/{name}")
    facts = _statement_facts(doc, "revenue", period)
    assert any(f.value == Decimal(millions) * 10**6 for f in facts), [(f.value, f.source.locator) for f in facts]
    f = next(f for f in facts if f.value == Decimal(millions) * 10**6)
    assert f.source.page and f.source.bbox


def _ixbrl_files() -> list[str]:
    if not DATA.is_dir():
        return []
    out = []
    for p in sorted(DATA.rglob("*.htm*")):
        if sniff(p.read_bytes()[:300_000], p.name) == "ixbrl":
            out.append(str(p.relative_to(DATA)))
    return out


def test_ixbrl_and_table_values_agree_over_every_ixbrl_filing():
    pairs = agree = 0
    for rel in _ixbrl_files():
        a = ixbrl_agreement(parsed(rel))
        pairs += a.pairs
        agree += a.agree
    print(f"iXBRL-vs-table agreement: {agree}/{pairs} = {agree / pairs:.4f}")
    assert pairs > 5000 and agree / pairs >= 0.99


_GOLD_METRICS = {
    "gross_margin_pct": "gross_margin", "research_and_development_expense": "research_and_development",
    "diluted_eps": "eps_diluted", "cash_and_marketable_securities": "cash",
}


def _gold_evidence():
    for path in sorted((DATA / "gold").glob("*.json")) if DATA.is_dir() else []:
        for claim in json.loads(path.read_text())["claims"]:
            for ev in claim["evidence"]:
                yield claim, ev


def _printed_value(as_printed: str, scale: str) -> Decimal | None:
    from parsers.numbers import parse_printed

    found = parse_printed(as_printed.replace("(", "-").replace(")", ""))
    if not found:
        return None
    p = found[0]
    power = {"millions": 6, "thousands": 3, "billions": 9}.get(scale, 0)
    return abs(p.value.scaleb(p.scale or power)) if scale not in ("percent", "USD per share", "units", "count") \
        else abs(p.value.scaleb(p.scale))


def test_gold_evidence_appears_as_facts():
    hits = strict = total = 0
    misses = []
    for claim, ev in _gold_evidence():
        value = _printed_value(ev["as_printed"], ev["scale"])
        if value is None:
            continue
        total += 1
        doc = parsed(ev["doc"])
        same = [f for f in doc.facts if abs(f.value) == value]
        if same:
            hits += 1
            metric = _GOLD_METRICS.get(claim["metric"], claim["metric"])
            if any(f.metric == metric and f.period.endswith(claim["period"][-4:]) for f in same):
                strict += 1
        else:
            misses.append(f"{claim['id']} {ev['doc']} {ev['as_printed']}")
    print(f"gold evidence as facts: value {hits}/{total}, value+metric+year {strict}/{total}")
    print("\n".join(misses))
    # Measured 46/67 by value: the misses are percentages and sentence figures (text facts are narrow).
    assert total >= 40 and hits / total >= 0.65
