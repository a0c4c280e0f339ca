"""Fiscal years named for the calendar year they start in, where the document itself says so.

Ulta's "fiscal 2022" ended January 28, 2023 and Buckle's fiscal 2024 ends February 1, 2025, while Best
Buy's "FY23" and Walmart's fiscal 2025 are named for the year they end in. Only the document tells the
two apart; one that says nothing keeps the end-year naming.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

from parsers.catalogue import RoomDocument, build_catalogue
from parsers.filings import parse_filing
from parsers.filings.assemble import year_names
from parsers.model import ParsedDocument
from parsers.periods import StartYearNamed, fye_text, label_for_span, parse_fye, period_from_text, span_of_label

DATA = Path(__file__).parents[2].parent / "shared" / "data"


def _parse(data: bytes, name: str) -> ParsedDocument:
    doc = parse_filing(data, name)
    assert isinstance(doc, ParsedDocument), doc
    return doc


def _pdf(lines: list[tuple[float, list[tuple[float, str]]]]) -> bytes:
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    for y, cells in lines:
        for x, text in cells:
            page.insert_text((x, y), text, fontsize=8)
    return doc.tobytes()


def _facts(doc: ParsedDocument, metric: str, end: date, kind: str = "table"):
    return [f for f in doc.facts if f.metric == metric and f.period_end == end and f.source.kind == kind]


# ---------------------------------------------------------------- a release PDF: headline and lead


def _release_pdf(headline_year: str) -> bytes:
    return _pdf([
        (40, [(40, "March 9, 2023")]),
        (60, [(40, "Acme Stores Announces Fourth Quarter")]),
        (72, [(40, f"{headline_year} Results")]),
        (96, [(40, "CEDAR FALLS, Iowa--(BUSINESS WIRE)-- Acme Stores, Inc. (NASDAQ: ACME) today announced financial")]),
        (108, [(40, "results for the thirteen-week period ended January 28, 2023 compared to the same period ended "
                    "January 29, 2022.")]),
        (140, [(40, "Consolidated Statements of Income")]),
        (152, [(40, "(In thousands)")]),
        (164, [(300, "13 Weeks Ended"), (450, "52 Weeks Ended")]),
        (176, [(270, "January 28, 2023"), (350, "January 29, 2022"), (430, "January 28, 2023"), (510, "January 29, 2022")]),
        (188, [(40, "Net sales"), (290, "3,226,773"), (370, "2,729,388"), (450, "10,208,580"), (530, "8,630,889")]),
        (200, [(40, "Gross profit"), (290, "1,212,503"), (370, "1,027,329"), (450, "4,044,510"), (530, "3,368,554")]),
        (212, [(40, "Operating income"), (290, "447,618"), (370, "375,622"), (450, "1,638,610"), (530, "1,297,492")]),
        (224, [(40, "Net income"), (290, "340,751"), (370, "289,366"), (450, "1,242,408"), (530, "985,837")]),
    ])


@pytest.mark.parametrize(("headline_year", "quarter", "year"), [
    ("Fiscal 2022", "Q4 FY2022", "FY2022"),  # named for the year it starts in
    ("Fiscal 2023", "Q4 FY2023", "FY2023"),  # named for the year it ends in: as before
])
def test_a_release_headline_and_its_dated_lead_name_the_fiscal_year(headline_year, quarter, year):
    doc = _parse(_release_pdf(headline_year), "acme.pdf")
    q = _facts(doc, "revenue", date(2023, 1, 28))
    assert {f.period for f in q if f.value == Decimal("3226773000")} == {quarter}
    assert {f.period for f in q if f.value == Decimal("10208580000")} == {year}
    assert quarter in doc.document.periods and year in doc.document.periods


def test_a_start_year_document_keeps_its_calendar_dates_and_says_how_it_names_years():
    doc = _parse(_release_pdf("Fiscal 2022"), "acme.pdf")
    fy = next(f for f in _facts(doc, "revenue", date(2023, 1, 28)) if f.period == "FY2022")
    assert (fy.period_start, fy.period_end) == (date(2022, 1, 30), date(2023, 1, 28))
    assert doc.document.fiscal_year_end == "--01-28 (named by start year)"
    assert parse_fye(doc.document.fiscal_year_end) == StartYearNamed((1, 28))


def test_a_headline_naming_only_next_years_guidance_does_not_rename_the_year():
    # Best Buy's layout: "Reports Fourth Quarter Results ... Expects FY24 ..." then a dated lead.
    doc = _parse(_pdf([
        (60, [(40, "Acme Stores Reports Fourth Quarter Results")]),
        (72, [(40, "Expects Fiscal 2023 Diluted EPS of $5.70 to $6.50")]),
        (96, [(40, "CEDAR FALLS, March 2, 2023 -- Acme Stores, Inc. (NYSE: ACME) today announced results for the")]),
        (108, [(40, "13-week fourth quarter ended January 28, 2023, as compared to the quarter ended January 29, 2022.")]),
        (140, [(40, "Consolidated Statements of Income")]),
        (152, [(40, "(In thousands)")]),
        (164, [(300, "13 Weeks Ended"), (450, "52 Weeks Ended")]),
        (176, [(270, "January 28, 2023"), (350, "January 29, 2022"), (430, "January 28, 2023"), (510, "January 29, 2022")]),
        (188, [(40, "Net sales"), (290, "3,226,773"), (370, "2,729,388"), (450, "10,208,580"), (530, "8,630,889")]),
        (200, [(40, "Gross profit"), (290, "1,212,503"), (370, "1,027,329"), (450, "4,044,510"), (530, "3,368,554")]),
        (212, [(40, "Net income"), (290, "340,751"), (370, "289,366"), (450, "1,242,408"), (530, "985,837")]),
    ]), "acme.pdf")
    assert {f.period for f in _facts(doc, "revenue", date(2023, 1, 28))} == {"Q4 FY2023", "FY2023"}
    assert doc.document.fiscal_year_end == "--01-28"


# ---------------------------------------------------------------- HTML: column headers and sentences


def _html(body: str) -> bytes:
    return f"<html><head><title>Acme Stores - Results</title></head><body>{body}</body></html>".encode()


def _year_table(first: str, second: str) -> str:
    return f"""
<div><b>CONSOLIDATED STATEMENTS OF INCOME</b></div>
<div>(In thousands)</div>
<table>
<tr><td></td><td>{first}</td><td>{second}</td></tr>
<tr><td></td><td>52 Weeks Ended January 28, 2023</td><td>52 Weeks Ended January 29, 2022</td></tr>
<tr><td>Net sales</td><td>10,208,580</td><td>8,630,889</td></tr>
<tr><td>Gross profit</td><td>4,044,510</td><td>3,368,554</td></tr>
<tr><td>Net income</td><td>1,242,408</td><td>985,837</td></tr>
</table>
"""


@pytest.mark.parametrize(("first", "second", "want"), [
    ("Fiscal 2022", "Fiscal 2021", "FY2022"),
    ("Fiscal 2023", "Fiscal 2022", "FY2023"),
    ("", "", "FY2023"),  # the headers name no fiscal year: end-year naming, as before
])
def test_fiscal_year_column_headers_over_dated_columns_name_the_year(first, second, want):
    doc = _parse(_html(_year_table(first, second)), "acme.html")
    assert {f.period for f in _facts(doc, "revenue", date(2023, 1, 28))} == {want}
    prior = f"FY{int(want[2:]) - 1}"
    assert {f.period for f in _facts(doc, "revenue", date(2022, 1, 29))} == {prior}
    assert doc.document.periods[:2] in ([want, prior], [prior, want])


_BUCKLE_STYLE = """
<p>THE ACME STORES, INC. REPORTS THIRD QUARTER NET INCOME</p>
<p>KEARNEY, NE -- (BUSINESS WIRE) -- The Acme Stores, Inc. (NYSE: ACME) announced today that net income for the
fiscal quarter ended November 2, 2024 was $44.2 million, or $0.89 per share.</p>
<p>Net income for the third quarter of fiscal {year} was $44.2 million, or $0.89 per share, compared with net income
of $51.8 million, or $1.05 per share, for the third quarter of fiscal {prior}.</p>
<div><b>CONSOLIDATED STATEMENTS OF INCOME</b></div>
<div>(Amounts in Thousands Except Per Share Amounts)</div>
<table>
<tr><td></td><td>Thirteen Weeks Ended</td><td>Thirteen Weeks Ended</td><td>Thirty-Nine Weeks Ended</td>
<td>Thirty-Nine Weeks Ended</td></tr>
<tr><td></td><td>November 2, 2024</td><td>October 28, 2023</td><td>November 2, 2024</td><td>October 28, 2023</td></tr>
<tr><td>Net sales</td><td>$293,618</td><td>$303,457</td><td>$838,490</td><td>$878,719</td></tr>
<tr><td>Gross profit</td><td>140,071</td><td>147,215</td><td>393,302</td><td>418,884</td></tr>
<tr><td>NET INCOME</td><td>$44,172</td><td>$51,762</td><td>$118,303</td><td>$140,295</td></tr>
</table>
<div><b>CONSOLIDATED BALANCE SHEETS</b></div>
<table>
<tr><td></td><td>November 2, 2024</td><td>February 3, 2024</td></tr>
<tr><td>Cash and cash equivalents</td><td>$301,958</td><td>$268,213</td></tr>
</table>
"""


@pytest.mark.parametrize(("year", "want"), [(2024, "Q3 FY2024"), (2025, "Q3 FY2025")])
def test_one_figure_stated_for_a_dated_and_a_named_quarter_names_the_fiscal_year(year, want):
    doc = _parse(_html(_BUCKLE_STYLE.format(year=year, prior=year - 1)), "acme-ex99.html")
    sales = _facts(doc, "revenue", date(2024, 11, 2))
    assert {f.period for f in sales if f.value == Decimal("293618000")} == {want}
    assert {f.period for f in sales if f.value == Decimal("838490000")} == {want.replace("Q3", "9M")}
    assert want in doc.document.periods


@pytest.mark.parametrize(("sentence", "want"), [
    ("Our fiscal 2022 ended January 28, 2023 and was a 52-week year.", "FY2022"),
    ("Results for the fourth quarter of fiscal 2022, which ended on January 28, 2023, were strong.", "FY2022"),
    ("We report on the 52 weeks ended January 28, 2023 (“fiscal 2022”) in this release.", "FY2022"),
    ("References to “fiscal 2022” refer to the 52-week period ended January 28, 2023.", "FY2022"),
    ("Our fiscal 2023 ended January 28, 2023 and was a 52-week year.", "FY2023"),
    ("Results for the fourth quarter ended January 28, 2023 (“Q4 FY23”) were strong.", "FY2023"),
    # Named and dated, but not as one period: no pairing, end-year naming as before.
    ("In fiscal 2022, net sales grew; the year ended January 28, 2023 saw more stores open.", "FY2023"),
])
def test_a_sentence_that_dates_a_named_fiscal_period_names_the_year(sentence, want):
    doc = _parse(_html(f"<p>{sentence}</p>" + _year_table("", "")), "acme.html")
    assert {f.period for f in _facts(doc, "revenue", date(2023, 1, 28))} == {want}


def test_year_names_pairs_only_a_named_period_with_its_own_date():
    assert year_names("the fourth quarter of fiscal 2022 ended January 28, 2023") == [(2022, date(2023, 1, 28))]
    assert year_names("fiscal 2024 third quarter ended November 2, 2024") == [(2024, date(2024, 11, 2))]
    assert year_names("compared to fiscal 2021. As of January 28, 2023, we had cash") == []


# ---------------------------------------------------------------- labels, spans and the stored year end


def test_start_year_labels_and_spans_are_one_year_before_end_year_ones():
    start, plain = StartYearNamed((1, 28)), (1, 28)
    q4 = (date(2022, 10, 30), date(2023, 1, 28))
    assert label_for_span(*q4, plain) == "Q4 FY2023"
    assert label_for_span(*q4, start) == "Q4 FY2022"  # the cache keeps the two namings apart
    assert label_for_span(None, date(2024, 11, 2), StartYearNamed((2, 3))) == "Q3 FY2024"
    assert span_of_label("FY2022", start) == (date(2022, 1, 29), date(2023, 1, 28))
    assert span_of_label("FY2023", plain) == (date(2022, 1, 29), date(2023, 1, 28))
    assert period_from_text("Year Ended January 28, 2023", start) == "FY2022"
    assert period_from_text("the fourth quarter of fiscal 2022", start) == "Q4 FY2022"


def test_the_stored_year_end_round_trips_its_naming():
    assert fye_text(StartYearNamed((1, 28))) == "--01-28 (named by start year)"
    assert parse_fye("--01-28 (named by start year)") == StartYearNamed((1, 28))
    assert fye_text((1, 28)) == "--01-28" and parse_fye("--01-28") == (1, 28)
    assert StartYearNamed((1, 28)) != (1, 28)


def test_a_room_entity_dates_deck_periods_in_its_documents_naming():
    room = build_catalogue([
        RoomDocument(path="ulta.pdf", entity="Acme Stores, Inc.", fiscal_year_end="--01-28 (named by start year)",
                     periods=("Q4 FY2022",)),
        RoomDocument(path="bby.pdf", entity="Best Stores Co., Inc.", fiscal_year_end="--01-28", periods=("Q4 FY2023",)),
    ])
    fye = {e.name: e.fye for e in room.entities}
    assert period_from_text("the quarter ended January 28, 2023", fye["Acme Stores, Inc."]) == "Q4 FY2022"
    assert period_from_text("the quarter ended January 28, 2023", fye["Best Stores Co., Inc."]) == "Q4 FY2023"


# ---------------------------------------------------------------- the real filings (skipped without them)

needs_data = pytest.mark.skipif(not DATA.is_dir(), reason=f"shared data folder {DATA} is absent")


@needs_data
def test_ulta_release_names_the_year_ended_january_28_2023_fiscal_2022():
    doc = _parse((DATA / "filings_pdf/ULTABEAUTY_2023Q4_EARNINGS.pdf").read_bytes(), "ULTABEAUTY_2023Q4_EARNINGS.pdf")
    assert doc.document.fiscal_year_end.endswith("(named by start year)")
    assert {f.period for f in _facts(doc, "revenue", date(2023, 1, 28))} == {"FY2022"}
    assert "FY2023" not in doc.document.periods


@needs_data
def test_buckle_release_names_the_quarter_ended_november_2_2024_q3_fiscal_2024():
    rel = "filings/BKE/bke-8-K_2024-11-22_EX-99.1.html"
    doc = _parse((DATA / rel).read_bytes(), Path(rel).name)
    income = _facts(doc, "net_income", date(2024, 11, 2))
    assert {f.period for f in income if f.value == Decimal("44172000")} == {"Q3 FY2024"}
    assert {f.period for f in income if f.value == Decimal("118270000")} == {"9M FY2024"}
    assert "Q3 FY2025" not in doc.document.periods


@needs_data
@pytest.mark.parametrize(("rel", "end", "want"), [
    ("filings_pdf/BESTBUY_2023Q4_EARNINGS.pdf", date(2023, 1, 28), {"Q4 FY2023", "FY2023"}),
    ("filings/WMT/wmt-10-K-FY2025.html", date(2025, 1, 31), {"FY2025"}),
])
def test_end_year_namers_keep_their_labels(rel, end, want):
    doc = _parse((DATA / rel).read_bytes(), Path(rel).name)
    assert "start year" not in (doc.document.fiscal_year_end or "")
    assert {f.period for f in doc.facts if f.metric == "revenue" and f.period_end == end and not f.dimensions} <= want
