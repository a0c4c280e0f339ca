"""Rows of a results deck's GAAP to non-GAAP reconciliation and revenue table, read as the quantity each
line names: a per-share loss, a step taken out or added back, a cash flow as a share of revenue, the
services line of a software company. Each on two companies' wording."""

from __future__ import annotations

from decimal import Decimal

import pytest

from parsers.claims import extract_claims
from parsers.decks import load_deck
from parsers.metrics import find_metric
from parsers.model import Claim, Deck


def _table_claims(corner: str, rows: list[tuple[str, str]]) -> list[Claim]:
    body = "\n".join(f"| {label} | {cell} |" for label, cell in rows)
    deck = load_deck(f"# Results\n\n---\n\n# GAAP to Non-GAAP Reconciliations\n\n| {corner} | Q3 FY25 |\n"
                     f"|---|---|\n{body}\n".encode(), "deck.md")
    assert isinstance(deck, Deck)
    return extract_claims(deck).claims


@pytest.mark.parametrize(("label", "metric"), [
    ("GAAP net loss per share - basic and diluted", "eps_diluted"),
    ("Net (loss) income per share, diluted", "eps_diluted"),
    ("Net income per share - basic", "eps_basic"),
    ("Net loss per share attributable to ordinary shareholders, basic", "eps_basic"),
    ("Net income", "net_income"),
])
def test_a_per_share_line_is_earnings_per_share_not_the_income(label: str, metric: str) -> None:
    assert find_metric(label) == metric


@pytest.mark.parametrize("label", ["Net cash provided by (used in) operating activities",
                                   "Net cash (used in) provided by operating activities"])
def test_a_cash_flow_line_that_prints_either_sign_is_operating_cash_flow(label: str) -> None:
    assert find_metric(label, exact=True) == "operating_cash_flow"


def test_a_per_share_loss_in_a_deck_table_is_negative_eps() -> None:
    claims = _table_claims("$ in millions except per share amounts", [
        ("GAAP net loss per share - basic and diluted", "$(0.16)"), ("Non-GAAP earnings per share - diluted", "$0.63")])
    assert [(c.metric, c.value, c.unit) for c in claims] == [
        ("eps_diluted", Decimal("-0.16"), "USD/share"), ("eps_diluted", Decimal("0.63"), "USD/share")]


@pytest.mark.parametrize("bullet", ["GAAP net loss per share was $0.25", "Net loss per diluted share of $0.25"])
def test_a_per_share_loss_printed_without_a_sign_is_below_zero(bullet: str) -> None:
    deck = load_deck(f"# Elastic Q2 FY25\n\n- {bullet}\n".encode(), "deck.md")
    assert isinstance(deck, Deck)
    assert [(c.metric, c.value) for c in extract_claims(deck).claims] == [("eps_diluted", Decimal("-0.25"))]


@pytest.mark.parametrize(("label", "metric"), [
    ("Less: Purchases of property and equipment", "capex"),
    ("Less: Purchase of property and equipment", "capex"),
    ("Add: Net cash provided by operating activities", "operating_cash_flow"),
])
def test_a_reconciling_step_names_the_line_it_takes_out_or_adds_back(label: str, metric: str) -> None:
    claims = _table_claims("$ in millions", [(label, "$(1)")])
    assert [c.metric for c in claims] == [metric]


@pytest.mark.parametrize("label", [
    "Net cash provided by operating activities (as a percentage of total revenue)",
    "Operating cash flow as a % of revenue",
])
def test_a_named_quantity_as_a_share_of_revenue_is_that_quantitys_share(label: str) -> None:
    claims = _table_claims("$ in millions", [(label, "23%")])
    assert [(c.metric, c.kind, c.denominator) for c in claims] == [("operating_cash_flow", "share", "revenue")]


@pytest.mark.parametrize(("label", "segment_basis"), [
    ("Professional Services Revenue", "GAAP"),
    ("Professional services revenue", "GAAP"),
    ("Consulting services revenue", "segment:consulting"),
])
def test_professional_services_is_the_services_line_not_a_slice_of_it(label: str, segment_basis: str) -> None:
    claims = _table_claims("$ millions", [(label, "$24")])
    assert [(c.metric, c.basis) for c in claims] == [("services_revenue", segment_basis)]


@pytest.mark.parametrize(("first", "step", "last"), [
    ("GAAP net loss per share - basic and diluted", "Stock-based compensation expense and related employer taxes",
     "Non-GAAP earnings per share - diluted"),
    ("GAAP diluted EPS", "Amortization of acquired intangibles", "Adjusted diluted EPS"),
])
def test_a_step_between_two_per_share_lines_is_a_per_share_amount(first, step, last):
    claims = _table_claims("$ in millions except percentages and per share amounts", [
        ("GAAP operating loss", "$(5)"), (step, "67"), (first, "$(0.16)"), (step, "0.64"), (last, "$0.63")])
    by_cell = {c.text: c.unit for c in claims}
    assert by_cell["0.64"] == "USD/share" and by_cell["67"] == "USD"


@pytest.mark.parametrize(("label", "basis"), [
    ("Non-GAAP professional services gross margin%", "segment:professional services"),
    ("Adjusted North America operating margin", "segment:north america"),
    ("Non-GAAP gross margin%", "non-GAAP"),
])
def test_a_segments_non_gaap_figure_is_the_segments_not_the_companys(label, basis):
    claims = _table_claims("$ in millions except percentages", [(label, "20%")])
    assert [c.basis for c in claims] == [basis]


@pytest.mark.parametrize(("cell", "value"), [("\ue08122\ue082", Decimal("-22")), ("$\ue0810.48\ue082", Decimal("-0.48"))])
def test_parentheses_a_font_draws_as_private_glyphs_make_a_figure_negative(cell, value):
    claims = _table_claims("$ in millions except per share amounts", [("Other income (expense), net", cell)])
    assert [c.value for c in claims] == [value]


@pytest.mark.parametrize(("cell", "value"), [("\ue08122\ue082", Decimal("-22")), ("$\ue0810.48\ue082", Decimal("-0.48"))])
def test_private_glyph_parentheses_escaped_in_a_docling_export_are_parentheses(cell, value):
    import json

    row = [{"text": "Other income (expense), net"}, {"text": cell}]
    head = [{"text": "$ in millions except per share amounts"}, {"text": "Q1 FY25"}]
    doc = {"texts": [{"label": "section_header", "text": "GAAP to Non-GAAP Reconciliations", "prov": [{"page_no": 2}]}],
           "tables": [{"prov": [{"page_no": 2}], "data": {"grid": [head, row]}}], "pages": {"2": {"size": {"height": 540}}}}
    deck = load_deck(json.dumps(doc, ensure_ascii=True).encode(), "deck.docling.json")
    assert isinstance(deck, Deck)
    assert [c.value for c in extract_claims(deck).claims] == [value]
