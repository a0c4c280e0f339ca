"""Trend slides and the words around their figures: a title over several years dates its cells by
their columns and is as recent as its last year, a day of a month is part of a date, "points" are
percentage points and "jumped" is a change. Each on two companies' slides."""

from __future__ import annotations

import pytest

from parsers.claims import extract_claims
from parsers.decks import load_deck
from parsers.model import Claim, Deck


def _claims(text: str) -> tuple[list[Claim], list[tuple[str, str]]]:
    deck = load_deck(text.encode(), "deck.md")
    assert isinstance(deck, Deck)
    parsed = extract_claims(deck)
    return parsed.claims, [(d.text, d.why) for d in parsed.discarded]


@pytest.mark.parametrize(("title", "years", "last"), [
    ("Walmart: fiscal 2024-2025 trend", ("FY2024", "FY2025"), "FY2025"),
    ("Union Pacific: 2022-2024", ("2022", "2024"), "2024"),
])
def test_a_title_over_several_years_keeps_its_last_year_and_drops_only_estimates(title, years, last):
    first, end = years
    claims, discarded = _claims(
        f"# Trend book\n\n---\n\n## {title}\n\n"
        f"| $ in billions | {first} | {end} | {int(end[-4:]) + 1}E |\n|---|---|---|---|\n"
        "| Revenue | $648.1 | $681.0 | $705.0 |\n\n"
        f"Net income reached $19.4bn in {last}.\n")
    by_text = {c.text: c for c in claims}
    assert "$681.0" in by_text and by_text["$681.0"].period == f"FY{end[-4:]}"
    assert "$648.1" in by_text
    assert any("19.4" in c.text and c.period == f"FY{last[-4:]}" for c in claims)
    assert [why for text, why in discarded if "705.0" in text] == ["projection or guidance"]


@pytest.mark.parametrize("note", ["Fiscal years end January 31", "Fiscal years end June 30"])
def test_a_day_of_a_month_is_part_of_a_date_not_a_figure(note):
    claims, discarded = _claims(f"# Review\n\n---\n\n## P&G FY2025\n\n{note}\n\n- Net sales of $84.3 billion\n")
    assert [str(c.value) for c in claims] == ["84.3"]
    assert any(text == note for text, _ in discarded)


@pytest.mark.parametrize(("sentence", "metric"), [
    ("Operating margin widened by more than 3 points in FY2025.", "operating_margin"),
    ("Gross margin contracted 2.1 pts in 2024.", "gross_margin"),
])
def test_points_after_a_margin_are_percentage_points_of_change(sentence, metric):
    claims, _ = _claims(f"# Review\n\n---\n\n## Procter & Gamble\n\n{sentence}\n")
    (claim,) = claims
    assert (claim.metric, claim.unit, claim.kind) == (metric, "pp", "growth")


@pytest.mark.parametrize(("sentence", "metric"), [
    ("Frito-Lay North America operating profit jumped 32%.", "operating_income"),
    ("Net income surged 80% in the quarter.", "net_income"),
])
def test_a_figure_a_verb_of_change_leads_is_a_growth_rate(sentence, metric):
    claims, _ = _claims(f"# Review\n\n---\n\n## PepsiCo Q1 2023\n\n{sentence}\n")
    (claim,) = claims
    assert (claim.metric, claim.kind) == (metric, "growth")


@pytest.mark.parametrize(("sentence", "metric"), [
    ("Operating margin expanded to 27.6% in the quarter.", "operating_margin"),
    ("Gross margin improved to a record 46.2%.", "gross_margin"),
])
def test_a_margin_a_verb_of_change_takes_to_is_the_level_reached(sentence, metric):
    claims, _ = _claims(f"# Review\n\n---\n\n## Salesforce Q1 FY24\n\n{sentence}\n")
    (claim,) = claims
    assert (claim.metric, claim.kind) == (metric, "margin")


@pytest.mark.parametrize(("sentence", "kept", "dropped"), [
    ("Net revenue rose to $17.8 billion from $16.2 billion.", "17.8", "$16.2 billion"),
    ("Net income grew from $4.1 billion to $5.2 billion.", "5.2", "$4.1 billion"),
])
def test_the_figure_a_sentence_rose_from_is_no_claim_about_the_slides_period(sentence, kept, dropped):
    claims, discarded = _claims(f"# Review\n\n---\n\n## PepsiCo Q1 2023\n\n{sentence}\n")
    assert [str(c.value) for c in claims] == [kept]
    assert [why for _, why in discarded] == [f"{dropped} is the figure compared with, and its period is not stated"]
