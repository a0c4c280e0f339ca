"""Claim extraction on small hand-written slides: one behaviour per case."""

from __future__ import annotations

from decimal import Decimal

import pytest

from parsers.claims import Proposal, extract_claims, prior_period, validate_proposals
from parsers.model import Deck, Slide, TextBlock


def _deck(*slides: tuple[str, list[str]] | tuple[str, list[str], list[list[str]]], cover: str = "Acme Inc. Investor Day") -> Deck:
    out = [Slide(page=1, title=cover, blocks=[])]
    for i, s in enumerate(slides, start=2):
        title, lines, *tables = s
        out.append(Slide(page=i, title=title, blocks=[TextBlock(text=t) for t in lines], tables=list(tables)))
    return Deck(format="txt", slides=out)


def _one(title: str, line: str):
    parsed = extract_claims(_deck((title, [line])))
    return parsed.claims, parsed.discarded


DISCARDS = [
    ("expect_is_a_projection", "Acme FY2024 Highlights", "We expect full-year 2025 revenue of $43B-$44B", "projection"),
    ("guidance_is_a_projection", "Acme FY2025 Highlights", "FY2026 revenue guidance of $1.655B-$1.670B", "projection"),
    ("a_future_period_is_a_projection", "Acme FY2024 Highlights", "Revenue of $50B in FY2026", "projection"),
    ("guidance_slide_discards_every_figure", "Q1 2024 Guidance", "Total revenue: $1.025 billion", "projection"),
    ("superlative_without_figure", "Acme FY2024", "The most admired brand in the world", "superlative"),
    ("team_biography", "Leadership", "Jane Doe has led Acme as CEO since 2011", "team"),
    ("page_number", "Acme FY2024 Highlights", "2", "page number"),
    ("footnote_note", "Acme FY2024 Highlights", "Note: Numbers are rounded to the nearest million.", "footnote"),
    ("fiscal_year_ended_line_is_a_date", "Acme FY2024 Highlights", "Fiscal year ended September 28, 2024", "date"),
    ("address", "Contact", "1 Infinite Loop Drive, Cupertino, CA 95014", "address"),
    ("phone_number", "Contact", "Investor relations: (408) 996-1010", "phone"),
    ("forward_looking_boilerplate", "Disclaimer", "This presentation contains forward-looking statements about 2025", "disclaimer"),
    ("bare_figure_without_label", "Acme FY2024 Highlights", "40", "label"),
]


@pytest.mark.parametrize(("case", "title", "line", "why"), DISCARDS, ids=[d[0] for d in DISCARDS])
def test_non_claims_are_discarded_with_their_reason(case: str, title: str, line: str, why: str) -> None:
    claims, discarded = _one(title, line)
    assert claims == []
    assert len(discarded) == 1 and why in discarded[0].why, discarded


CLAIMS = [
    # case, title, line, value, printed, decimals, scale, unit, kind, bound, metric, period, comparison, basis
    ("currency_value_with_suffix", "Acme FY2024 Highlights", "Total net sales of $391.0B",
     "391.0", "$391.0B", 1, 9, "USD", "value", "eq", "revenue", "FY2024", None, "GAAP"),
    ("growth_compares_with_prior_year", "Netflix FY2024 Highlights", "Net income up 61% Y/Y",
     "61", "61%", 0, 0, "percent", "growth", "eq", "net_income", "FY2024", "FY2023", "GAAP"),
    ("quarterly_growth_compares_with_same_quarter", "Acme Q2 2025 Update", "Revenue up 17% Y/Y",
     "17", "17%", 0, 0, "percent", "growth", "eq", "revenue", "Q2 FY2025", "Q2 FY2024", "GAAP"),
    ("sequential_growth_compares_with_prior_quarter", "Acme Q1 2025 Update", "Revenue up 3% Q/Q",
     "3", "3%", 0, 0, "percent", "growth", "eq", "revenue", "Q1 FY2025", "Q4 FY2024", "GAAP"),
    ("decline_is_negative_growth", "Acme FY2024", "Energy revenue down 7% Y/Y",
     "-7", "7%", 0, 0, "percent", "growth", "eq", "revenue", "FY2024", "FY2023", "segment:energy"),
    ("margin", "Acme FY2024 Highlights", "Operating margin of 31.5%",
     "31.5", "31.5%", 1, 0, "percent", "margin", "eq", "operating_margin", "FY2024", None, "GAAP"),
    ("share_of_total", "Acme FY2025 Highlights", "Elastic Cloud reached 52% of total revenue",
     "52", "52%", 0, 0, "percent", "share", "eq", "cloud_revenue", "FY2025", None, "GAAP"),
    ("ratio", "Acme FY2024 Highlights", "Operating cash flow covered capex 1.3x",
     "1.3", "1.3x", 1, 0, "multiple", "ratio", "eq", "operating_cash_flow", "FY2024", None, "GAAP"),
    ("eps_is_per_share_and_unstated_gaap", "Acme Q4 FY2024 Results", "Diluted EPS of $1.64",
     "1.64", "$1.64", 2, 0, "USD/share", "value", "eq", "eps_diluted", "Q4 FY2024", None, "GAAP"),
    ("stated_non_gaap_basis", "Acme FY2024", "Non-GAAP operating margin of 15%",
     "15", "15%", 0, 0, "percent", "margin", "eq", "operating_margin", "FY2024", None, "non-GAAP"),
    ("over_is_a_lower_bound", "Acme Q4 FY2025", "Over 1,510 customers with ACV > $100K",
     "1510", "Over 1,510", 0, 0, "count", "value", "gt", "label:customers with acv $100k", "Q4 FY2025", None,
     "operating metric"),
    ("plus_suffix_is_a_lower_bound", "Acme Q4 FY2025", "2,000+ customers building GenAI apps",
     "2000", "2,000+", 0, 0, "count", "value", "ge", "label:customers building genai apps", "Q4 FY2025", None,
     "operating metric"),
    ("tilde_is_approximate", "Tesla FY2024 Highlights", "~1.79M consumer vehicles delivered",
     "1.79", "~1.79M", 2, 6, "count", "value", "approx", "deliveries", "FY2024", None, "operating metric"),
    ("bullet_period_beats_slide_title", "Acme FY2024", "Net sales have grown from $274.5B in FY2020",
     "274.5", "$274.5B", 1, 9, "USD", "value", "eq", "revenue", "FY2020", None, "GAAP"),
    ("free_cash_flow_is_non_gaap_by_default", "Meta FY2024", "Free cash flow of $52.1B",
     "52.1", "$52.1B", 1, 9, "USD", "value", "eq", "free_cash_flow", "FY2024", None, "non-GAAP"),
    ("unknown_quantity_keeps_its_label_words", "Acme Q4 FY2024", "Active installed base surpassed 2.2B devices",
     "2.2", "surpassed 2.2B", 1, 9, "count", "value", "gt", "label:active installed base devices", "Q4 FY2024", None,
     "operating metric"),
]


@pytest.mark.parametrize(
    ("case", "title", "line", "value", "printed", "decimals", "scale", "unit", "kind", "bound", "metric", "period",
     "comparison", "basis"),
    CLAIMS, ids=[c[0] for c in CLAIMS],
)
def test_bullets_become_typed_claims(case, title, line, value, printed, decimals, scale, unit, kind, bound, metric,
                                     period, comparison, basis) -> None:
    claims, discarded = _one(title, line)
    assert len(claims) == 1, (claims, discarded)
    c = claims[0]
    got = (c.value, c.printed, c.decimals, c.scale, c.unit, c.kind, c.bound, c.metric, c.period, c.comparison_period, c.basis)
    assert got == (Decimal(value), printed, decimals, scale, unit, kind, bound, metric, period, comparison, basis)
    assert c.text == line and c.id == "p2-c1"


def test_table_cell_takes_metric_from_row_and_period_from_column() -> None:
    deck = _deck(("Amazon Key Metrics", [], [["Metric", "2023", "2024"], ["Net sales", "$574.8B", "$638.0B"]]))
    claims = extract_claims(deck).claims
    cell = next(c for c in claims if c.text == "$638.0B")
    assert (cell.metric, cell.period, cell.value, cell.scale, cell.basis) == ("revenue", "FY2024", Decimal("638.0"), 9, "GAAP")


def test_table_growth_column_inherits_the_period_before_it() -> None:
    deck = _deck(("Revenue", [], [["$ millions", "FY25", "Y/Y", "Y/YCC"], ["Total Revenue", "$1,483", "17%", "18%"]]))
    by_text = {c.text: c for c in extract_claims(deck).claims}
    assert (by_text["$1,483"].scale, by_text["$1,483"].unit) == (6, "USD")
    assert (by_text["17%"].kind, by_text["17%"].period, by_text["17%"].comparison_period) == ("growth", "FY2025", "FY2024")
    assert by_text["18%"].basis == "constant-currency"


def test_percent_of_revenue_column_turns_profit_rows_into_margins() -> None:
    deck = _deck(("Income Statement", [], [["$ millions", "FY25", "% of Revenue"], ["Operating Income/Margin", "$225", "15%"]]))
    by_text = {c.text: c for c in extract_claims(deck).claims}
    assert (by_text["$225"].metric, by_text["15%"].metric, by_text["15%"].kind) == ("operating_income", "operating_margin", "margin")


def test_segment_words_before_a_metric_become_a_segment_basis() -> None:
    deck = _deck(("Amazon FY2024", [], [["Metric", "FY2024"], ["AWS operating margin", "37%"]]))
    c = extract_claims(deck).claims[0]
    assert (c.metric, c.basis, c.basis_stated) == ("operating_margin", "segment:aws", True)


def test_multi_company_deck_assigns_each_slide_its_company() -> None:
    deck = Deck(format="txt", slides=[
        Slide(page=1, title="Apple & Netflix: FY2024 Performance Review", blocks=[]),
        Slide(page=2, title="Apple FY2024 Highlights", blocks=[TextBlock(text="Revenue of $391.0B")]),
        Slide(page=3, title="Netflix FY2024 Highlights", blocks=[TextBlock(text="Revenue of $39.0B")]),
    ])
    parsed = extract_claims(deck)
    assert [c.entity for c in parsed.claims] == ["Apple", "Netflix"]
    assert parsed.entity is None


def test_company_from_a_copyright_footer() -> None:
    slides = [Slide(page=i, title=t, blocks=[TextBlock(text="©2023 TWILIO INC. ALL RIGHTS RESERVED"),
                                             TextBlock(text="Revenue of $1,076M")])
              for i, t in enumerate(["Q4 2023 Earnings", "Results", "More"], start=1)]
    parsed = extract_claims(Deck(format="pdf", slides=slides))
    assert parsed.entity == "Twilio Inc." and all(c.entity == "Twilio Inc." for c in parsed.claims)


def test_years_dates_and_quarter_labels_are_not_figures() -> None:
    claims, _ = _one("Acme Update", "Q1 2023 net revenue of $17.8B as of March 25, 2023")
    assert [c.printed for c in claims] == ["$17.8B"] and claims[0].period == "Q1 FY2023"


def test_two_figures_in_one_bullet_are_two_claims() -> None:
    claims, _ = _one("Acme FY2024", "Revenue of $5.0B, up 20% Y/Y")
    assert [(c.kind, c.metric, c.id) for c in claims] == [("value", "revenue", "p2-c1"), ("growth", "revenue", "p2-c2")]


def test_prior_period_for_growth() -> None:
    assert prior_period("FY2024") == "FY2023"
    assert prior_period("Q1 FY2025", sequential=True) == "Q4 FY2024"
    assert prior_period(None) is None


def test_model_proposals_survive_only_when_printed_on_their_page() -> None:
    deck = _deck(("Acme FY2024", ["Record quarter with 4,200 partners onboarded"]))
    check = validate_proposals(deck, [
        Proposal(page=2, text="4,200 partners", value="4,200", metric="partners onboarded"),
        Proposal(page=2, text="made up", value="9,999"),
        Proposal(page=7, text="no such page", value="4,200"),
    ], existing=[])
    assert [c.value for c in check.claims] == [Decimal(4200)]
    assert check.dropped == 2 and check.claims[0].id == "p2-c1"


def test_proposals_that_repeat_a_deterministic_claim_are_not_duplicated() -> None:
    deck = _deck(("Acme FY2024", ["Revenue of $5.0B"]))
    existing = extract_claims(deck).claims
    check = validate_proposals(deck, [Proposal(page=2, text="Revenue of $5.0B", value="5.0")], existing)
    assert check.claims == [] and check.duplicates == 1
