"""PDF slide furniture a lender presentation or a results deck draws: a box of key statistics (a caption
left, its figure right, a date line and a change line under them), a bridge chart whose end bars are
two years' totals, and change cells marked by an arrow. Each on two companies' shapes."""

from __future__ import annotations

import pymupdf
import pytest

from parsers.claims import extract_claims
from parsers.decks import is_figure_cell, load_deck
from parsers.model import Deck


def _pdf(items: list[tuple[float, float, str, float]]) -> Deck:
    """A landscape page with ``(x, y, text, size)`` lines at baseline ``y``."""
    doc = pymupdf.open()
    page = doc.new_page(width=960, height=540)
    for x, y, text, size in items:
        page.insert_text((x, y), text, fontsize=size, fontname="helv")
    deck = load_deck(doc.tobytes(), "deck.pdf")
    assert isinstance(deck, Deck)
    return deck


@pytest.mark.parametrize("text", ["▲ 13%", "▼ 40 bps", "▲ 2.1 pts", "13% ▲"])
def test_a_change_marked_by_an_arrow_is_a_figure_cell(text: str) -> None:
    assert is_figure_cell(text)


def _stats_box(title: str, rows: list[tuple[str, str, str, str]]) -> Deck:
    items = [(40, 40, title, 22), (40, 120, "Bullets left of the box carry the credit story here.", 11)]
    y = 120
    for caption, figure, dated, change in rows:
        items += [(640, y, caption, 11), (800, y + 2, figure, 16), (640, y + 14, dated, 8)]
        if change:
            items.append((805, y + 16, change, 8))
        y += 52
    return _pdf(items)


@pytest.mark.parametrize(("title", "rows", "expected"), [
    ("WMT | Operating and credit summary",
     [("Cash & equivalents", "US$9.0bn", "as of Jan 31, 2025", ""), ("Capital expenditures", "US$23.8bn", "FY2025", "")],
     [("cash", "9.0"), ("capex", "23.8")]),
    ("UNP | Credit statistics",
     [("Cash from operations", "$9.3bn", "FY2024 vs FY2023", "+11.5%"), ("Capital investments", "$3.45bn", "FY2024 vs FY2023", "-4.3%")],
     [("operating_cash_flow", "9.3"), ("operating_cash_flow", "11.5"), ("capex", "3.45"), ("capex", "-4.3")]),
])
def test_a_key_statistics_box_keeps_each_figure_with_its_caption_and_date_line(title, rows, expected) -> None:
    claims = extract_claims(_stats_box(title, rows)).claims
    assert [(c.metric, str(c.value)) for c in claims if c.metric] == expected
    assert all(c.period for c in claims)


@pytest.mark.parametrize(("chart_title", "ends", "steps", "metric", "years"), [
    ("Net revenue bridge (US$ bn)", ("FY2023", "25.1", "FY2024", "28.2"),
     [("Payment network", "+1.5"), ("Value-added services", "+1.6")], "revenue", ("FY2023", "FY2024")),
    ("Operating income, FY2023 to FY2024 (US$ bn)", ("FY2023", "9.1", "FY2024", "9.7"),
     [("Freight revenues", "+0.2"), ("Other revenues", "(0.1)"), ("Lower fuel expense", "+0.4")], "operating_income",
     ("FY2023", "FY2024")),
])
def test_a_bridge_charts_end_bars_are_the_two_years_totals(chart_title, ends, steps, metric, years) -> None:
    start_cat, start, end_cat, end = ends
    items = [(40, 40, "MA | Financial summary", 22), (600, 90, chart_title, 12)]
    cats = [start_cat, *(name for name, _ in steps), end_cat]
    values = [start, *(v for _, v in steps), end]
    for k, (cat, value) in enumerate(zip(cats, values)):
        centre = 620 + 80 * k  # labels centred under their bars, values over them
        items += [(centre - pymupdf.get_text_length(cat, fontsize=8) / 2, 320, cat, 8),
                  (centre - pymupdf.get_text_length(value, fontsize=12) / 2, 300 - 30 * k, value, 12)]
    claims = extract_claims(_pdf(items)).claims
    read = [(c.metric, c.period, str(c.value), c.scale) for c in claims]
    assert read == [(metric, years[0], start, 9), (metric, years[1], end, 9)]


def test_a_pdf_table_row_may_print_its_own_period_cell() -> None:
    items = [(40, 40, "Holdings at a glance", 22)]
    for x, head in ((75, "Holding"), (187, "Period"), (300, "Revenue, y/y"), (380, "Weight")):
        items.append((x, 130, head, 9))
    for k, (name, period, growth) in enumerate((("Apple", "9M to Jun-25", "+6%"), ("Procter & Gamble", "9M to Mar-25", "+2%"),
                                                ("Netflix", "H1 to Jun-25", "+14%"))):
        y = 150 + 18 * k
        items += [(75, y, name, 9), (187, y, period, 9), (311, y, growth, 9), (361, y, "9.4%", 9)]
    deck = _pdf(items)
    assert deck.slides[0].tables and [row[1] for row in deck.slides[0].tables[0][1:]] == \
        ["9M to Jun-25", "9M to Mar-25", "H1 to Jun-25"]
