"""Periods a table or a callout states in the ways desks write them: a compound annual growth column over
the years it names or spans, a year-to-date column read as far as each company's latest 10-Q goes, the
desk's "F2Q26", a row of companies each in its own quarter, a "vs Q2'24" that dates the comparison and not
the figure, and a quarter column printed as its end date. Each on two companies or layouts."""

from __future__ import annotations

import pytest

from parsers.catalogue import RoomDocument, build_catalogue
from parsers.claims import extract_claims
from parsers.model import Claim, Deck, Slide, TextBlock
from parsers.periods import period_from_text
from parsers.resolve import resolve_claims

ROOM = build_catalogue([
    RoomDocument(path="pg-10-Q.html", entity="PROCTER & GAMBLE CO", fiscal_year_end="--06-30",
                 periods=("Q3 FY2025", "9M FY2025", "Q3 FY2024", "9M FY2024"), names=("Procter & Gamble", "P&G", "PG")),
    RoomDocument(path="nflx-10-Q.html", entity="Netflix, Inc.", fiscal_year_end="--12-31",
                 periods=("Q2 FY2025", "H1 FY2025", "Q2 FY2024", "H1 FY2024"), names=("Netflix, Inc.", "Netflix", "NFLX")),
    RoomDocument(path="wmt-10-K.html", entity="Walmart Inc.", fiscal_year_end="--01-31",
                 periods=("FY2025", "FY2024", "FY2023"), names=("Walmart Inc.", "Walmart", "WMT")),
    RoomDocument(path="nvda-10-Q.html", entity="NVIDIA Corporation", fiscal_year_end="--01-26",
                 periods=("Q2 FY2026", "H1 FY2026"), names=("NVIDIA Corporation", "NVIDIA", "NVDA")),
])


def _table(title: str, grid: list[list[str]]) -> list[Claim]:
    deck = Deck(format="pptx", slides=[Slide(page=1, title=title, blocks=[], tables=[grid], table_boxes=[])])
    return resolve_claims(extract_claims(deck), ROOM).claims


@pytest.mark.parametrize(("title", "header", "row", "spans"), [
    ("WMT | Operating summary", ["US$ in millions", "FY2023", "FY2024", "FY2025", "’23–’25 CAGR"],
     ["Total revenues", "611,289", "648,125", "680,985", "5.5%"], ("FY2025", "FY2023", 2)),
    ("Walmart: three-year trend", ["$m", "FY2022", "FY2023", "FY2024", "CAGR"],
     ["Operating income", "25,942", "20,428", "27,012", "2.0%"], ("FY2024", "FY2022", 2)),
])
def test_a_cagr_column_compounds_over_the_years_it_names_or_spans(title, header, row, spans) -> None:
    rate = [c for c in _table(title, [header, row]) if c.kind == "growth"]
    assert [(c.period, c.comparison_period, c.compounded_years) for c in rate] == [spans]


@pytest.mark.parametrize(("title", "header", "company", "periods"), [
    ("P&G year to date", ["Net sales ($m)", "YTD FY25", "YTD FY24", "Change"], "PROCTER & GAMBLE CO",
     ["9M FY2025", "9M FY2024", "9M FY2025"]),
    ("Netflix year to date", ["Revenue ($m)", "YTD 2025", "YTD 2024", "Change"], "Netflix, Inc.",
     ["H1 FY2025", "H1 FY2024", "H1 FY2025"]),
])
def test_a_year_to_date_column_reaches_as_far_as_the_companys_latest_10q(title, header, company, periods) -> None:
    claims = _table(title, [header, ["Revenue", "63,395", "63,507", "-0.2%"]])
    assert [c.entity for c in claims] == [company] * 3
    assert [c.period for c in claims] == periods
    assert claims[2].comparison_period == periods[1]


def test_a_year_to_date_label_the_room_cannot_place_stays_unplaced() -> None:
    # Walmart's room holds no 10-Q: its "YTD" is no period the rules can look up, never the full year.
    claims = _table("Walmart year to date", [["Net sales ($m)", "YTD FY25"], ["Revenue", "510,000"]])
    assert [c.period for c in claims] == ["YTD FY2025"]


@pytest.mark.parametrize(("text", "period"), [
    ("NVDA | F2Q26 print", "Q2 FY2026"),
    ("AAPL | F3Q25 (June qtr)", "Q3 FY2025"),
    ("CRM — F1Q24", "Q1 FY2024"),
])
def test_a_desks_fiscal_quarter_shorthand_is_that_quarter(text: str, period: str) -> None:
    assert period_from_text(text) == period


def test_a_row_of_companies_each_takes_the_period_its_row_prints() -> None:
    claims = _table("Roll-up", [["Ticker", "Qtr", "Rev ($bn)", "EPS"],
                                ["NVDA", "F2Q26 (Jul-25)", "46.7", "1.08"],
                                ["NFLX", "2Q25 (Jun-25)", "11.1", "7.19"]])
    assert [(c.entity, c.period) for c in claims] == [
        ("NVIDIA Corporation", "Q2 FY2026"), ("NVIDIA Corporation", "Q2 FY2026"),
        ("Netflix, Inc.", "Q2 FY2025"), ("Netflix, Inc.", "Q2 FY2025")]
    # The row's ticker is the company, not a part of it: "NVDA" beside "EPS" is NVIDIA's EPS, in $ a share.
    assert [(c.metric, c.unit) for c in claims[1::2]] == [("eps_diluted", "USD/share")] * 2


@pytest.mark.parametrize(("callout", "period", "against"), [
    ("REVENUE $11.08B (▲ 16% vs Q2'24)", "Q2 FY2025", "Q2 FY2024"),
    ("NET SALES $165.0B (▲ 7% vs Q3’24)", "Q3 FY2025", "Q3 FY2024"),
])
def test_the_period_after_vs_dates_the_comparison_not_the_figure(callout, period, against) -> None:
    deck = Deck(format="pptx", slides=[Slide(page=1, title="Competitor watch", blocks=[
        TextBlock(text=f"Three months ended {'June 30' if period.startswith('Q2') else 'September 30'}, 2025"),
        TextBlock(text=callout)])])
    claims = extract_claims(deck).claims
    assert [(c.kind, c.period) for c in claims] == [("value", period), ("growth", period)]
    assert claims[1].comparison_period == against


@pytest.mark.parametrize(("header", "periods"), [
    (["$m", "This quarter Jun 30, 2025", "Same quarter last year Jun 30, 2024"], ["Q2 FY2025", "Q2 FY2024"]),
    (["$m", "Quarter Sep 30, 2025", "Quarter Sep 30, 2024"], ["Q3 FY2025", "Q3 FY2024"]),
])
def test_a_quarter_column_printed_as_its_end_date_is_that_quarter(header, periods) -> None:
    deck = Deck(format="pptx", slides=[Slide(page=1, title="Netflix", blocks=[],
                                             tables=[[header, ["Revenue", "11,079", "9,559"]]], table_boxes=[])])
    assert [c.period for c in extract_claims(deck).claims] == periods


@pytest.mark.parametrize(("grid", "segments"), [
    ([["$ millions", "Q2'25", "Q2'24"], ["Compute & Networking", "", ""], ["Segment revenue", "41,331", "26,446"],
      ["Graphics", "", ""], ["Segment revenue", "5,412", "3,594"]],
     ["segment:compute networking"] * 2 + ["segment:graphics"] * 2),
    ([["US$ m", "Q2'25", "Q2'24"], ["Revenue by region", "", ""], ["UCAN", "4,929", "4,296"], ["EMEA", "3,538", "2,959"]],
     ["segment:ucan"] * 2 + ["segment:emea"] * 2),
])
def test_a_row_printing_only_its_label_heads_the_rows_under_it(grid, segments) -> None:
    claims = extract_claims(Deck(format="pptx", slides=[Slide(page=1, title="NVIDIA", blocks=[], tables=[grid],
                                                              table_boxes=[])])).claims
    assert [c.metric for c in claims] == ["revenue"] * 4
    assert [c.basis for c in claims] == segments


@pytest.mark.parametrize(("grid", "printed"), [
    ([["Metric", "Reported", "Street", "Beat/(Miss)"], ["Revenue", "$46.74bn", "$46.05bn", "$0.69bn"]], ["$46.74bn"]),
    ([["$m", "Aug 31, 2024", "Aug 31, 2023"], ["Operating income", "3,991", "3,296"],
      ["Consensus op. income", "3,880", "-"], ["Our ad-revenue est.", "~560", "~270"]], ["3,991", "3,296"]),
])
def test_consensus_and_estimates_in_a_table_are_no_claims(grid, printed) -> None:
    claims = extract_claims(Deck(format="md", slides=[Slide(page=1, title="Oracle", blocks=[], tables=[grid],
                                                            table_boxes=[])])).claims
    assert [c.printed for c in claims] == printed


@pytest.mark.parametrize(("text", "fye", "period"), [
    ("9M to Jun-25", "--09-27", "9M FY2025"),   # Apple's nine months to its June quarter
    ("9M to Mar-25", "--06-30", "9M FY2025"),   # P&G's nine months to its March quarter
    ("H1 to Jun-25", "--12-31", "H1 FY2025"),
    ("6M to Jun-25", "--12-31", "H1 FY2025"),
])
def test_a_part_of_a_year_to_a_month_is_read_in_the_companys_calendar(text: str, fye: str, period: str) -> None:
    from parsers.periods import parse_fye

    assert period_from_text(text, parse_fye(fye)) == period
