"""Behaviour of the filings parser on small hand-written inputs."""

from __future__ import annotations

from decimal import Decimal

import pytest

from parsers.filings import ixbrl_agreement, parse_filing, sniff
from parsers.filings.facts import row_metric
from parsers.model import ParsedDocument, ParseFailure


def _html(body: str) -> bytes:
    return f"<html><head><title>Acme Corporation - Results</title></head><body>{body}</body></html>".encode()


SEC_TABLE = """
<div><span style="font-weight:700">CONSOLIDATED STATEMENTS OF OPERATIONS</span></div>
<div>(In millions, except per share data)</div>
<table>
<tr><td colspan="3"></td><td colspan="7">Years ended</td></tr>
<tr><td colspan="3"></td><td colspan="3">September 28, 2024</td><td></td><td colspan="3">September 30, 2023</td></tr>
<tr><td colspan="3">Total net sales</td><td>$</td><td>391,035</td><td></td><td></td><td>$</td><td>383,285</td><td></td></tr>
<tr><td colspan="3">Other income/(expense), net</td><td></td><td>(269)</td><td></td><td></td><td></td><td>(565)</td><td></td></tr>
<tr><td colspan="3">Restructuring</td><td></td><td>—</td><td></td><td></td><td></td><td>12</td><td></td></tr>
<tr><td colspan="3">Gross margin percentage</td><td></td><td>46.2</td><td>%</td><td></td><td></td><td>44.1</td><td>%</td></tr>
<tr><td colspan="3">Net income (1)</td><td>$</td><td>93,736(2)</td><td></td><td></td><td>$</td><td>96,995</td><td></td></tr>
<tr><td colspan="3">Earnings per share:</td><td></td><td></td><td></td><td></td><td></td><td></td><td></td></tr>
<tr><td colspan="3">Diluted</td><td>$</td><td>6.08</td><td></td><td></td><td>$</td><td>6.13</td><td></td></tr>
</table>
"""


def _doc(body: str = SEC_TABLE) -> ParsedDocument:
    doc = parse_filing(_html(body), "acme.html")
    assert isinstance(doc, ParsedDocument), doc
    return doc


def _row(doc: ParsedDocument, label: str):
    return next(r for t in doc.tables for r in t.rows if r.label == label)


def test_spacer_columns_collapse_to_one_column_per_period():
    table = _doc().tables[0]
    assert len(table.columns) == 2
    assert [c.column for c in _row(_doc(), "Total net sales").cells] == [0, 1]


def test_lone_dollar_cells_merge_into_their_number():
    cells = _row(_doc(), "Total net sales").cells
    assert cells[0].text == "$391,035" and cells[0].value == Decimal("391035")


def test_parentheses_are_negative():
    assert _row(_doc(), "Other income/(expense), net").cells[0].value == Decimal("-269")


def test_dashes_are_zero():
    assert _row(_doc(), "Restructuring").cells[0].value == 0


def test_lone_percent_cells_merge_and_stay_in_percent_points():
    doc = _doc()
    cell = _row(doc, "Gross margin percentage").cells[0]
    assert cell.text == "46.2%" and cell.value == Decimal("46.2")
    fact = next(f for f in doc.facts if f.metric == "gross_margin" and f.period == "FY2024")
    assert fact.unit == "percent" and fact.value == Decimal("46.2")


def test_footnote_markers_split_off_numbers_and_labels():
    row = _row(_doc(), "Net income")
    assert row.cells[0].value == Decimal("93736") and row.cells[0].footnote == "(2)"


def test_header_path_and_period_from_fiscal_year_end():
    doc = _doc()
    col = doc.tables[0].columns[0]
    assert col.header == ["Years ended", "September 28, 2024"]
    assert col.period == "FY2024" and str(col.period_end) == "2024-09-28"
    assert doc.document.fiscal_year_end == "--09-28"


def test_scale_caption_is_applied_and_recorded():
    doc = _doc()
    assert doc.tables[0].scale == 6 and "in millions" in doc.tables[0].scale_source.lower()
    rev = next(f for f in doc.facts if f.metric == "revenue" and f.period == "FY2024")
    assert rev.value == Decimal("391035000000") and rev.scale == 6


def test_per_share_values_are_not_scaled():
    eps = next(f for f in _doc().facts if f.metric == "eps_diluted" and f.period == "FY2024")
    assert eps.value == Decimal("6.08") and eps.unit == "USD/share"


def test_locator_names_table_row_and_column():
    rev = next(f for f in _doc().facts if f.metric == "revenue" and f.period == "FY2024")
    assert rev.source.locator == (
        "CONSOLIDATED STATEMENTS OF OPERATIONS; row 'Total net sales'; column 'Years ended September 28, 2024'"
    )


def test_item_headings_in_tables_and_bold_spans_become_sections():
    body = (
        "<div>PART II</div><table><tr><td>Item 7.</td><td>Management's Discussion and Analysis</td></tr></table>"
        "<p>Revenue grew strongly this year because of demand.</p>"
        "<div><b>Item 8. Financial Statements</b></div>" + SEC_TABLE
    )
    doc = _doc(body)
    titles = [(s.level, s.title) for s in doc.sections]
    assert (1, "PART II") in titles
    assert (2, "Item 7. Management's Discussion and Analysis") in titles
    assert (3, "CONSOLIDATED STATEMENTS OF OPERATIONS") in titles
    stmt = next(s for s in doc.sections if s.level == 3)
    item8 = next(s for s in doc.sections if s.title.startswith("Item 8"))
    assert stmt.parent == item8.id


def test_section_ids_are_stable_and_count_same_titled_siblings():
    body = "<div><b>Item 1. Business</b></div><div><b>Overview</b></div><p>x" + "y" * 40 + \
           "</p><div><b>Item 2. Properties</b></div><div><b>Overview</b></div>"
    a, b = _doc(body), _doc(body)
    assert [s.id for s in a.sections] == [s.id for s in b.sections]
    overviews = [s for s in a.sections if s.title == "Overview"]
    assert len({s.id for s in overviews}) == 2
    # Adding a section elsewhere does not move the ids of the others.
    c = _doc("<div><b>Item 0. Preface</b></div>" + body)
    assert {s.id for s in a.sections} <= {s.id for s in c.sections}


def test_passages_never_cross_sections():
    body = ("<div><b>Item 1. Business</b></div><p>" + "We sell widgets. " * 8 + "</p>"
            "<div><b>Item 2. Properties</b></div><p>We own a building in Springfield.</p>")
    doc = _doc(body)
    by_id = {s.id: s.title for s in doc.sections}
    assert {by_id[p.section] for p in doc.passages} == {"Item 1. Business", "Item 2. Properties"}
    assert all(p.text.count("widgets") <= 3 for p in doc.passages)


def test_non_gaap_rows_get_non_gaap_basis():
    body = """<div><b>Reconciliation of Non-GAAP Measures</b></div><div>(in millions)</div>
    <table><tr><td></td><td>2024</td><td>2023</td></tr>
    <tr><td>Net cash provided by operating activities</td><td>100</td><td>90</td></tr>
    <tr><td>Free cash flow</td><td>60</td><td>50</td></tr>
    <tr><td>Adjusted EBITDA</td><td>80</td><td>70</td></tr></table>"""
    facts = {f.metric: f for f in _doc(body).facts if f.period == "FY2024"}
    assert facts["free_cash_flow"].basis == "non-GAAP"
    assert facts["adjusted_ebitda"].basis == "non-GAAP"
    assert facts["operating_cash_flow"].basis == "GAAP"


@pytest.mark.parametrize(("label", "metric"), [
    ("Adjusted diluted earnings per share", "eps_diluted"),  # a card network's summary table
    ("Core earnings per share", "eps_diluted"),  # a consumer-goods maker's own name for it
    ("Adj. operating income", "operating_income"),
])
def test_a_row_named_adjusted_or_core_is_the_quantity_on_a_non_gaap_basis(label, metric):
    body = f"""<div><b>Summary of Results</b></div><div>(in millions, except per share data)</div>
    <table><tr><td></td><td>2024</td><td>2023</td></tr>
    <tr><td>{label}</td><td>14.60</td><td>12.26</td></tr></table>"""
    fact = next(f for f in _doc(body).facts if f.period == "FY2024")
    assert (fact.metric, fact.basis) == (metric, "non-GAAP")


IXBRL = """<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="http://www.xbrl.org/2013/inlineXBRL"
 xmlns:xbrli="http://www.xbrl.org/2003/instance" xmlns:xbrldi="http://xbrl.org/2006/xbrldi"><body>
<div style="display:none"><ix:header><ix:hidden>
<ix:nonNumeric name="dei:EntityRegistrantName" contextRef="c1">Acme Corp</ix:nonNumeric>
<ix:nonNumeric name="dei:CurrentFiscalYearEndDate" contextRef="c1">--12-31</ix:nonNumeric>
</ix:hidden><ix:resources>
<xbrli:context id="c1"><xbrli:entity><xbrli:identifier scheme="x">1</xbrli:identifier></xbrli:entity>
<xbrli:period><xbrli:startDate>2024-01-01</xbrli:startDate><xbrli:endDate>2024-12-31</xbrli:endDate></xbrli:period></xbrli:context>
<xbrli:context id="c2"><xbrli:entity><xbrli:identifier scheme="x">1</xbrli:identifier><xbrli:segment>
<xbrldi:explicitMember dimension="us-gaap:StatementBusinessSegmentsAxis">acme:CloudMember</xbrldi:explicitMember></xbrli:segment></xbrli:entity>
<xbrli:period><xbrli:startDate>2024-01-01</xbrli:startDate><xbrli:endDate>2024-12-31</xbrli:endDate></xbrli:period></xbrli:context>
<xbrli:unit id="usd"><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unit>
</ix:resources></ix:header></div>
<div><b>Consolidated Statements of Operations</b></div><div>(In millions)</div>
<table><tr><td></td><td>Year Ended December 31, 2024</td></tr>
<tr><td>Revenue</td><td>$<ix:nonFraction name="us-gaap:Revenues" contextRef="c1" unitRef="usd" scale="6" decimals="-6" format="ixt:num-dot-decimal">1,234</ix:nonFraction></td></tr>
<tr><td>Cloud revenue</td><td><ix:nonFraction name="us-gaap:Revenues" contextRef="c2" unitRef="usd" scale="6" decimals="-6">500</ix:nonFraction></td></tr>
<tr><td>Restructuring</td><td><ix:nonFraction name="us-gaap:RestructuringCharges" contextRef="c1" unitRef="usd" scale="6" format="ixt:fixed-zero">—</ix:nonFraction></td></tr>
<tr><td>Other expense</td><td>(<ix:nonFraction name="us-gaap:OtherNonoperatingIncomeExpense" contextRef="c1" unitRef="usd" scale="6" sign="-">7</ix:nonFraction>)</td></tr>
</table></body></html>""".encode()


def test_ixbrl_tags_give_exact_facts_with_context_dimensions_and_sign():
    doc = parse_filing(IXBRL, "acme.htm")
    assert isinstance(doc, ParsedDocument), doc
    assert doc.document.format == "ixbrl" and doc.document.entity == "Acme Corp"
    ix = {(f.source.concept, f.source.context): f for f in doc.facts if f.source.kind == "ixbrl"}
    rev = ix[("us-gaap:Revenues", "c1")]
    assert rev.metric == "revenue" and rev.value == Decimal("1234000000") and rev.period == "FY2024"
    cloud = ix[("us-gaap:Revenues", "c2")]
    assert cloud.basis == "segment:CloudMember" and cloud.dimensions
    assert ix[("us-gaap:RestructuringCharges", "c1")].value == 0
    assert ix[("us-gaap:OtherNonoperatingIncomeExpense", "c1")].value == Decimal("-7000000")


def test_table_cells_carry_their_ixbrl_tag_and_agree_with_it():
    doc = parse_filing(IXBRL, "acme.htm")
    cell = next(r for r in doc.tables[0].rows if r.label == "Revenue").cells[0]
    assert (cell.concept, cell.context) == ("us-gaap:Revenues", "c1")
    agreement = ixbrl_agreement(doc)
    assert agreement.pairs == 4 and agreement.rate == 1.0


def test_failures_are_values():
    assert parse_filing(b"", "a.pdf") == ParseFailure("empty", "a.pdf is empty")
    assert parse_filing(b"x" * 11, "big.html", max_bytes=10).reason == "too-large"
    assert parse_filing(b"\x00\x01\x02garbage" * 50, "g.bin").reason == "corrupt"
    assert parse_filing(b"%PDF-1.7\nnot really a pdf", "bad.pdf").reason == "corrupt"


def test_encrypted_pdf_is_reported_as_encrypted():
    import pymupdf

    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "secret revenue 100")
    data = doc.tobytes(encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="u", owner_pw="o")
    assert parse_filing(data, "locked.pdf").reason == "encrypted"


def _xbrl_instance(doctype: str, *facts: str) -> bytes:
    return (f'<?xml version="1.0"?>{doctype}'
            '<xbrli:xbrl xmlns:xbrli="http://www.xbrl.org/2003/instance" xmlns:us-gaap="http://fasb.org/us-gaap/2024"'
            ' xmlns:dei="http://xbrl.sec.gov/dei/2024">'
            '<dei:EntityRegistrantName contextRef="c1">Acme Corp</dei:EntityRegistrantName>'
            '<xbrli:context id="c1"><xbrli:entity><xbrli:identifier scheme="x">1</xbrli:identifier></xbrli:entity>'
            '<xbrli:period><xbrli:startDate>2024-01-01</xbrli:startDate><xbrli:endDate>2024-12-31</xbrli:endDate>'
            '</xbrli:period></xbrli:context>'
            '<xbrli:unit id="usd"><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unit>'
            + "".join(facts) + "</xbrli:xbrl>").encode()


def test_xbrl_parser_refuses_entity_expansion():
    # The entity spells a number, so a parser that expanded it would report a revenue fact of 4,200,000.
    evil = _xbrl_instance('<!DOCTYPE x [<!ENTITY n "4200000">]>',
                          '<us-gaap:Revenues contextRef="c1" unitRef="usd" decimals="0">&n;</us-gaap:Revenues>',
                          '<us-gaap:NetIncomeLoss contextRef="c1" unitRef="usd" decimals="0">1000</us-gaap:NetIncomeLoss>')
    doc = parse_filing(evil, "evil.xml")
    assert isinstance(doc, ParsedDocument), doc
    assert [(f.source.concept, f.value) for f in doc.facts] == [("us-gaap:NetIncomeLoss", Decimal(1000))]


def test_sniffing_uses_content_not_extension():
    assert sniff(b"%PDF-1.4 ...", "x.html") == "pdf"
    assert sniff(b"From: <Saved by Blink>\nMIME-Version: 1.0\nContent-Type: text/html\n", "x.html") == "mhtml"
    assert sniff(IXBRL, "x.txt") == "ixbrl"
    assert sniff(b"# Title\n\n| a | b |\n|---|---|\n| 1 | 2 |\n", "x.txt") == "md"


def test_markdown_pipe_tables_and_headings():
    md = """# Item 8. Financial Statements

## Consolidated Statements of Operations

|               | Year Ended April 30, | Year Ended April 30, |
|---------------|----------------------|----------------------|
|               | 2025                 | 2024                 |
|               | (in thousands)       | (in thousands)       |
| Total revenue | $ 1,483,296          | $ 1,267,321          |
"""
    doc = parse_filing(md.encode(), "x.md")
    assert isinstance(doc, ParsedDocument), doc
    rev = next(f for f in doc.facts if f.metric == "revenue" and f.period == "FY2025")
    assert rev.value == Decimal("1483296000") and doc.tables[0].scale == 3


_CASH_FLOW_HTML = """
<div><span style="font-weight:700">CONDENSED CONSOLIDATED STATEMENTS OF CASH FLOWS</span></div>
<div>(In thousands)</div>
<table>
<tr><td></td><td colspan="2">Three Months Ended April 30,</td><td colspan="2">Year Ended April 30,</td></tr>
<tr><td></td><td>2024</td><td>2023</td><td>2024</td><td>2023</td></tr>
<tr><td>Changes in operating assets and liabilities:</td><td></td><td></td><td></td><td></td></tr>
<tr><td>Deferred revenue</td><td>111,406</td><td>77,747</td><td>134,595</td><td>95,616</td></tr>
</table>
"""

_CASH_FLOW_MD = """# Globex Inc. Annual Report (Form 10-K)

## Consolidated Statements of Cash Flows

(in millions)

| | Year Ended December 31, 2024 | Year Ended December 31, 2023 |
|---|---|---|
| Increase in contract liabilities | 412 | 380 |
| (Increase) decrease in cash and cash equivalents | (55) | 71 |
"""


def test_a_balance_sheet_line_in_a_cash_flow_statement_is_its_change_not_the_balance():
    html = _doc(_CASH_FLOW_HTML)
    md = parse_filing(_CASH_FLOW_MD.encode(), "globex-10-K.md")
    assert isinstance(md, ParsedDocument), md
    for doc in (html, md):
        balances = [f for f in doc.facts if f.metric in ("deferred_revenue", "cash")]
        assert balances == [], [(f.metric, f.label, f.value) for f in balances]
    assert {f.value for f in html.facts if "deferred revenue" in f.metric} == {
        Decimal(111406000), Decimal(77747000), Decimal(134595000), Decimal(95616000)}, "kept, as the change"


_SUPPLEMENTARY = """
<div><span style="font-weight:700">Supplementary Information</span></div>
<div>(In thousands)</div>
<table>
<tr><td></td><td colspan="2">Three Months Ended January 31,</td></tr>
<tr><td></td><td>2025</td><td>2024</td></tr>
<tr><td>Total revenue</td><td>382,078</td><td>328,062</td></tr>
<tr><td>Total deferred revenue</td><td>852,004</td><td>694,139</td></tr>
</table>
"""


def test_a_balance_under_a_quarter_column_is_the_balance_at_the_quarters_end():
    doc = _doc(_SUPPLEMENTARY)
    deferred = [f for f in doc.facts if f.metric == "deferred_revenue"]
    revenue = [f for f in doc.facts if f.metric == "revenue"]
    assert deferred and all(f.period_start is None and f.period_end is not None for f in deferred)
    assert revenue and all(f.period_start is not None for f in revenue), "a flow keeps its quarter"


_EXCEPTED_HTML = """
<div>The following table sets forth selected balance sheet data (in millions, except remaining performance
obligation, which is presented in billions):</div>
<table>
<tr><td></td><td>As of January 31, 2025</td><td>As of January 31, 2024</td></tr>
<tr><td>Unearned revenue</td><td>20,743</td><td>19,003</td></tr>
<tr><td>Remaining performance obligation</td><td>63.4</td><td>56.9</td></tr>
</table>
"""

_EXCEPTED_MD = """# Globex Inc. Quarterly Report (Form 10-Q)

## Key Business Metrics

(in thousands, except annual recurring revenue, which is in millions)

| | December 31, 2024 | December 31, 2023 |
|---|---|---|
| Customers | 12,400 | 10,900 |
| Annual recurring revenue | 1,250 | 1,010 |
"""


def test_a_row_the_scale_caption_excepts_takes_the_scale_the_caption_gives_it():
    html = _doc(_EXCEPTED_HTML)
    md = parse_filing(_EXCEPTED_MD.encode(), "globex-10-Q.md")
    assert isinstance(md, ParsedDocument), md
    values = {(f.metric, f.value) for doc in (html, md) for f in doc.facts}
    assert ("rpo", Decimal("63.4E9")) in values and ("rpo", Decimal("63.4E6")) not in values
    assert ("arr", Decimal("1250E6")) in values
    assert any(m == "label:unearned revenue" or m == "deferred_revenue" for m, v in values if v == Decimal("20743E6"))


@pytest.mark.parametrize(("group", "label", "metric"), [
    ("Operating expenses:", "Research and development", "research_and_development"),  # a software release
    ("", "GAAP research and development expense", "research_and_development"),  # its reconciliation table
    ("", "Non-GAAP research and development expense", "research_and_development"),
])
def test_an_operating_expense_line_is_its_own_quantity_under_the_operating_expenses_heading(group, label, metric):
    heading = f"<tr><td>{group}</td><td></td><td></td></tr>" if group else ""
    body = f"""<div><b>Condensed Consolidated Statements of Operations</b></div><div>(in thousands)</div>
    <table><tr><td></td><td>2024</td><td>2023</td></tr>{heading}
    <tr><td>{label}</td><td>93,951</td><td>81,765</td></tr></table>"""
    assert {f.metric for f in _doc(body).facts} == {metric}


_STACKED_HTML = """
<div><b>Supplemental Revenue Information</b></div><div>(in thousands)</div>
<table>
<tr><td></td><td>Three Months Ended December 31, 2024</td><td>% Change Year Over Year</td></tr>
<tr><td>Revenue</td><td></td><td></td></tr>
<tr><td>Cloud</td><td>$147,980</td><td>32%</td></tr>
<tr><td>Total revenue</td><td>$334,999</td><td>20%</td></tr>
<tr><td></td><td>Year Ended December 31, 2024</td><td>% Change Year Over Year</td></tr>
<tr><td>Cloud</td><td>$547,520</td><td>29%</td></tr>
<tr><td>Total revenue</td><td>$1,267,321</td><td>19%</td></tr>
</table>
"""

_STACKED_MD = """# Globex Inc. Quarterly Results

## Revenue by quarter and year

(in millions)

| | Three Months Ended December 31, 2024 | Change |
|---|---|---|
| Total revenue | 2,410 | 12% |
| | Year Ended December 31, 2024 | Change |
| Total revenue | 9,120 | 10% |
"""


def test_a_table_that_restates_its_header_mid_way_reads_each_block_under_its_own_periods():
    html = _doc(_STACKED_HTML)
    md = parse_filing(_STACKED_MD.encode(), "globex-release.md")
    assert isinstance(md, ParsedDocument), md
    revenue = {(f.period, f.value) for doc in (html, md) for f in doc.facts if f.metric == "revenue"}
    assert revenue == {("Q4 FY2024", Decimal("334999E3")), ("FY2024", Decimal("1267321E3")),
                       ("Q4 FY2024", Decimal("2410E6")), ("FY2024", Decimal("9120E6"))}
    growth = {(f.period, f.value) for f in md.facts if f.metric == "growth:revenue"}
    assert growth == {("Q4 FY2024", Decimal(12)), ("FY2024", Decimal(10))}


@pytest.mark.parametrize(("group", "label", "metric"), [
    ("Revenue", "Acme Cloud", "cloud_revenue"),  # the filer's own name for its cloud line
    ("Revenues:", "Cloud", "cloud_revenue"),
    ("", "Acme Cloud", "label:acme cloud"),  # not under revenue: nothing says it is revenue
])
def test_a_line_under_revenue_named_for_a_kind_of_revenue_is_that_revenue(group, label, metric):
    heading = f"<tr><td>{group}</td><td></td><td></td></tr>" if group else ""
    body = f"""<div><b>Revenue</b></div><div>(in millions)</div>
    <table><tr><td></td><td>2024</td><td>2023</td></tr>{heading}
    <tr><td>{label}</td><td>548</td><td>424</td></tr></table>"""
    assert {f.metric for f in _doc(body).facts} == {metric}


@pytest.mark.parametrize(("sentence", "metric", "value"), [
    ("We had a global workforce of 74,067 employees as of December 31, 2024.", "employees", Decimal(74067)),
    ("Headcount was 74,067 as of December 31, 2024, an increase of 10% year-over-year.", "employees", Decimal(74067)),
    ("As of December 31, 2024, we had approximately 3,537 employees.", "employees", Decimal(3537)),
    ("We ended the year with 301.6 million paid memberships at December 31, 2024.", "paid_memberships",
     Decimal("301.6E6")),
    ("As of December 31, 2024, we employed approximately 1,556,000 full-time and part-time employees.",
     "employees", Decimal(1556000)),
])
def test_a_sentence_that_counts_people_or_members_gives_that_count(sentence, metric, value):
    doc = _doc(f"<div><b>Human Capital</b></div><p>{sentence}</p>")
    assert [(f.metric, f.value) for f in doc.facts if f.source.kind == "text"] == [(metric, value)]


@pytest.mark.parametrize("sentence", [
    "As of December 31, 2024, we had more than 10,000 customers in 150 countries.",  # a bound
    "As of December 31, 2024, we had 1,510 customers with annual contract value over $100,000.",  # a subset
    "As of December 31, 2024, over 2,000 customers used the platform.",
    "As of December 31, 2024, common stock available for future issuance to employees is 1.5 billion shares.",
])
def test_a_bound_a_subset_or_a_share_count_is_not_a_head_count(sentence):
    doc = _doc(f"<div><b>Customers</b></div><p>{sentence}</p>")
    assert [f for f in doc.facts if f.metric in ("customers", "employees")] == []


def test_a_count_at_the_end_of_the_period_is_that_count():
    body = """<div><b>Streaming Membership</b></div><div>(in thousands)</div>
    <table><tr><td></td><td>2024</td><td>2023</td></tr>
    <tr><td>Paid memberships at end of period</td><td>301,626</td><td>260,276</td></tr></table>"""
    assert {(f.metric, f.value) for f in _doc(body).facts if f.period == "FY2024"} == {
        ("paid_memberships", Decimal("301626E3"))}


@pytest.mark.parametrize(("sentence", "metric", "value"), [
    ("Net loss was $108.1 million for the year ended April 30, 2025.", "net_income", Decimal("-108.1E6")),
    ("Reality Labs reported an operating loss of $17.73 billion in 2024.", "operating_income", Decimal("-17.73E9")),
])
def test_a_loss_a_sentence_states_is_the_quantity_below_zero(sentence, metric, value):
    doc = _doc(f"<div><b>Results of Operations</b></div><p>{sentence}</p>")
    assert [(f.metric, f.value) for f in doc.facts if f.source.kind == "text"] == [(metric, value)]


_TWO_PART_HTML = """
<div><b>Gross Margin</b></div><div>(dollars in millions)</div>
<table>
<tr><td></td><td>2024</td><td>2023</td></tr>
<tr><td>Gross margin:</td><td></td><td></td></tr>
<tr><td>Products</td><td>$109,633</td><td>$108,803</td></tr>
<tr><td>Services</td><td>71,050</td><td>60,345</td></tr>
<tr><td>Total gross margin</td><td>$180,683</td><td>$169,148</td></tr>
</table>
<table>
<tr><td>Gross margin percentage:</td><td></td><td></td></tr>
<tr><td>Products</td><td>37.2%</td><td>36.5%</td></tr>
<tr><td>Services</td><td>73.9%</td><td>70.8%</td></tr>
<tr><td>Total gross margin percentage</td><td>46.2%</td><td>44.1%</td></tr>
</table>
"""

_TWO_PART_MD = """# Globex Inc. Annual Report (Form 10-K)

## Operating Margin

(dollars in millions)

| | Year Ended December 31, 2024 | Year Ended December 31, 2023 |
|---|---|---|
| Operating income: | | |
| Cloud | 5,100 | 4,200 |
| Total operating income | 9,800 | 8,300 |

| | | |
|---|---|---|
| Operating margin percentage: | | |
| Cloud | 31.0% | 29.5% |
| Total operating margin percentage | 22.4% | 21.0% |
"""


def test_a_table_printed_in_two_parts_reads_its_second_part_under_the_first_parts_years():
    html = _doc(_TWO_PART_HTML)
    md = parse_filing(_TWO_PART_MD.encode(), "globex-10-K.md")
    assert isinstance(md, ParsedDocument), md
    margins = {(f.metric, f.basis, f.period, f.value) for doc in (html, md) for f in doc.facts
               if f.metric.endswith("_margin")}
    assert {("gross_margin", "segment:services", "FY2024", Decimal("73.9")),
            ("gross_margin", "GAAP", "FY2024", Decimal("46.2")),
            ("operating_margin", "segment:cloud", "FY2024", Decimal("31.0")),
            ("operating_margin", "GAAP", "FY2024", Decimal("22.4"))} <= margins
    assert all(v < 100 for *_, v in margins), "a margin group's dollar rows are never margins"


@pytest.mark.parametrize(("sentence", "metric", "basis", "value"), [
    ("In fiscal 2025, organic sales increased 2% versus the prior year.", "growth:revenue", "organic",
     Decimal(2)),  # a consumer-goods maker
    ("Revenue grew 9% year-over-year to $37.9 billion in fiscal 2025.", "growth:revenue", "GAAP",
     Decimal(9)),  # a software maker
    ("In 2024, diluted net earnings per share declined 4% versus the prior year.", "growth:eps_diluted", "GAAP",
     Decimal(-4)),
])
def test_a_sentence_that_states_a_quantitys_growth_gives_that_growth(sentence, metric, basis, value):
    doc = _doc(f"<div><b>Results of Operations</b></div><p>{sentence}</p>")
    growth = [(f.metric, f.basis, f.value) for f in doc.facts if f.metric.startswith("growth:")]
    assert growth == [(metric, basis, value)]


@pytest.mark.parametrize("sentence", [
    "In 2024, international revenue grew 15% versus the prior year.",  # a slice, not the company's revenue
    "In the fourth quarter of 2024, net sales declined 3% sequentially.",  # not year over year
    "In 2024, operating margin increased 120 basis points.",
])
def test_a_slice_a_sequential_change_or_points_give_no_growth_rate(sentence):
    doc = _doc(f"<div><b>Results of Operations</b></div><p>{sentence}</p>")
    # A margin's move in points is read as points (a change of level), never as a rate in percent.
    assert [f for f in doc.facts if f.metric.startswith("growth:") and f.unit != "pp"] == []


@pytest.mark.parametrize(("label", "metric"), [
    ("Sales and marketing", "sales_and_marketing"),  # a software maker's income statement
    ("General and administrative", "general_and_administrative"),  # an internet company's
])
def test_sales_and_marketing_and_general_and_administrative_lines_are_quantities_of_their_own(label, metric):
    body = f"""<div><b>Condensed Consolidated Statements of Operations</b></div><div>(in thousands)</div>
    <table><tr><td></td><td>2024</td><td>2023</td></tr><tr><td>Operating expenses:</td><td></td><td></td></tr>
    <tr><td>{label}</td><td>128,664</td><td>117,304</td></tr></table>"""
    assert {f.metric for f in _doc(body).facts} == {metric}


@pytest.mark.parametrize(("label", "printed", "value"), [
    ("Average monthly revenue per paying membership", "11.70", Decimal("11.70")),
    ("Revenue per available room", "215.40", Decimal("215.40")),
])
def test_an_amount_per_unit_is_printed_in_whole_currency_whatever_the_tables_scale(label, printed, value):
    body = f"""<div><b>Key Operating Metrics</b></div><div>(in thousands, except per unit data)</div>
    <table><tr><td></td><td>Year Ended December 31, 2024</td><td>Year Ended December 31, 2023</td></tr>
    <tr><td>Revenues</td><td>$ 39,000,966</td><td>$ 33,723,297</td></tr>
    <tr><td>{label}</td><td>$ {printed}</td><td>$ 11.64</td></tr></table>"""
    facts = [f for f in _doc(body).facts if f.as_printed == printed]
    assert facts and all(f.value == value for f in facts)


@pytest.mark.parametrize(("gaap_head", "other_head", "basis"), [
    ("GAAP Q4 FY25", "Non-GAAP Q4 FY25", "non-GAAP"),
    ("Reported 2024", "Adjusted 2024", "non-GAAP"),
])
def test_a_column_header_that_states_a_basis_gives_its_cells_that_basis(gaap_head, other_head, basis):
    body = f"""<div><b>Fourth Quarter Summary</b></div><div>(in millions, except per share data)</div>
    <table><tr><td></td><td>{gaap_head}</td><td>{other_head}</td></tr>
    <tr><td>Gross margin</td><td>73.0%</td><td>73.5%</td></tr></table>"""
    got = {(str(f.value), f.basis) for f in _doc(body).facts if f.metric == "gross_margin"}
    assert ("73.0", "GAAP") in got and ("73.5", basis) in got and ("73.5", "GAAP") not in got


@pytest.mark.parametrize("header", ["Percent Change Constant", "% Change in Constant Currency"])
def test_a_constant_currency_change_column_is_that_basis_even_when_its_header_is_cut(header):
    body = f"""<div><b>Total Revenues</b></div><div>($ in millions)</div>
    <table><tr><td></td><td>Three Months Ended August 31, 2024</td><td>Three Months Ended August 31, 2023</td>
    <td>Percent Change Actual</td><td>{header}</td></tr>
    <tr><td>Total revenues</td><td>$ 13,307</td><td>$ 12,453</td><td>7%</td><td>8%</td></tr></table>"""
    got = {(str(f.value), f.basis) for f in _doc(body).facts if f.metric == "growth:revenue"}
    assert ("8", "constant-currency") in got and ("8", "GAAP") not in got


@pytest.mark.parametrize(("label", "metric"), [
    ("Earnings (loss) per share attributable to Intel—diluted", "eps_diluted"),
    ("Income (loss) per share - diluted", "eps_diluted"),
    ("Net income (loss) per share - basic", "eps_basic"),
])
def test_a_per_share_row_that_allows_a_loss_is_earnings_per_share(label: str, metric: str):
    assert row_metric(label)[0] == metric


@pytest.mark.parametrize(("heads", "values"), [
    (["GAAP Q1 2023", "Q1 2022", "Q1 2023", "Non-GAAP Q1 2022"], ["(0.66)", "1.98", "(0.04)", "0.87"]),
    (["Q1 2023", "GAAP Q1 2022", "Q1 2023", "Non-GAAP Q1 2022"], ["34.2", "50.4", "38.4", "53.1"]),
])
def test_a_column_whose_gaap_or_non_gaap_heading_was_lost_gives_no_fact(heads, values):
    cells = "".join(f"<td>{h}</td>" for h in heads)
    row = "".join(f"<td>{v}</td>" for v in values)
    body = f"""<div><b>News Summary</b></div><table><tr><td></td>{cells}</tr>
    <tr><td>Earnings per share</td>{row}</tr></table>"""
    q1_2023 = {f.as_printed for f in _doc(body).facts if f.period == "Q1 FY2023" and f.basis == "GAAP"}
    assert values[2] not in q1_2023


@pytest.mark.parametrize("label", ["SALES, Net of returns and allowances", "Revenues, net of discounts and allowances"])
def test_what_a_sales_line_is_net_of_is_no_part_of_its_name(label: str):
    assert row_metric(label)[0] == "revenue"


_RATE_HTML = """
<div><span style="font-weight:700">INCOME TAXES</span></div>
<table>
<tr><td></td><td colspan="3">Fiscal Years Ended January 31,</td></tr>
<tr><td></td><td>2025</td><td></td><td>2024</td></tr>
<tr><td>U.S. statutory tax rate</td><td>21.0</td><td>%</td><td>21.0</td><td>%</td></tr>
<tr><td>Stock-based compensation</td><td>(2.3)</td><td>%</td><td>1.4</td><td>%</td></tr>
<tr><td>Effective income tax rate</td><td>23.4</td><td>%</td><td>25.5</td><td>%</td></tr>
</table>
"""

_RATE_MD = """# Acme N.V. Annual Report on Form 10-K

## Income taxes

|                               | Year Ended April 30, | Year Ended April 30, |
|-------------------------------|----------------------|----------------------|
|                               | 2024                 | 2023                 |
| Dutch statutory income tax    | 25.8%                | 25.8%                |
| Stock-based compensation      | 8.4%                 | (2.3)%               |
| Research and development      | 1.1%                 | 0.6%                 |
"""


@pytest.mark.parametrize(("data", "name"), [(_html(_RATE_HTML), "acme.html"), (_RATE_MD.encode(), "acme.md")])
def test_a_tax_rate_reconciliation_gives_each_lines_effect_on_the_rate_not_its_share_of_revenue(data, name):
    doc = parse_filing(data, name)
    assert isinstance(doc, ParsedDocument), doc
    percents = {f.label: f.metric for f in doc.facts if f.unit == "percent"}
    assert percents, "the rate table was read"
    assert not [m for m in percents.values() if "stock-based compensation" in m and "rate effect" not in m]
    assert any("statutory" in m and "effect" not in m for m in percents.values()), "a rate line stays the rate"


_COVER = (b"<html><body><p>UNITED STATES SECURITIES AND EXCHANGE COMMISSION</p><p>FORM 10-K</p><p>%s</p>"
          b"<p>(Exact name of registrant as specified in its charter)</p><table><tr><td>Title of each class</td>"
          b"<td>Trading Symbol(s)</td><td>Name of each exchange on which registered</td></tr><tr><td>%s</td>"
          b"<td>%s</td><td>New York Stock Exchange</td></tr></table><p>Revenue was $46.3 billion.</p></body></html>")
_RELEASE = (b"<html><body><p>FOR IMMEDIATE RELEASE</p><p>%s - %s (NYSE: %s) today announced results for the quarter. "
            + b"Sales of $23.7 billion were reported. " * 20 + b"</p></body></html>")


@pytest.mark.parametrize(("page", "ticker"), [
    (_COVER % (b"BEST BUY CO., INC.", b"Common Stock, $0.10 par value per share", b"BBY"), "BBY"),
    (_COVER % (b"AMCOR PLC", b"Ordinary Shares, par value $0.01 per share", b"AMCR"), "AMCR"),
    (_RELEASE % (b"New Brunswick, N.J. (January 24, 2023)", b"Johnson &amp; Johnson", b"JNJ"), "JNJ"),
    (_RELEASE % (b"LAS VEGAS, Feb. 8, 2023", b"MGM Resorts International", b"MGM"), "MGM"),
])
def test_an_untagged_filing_names_its_ticker_from_its_cover_or_its_first_paragraph(page: bytes, ticker: str) -> None:
    # A deck names companies by ticker ("BBY: FY23 rev $46.3bn"); without tags, the filing's own print says it.
    doc = parse_filing(page, "filing.html").document
    assert doc.ticker == ticker and ticker in doc.names
