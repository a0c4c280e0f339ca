"""Tables whose columns are dates, corners that name a company or a currency, and ratios and remainders
named in words: what period, company, unit and quantity each cell is. Each on two layouts."""

from __future__ import annotations

from decimal import Decimal

import pytest

from parsers.catalogue import RoomDocument, build_catalogue
from parsers.claims import extract_claims
from parsers.model import Deck
from tests.parsers.test_deck_layouts import _md
from parsers.periods import parse_fye, period_from_text
from parsers.resolve import resolve_claims


def _table(title: str, header: str, rows: list[str], subtitle: str = "") -> Deck:
    body = "\n".join(rows)
    return _md(f"# Snapshot\n\n---\n\n# {title}\n\n{subtitle}\n\n{header}\n|---|---|---|\n{body}\n")


ROOM = build_catalogue([
    RoomDocument(path="meta-10-K.html", entity="Meta Platforms, Inc.", fiscal_year_end="--12-31",
                 periods=("FY2024", "FY2023"), names=("Meta Platforms, Inc.", "Meta", "META")),
    RoomDocument(path="wmt-10-K.html", entity="Walmart Inc.", fiscal_year_end="--01-31",
                 periods=("FY2025", "FY2024"), names=("Walmart Inc.", "Walmart", "WMT")),
    RoomDocument(path="unp-10-Q.html", entity="Union Pacific Corporation", fiscal_year_end="--12-31",
                 periods=("Q2 FY2025", "FY2024"), names=("Union Pacific Corporation", "Union Pacific", "UNP")),
    RoomDocument(path="ibm-10-Q.html", entity="International Business Machines Corporation", fiscal_year_end="--12-31",
                 periods=("Q2 FY2025", "Q2 FY2024"), names=("International Business Machines Corporation", "IBM")),
])


@pytest.mark.parametrize(("title", "header", "periods"), [
    ("Meta Platforms: balances", "| $ in millions | Dec-24 | Dec-23 |", ["FY2024", "FY2023"]),
    ("Union Pacific: leverage", "| $ in millions | 6/30/25 | 12/31/24 |", ["Q2 FY2025", "FY2024"]),
    ("Walmart: balances", "| $ in millions | Jan 31, 2025 | Jan 31, 2024 |", ["FY2025", "FY2024"]),
])
def test_a_date_column_is_the_balance_at_that_date_in_the_companys_calendar(title, header, periods):
    deck = _table(title, header, ["| Cash and cash equivalents | 43,889 | 41,862 |"])
    assert [c.period for c in resolve_claims(extract_claims(deck), ROOM).claims] == periods


@pytest.mark.parametrize("header", ["| $ in millions | Close '24 | Close '23 |", "| $ in millions | 2H-24 est | 2H-23 est |"])
def test_two_columns_of_dates_we_cannot_read_are_not_both_the_slides_period(header):
    deck = _table("Meta Platforms FY2024: balances", header, ["| Cash and cash equivalents | 43,889 | 41,862 |"])
    assert {c.period for c in extract_claims(deck).claims} == {None}


@pytest.mark.parametrize(("corner", "company"), [("IBM, USD m", "International Business Machines Corporation"),
                                                 ("Walmart ($ in millions)", "Walmart Inc.")])
def test_a_table_corner_names_whose_figures_its_rows_are(corner, company):
    deck = _md(f"# Book\n\n---\n\n# IBM and Walmart: the quarter\n\n| {corner} | 2Q25 | 2Q24 |\n|---|---|---|\n"
               "| Revenue | 16,977 | 15,770 |\n")
    assert {c.entity for c in resolve_claims(extract_claims(deck), ROOM).claims} == {company}


@pytest.mark.parametrize(("corner", "cell", "scale"), [("USD m", "44,062m", 6), ("IBM, USD m", "16,977", 6)])
def test_a_corner_that_names_the_currency_makes_its_cells_money(corner, cell, scale):
    deck = _table("Results", f"| {corner} | 2Q26 | 2Q25 |", [f"| Revenue | {cell} | 30,040 |"])
    first = extract_claims(deck).claims[0]
    assert (first.unit, first.scale) == ("USD", scale)


@pytest.mark.parametrize("line", ["Capex, net of proceeds and incentives of $77.7 billion",
                                  "Revenue net of reinsurance of $12.0 billion"])
def test_a_quantity_net_of_a_part_is_another_quantity(line):
    deck = _md(f"# Amazon FY2024\n\n- {line}\n")
    assert [c.metric.startswith("label:") for c in extract_claims(deck).claims] == [True]


@pytest.mark.parametrize(("line", "metric"), [("Apple repurchased $69.3bn of its stock in 9M FY25", "share_repurchases"),
                                              ("Share repurchases (cash paid) of $11.0 billion", "share_repurchases")])
def test_buybacks_are_a_quantity_of_their_own(line, metric):
    deck = _md(f"# Apple\n\n- {line}\n")
    assert [c.metric for c in extract_claims(deck).claims] == [metric]


@pytest.mark.parametrize(("line", "numerator", "denominator"), [
    ("Adjusted debt to adjusted EBITDA of 2.8x", "label:adjusted debt", "adjusted_ebitda"),
    ("Net debt/EBITDA of 1.2x", "label:net debt", "ebitda"),
    ("Operating cash flow covered capex 1.3x", "operating_cash_flow", "capex"),
])
def test_a_ratio_divides_the_quantity_before_to_by_the_one_after(line, numerator, denominator):
    deck = _md(f"# Union Pacific 2024\n\n- {line}\n")
    (claim,) = extract_claims(deck).claims
    assert (claim.metric, claim.denominator) == (numerator, denominator)


@pytest.mark.parametrize(("text", "fye", "period"), [
    ("As of June 30, 2025, we had $1.1 billion of cash", "--12-31", "Q2 FY2025"),
    ("as of October 31, 2024", "--04-30", "Q2 FY2025"),
    ("As of December 31, 2024, we had 74,067 employees", "--12-31", "FY2024"),
])
def test_a_balance_as_of_a_quarters_end_is_that_quarters(text, fye, period):
    assert period_from_text(text, parse_fye(fye)) == period


@pytest.mark.parametrize(("span", "names", "period"), [
    ("Fiscal 2022", ["OCF", "Net margin", "Diluted EPS"], "FY2022"),
    ("Q2 2025", ["Revenue", "Operating income", "Diluted EPS"], "Q2 FY2025"),
])
def test_a_header_row_spanning_the_metric_names_dates_them(span, names, period):
    deck = _md(f"# Screen\n\n---\n\n# Sector screen\n\n| | {span} | | |\n|---|---|---|---|\n| Company | {' | '.join(names)} |\n"
               "| PepsiCo | $10.8B | 10.3% | $6.42 |\n| Verizon | $37.1B | 15.5% | $5.06 |\n")
    claims = extract_claims(deck).claims
    assert len(claims) == 6 and {c.period for c in claims} == {period}
    assert [c.row for c in claims][:3] == ["PepsiCo"] * 3


@pytest.mark.parametrize("head", ["EV / EBITDA", "P/E (NTM)"])
def test_a_valuation_multiple_is_no_filing_figure(head):
    deck = _md(f"# Screen\n\n---\n\n# Valuation\n\n| FY2024 | Revenue | {head} |\n|---|---|---|\n| PepsiCo | $91.9B | 17.8x |\n")
    parsed = extract_claims(deck)
    assert [c.text for c in parsed.claims] == ["$91.9B"]
    assert any("valuation" in d.why for d in parsed.discarded)


@pytest.mark.parametrize("line", ["$36.8B Cash, cash equivalents and investments at June 30",
                                  "Cash, cash equivalents and marketable securities of $77.8bn"])
def test_cash_listed_with_investments_is_no_cash_figure(line):
    deck = _md(f"# Tesla Q2 2025\n\n- {line}\n")
    assert [c.metric.startswith("label:") for c in extract_claims(deck).claims] == [True]
