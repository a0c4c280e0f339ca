"""Bounds and ranges as slides print them, each on two wordings."""

from __future__ import annotations

import pytest

from parsers.figures import bound_of, is_qualifier, ranges
from parsers.numbers import parse_printed


@pytest.mark.parametrize(("text", "bound", "printed"), [
    ("Over 1,510 customers", "gt", "Over 1,510"),
    ("more than 300 million members", "gt", "more than 300 million"),
    ("2,000+ partners", "ge", "2,000+"),
    ("at least $5.0B of cash", "ge", "at least $5.0B"),
    ("~1.79M vehicles delivered", "approx", "~1.79M"),
    ("approximately 74,067 employees", "approx", "approximately 74,067"),
    ("up to $10B of buybacks", "le", "up to $10B"),
    ("Revenue of $391.0B", "eq", "$391.0B"),
])
def test_a_figure_states_its_bound(text: str, bound: str, printed: str) -> None:
    assert bound_of(text, parse_printed(text)[0]) == (bound, printed)


@pytest.mark.parametrize(("text", "expected"), [
    ("Revenue of $43B-$44B", {0: "ge", 1: "le"}),
    ("margin of 40%-45%", {0: "ge", 1: "le"}),
    ("growth of 2% to 3%", {0: "ge", 1: "le"}),
    ("between 40% and 45% of revenue", {0: "ge", 1: "le"}),
    ("grew 40% and margin reached 45%", {}),  # two figures, not a range
    ("Operating income up 5% to $2.5 billion", {}),  # the ends measure different things
])
def test_two_figures_make_a_range_only_of_one_unit(text: str, expected: dict[int, str]) -> None:
    figs = parse_printed(text)
    assert all(f.value > 0 for f in figs), "a dash between figures is not a minus sign"
    assert ranges(text, figs) == expected


@pytest.mark.parametrize(("text", "index", "qualifier"), [
    ("1,510 customers with ACV > $100K", 1, True),
    ("600 customers spending over $1M", 1, True),
    ("Revenue of $1.5B with margin of 20%", 1, False),
])
def test_a_threshold_that_defines_the_quantity_is_not_a_claim(text: str, index: int, qualifier: bool) -> None:
    figs = parse_printed(text)
    assert is_qualifier(text, figs[index], len(figs) - 1) == qualifier


@pytest.mark.parametrize(("text", "decimals"), [("up 190 bps", -1), ("(30) bps", -1), ("down 33 bps", 0),
                                                 ("120 basis points", -1)])
def test_basis_points_in_tens_are_printed_to_the_nearest_ten(text: str, decimals: int) -> None:
    (p,) = parse_printed(text)
    assert (p.unit, p.decimals) == ("bp", decimals)


@pytest.mark.parametrize(("text", "value"), [("$(16,120)", "-16120"), ("US$(1.2) million", "-1.2")])
def test_a_currency_sign_before_a_negatives_parenthesis_is_its_currency(text: str, value: str) -> None:
    (p,) = parse_printed(text)
    assert (str(p.value), p.unit, p.text) == (value, "USD", text)


@pytest.mark.parametrize(("text", "printed"), [("(88% of rev)", "88%"), ("($18M in 2024, flat)", "$18M")])
def test_a_parenthesis_that_opens_a_phrase_is_not_part_of_its_first_figure(text: str, printed: str) -> None:
    first = parse_printed(text)[0]
    assert (first.text, first.value > 0) == (printed, True)
