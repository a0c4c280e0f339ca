"""Entity, form, fiscal-year-end and layout cues the filings parser reads from small inputs."""

from __future__ import annotations

from decimal import Decimal

import pytest

from parsers.filings import parse_filing
from parsers.filings.assemble import form_from, fye_hint, guess_entity, headline_quarter_hint, infer_fye
from parsers.model import ParsedDocument
from parsers.periods import period_from_text


def _parse(data: bytes, name: str) -> ParsedDocument:
    doc = parse_filing(data, name)
    assert isinstance(doc, ParsedDocument), doc
    return doc


def test_registrant_line_names_the_entity_over_cover_page_checkboxes():
    md = (
        "## UNITED STATES SECURITIES AND EXCHANGE COMMISSION\n\n\\_\n\n## Acme N.V.\n\n"
        "(Exact name of registrant as specified in its charter)\n\n"
        "Large Accelerated Filer ☒ Smaller Reporting Company ☐\n\n"
        "| | Year Ended April 30, 2025 | Year Ended April 30, 2024 |\n|---|---|---|\n| Total revenue | 2,310 | 2,045 |\n"
    )
    assert _parse(md.encode(), "acme.md").document.entity == "Acme N.V."


@pytest.mark.parametrize("lines", [
    ["Smaller Reporting Company ☐", "The Company provides guidance"],
    ["Acme, the Payments Technology Company, announced results"],
    ["Oracle, the Cloud Company, reported results"],
])
def test_generic_company_words_are_never_an_entity(lines: list[str]):
    assert guess_entity("", lines) is None


@pytest.mark.parametrize(("dateline", "entity"), [
    ("BENTONVILLE, Ark. - February 20, 2025 - Walmart (NYSE: WMT) today reported results.", "Walmart"),
    ("SANTA CLARA, Calif. - February 26, 2025 - NVIDIA (NASDAQ: NVDA) today reported results.", "NVIDIA"),
])
def test_name_beside_a_ticker_names_the_entity(dateline: str, entity: str):
    html = ("<html><head><title>Q4 2024 8-K - Exhibit 99.1</title></head><body>"
            "<p>The Company provides guidance on a non-GAAP basis.</p>"
            f"<p>{dateline}</p></body></html>").encode()
    assert _parse(html, "r.html").document.entity == entity


@pytest.mark.parametrize(("title", "entity"), [
    ("Oracle reports fourth quarter results - Oracle", "Oracle"),
    ("Walmart Reports Second Quarter Results", "Walmart"),
])
def test_reports_results_headline_names_the_entity(title: str, entity: str):
    assert guess_entity(title, []) == entity


def test_copyright_footer_names_the_entity():
    html = (b"<html><head><title>Newsroom</title></head><body><p>Revenue was $9.0 billion in 2024.</p>"
            b"<p>\xc2\xa9 2024 Acme Inc. All rights reserved.</p></body></html>")
    assert _parse(html, "r.html").document.entity == "Acme Inc."


def test_release_headline_is_a_press_release_even_when_it_mentions_form_10k():
    lines = ["Acme Reports Fourth Quarter and Fiscal 2025 Financial Results", "see our Annual Report on Form 10-K"]
    assert form_from(lines, "") == "press release"
    assert form_from(["FORM 10-K", "ANNUAL REPORT"], "") == "10-K"


def test_quarter_ends_do_not_vote_for_the_fiscal_year_end():
    headers = ["Three Months Ended July 31, 2024", "Three Months Ended July 31, 2023",
               "July 31, 2024", "January 31, 2024", "July 31, 2023"]
    assert infer_fye(headers) == (1, 31)


def test_fiscal_quarter_sentence_implies_the_year_end():
    assert fye_hint("financial results for its fiscal 2024 fourth quarter ended May 31, 2024") == (5, 31)
    assert fye_hint("results for the third quarter of fiscal 2025 ended October 31, 2024") == (1, 31)
    assert fye_hint("for the fiscal year ended June 30, 2025") == (6, 30)


def test_tables_inside_inline_wrappers_are_still_tables():
    html = (b"<html><body><span id='pane'><span><div><p>Acme (NYSE: ACME) announced results.</p>"
            b"<table><tr><td></td><td>Year Ended April 30, 2025</td><td>Year Ended April 30, 2024</td></tr>"
            b"<tr><td>Total revenue</td><td>2,310</td><td>2,045</td></tr></table></div></span></span></body></html>")
    doc = _parse(html, "r.html")
    assert len(doc.tables) == 1 and doc.document.entity == "Acme"


def test_fiscal_year_before_quarter_names_the_quarter():
    assert period_from_text("results for its fiscal 2024 fourth quarter ended May 31, 2024") == "Q4 FY2024"
    assert period_from_text("results for its fiscal 2025 second quarter ended July 26, 2024") == "Q2 FY2025"
    assert period_from_text("for the quarter ended October 31, 2024", (1, 31)) == "Q3 FY2025"


def test_dates_without_a_space_after_the_comma_are_dates():
    from parsers.periods import dates_in

    assert [str(d) for d in dates_in("Three Months Ended March 31,2024")] == ["2024-03-31"]


_RELEASES = [
    pytest.param(
        "<html><head><title>Oracle reports fourth quarter results</title></head><body>"
        "<p>Oracle today announced financial results for its fiscal 2024 fourth quarter ended May 31, 2024. "
        "Oracle reported total revenues of $14.3 billion and quarterly diluted earnings per share of $1.11. "
        "Diluted earnings per share increased to $1.63 when excluding a non-recurring tax charge. "
        "Oracle's board of directors has declared a cash dividend of $0.40 per share of the Company's common stock.</p>"
        "</body></html>",
        {"1.11": ("GAAP", "Q4 FY2024"), "1.63": ("non-GAAP", "Q4 FY2024")}, id="when-excluding-the-one-time-charge"),
    pytest.param(
        "<html><head><title>Mastercard reports fourth quarter results</title></head><body>"
        "<p>Mastercard today announced financial results for its fourth quarter ended December 31, 2024. "
        "Net revenue was $7.5 billion, an increase of 14 percent, and diluted earnings per share was $3.64. "
        "Diluted earnings per share was $3.82, up 20 percent, excluding certain special items recognized during the "
        "quarter. The board of directors declared a regular quarterly cash dividend of $0.76 per share of "
        "Class A common stock.</p></body></html>",
        {"3.64": ("GAAP", "Q4 FY2024"), "3.82": ("non-GAAP", "Q4 FY2024")}, id="excluding-certain-special-items"),
]


@pytest.mark.parametrize(("html", "eps"), _RELEASES)
def test_a_figure_stated_excluding_a_one_time_charge_is_non_gaap(html: str, eps: dict[str, tuple[str, str]]):
    doc = _parse(html.encode(), "r.html")
    assert {str(f.value): (f.basis, f.period) for f in doc.facts if f.metric == "eps_diluted"} == eps


@pytest.mark.parametrize(("html", "eps"), _RELEASES)
def test_a_dividend_per_share_is_not_cash(html: str, eps: dict[str, tuple[str, str]]):
    # The dividend sits in the dated paragraph: a sentence with no period yields no fact at all.
    doc = _parse(html.encode(), "r.html")
    assert not [f for f in doc.facts if f.metric == "cash"]


def _change_table(scale: str, periods: tuple[str, str], change: str, rows: str) -> str:
    return f"""<html><body><p>Results of Operations</p><table>
<tr><td></td><td>Three Months Ended</td><td>Three Months Ended</td><td>Change</td><td>Change</td></tr>
<tr><td>({scale})</td><td>{periods[0]}</td><td>{periods[1]}</td><td>{change}</td><td>{change}</td></tr>
{rows}</table></body></html>"""


@pytest.mark.parametrize(("html", "period", "reported", "constant"), [
    (_change_table("in millions", ("June 30,2024", "June 30,2023"), "Q2'24 vs. Q2'23",
                   "<tr><td>Net revenue</td><td>$7,000</td><td>$6,270</td><td>$730</td><td>12%</td></tr>"
                   "<tr><td>Currency-neutral change in net revenue</td><td></td><td></td><td></td><td>13%</td></tr>"
                   "<tr><td>Operating margin</td><td>58.2%</td><td>57.0%</td><td>1.2%</td><td></td></tr>"),
     "Q2 FY2024", "12", "13"),
    (_change_table("in thousands", ("September 30, 2024", "September 30, 2023"), "Q3'24 vs. Q3'23",
                   "<tr><td>Total revenues</td><td>$2,950,110</td><td>$2,800,340</td><td>$149,770</td><td>5%</td></tr>"
                   "<tr><td>Constant currency change in total revenues</td><td></td><td></td><td></td><td>6%</td></tr>"
                   "<tr><td>Operating margin</td><td>21.5%</td><td>20.9%</td><td>0.6%</td><td></td></tr>"),
     "Q3 FY2024", "5", "6"),
])
def test_change_columns_and_growth_rows_give_growth_facts_with_their_basis(html, period, reported, constant):
    doc = _parse(html.encode(), "q.html")
    growth = sorted((f.metric, f.basis, f.period, str(f.value)) for f in doc.facts if f.metric.startswith("growth:"))
    assert growth == [("growth:revenue", "GAAP", period, reported),
                      ("growth:revenue", "constant-currency", period, constant)]


@pytest.mark.parametrize(("year_end", "label", "period", "reported", "constant"), [
    ("January 31, 2025", "Total revenue", "Q4 FY2025", "8", "9"),
    ("May 31, 2024", "Total revenues", "Q4 FY2024", "3", "4"),
])
def test_a_lone_year_over_year_column_speaks_for_the_tables_latest_period(year_end, label, period, reported, constant):
    html = f"""<html><body><p>Results for the fourth quarter and fiscal year ended {year_end}.</p><table>
<tr><td></td><td>Three Months Ended {year_end}</td><td>% Change Year Over Year</td>
<td>% Change Year Over Year Excluding Currency Changes</td><td>% Change Quarter Over Quarter</td></tr>
<tr><td>{label}</td><td>$9,993</td><td>{reported}%</td><td>{constant}%</td><td>6%</td></tr></table></body></html>"""
    doc = _parse(html.encode(), "r.html")
    growth = sorted((f.basis, f.period, str(f.value)) for f in doc.facts if f.metric == "growth:revenue")
    assert growth == [("GAAP", period, reported), ("constant-currency", period, constant)]


@pytest.mark.parametrize(("company", "year", "name", "metric", "quarter", "full"), [
    ("Oracle", "2024", "Cloud Revenue", "cloud_revenue", "5.3", "19.8"),
    ("Salesforce", "2025", "Subscription revenue", "subscription_revenue", "9.5", "35.7"),
])
def test_a_sentence_without_a_period_takes_its_headings_and_a_bare_quarter(company, year, name, metric, quarter, full):
    headline = f"{company} Reports Fourth Quarter and Fiscal {year} Financial Results"
    html = (f"<html><head><title>{headline}</title></head><body><h1>{headline}</h1>"
            f"<p>Q4 {name} of ${quarter} billion, up 20% year-over-year</p>"
            f"<p><b>Full Fiscal {year} Financial Highlights</b></p><p>{name} was ${full} billion, an increase of 23%.</p>"
            "</body></html>").encode()
    doc = _parse(html, "r.html")
    got = sorted((f.period, f.value) for f in doc.facts if f.metric == metric)
    assert got == [(f"FY{year}", Decimal(full) * 10**9), (f"Q4 FY{year}", Decimal(quarter) * 10**9)]


def _gross_margin_table(title: str, group: str, sales_row: str, sales: tuple[str, ...], slice_row: str) -> str:
    return f"""<html><body><p>{title}</p><table>
<tr><td></td><td colspan="3">Year Ended December 31,</td><td colspan="2">2024 vs. 2023 Change</td></tr>
<tr><td>(Dollars in millions)</td><td>2024</td><td>2023</td><td>2022</td><td>$</td><td>%</td></tr>
<tr><td>{group}</td></tr>
<tr><td>{sales_row}</td>{"".join(f"<td>{s}</td>" for s in sales)}</tr>
<tr><td>{slice_row}</td><td>83.2%</td><td>82.9%</td><td>81.0%</td></tr>
<tr><td>Total gross margin</td><td>56.7%</td><td>55.4%</td><td>54.0%</td></tr>
</table></body></html>"""


_GROSS_MARGIN_TABLES = [
    pytest.param(_gross_margin_table("Gross Margin by Product Line", "Cost of revenues", "Software sales",
                                     ("$4,870", "$5,990", "$4,310", "$(1,120)", "(19)%"),
                                     "Gross margin, Infrastructure segment"),
                 "Software sales", "Cost of revenues", "infrastructure", 1120, id="ibm-like"),
    pytest.param(_gross_margin_table("Gross Margin by Segment", "Cost of sales", "Freight revenues",
                                     ("$9,410", "$10,862", "$9,020", "$(1,452)", "(13)%"), "Gross margin Bulk segment"),
                 "Freight revenues", "Cost of sales", "bulk", 1452, id="union-pacific-like"),
]


@pytest.mark.parametrize(("html", "first_row", "group", "segment", "change"), _GROSS_MARGIN_TABLES)
def test_year_headers_keep_their_columns_when_a_percent_sign_follows(html, first_row, group, segment, change):
    cols = _parse(html.encode(), "k.html").tables[0].columns
    assert [c.period for c in cols[:3]] == ["FY2024", "FY2023", "FY2022"]


@pytest.mark.parametrize(("html", "first_row", "group", "segment", "change"), _GROSS_MARGIN_TABLES)
def test_a_lone_label_above_the_first_row_groups_the_rows(html, first_row, group, segment, change):
    rows = _parse(html.encode(), "k.html").tables[0].rows
    assert rows[0].label == first_row and rows[0].group == group


@pytest.mark.parametrize(("html", "first_row", "group", "segment", "change"), _GROSS_MARGIN_TABLES)
def test_a_slice_row_is_also_the_registry_quantity_on_that_segments_basis(html, first_row, group, segment, change):
    doc = _parse(html.encode(), "k.html")
    sliced = {(f.metric, f.basis, str(f.value)) for f in doc.facts if f.period == "FY2024" and f.basis.startswith("segment:")}
    assert ("gross_margin", f"segment:{segment}", "83.2") in sliced
    # a revenue-named row under a cost heading is a cost, so it gets no revenue slice
    assert not [m for m, *_ in sliced if m == "revenue"]


@pytest.mark.parametrize(("html", "first_row", "group", "segment", "change"), _GROSS_MARGIN_TABLES)
def test_dollar_changes_are_never_growth_rates(html, first_row, group, segment, change):
    doc = _parse(html.encode(), "k.html")
    assert not [f for f in doc.facts if f.metric.startswith("growth:") and abs(f.value) == change]


_MDA_TEXTS = [
    pytest.param(
        "<p>In 2024, we reported operating revenues of $24.25 billion, representing an increase of $130 million "
        "compared to the prior year. Operating income decreased, due to a charge in the fourth quarter of 2023. In 2024, "
        "we built approximately 2,650,000 vehicles and delivered approximately 2,700,000 passenger vehicles.</p>"
        "<p>Additionally, we recognized $310 million of Data Cloud (Premium) revenue due to release of features in "
        "2024.</p><p>Total net sales include $5.2 billion of revenue recognized in 2024 that was included in "
        "deferred revenue.</p>",
        {"revenue": "2.425E+10", "deliveries": "2700000", "sliced": ("segment:data cloud premium", "3.10E+8")},
        id="reported-of-and-recognized-of"),
    pytest.param(
        "<p>During 2024, net revenue was $28.2 billion, an increase of $3.1 billion versus the year ended December 31, "
        "2023. Net income increased, driven by a gain in the third quarter of 2023. During 2024, we delivered 51,579 "
        "vehicles.</p><p>We recognized $1.2 billion of license support revenue in 2024.</p>",
        {"revenue": "2.82E+10", "deliveries": "51579", "sliced": ("segment:license support", "1.2E+9")},
        id="was-and-plain-of"),
]


def _text_facts(body: str, metric: str):
    html = f"<html><head><title>Acme Inc. - 10-K</title></head><body><p>Overview</p>{body}</body></html>"
    return [f for f in _parse(html.encode(), "k.html").facts if f.metric == metric and f.source.kind == "text"]


@pytest.mark.parametrize(("body", "want"), _MDA_TEXTS)
def test_a_figures_own_sentence_names_its_period_not_the_paragraphs_other_years(body, want):
    assert [(f.period, str(f.value)) for f in _text_facts(body, "revenue") if f.basis == "GAAP"] == [
        ("FY2024", want["revenue"])]


@pytest.mark.parametrize(("body", "want"), _MDA_TEXTS)
def test_a_count_named_by_its_noun_and_verb_is_a_fact(body, want):
    facts = [(f.period, str(f.value), f.basis) for f in _text_facts(body, "deliveries")]
    assert ("FY2024", want["deliveries"], "operating metric") in facts


@pytest.mark.parametrize(("noun", "segment"), [("passenger vehicles", "passenger"), ("Model Y vehicles", "model y")])
def test_a_counted_nouns_qualifier_is_also_its_slice(noun: str, segment: str):
    body = f"<p>In 2024, we delivered approximately 1,200,000 {noun}.</p>"
    assert sorted((f.basis, str(f.value)) for f in _text_facts(body, "deliveries")) == [
        ("operating metric", "1200000"), (f"segment:{segment}", "1200000")]


@pytest.mark.parametrize(("body", "want"), _MDA_TEXTS)
def test_an_amount_of_a_qualified_quantity_carries_the_qualifier_as_its_basis(body, want):
    sliced = [(f.basis, str(f.value)) for f in _text_facts(body, "revenue") if f.basis != "GAAP"]
    assert sliced == [want["sliced"]]


@pytest.mark.parametrize(("body", "want"), _MDA_TEXTS)
def test_a_flow_stated_in_a_sentence_spans_its_fiscal_period(body, want):
    f = _text_facts(body, "revenue")[0]
    assert (str(f.period_start), str(f.period_end)) == ("2024-01-01", "2024-12-31")


def _pdf(lines: list[tuple[float, list[tuple[float, str]]]]) -> bytes:
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    for y, cells in lines:
        for x, text in cells:
            page.insert_text((x, y), text, fontsize=8)
    return doc.tobytes()


@pytest.mark.parametrize(("title", "reported", "organic"), [
    ("Organic Revenue Growth by Division", "6", "8"),
    ("Net Sales and Organic Sales Growth", "3", "5"),
])
def test_an_undated_organic_change_table_gives_its_titles_total_for_the_main_period(title, reported, organic):
    # A tall header streamed as lines must not push the title out, the bare "Total" row is the quantity
    # the title names, and an undated "% Change" column speaks for the document's main period.
    body = [
        (60, [(40, "Consolidated Results")]),
        (72, [(300, "Year Ended December 31, 2022"), (450, "Year Ended December 31, 2021")]),
        (84, [(40, "Net revenue"), (330, "52,140"), (480, "49,210")]),
        (96, [(40, "Operating profit"), (330, "7,305"), (480, "6,980")]),
        (108, [(40, "Net income"), (330, "5,120"), (480, "4,870")]),
        (130, [(40, title)]),
        (142, [(40, "Organic revenue growth is a non-GAAP financial measure. See the section below.")]),
        (156, [(330, "2022")]),
        (166, [(240, "Impact of"), (330, "Impact of")]),
        (176, [(150, "Reported"), (240, "Foreign"), (420, "Organic")]),
        (186, [(150, "% Change, GAAP"), (240, "exchange"), (330, "Acquisitions"), (420, "% Change, Non-")]),
        (196, [(150, "Measure"), (240, "translation"), (330, "divestitures"), (420, "GAAP Measure")]),
        (208, [(40, "North"), (150, "12 %"), (240, "—"), (330, "—"), (420, "10 %")]),
        (220, [(40, "South"), (150, "2 %"), (240, "4"), (330, "1"), (420, "7 %")]),
        (232, [(40, "Total"), (150, f"{reported} %"), (240, "1"), (330, "1"), (420, f"{organic} %")]),
    ]
    doc = _parse(_pdf(body), "widget-10k.pdf")
    table = next(t for t in doc.tables if "Organic" in " ".join(" ".join(c.header) for c in t.columns))
    assert table.title == title
    growth = {(f.basis, f.value) for f in doc.facts if f.metric == "growth:revenue" and f.period == "FY2022"}
    assert ("organic", Decimal(organic)) in growth and ("GAAP", Decimal(reported)) in growth
    assert not any(f.metric.startswith("growth:") and f.label in ("North", "South") for f in doc.facts)


@pytest.mark.parametrize(("title", "metric"), [
    ("Net Sales and Organic Sales Growth", "revenue"),
    ("Total Revenues and Constant Currency Growth", "revenue"),
    ("Net Revenue and Operating Income", None),
    ("Revenues and Operating Profit by Segment", None),
])
def test_a_title_names_one_quantity_or_none(title: str, metric: str | None):
    from parsers.filings.facts import title_metric

    assert title_metric(title) == metric


@pytest.mark.parametrize(("title", "lines", "entity"), [
    ("eBay Inc. Reports Better Than Expected First Quarter 2023 Results", [], "eBay Inc."),
    ("", ["BEDFORD, Mass. -- iRobot Corporation today announced its financial results"], "iRobot Corporation"),
])
def test_a_name_that_starts_in_lower_case_is_still_a_name(title: str, lines: list[str], entity: str):
    assert guess_entity(title, lines) == entity


@pytest.mark.parametrize(("body", "value"), [
    ("<p>In fiscal 2024, comparable sales (sales for stores open at least 14 months and e-commerce sales) "
     "increased 15.6% compared to an increase of 21.4% in fiscal 2023.</p>", "15.6"),
    ("<p>For fiscal 2024, same-store sales decreased 0.7 percent, while net sales fell 3.2%.</p>", "-0.7"),
])
def test_a_sentence_gives_comparable_sales_as_the_rate_it_states(body: str, value: str):
    assert [(f.period, str(f.value)) for f in _text_facts(body, "comparable_sales")] == [("FY2024", value)]


@pytest.mark.parametrize(("body", "compared"), [
    ("<p>Net sales for fiscal 2024 decreased 3.2 percent to $293.6 million from net sales of $303.5 million for the "
     "prior year.</p>", "3.035E+8"),
    ("<p>Revenue for fiscal 2024 was $2.4 billion, compared to revenue of $2.1 billion in fiscal 2023.</p>",
     "2.1E+9"),
])
def test_the_figure_a_sentence_compares_with_is_not_a_fact_of_the_sentences_period(body, compared):
    values = {str(f.value) for f in _text_facts(body, "revenue") if f.period == "FY2024"}
    assert compared not in values


def test_a_new_clause_after_a_comparison_states_its_own_figure():
    body = ("<p>Diluted earnings per share of $2.31 in fiscal 2024 increased 18.0 percent compared to the prior-year "
            "period, and operating (non-GAAP) diluted earnings per share of $2.80 increased 15.2 percent.</p>")
    assert {str(f.value) for f in _text_facts(body, "eps_diluted")} >= {"2.31", "2.80"}


@pytest.mark.parametrize(("lines", "fye"), [
    (["NEWS RELEASE", "eBay Inc. Reports Better Than Expected First Quarter 2023 Results",
      "today reported financial results for its first quarter ended", "March 31, 2023."], (12, 31)),
    (["Elastic Reports Second Quarter Fiscal 2025 Financial Results",
      "Revenue for the quarter ended October 31, 2024 was $365 million"], (4, 30)),
])
def test_a_release_headline_naming_its_quarter_places_the_year_end(lines, fye):
    assert headline_quarter_hint(lines) == fye


@pytest.mark.parametrize(("text", "fye", "period"), [
    ("Net sales for the 39-week fiscal period ended November 2, 2024 decreased 4.6 percent", (1, 31), "9M FY2025"),
    ("Comparable sales for the 26-week period ended August 3, 2024 rose 2.1%", (2, 1), "H1 FY2025"),
    ("Net sales for the 13-week fiscal quarter ended November 2, 2024 decreased 3.2 percent", (1, 31), "Q3 FY2025"),
])
def test_a_retailers_weeks_name_the_part_of_the_year_they_cover(text, fye, period):
    assert period_from_text(text, fye) == period


@pytest.mark.parametrize(("body", "metric", "value"), [
    ("<p>Net sales for the 13-week fiscal quarter ended November 2, 2024 decreased 3.2 percent to $293.6 million.</p>",
     "growth:revenue", "-3.2"),
    ("<p>Comparable store net sales for the 13-week fiscal quarter ended November 2, 2024 decreased 0.7 percent.</p>",
     "comparable_sales", "-0.7"),
])
def test_a_rate_stated_in_percent_as_a_word_is_read(body, metric, value):
    assert value in {str(f.value) for f in _text_facts(body, metric)}


@pytest.mark.parametrize(("body", "entity"), [
    ("Revenue was up 12%. Contact: Investor Relations, NVIDIA Corporation. NVIDIA Corporation in the U.S.",
     "NVIDIA Corporation"),
    ("Margins held. Media: Acme Widgets, Inc. press office. (c) Acme Widgets, Inc. and its affiliates",
     "Acme Widgets, Inc."),
])
def test_a_document_naming_its_company_only_in_contacts_takes_the_legal_name_it_prints_most(body, entity):
    lines = ["CFO Commentary on Fourth Quarter and Fiscal 2025 Results", "Q4 Fiscal 2025 Summary"]
    assert guess_entity("Q4FY25 CFO Commentary", lines, {}) is None
    assert guess_entity("Q4FY25 CFO Commentary", lines, {}, body=body) == entity
