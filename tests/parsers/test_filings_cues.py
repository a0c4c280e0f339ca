"""Entity, form, fiscal-year-end and layout cues the filings parser reads from small inputs."""

from __future__ import annotations

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
