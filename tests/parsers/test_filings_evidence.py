"""Evidence on the real filings in ../shared/data (skipped when that folder is absent)."""

from __future__ import annotations

import json
from decimal import Decimal
from functools import lru_cache
from pathlib import Path

import pytest

from parsers.filings import ixbrl_agreement, parse_filing, sniff
from parsers.metrics import by_id
from parsers.model import ParsedDocument

DATA = Path(__file__).parents[2].parent / "shared" / "data"
pytestmark = pytest.mark.skipif(not DATA.is_dir(), reason=f"shared data folder {DATA} is absent")

PDF_10K_REVENUE = {
    # latest fiscal year's total revenue on the income statement, in millions as printed
    "AMCOR_2022_10K.pdf": ("FY2022", Decimal("14544")),
    "AMCOR_2023_10K.pdf": ("FY2023", Decimal("14694")),
    "BESTBUY_2023_10K.pdf": ("FY2023", Decimal("46298")),
    "CORNING_2020_10K.pdf": ("FY2020", Decimal("11303")),
    "CORNING_2021_10K.pdf": ("FY2021", Decimal("14082")),
    "CORNING_2022_10K.pdf": ("FY2022", Decimal("14189")),
    "JOHNSON_JOHNSON_2022_10K.pdf": ("FY2022", Decimal("94943")),
    "MGMRESORTS_2021_10K.pdf": ("FY2021", Decimal("9680.140")),
    "MGMRESORTS_2022_10K.pdf": ("FY2022", Decimal("13127.485")),
    "PEPSICO_2021_10K.pdf": ("FY2021", Decimal("79474")),
    "PEPSICO_2022_10K.pdf": ("FY2022", Decimal("86392")),
    "VERIZON_2021_10K.pdf": ("FY2021", Decimal("133613")),
    "VERIZON_2022_10K.pdf": ("FY2022", Decimal("136835")),
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
    assert any(f.value == millions.scaleb(6) for f in facts), [(f.value, f.source.locator) for f in facts]
    f = next(f for f in facts if f.value == millions.scaleb(6))
    assert f.source.page and f.source.bbox


def _ixbrl_files() -> list[str]:
    if not DATA.is_dir():
        return []
    out = []
    for p in sorted(DATA.rglob("*.htm*")):
        if sniff(p.read_bytes()[:300_000], p.name) == "ixbrl":
            out.append(str(p.relative_to(DATA)))
    return out


# Known parser defects, each a table whose stated scale is applied to cells it does not govern.
_SCALE_DEFECTS = {
    "filings/PG/pg-10-K-FY2025.html": "a stock-option table's $ in millions read as thousands",
    "filings/TSLA/tsla-10-K-FY2024.html": "bitcoin units read in the table's millions",
}


@pytest.mark.parametrize("rel", [
    pytest.param(rel, marks=pytest.mark.xfail(reason=_SCALE_DEFECTS[rel], strict=True)) if rel in _SCALE_DEFECTS
    else rel for rel in _ixbrl_files()
])
def test_every_table_cell_with_an_ixbrl_tag_agrees_with_the_tagged_value(rel):
    doc = parsed(rel)
    a = ixbrl_agreement(doc)
    # A report's statements are tagged, so a tagged filing with no tagged cell lost its tags.
    assert a.pairs > 0 or (doc.document.form or "").startswith("8-K"), rel
    assert a.mismatches == [], "\n".join(a.mismatches)


_GOLD_METRICS = {
    "gross_margin_pct": "gross_margin", "research_and_development_expense": "research_and_development",
    "diluted_eps": "eps_diluted", "cash_and_marketable_securities": "cash",
}
_MONEY = {"thousands": 3, "millions": 6, "billions": 9, "USD per share": 0}


def _gold_evidence():
    for path in sorted((DATA / "gold").glob("*.json")) if DATA.is_dir() else []:
        for claim in json.loads(path.read_text())["claims"]:
            for ev in claim["evidence"]:
                yield claim, ev


def _money(ev: dict) -> Decimal | None:
    """The cited figure's magnitude in base units, for money and per-share figures only."""
    from parsers.numbers import parse_printed

    found = parse_printed(ev["as_printed"].replace("(", "-").replace(")", ""))
    if ev["scale"] not in _MONEY or not found:
        return None
    p = found[0]
    return abs(p.value.scaleb(p.scale or _MONEY[ev["scale"]]))


def test_every_money_figure_the_gold_evidence_cites_is_a_fact_of_its_document():
    checked, misses = 0, []
    for claim, ev in _gold_evidence():
        value = _money(ev)
        if value is None:
            continue
        checked += 1
        if not any(abs(f.value) == value for f in parsed(ev["doc"]).facts):
            misses.append(f"{claim['id']} {ev['doc']} {ev['as_printed']}")
    assert checked and misses == []


def test_a_registry_quantity_cited_on_a_primary_statement_is_a_fact_of_that_metric():
    # Percentages, sentences and the inputs of derived claims (growth, margins, ratios) are left out:
    # which metric they are read as is the vocabulary's business, not the statement reader's.
    checked, misses = 0, []
    for claim, ev in _gold_evidence():
        metric = _GOLD_METRICS.get(claim["metric"], claim["metric"])
        value = _money(ev)
        reg = by_id(metric)
        if value is None or reg is None or reg.ratio_of or not any(s in ev["where"].lower() for s in _STATEMENT):
            continue
        checked += 1
        if not any(abs(f.value) == value and f.metric == metric for f in parsed(ev["doc"]).facts):
            misses.append(f"{claim['id']} {metric} {ev['doc']} {ev['as_printed']}")
    assert checked and misses == []
