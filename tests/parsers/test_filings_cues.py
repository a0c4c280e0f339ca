"""Entity, form, fiscal-year-end and layout cues the filings parser reads from small inputs."""

from __future__ import annotations

from decimal import Decimal

from parsers.filings import parse_filing
from parsers.filings.assemble import form_from, fye_hint, guess_entity, infer_fye
from parsers.model import ParsedDocument


def _parse(data: bytes, name: str) -> ParsedDocument:
    doc = parse_filing(data, name)
    assert isinstance(doc, ParsedDocument), doc
    return doc


def test_registrant_line_names_the_entity_over_cover_page_checkboxes():
    md = (
        "## UNITED STATES SECURITIES AND EXCHANGE COMMISSION\n\n\\_\n\n## Acme N.V.\n\n"
        "(Exact name of registrant as specified in its charter)\n\n"
        "Large Accelerated Filer ☒ Smaller Reporting Company ☐\n\n"
        "| | Year Ended April 30, 2025 | Year Ended April 30, 2024 |\n|---|---|---|\n| Total revenue | 1,483 | 1,267 |\n"
    )
    assert _parse(md.encode(), "acme.md").document.entity == "Acme N.V."


def test_generic_company_words_are_never_an_entity():
    assert guess_entity("", ["Smaller Reporting Company ☐", "The Company provides guidance"]) is None
    assert guess_entity("", ["Elastic, the Search AI Company, announced results"]) is None


def test_name_beside_a_ticker_names_the_entity():
    html = (b"<html><head><title>Q1 2023 8-K - Exhibit 99.1</title></head><body>"
            b"<p>The Company provides guidance on a non-GAAP basis.</p>"
            b"<p>PURCHASE, N.Y. - April 25, 2023 - PepsiCo, Inc. (NASDAQ: PEP) today reported results.</p></body></html>")
    assert _parse(html, "r.html").document.entity == "PepsiCo, Inc."


def test_reports_results_headline_names_the_entity():
    assert guess_entity("Apple reports fourth quarter results - Apple", []) == "Apple"


def test_copyright_footer_names_the_entity():
    html = (b"<html><head><title>Newsroom</title></head><body><p>Revenue was $9.0 billion in 2024.</p>"
            b"<p>\xc2\xa9 2024 Acme Inc. All rights reserved.</p></body></html>")
    assert _parse(html, "r.html").document.entity == "Acme Inc."


def test_release_headline_is_a_press_release_even_when_it_mentions_form_10k():
    lines = ["Acme Reports Fourth Quarter and Fiscal 2025 Financial Results", "see our Annual Report on Form 10-K"]
    assert form_from(lines, "") == "press release"
    assert form_from(["FORM 10-K", "ANNUAL REPORT"], "") == "10-K"


def test_quarter_ends_do_not_vote_for_the_fiscal_year_end():
    headers = ["Three Months Ended July 29, 2023", "Three Months Ended July 30, 2022",
               "July 29, 2023", "January 28, 2023", "July 30, 2022"]
    assert infer_fye(headers) == (1, 28)


def test_fiscal_quarter_sentence_implies_the_year_end():
    assert fye_hint("financial results for its fiscal 2024 fourth quarter ended September 28, 2024") == (9, 28)
    assert fye_hint("results for the second quarter of fiscal 2025 ended October 31, 2024") == (4, 30)
    assert fye_hint("for the fiscal year ended December 31, 2022") == (12, 31)


def test_tables_inside_inline_wrappers_are_still_tables():
    html = (b"<html><body><span id='pane'><span><div><p>Acme (NYSE: ACME) announced results.</p>"
            b"<table><tr><td></td><td>Year Ended April 30, 2025</td><td>Year Ended April 30, 2024</td></tr>"
            b"<tr><td>Total revenue</td><td>1,483</td><td>1,267</td></tr></table></div></span></span></body></html>")
    doc = _parse(html, "r.html")
    assert len(doc.tables) == 1 and doc.document.entity == "Acme"


def test_fiscal_year_before_quarter_names_the_quarter():
    from parsers.periods import period_from_text

    assert period_from_text("results for its fiscal 2024 fourth quarter ended September 28, 2024") == "Q4 FY2024"
    assert period_from_text("for the quarter ended September 28, 2024", (9, 28)) == "Q4 FY2024"


def test_dates_without_a_space_after_the_comma_are_dates():
    from parsers.periods import dates_in

    assert [str(d) for d in dates_in("Three Months Ended June 30,2025")] == ["2025-06-30"]


_RELEASE = (
    "<html><head><title>Acme reports fourth quarter results</title></head><body>"
    "<p>Acme today announced financial results for its fiscal 2024 fourth quarter ended September 28, 2024. "
    "The Company posted quarterly revenue of $94.9 billion, up 6 percent year over year, and quarterly diluted "
    "earnings per share of $0.97. Diluted earnings per share was $1.64,1 up 12 percent year over year when "
    "excluding the one-time charge recognized during the quarter.</p>"
    "<p>Acme's board of directors has declared a cash dividend of $0.25 per share of the Company's common stock.</p>"
    "</body></html>"
)


def test_a_figure_stated_excluding_a_one_time_charge_is_non_gaap():
    doc = _parse(_RELEASE.encode(), "r.html")
    eps = {str(f.value): (f.basis, f.period) for f in doc.facts if f.metric == "eps_diluted"}
    assert eps == {"0.97": ("GAAP", "Q4 FY2024"), "1.64": ("non-GAAP", "Q4 FY2024")}


def test_a_dividend_per_share_is_not_cash():
    doc = _parse(_RELEASE.encode(), "r.html")
    assert not [f for f in doc.facts if f.metric == "cash"]


_CHANGE_TABLE = """<html><body><p>Results of Operations</p><table>
<tr><td></td><td>Three Months Ended</td><td>Three Months Ended</td><td>Change</td><td>Change</td></tr>
<tr><td>(in thousands)</td><td>June 30,2025</td><td>June 30,2024</td><td>Q2'25 vs. Q2'24</td><td>Q2'25 vs. Q2'24</td></tr>
<tr><td>Revenues</td><td>$11,079,166</td><td>$9,559,310</td><td>$1,519,856</td><td>16%</td></tr>
<tr><td>Constant currency change in revenues</td><td></td><td></td><td></td><td>17%</td></tr>
<tr><td>Operating margin</td><td>34.1%</td><td>27.2%</td><td>6.9%</td><td></td></tr>
</table></body></html>"""


def test_change_columns_and_growth_rows_give_growth_facts_with_their_basis():
    doc = _parse(_CHANGE_TABLE.encode(), "q.html")
    growth = sorted((f.metric, f.basis, f.period, str(f.value)) for f in doc.facts if f.metric.startswith("growth:"))
    assert growth == [("growth:revenue", "GAAP", "Q2 FY2025", "16"),
                      ("growth:revenue", "constant-currency", "Q2 FY2025", "17")]


def test_a_lone_year_over_year_column_speaks_for_the_tables_latest_period():
    html = """<html><body><p>Results for the fourth quarter and fiscal year ended April 30, 2025.</p><table>
<tr><td></td><td>Three Months Ended April 30, 2025</td><td>% Change Year Over Year</td>
<td>% Change Year Over Year Excluding Currency Changes</td><td>% Change Quarter Over Quarter</td></tr>
<tr><td>Total revenue</td><td>$388,432</td><td>16%</td><td>17%</td><td>2%</td></tr></table></body></html>"""
    doc = _parse(html.encode(), "r.html")
    growth = sorted((f.basis, f.period, str(f.value)) for f in doc.facts if f.metric == "growth:revenue")
    assert growth == [("GAAP", "Q4 FY2025", "16"), ("constant-currency", "Q4 FY2025", "17")]


def test_a_sentence_without_a_period_takes_its_headings_and_a_bare_quarter():
    html = (b"<html><head><title>Acme Reports Fourth Quarter and Fiscal 2025 Financial Results</title></head><body>"
            b"<h1>Acme Reports Fourth Quarter and Fiscal 2025 Financial Results</h1><p>Q4 Cloud Revenue of $182 million, up 23% year-over-year</p>"
            b"<p><b>Full Fiscal 2025 Financial Highlights</b></p><p>Cloud revenue was $688 million, an increase of 26%.</p>"
            b"</body></html>")
    doc = _parse(html, "r.html")
    got = sorted((f.period, str(f.value)) for f in doc.facts if f.metric == "cloud_revenue")
    assert got == [("FY2025", "6.88E+8"), ("Q4 FY2025", "1.82E+8")]


_MDNA = """<html><body><p>Cost of Revenues and Gross Margin</p><table>
<tr><td></td><td colspan="3">Year Ended December 31,</td><td colspan="2">2024 vs. 2023 Change</td></tr>
<tr><td>(Dollars in millions)</td><td>2024</td><td>2023</td><td>2022</td><td>$</td><td>%</td></tr>
<tr><td>Cost of revenues</td></tr>
<tr><td>Automotive sales</td><td>$61,870</td><td>$65,121</td><td>$49,599</td><td>$(3,251)</td><td>(5)%</td></tr>
<tr><td>Gross margin total automotive</td><td>18.4%</td><td>19.4%</td><td>28.5%</td></tr>
<tr><td>Total gross margin</td><td>17.9%</td><td>18.2%</td><td>25.6%</td></tr>
</table></body></html>"""


def test_year_headers_keep_their_columns_when_a_percent_sign_follows():
    cols = _parse(_MDNA.encode(), "k.html").tables[0].columns
    assert [c.period for c in cols[:3]] == ["FY2024", "FY2023", "FY2022"]


def test_a_lone_label_above_the_first_row_groups_the_rows():
    rows = _parse(_MDNA.encode(), "k.html").tables[0].rows
    assert rows[0].label == "Automotive sales" and rows[0].group == "Cost of revenues"


def test_a_slice_row_is_also_the_registry_quantity_on_that_segments_basis():
    doc = _parse(_MDNA.encode(), "k.html")
    sliced = {(f.metric, f.basis, str(f.value)) for f in doc.facts if f.period == "FY2024" and f.basis.startswith("segment:")}
    assert ("gross_margin", "segment:automotive", "18.4") in sliced
    # a revenue-named row under "Cost of revenues" is a cost, so it gets no revenue slice
    assert not [m for m, *_ in sliced if m == "revenue"]


def test_dollar_changes_are_never_growth_rates():
    doc = _parse(_MDNA.encode(), "k.html")
    assert not [f for f in doc.facts if f.metric.startswith("growth:") and abs(f.value) == 3251]


_MDA_TEXT = (
    "<html><head><title>Acme Inc. - 10-K</title></head><body><p>Overview</p>"
    "<p>In 2024, we recognized total revenues of $97.69 billion, representing an increase of $917 million compared to "
    "the prior year. Net income decreased, due to a release in the fourth quarter of 2023. In 2024, we produced "
    "approximately 1,773,000 consumer vehicles and delivered approximately 1,789,000 consumer vehicles.</p>"
    "<p>Additionally, we recognized $596 million of FSD (Supervised) revenue due to release of features in 2024.</p>"
    "<p>Total net sales include $7.7 billion of revenue recognized in 2024 that was included in deferred revenue.</p>"
    "</body></html>"
)


def _text_facts(metric: str):
    return [f for f in _parse(_MDA_TEXT.encode(), "k.html").facts if f.metric == metric and f.source.kind == "text"]


def test_a_figures_own_sentence_names_its_period_not_the_paragraphs_other_years():
    assert [(f.period, str(f.value)) for f in _text_facts("revenue") if f.basis == "GAAP"] == [("FY2024", "9.769E+10")]


def test_a_count_named_by_its_noun_and_verb_is_a_fact():
    assert [(f.period, str(f.value), f.basis) for f in _text_facts("deliveries")] == [
        ("FY2024", "1789000", "operating metric")]


def test_an_amount_of_a_qualified_quantity_carries_the_qualifier_as_its_basis():
    fsd = [f for f in _text_facts("revenue") if f.basis != "GAAP"]
    assert [(f.basis, str(f.value)) for f in fsd] == [("segment:fsd supervised", "5.96E+8")]


def test_a_flow_stated_in_a_sentence_spans_its_fiscal_period():
    f = _text_facts("revenue")[0]
    assert (str(f.period_start), str(f.period_end)) == ("2024-01-01", "2024-12-31")


def _pdf(lines: list[tuple[float, list[tuple[float, str]]]]) -> bytes:
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    for y, cells in lines:
        for x, text in cells:
            page.insert_text((x, y), text, fontsize=8)
    return doc.tobytes()


def test_an_undated_organic_change_table_gives_its_titles_total_for_the_main_period():
    # A tall header streamed as lines must not push the title out, the bare "Total" row is the quantity
    # the title names, and an undated "% Change" column speaks for the document's main period.
    body = [
        (60, [(40, "Consolidated Results")]),
        (72, [(300, "Year Ended December 31, 2022"), (450, "Year Ended December 31, 2021")]),
        (84, [(40, "Net revenue"), (330, "86,392"), (480, "79,474")]),
        (96, [(40, "Operating profit"), (330, "11,512"), (480, "11,162")]),
        (108, [(40, "Net income"), (330, "8,910"), (480, "7,618")]),
        (130, [(40, "Widget Revenue and Organic Revenue Growth")]),
        (142, [(40, "Organic revenue growth is a non-GAAP financial measure. See the section below.")]),
        (156, [(330, "2022")]),
        (166, [(240, "Impact of"), (330, "Impact of")]),
        (176, [(150, "Reported"), (240, "Foreign"), (420, "Organic")]),
        (186, [(150, "% Change, GAAP"), (240, "exchange"), (330, "Acquisitions"), (420, "% Change, Non-")]),
        (196, [(150, "Measure"), (240, "translation"), (330, "divestitures"), (420, "GAAP Measure")]),
        (208, [(40, "North"), (150, "19 %"), (240, "—"), (330, "—"), (420, "17 %")]),
        (220, [(40, "South"), (150, "4 %"), (240, "5"), (330, "2"), (420, "11 %")]),
        (232, [(40, "Total"), (150, "9 %"), (240, "3"), (330, "4"), (420, "14 %")]),
    ]
    doc = _parse(_pdf(body), "widget-10k.pdf")
    table = next(t for t in doc.tables if "Organic" in " ".join(" ".join(c.header) for c in t.columns))
    assert table.title == "Widget Revenue and Organic Revenue Growth"
    growth = {(f.basis, f.value) for f in doc.facts if f.metric == "growth:revenue" and f.period == "FY2022"}
    assert ("organic", Decimal("14")) in growth and ("GAAP", Decimal("9")) in growth
    assert not any(f.metric.startswith("growth:") and f.label in ("North", "South") for f in doc.facts)


def test_a_title_names_one_quantity_or_none():
    from parsers.filings.facts import title_metric

    assert title_metric("Net Revenue and Organic Revenue Growth") == "revenue"
    assert title_metric("Consolidated Net Revenue and Operating Profit") is None
