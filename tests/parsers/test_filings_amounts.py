"""What a table row's figures are: a margin printed in dollars, a scale stated beside a currency sign,
an EPS in cents, and a "total" that is only a part of the company's revenue."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from parsers.filings import parse_filing
from parsers.model import ParsedDocument
from parsers.numbers import scale_from_caption

DATA = Path(__file__).parents[2].parent / "shared" / "data"
real = pytest.mark.skipif(not DATA.is_dir(), reason=f"shared data folder {DATA} is absent")


def _parse(data: bytes, name: str) -> ParsedDocument:
    doc = parse_filing(data, name)
    assert isinstance(doc, ParsedDocument), doc
    return doc


def _html(body: str, title: str = "Acme Corporation - Form 10-K") -> ParsedDocument:
    return _parse(f"<html><head><title>{title}</title></head><body>{body}</body></html>".encode(), "acme.html")


def _md(text: str, name: str = "globex-release.md") -> ParsedDocument:
    return _parse(text.encode(), name)


def _pdf(lines: list[tuple[float, list[tuple[float, str]]]], name: str = "widget.pdf") -> ParsedDocument:
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    for y, cells in lines:
        for x, text in cells:
            page.insert_text((x, y), text, fontsize=8)
    return _parse(doc.tobytes(), name)


def _facts(doc: ParsedDocument, metric: str, period: str | None = None, kind: str = "table"):
    return [f for f in doc.facts if f.metric == metric and (period is None or f.period == period)
            and f.source.kind == kind]


# ---------------------------------------------------------------- a margin printed in dollars

_CORNING_LIKE = """
<div><b>Consolidated Statements of Income</b></div>
<div>(In millions, except per share amounts)</div>
<table>
<tr><td></td><td>Year ended December 31, 2022</td><td>Year ended December 31, 2021</td></tr>
<tr><td>Net sales</td><td>$14,189</td><td>$14,082</td></tr>
<tr><td>Cost of sales</td><td>9,683</td><td>9,019</td></tr>
<tr><td>Gross margin</td><td>4,506</td><td>5,063</td></tr>
<tr><td>Operating income</td><td>1,438</td><td>2,112</td></tr>
</table>
"""

_ORACLE_LIKE = """# Globex Corp. Quarterly Report (Form 10-Q)

## Total Revenues and Operating Expenses

(Dollars in millions)

| | Three Months Ended August 31, 2024 | Percent Change | Three Months Ended August 31, 2023 |
|---|---|---|---|
| Total revenues | $ 13,307 | 7% | $ 12,453 |
| Total operating expenses | 9,316 | 2% | 9,157 |
| Total operating margin | $ 3,991 | 21% | $ 3,296 |
| Total operating margin % | 30% | | 26% |
"""

_INTEL_LIKE_PDF = [
    (60, [(40, "Consolidated Condensed Statements of Income")]),
    (72, [(40, "(In Millions, Except Per Share Amounts; Unaudited)")]),
    (84, [(300, "Three Months Ended"), (420, "Three Months Ended")]),
    (96, [(300, "Apr 1, 2023"), (420, "Apr 2, 2022")]),
    (108, [(40, "Net revenue"), (300, "$ 11,715"), (420, "$ 18,353")]),
    (120, [(40, "Cost of sales"), (300, "7,707"), (420, "9,109")]),
    (132, [(40, "Gross margin"), (300, "4,008"), (420, "9,244")]),
    (144, [(40, "Operating income (loss)"), (300, "(294)"), (420, "3,833")]),
]


def test_a_margin_row_printed_in_dollars_is_the_profit_not_a_percentage():
    corning = _html(_CORNING_LIKE)
    oracle = _md(_ORACLE_LIKE)
    intel = _pdf(_INTEL_LIKE_PDF, "intel-q1-release.pdf")
    assert {f.value for f in _facts(corning, "gross_profit", "FY2022")} == {Decimal("4506E6")}
    assert {f.value for f in _facts(oracle, "operating_income")} == {Decimal("3991E6"), Decimal("3296E6")}
    assert {f.value for f in _facts(intel, "gross_profit")} == {Decimal("4008E6"), Decimal("9244E6")}
    for doc in (corning, oracle, intel):
        wrong = [f for f in doc.facts if f.metric in ("gross_margin", "operating_margin") and f.value > 100]
        assert wrong == [], [(f.metric, f.value, f.label) for f in wrong]
    # The rate printed beside it stays the margin.
    assert {f.value for f in _facts(oracle, "operating_margin")} == {Decimal(30), Decimal(26)}
    # Its change column is the profit's growth, not a change in points.
    assert {f.value for f in _facts(oracle, "growth:operating_income")} == {Decimal(21)}


@pytest.mark.parametrize(("cells", "caption"), [
    (("46.2%", "44.1%"), "(In millions)"),  # printed with its sign
    (("46.2", "44.1"), "(In millions, except percentages)"),  # a caption that sets percentages apart
])
def test_a_margin_row_of_percentages_stays_a_margin(cells, caption):
    body = f"""<div><b>Results of Operations</b></div><div>{caption}</div>
    <table><tr><td></td><td>2024</td><td>2023</td></tr>
    <tr><td>Net sales</td><td>$391,035</td><td>$383,285</td></tr>
    <tr><td>Gross margin</td><td>{cells[0]}</td><td>{cells[1]}</td></tr></table>"""
    doc = _html(body)
    assert {f.value for f in _facts(doc, "gross_margin", "FY2024")} == {Decimal("46.2")}
    assert _facts(doc, "gross_profit") == []


@real
def test_corning_and_intel_gross_margin_in_dollars_is_gross_profit():
    corning = _parse((DATA / "filings_pdf/CORNING_2022_10K.pdf").read_bytes(), "CORNING_2022_10K.pdf")
    assert {f.value for f in _facts(corning, "gross_margin", "FY2022")} == {Decimal(32)}  # "(gross margin %)"
    assert {f.value for f in _facts(corning, "gross_profit", "FY2022")} == {Decimal("4506E6")}
    intel = _parse((DATA / "filings_pdf/INTEL_2023Q1_EARNINGS.pdf").read_bytes(), "INTEL_2023Q1_EARNINGS.pdf")
    assert Decimal("4008E6") in {f.value for f in _facts(intel, "gross_profit", "Q1 FY2023")}
    assert all(f.value < 100 for f in _facts(intel, "gross_margin"))


# ---------------------------------------------------------------- a scale stated beside a currency sign

@pytest.mark.parametrize(("caption", "scale"), [
    ("($ million, except per share amounts)", 6),
    ("($ million)", 6),
    ("US$ million", 6),
    ("(US$ millions)", 6),
    ("2022 $ million", 6),
    ("(€m)", 6),
    ("($mm)", 6),
    ("$ in thousands", 3),
    ("Net sales of $14,694 million, in line with the prior year", None),  # a figure, not a caption
    ("$ Change", None),
])
def test_a_currency_sign_and_a_scale_word_state_the_scale(caption, scale):
    assert scale_from_caption(caption) == scale


_AMCOR_LIKE_PDF = [
    (60, [(40, "U.S. GAAP Condensed Consolidated Statements of Income (Unaudited)")]),
    (72, [(300, "Three Months Ended June 30,"), (440, "Twelve Months Ended June 30,")]),
    (84, [(40, "($ million, except per share amounts)"), (300, "2022"), (360, "2023"), (440, "2022"), (500, "2023")]),
    (96, [(40, "Net sales"), (300, "3,909"), (360, "3,673"), (440, "14,544"), (500, "14,694")]),
    (108, [(40, "Net income"), (300, "112"), (360, "184"), (440, "815"), (500, "1,058")]),
    (120, [(40, "Diluted earnings per share attributable to Amcor"), (300, "0.073"), (360, "0.123"), (440, "0.529"),
           (500, "0.705")]),
]

_KEY_FINANCIALS_MD = """# Globex plc Fiscal 2023 Results

## Key Financials

| GAAP results | Twelve Months Ended June 30, 2022 $ million | Twelve Months Ended June 30, 2023 $ million |
|---|---|---|
| Net sales | 14,544 | 14,694 |
| Net income | 805 | 1,048 |
| EPS (diluted US cents) | 52.9 | 70.5 |
"""


def test_a_currency_sign_beside_million_scales_the_table_and_the_column_keeps_its_year():
    release = _pdf(_AMCOR_LIKE_PDF, "globex-q4-release.pdf")
    assert {f.value for f in _facts(release, "revenue", "Q4 FY2023")} == {Decimal("3673E6")}
    assert {f.value for f in _facts(release, "revenue", "FY2023")} == {Decimal("14694E6")}
    assert {f.value for f in _facts(release, "eps_diluted", "FY2023")} == {Decimal("0.705")}  # per share: unscaled
    md = _md(_KEY_FINANCIALS_MD)
    table = md.tables[0]
    assert table.scale == 6 and [c.period for c in table.columns] == ["FY2022", "FY2023"]
    assert {f.value for f in _facts(md, "revenue", "FY2023")} == {Decimal("14694E6")}


_CENTS_HTML = """<div><b>Financial Highlights</b></div><div>(In thousands, except per share data)</div>
<table><tr><td></td><td>2024</td><td>2023</td></tr>
<tr><td>Net income</td><td>$51,762</td><td>$60,153</td></tr>
<tr><td>Diluted earnings per share (cents)</td><td>102.5</td><td>119.1</td></tr></table>"""


def test_an_eps_printed_in_cents_is_stored_in_dollars_a_share():
    md = _md(_KEY_FINANCIALS_MD)
    html = _html(_CENTS_HTML)
    for doc, period, dollars, printed in ((md, "FY2023", "0.705", "70.5"), (html, "FY2024", "1.025", "102.5")):
        (f,) = _facts(doc, "eps_diluted", period)
        assert (f.value, f.unit, f.scale, f.as_printed) == (Decimal(dollars), "USD/share", -2, printed)


@real
def test_amcor_release_reads_its_dollar_millions_and_its_cents():
    doc = _parse((DATA / "filings_pdf/AMCOR_2023Q4_EARNINGS.pdf").read_bytes(), "AMCOR_2023Q4_EARNINGS.pdf")
    assert {f.value for f in _facts(doc, "revenue", "Q4 FY2023") if f.basis == "GAAP"} == {Decimal("3673E6")}
    assert {f.value for f in _facts(doc, "revenue", "FY2023") if f.basis == "GAAP"} == {Decimal("14694E6")}
    eps = {(f.basis, f.value) for f in _facts(doc, "eps_diluted", "FY2023")}
    # "EPS (diluted US cents) 70.5" under "GAAP results", 73.3 under "Adjusted non-GAAP results".
    assert eps == {("GAAP", Decimal("0.705")), ("non-GAAP", Decimal("0.733"))}
    # Each segment's net sales is that segment's, never the company's.
    segments = {f.basis for f in _facts(doc, "revenue", "FY2023") if f.value in (Decimal("11154E6"), Decimal("3540E6"))}
    assert segments == {"segment:flexibles", "segment:rigid packaging"}


# ---------------------------------------------------------------- a "total" that is a part

_ORACLE_BUSINESS_HTML = """<div><b>Cloud and License Business</b></div><div>(Dollars in millions)</div>
<table>
<tr><td></td><td>Three Months Ended August 31, 2024</td><td>Three Months Ended August 31, 2023</td></tr>
<tr><td>Cloud and License Revenues:</td><td></td><td></td></tr>
<tr><td>Americas</td><td>$7,317</td><td>$6,597</td></tr>
<tr><td>EMEA</td><td>2,687</td><td>2,473</td></tr>
<tr><td>Asia Pacific</td><td>1,385</td><td>1,286</td></tr>
<tr><td>Total revenues</td><td>11,389</td><td>10,356</td></tr>
</table>"""

_VERIZON_LIKE_PDF = [
    (60, [(40, "Verizon Consumer Group")]),
    (72, [(40, "Operating Revenues and Selected Operating Statistics")]),
    (84, [(420, "(dollars in millions)")]),
    (96, [(40, "Years Ended December 31,"), (300, "2022"), (360, "2021"), (430, "2022 vs. 2021")]),
    (108, [(40, "Service"), (300, "$ 73,139"), (360, "$ 67,733"), (430, "$ 5,406"), (500, "8.0 %")]),
    (120, [(40, "Wireless equipment"), (300, "23,168"), (360, "19,781"), (430, "3,387"), (500, "17.1")]),
    (132, [(40, "Other"), (300, "7,199"), (360, "7,786"), (430, "(587)"), (500, "(7.5)")]),
    (144, [(40, "Total Operating Revenues"), (300, "$ 103,506"), (360, "$ 95,300"), (430, "$ 8,206"),
           (500, "8.6 %")]),
    (170, [(40, "Segment results are presented as the chief operating decision maker reviews them.")]),
    (190, [(40, "Consolidated Statements of Income")]),
    (202, [(40, "(dollars in millions)")]),
    (214, [(40, "Years Ended December 31,"), (300, "2022"), (360, "2021")]),
    (226, [(40, "Service revenues and other"), (300, "$ 109,625"), (360, "$ 110,449")]),
    (238, [(40, "Wireless equipment revenues"), (300, "27,210"), (360, "23,164")]),
    (250, [(40, "Total Operating Revenues"), (300, "136,835"), (360, "133,613")]),
]


def test_a_total_revenue_row_of_a_part_is_that_parts_revenue():
    # Oracle's business tables: "Total revenues" under "Cloud and License Revenues".
    oracle = _html(_ORACLE_BUSINESS_HTML, "Oracle Corporation - Form 10-Q")
    total = [f for f in _facts(oracle, "revenue") if f.label == "Total revenues" and f.value == Decimal("11389E6")]
    assert [(f.basis, f.value) for f in total] == [("segment:cloud and license", Decimal("11389E6"))]
    assert [f for f in _facts(oracle, "revenue") if f.basis == "GAAP"] == []
    # Verizon's segment table prints "Total Operating Revenues" with no word of the segment; the income
    # statement's figure for the same year shows it is a part.
    verizon = _pdf(_VERIZON_LIKE_PDF, "verizon-10k.pdf")
    company = {f.value for f in _facts(verizon, "revenue", "FY2022") if f.basis == "GAAP"}
    assert company == {Decimal("136835E6")}
    part = [f for f in _facts(verizon, "revenue", "FY2022") if f.value == Decimal("103506E6")]
    assert part and all(f.basis.startswith("segment:") for f in part)
    assert all(f.basis.startswith("segment:") for f in _facts(verizon, "growth:revenue", "FY2022"))


_SEGMENT_MD = """# Globex plc Fiscal 2023 Results

## Consolidated Statements of Income

($ million)

| | Twelve Months Ended June 30, 2022 | Twelve Months Ended June 30, 2023 |
|---|---|---|
| Net sales | 14,544 | 14,694 |

## June 2023 quarter

| Flexibles | Twelve Months Ended June 30, 2022 $ million | Twelve Months Ended June 30, 2023 $ million |
|---|---|---|
| Net sales | 11,151 | 11,154 |
"""


def test_a_segment_table_headed_by_the_segments_name_gives_that_segments_revenue():
    doc = _md(_SEGMENT_MD)
    assert {(f.basis, f.value) for f in _facts(doc, "revenue", "FY2023")} == {
        ("GAAP", Decimal("14694E6")), ("segment:flexibles", Decimal("11154E6"))}


@real
def test_oracle_and_verizon_revenue_is_the_income_statements_total():
    oracle = _parse((DATA / "filings/ORCL/orcl-10-Q-Q1FY2025.html").read_bytes(), "orcl-10-Q-Q1FY2025.html")
    total = {f.value for f in oracle.facts if f.metric == "revenue" and f.period == "Q1 FY2025"
             and f.basis == "GAAP" and not f.dimensions and f.source.kind == "table"}
    assert total == {Decimal("13307E6")}
    cloud = {f.basis for f in oracle.facts if f.metric == "revenue" and f.value == Decimal("11389E6")
             and f.source.kind == "table" and not f.dimensions}
    assert cloud == {"segment:cloud and license"}
    verizon = _parse((DATA / "filings_pdf/VERIZON_2022_10K.pdf").read_bytes(), "VERIZON_2022_10K.pdf")
    total = {f.value for f in _facts(verizon, "revenue", "FY2022") if f.basis == "GAAP"}
    assert total == {Decimal("136835E6")}


@pytest.mark.parametrize("label", ["Segment operating income margin", "Segment Operating Income"])
def test_a_segment_row_in_a_table_that_never_names_the_segment_is_still_a_segments_figure(label):
    # Verizon prints each segment's table under a heading the table does not carry: "Segment operating
    # income margin 27.9 %" is the Consumer segment's, never the company's operating margin.
    cells = ("27.9 %", "31.4 %") if "margin" in label else ("$28,846", "$29,955")
    body = f"""<div><b>Increase/(Decrease)</b></div><div>(dollars in millions)</div>
    <table><tr><td></td><td>2022</td><td>2021</td></tr>
    <tr><td>{label}</td><td>{cells[0]}</td><td>{cells[1]}</td></tr></table>"""
    doc = _html(body, "Verizon Communications Inc. - Form 10-K")
    metric = "operating_margin" if "margin" in label else "operating_income"
    assert {f.basis for f in _facts(doc, metric, "FY2022")} == {"segment:"}
