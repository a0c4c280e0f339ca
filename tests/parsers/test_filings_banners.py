"""A bare year column under a banner that names the part of the year ("SECOND QUARTER", "SIX
MONTHS", "Three Months Ended April 30,") printed as another header line, and headers restated over
several rows in the middle of a table: the year is that part's, never the fiscal year."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from parsers.filings import parse_filing
from parsers.model import ParsedDocument
from tests.parsers.test_filings_amounts import _facts, _pdf

DATA = Path(__file__).parents[2].parent / "shared" / "data"
real = pytest.mark.skipif(not DATA.is_dir(), reason=f"shared data folder {DATA} is absent")

# Two quarters stacked in one table, each under its own banner, header restated over three rows.
_STACKED_QUARTERS = [
    (60, [(40, "Globex Inc. Supplementary Sales Data")]),
    (72, [(40, "(Unaudited; Dollars in Millions)")]),
    (84, [(330, "FIRST QUARTER"), (430, "Percent Change")]),
    (96, [(300, "2023"), (360, "2022"), (420, "Total"), (480, "Currency")]),
    (108, [(40, "Net sales"), (300, "$20,894"), (360, "19,840"), (420, "5.3 %"), (480, "(3.2)")]),
    (120, [(40, "Operating income"), (300, "5,107"), (360, "4,790"), (420, "6.6 %"), (480, "(1.0)")]),
    (140, [(40, "(Unaudited; Dollars in Millions)"), (330, "SECOND QUARTER")]),
    (152, [(430, "Percent Change")]),
    (164, [(300, "2023"), (360, "2022"), (420, "Total"), (480, "Currency")]),
    (176, [(40, "Net sales"), (300, "$21,519"), (360, "20,215"), (420, "6.5 %"), (480, "(1.0)")]),
    (188, [(40, "Operating income"), (300, "5,560"), (360, "5,102"), (420, "9.0 %"), (480, "(0.5)")]),
]

# One year over the table, a part of it over each column.
_YEAR_OVER_PARTS = [
    (60, [(40, "Hooli Condensed Consolidated Statement of Earnings")]),
    (72, [(40, "(Dollars in Millions)")]),
    (84, [(330, "2023")]),
    (96, [(220, "Q1"), (330, "Q2"), (440, "SIX MONTHS")]),
    (108, [(200, "Amount"), (320, "Amount"), (440, "Amount")]),
    (120, [(40, "Sales to customers"), (200, "$20,894"), (320, "$21,519"), (440, "$42,413")]),
    (132, [(40, "Net earnings"), (200, "6,340"), (320, "6,730"), (440, "13,070")]),
]


def _values(doc: ParsedDocument, metric: str) -> dict[str, set[Decimal]]:
    out: dict[str, set[Decimal]] = {}
    for f in _facts(doc, metric):
        out.setdefault(f.period, set()).add(f.value)
    return out


def test_quarters_stacked_under_their_banners_are_each_quarters_figures():
    doc = _pdf(_STACKED_QUARTERS, "globex-8k.pdf")
    assert _values(doc, "revenue") == {
        "Q1 FY2023": {Decimal("20894E6")}, "Q1 FY2022": {Decimal("19840E6")},
        "Q2 FY2023": {Decimal("21519E6")}, "Q2 FY2022": {Decimal("20215E6")}}
    assert set(_values(doc, "operating_income")) == {"Q1 FY2023", "Q1 FY2022", "Q2 FY2023", "Q2 FY2022"}


def test_a_year_printed_over_its_parts_dates_each_part():
    doc = _pdf(_YEAR_OVER_PARTS, "hooli.pdf")
    assert _values(doc, "revenue") == {"Q1 FY2023": {Decimal("20894E6")}, "Q2 FY2023": {Decimal("21519E6")},
                                       "H1 FY2023": {Decimal("42413E6")}}
    assert set(_values(doc, "net_income")) == {"Q1 FY2023", "Q2 FY2023", "H1 FY2023"}


def test_a_quarter_banner_that_does_not_say_which_gives_no_fiscal_year():
    doc = _pdf([
        (60, [(40, "Vandelay Industries Statements of Operations")]),
        (72, [(40, "(in millions)")]),
        (84, [(320, "Three Months Ended")]),
        (96, [(320, "2024"), (420, "2023")]),
        (108, [(40, "Total revenues"), (320, "1,250"), (420, "1,100")]),
    ], "vandelay.pdf")
    assert not [f for f in _facts(doc, "revenue") if f.period.startswith("FY")]


def _real(rel: str) -> ParsedDocument:
    doc = parse_filing((DATA / rel).read_bytes(), Path(rel).name)
    assert isinstance(doc, ParsedDocument), doc
    return doc


@real
def test_johnson_and_johnson_quarterly_sales_under_banners_are_quarters():
    doc = _real("filings_pdf/JOHNSON_JOHNSON_2023_8K_dated-2023-08-30.pdf")
    revenue = _values(doc, "revenue")
    # Q2 2022 sales, printed under "SECOND QUARTER" over "2023 | 2022", had been read as fiscal 2022's.
    assert Decimal("20215E6") in revenue["Q2 FY2022"]
    assert all(Decimal("20215E6") not in v for p, v in revenue.items() if p.startswith("FY"))
    assert Decimal("42413E6") in revenue["H1 FY2023"]


@real
def test_salesforce_quarter_columns_under_a_spanning_header_are_quarters():
    doc = _real("filings_pdf/SALESFORCE_2024Q1_EARNINGS.pdf")
    revenue = {(f.period, f.basis): f.value for f in _facts(doc, "revenue")}
    assert revenue[("Q1 FY2024", "GAAP")] == Decimal("8247E6")
    assert revenue[("Q1 FY2023", "GAAP")] == Decimal("7411E6")
    assert not [p for p, _ in revenue if p.startswith("FY")]
    # "Marketing and sales" is an expense; "Sales" under "Revenue by service offerings" is one offering's.
    assert Decimal("3154E6") in {f.value for f in _facts(doc, "sales_and_marketing", "Q1 FY2024")}
    assert {f.basis for f in _facts(doc, "revenue") if f.value == Decimal("1810E6")} == {"segment:sales"}
