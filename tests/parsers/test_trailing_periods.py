"""Trailing twelve months ("TTM", "LTM", "trailing 4-Quarters") are a period of their own, placed in the
company's fiscal calendar: never the fiscal year they end in, nor the quarter they end with."""

from __future__ import annotations

import pytest

from parsers.claims import extract_claims
from parsers.model import Deck, Slide, TextBlock
from parsers.numbers import parse_printed
from parsers.periods import column_period, period_from_text


@pytest.mark.parametrize(("text", "fye", "label"), [
    ("trailing four quarters ended August 31, 2024", (5, 31), "TTM Q1 FY2025"),  # a May year end
    ("ORCL, trailing four quarters to Aug-24:", (5, 31), "TTM Q1 FY2025"),
    ("LTM Jun-25", (12, 31), "TTM Q2 FY2025"),  # a calendar year
    ("LTM Q3 FY25", None, "TTM Q3 FY2025"),
    ("TTM Dec-24", (12, 31), "FY2024"),  # twelve months to the year's close are the year
    ("twelve months ended June 30, 2025", (12, 31), "TTM Q2 FY2025"),
    ("twelve months ended December 31, 2024", (12, 31), "FY2024"),
    ("year ended January 28, 2023", (1, 28), "FY2023"),  # a retailer's year is a year, whatever its date
])
def test_trailing_twelve_months_are_labelled_in_the_companys_calendar(text, fye, label) -> None:
    assert period_from_text(text, fye) == label


@pytest.mark.parametrize(("header", "fye", "label"), [
    ("Trailing 4-Quarters Ended August 31, 2024", (5, 31), "TTM Q1 FY2025"),  # a software maker's FCF table
    ("Twelve Months Ended June 30, 2025", (12, 31), "TTM Q2 FY2025"),
    ("Twelve Months Ended December 31, 2024", (12, 31), "FY2024"),
    ("52 Weeks Ended January 28, 2023", (1, 28), "FY2023"),
])
def test_a_filing_column_of_trailing_twelve_months_is_not_a_quarter_or_a_year(header, fye, label) -> None:
    got = column_period(header, fye)
    assert got is not None and got[0] == label, got


def _deck(title: str, lines: list[str]) -> Deck:
    return Deck(format="md", slides=[Slide(page=1, title="Book notes", blocks=[]),
                                     Slide(page=2, title=title, blocks=[TextBlock(text=t) for t in lines])])


@pytest.mark.parametrize(("title", "lines", "period"), [
    ("IBM and ORCL", ["ORCL, trailing four quarters to Aug-24:", "net income **USD 10.98bn**",
                      "free cash flow **$19.1bn**"], "TTM Q3 FY2024"),  # placed in Oracle's calendar later
    ("Tesla credit view", ["LTM to Jun-25:", "Revenue $92.7bn", "Operating cash flow $16.0bn"], "TTM Q2 FY2025"),
])
def test_a_line_introducing_a_list_dates_the_lines_under_it(title, lines, period) -> None:
    claims = extract_claims(_deck(title, lines)).claims
    assert len(claims) == len(lines) - 1, [c.printed for c in claims]  # "Aug-24" is a month, not a figure
    assert {c.period for c in claims} == {period}


@pytest.mark.parametrize(("text", "currency"), [("USD 10.98bn", "USD"), ("EUR 1.2bn", "EUR")])
def test_a_currency_code_before_a_figure_is_its_currency(text, currency) -> None:
    (got,) = parse_printed(f"net income {text}")
    assert got.currency == currency and got.scale == 9
