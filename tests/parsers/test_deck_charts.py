"""Slides whose figures are drawn rather than typed in a table: a bar chart of labelled shapes, a KPI
callout of stacked text boxes with an arrow, a peer table with companies as columns and the unit in
each row's name. Each on two layouts (PPTX and PDF, or two companies)."""

from __future__ import annotations

import io
from decimal import Decimal

import pymupdf
import pytest
from pptx import Presentation
from pptx.util import Pt

from parsers.claims import extract_claims
from parsers.decks import load_deck
from parsers.model import Deck
from tests.parsers.test_deck_layouts import _md

BARS = [("29.7", "FY21"), ("31.6", "FY22"), ("33.7", "FY23"), ("39.0", "FY24"), ("44.0", "FY25E")]


def _pptx(title: str, boxes: list[tuple[float, float, float, str, float]]) -> Deck:
    """A slide of text boxes: (left, top, width, text, font size) in points."""
    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[5])
    slide.shapes.title.text = title
    for left, top, width, text, size in boxes:
        frame = slide.shapes.add_textbox(Pt(left), Pt(top), Pt(width), Pt(size * 1.6)).text_frame
        run = frame.paragraphs[0].add_run()
        run.text, run.font.size = text, Pt(size)
    buf = io.BytesIO()
    prs.save(buf)
    deck = load_deck(buf.getvalue(), "deck.pptx")
    assert isinstance(deck, Deck)
    return deck


def _pdf(title: str, texts: list[tuple[float, float, str, float]]) -> Deck:
    doc = pymupdf.open()
    page = doc.new_page(width=960, height=540)
    page.insert_text((40, 50), title, fontsize=26)
    for x, y, text, size in texts:
        page.insert_text((x, y), text, fontsize=size)
    deck = load_deck(doc.tobytes(), "deck.pdf")
    assert isinstance(deck, Deck)
    return deck


def _chart_boxes() -> list[tuple[float, float, float, str, float]]:
    boxes = [(40, 90, 500, "Netflix revenue, $bn", 18)]
    for k, (value, category) in enumerate(BARS):
        boxes += [(80 + 150 * k, 260 - 12 * k, 100, value, 16), (80 + 150 * k, 440, 100, category, 14)]
    return boxes


def _chart_claims(deck: Deck) -> list[tuple[str, str | None, Decimal, int]]:
    return [(c.metric, c.period, c.value, c.scale) for c in extract_claims(deck).claims]


WANT = [("revenue", "FY2021", Decimal("29.7"), 9), ("revenue", "FY2022", Decimal("31.6"), 9),
        ("revenue", "FY2023", Decimal("33.7"), 9), ("revenue", "FY2024", Decimal("39.0"), 9)]


def test_a_bar_chart_of_text_boxes_is_its_titles_quantity_by_category():
    deck = _pptx("Revenue trajectory", _chart_boxes())
    assert _chart_claims(deck) == WANT  # FY25E is the author's estimate


def test_a_bar_chart_drawn_in_a_pdf_is_read_the_same_way():
    texts = [(x, y + size, text, size) for x, y, _, text, size in _chart_boxes()]
    assert _chart_claims(_pdf("Revenue trajectory", texts)) == WANT


def test_figures_without_categories_under_them_are_no_chart():
    boxes = [(40, 90, 500, "Netflix revenue, $bn", 18)] + [(80 + 150 * k, 260, 100, v, 16) for k, (v, _) in enumerate(BARS)]
    deck = _pptx("Revenue trajectory", boxes)
    assert not deck.slides[0].tables


@pytest.mark.parametrize(("figure", "change", "caption", "want"), [
    ("55.3%", "\u25bc 40 bps", "Operating margin", [("operating_margin", "margin", Decimal("55.3")),
                                                   ("operating_margin", "growth", Decimal("-40"))]),
    ("$37.9bn", "\u25b2 9% Y/Y", "Revenue", [("revenue", "value", Decimal("37.9")), ("revenue", "growth", Decimal("9"))]),
])
def test_a_callout_of_stacked_boxes_is_its_caption_figure_and_change(figure, change, caption, want):
    deck = _pptx("Salesforce scorecard: fiscal 2025", [(40, 140, 260, figure, 36), (40, 196, 260, change, 16),
                                                      (40, 222, 260, caption, 13)])
    claims = extract_claims(deck).claims
    assert [(c.metric, c.kind, c.value) for c in claims] == want


def test_a_callouts_change_keeps_the_basis_its_caption_states():
    deck = _pptx("Mastercard scorecard: 2024", [(40, 140, 260, "$14.60", 36), (40, 196, 260, "\u25b2 19% Y/Y", 16),
                                              (40, 222, 260, "Adjusted diluted EPS (non-GAAP)", 13)])
    assert {c.basis for c in extract_claims(deck).claims} == {"non-GAAP"}


@pytest.mark.parametrize(("row", "scale"), [("Revenue ($bn)", 9), ("Net income (US$m)", 6)])
def test_a_rows_own_unit_scales_its_bare_figures(row, scale):
    deck = _md(f"# Peers\n\n---\n\n# Peer benchmarking\n\n| FY2024 | Meta | Netflix | Median |\n|---|---|---|---|\n"
               f"| {row} | 164.5 | 39.0 | 101.8 |\n")
    claims = extract_claims(deck)
    assert [(c.value, c.scale, c.unit) for c in claims.claims] == [(Decimal("164.5"), scale, "USD"),
                                                                  (Decimal("39.0"), scale, "USD")]
    assert [d.why for d in claims.discarded if "101.8" in d.text] == ["the author's own figure across the table"]


def test_callout_captions_that_wrap_onto_a_year_are_no_table():
    # Three KPI boxes side by side; each caption wraps, the last line of two ending in a bare year.
    texts = []
    for k, (big, first, second) in enumerate([("$2.10 billion", "Research and development expense, the second",
                                                "quarter of 2025"),
                                               ("196 cents", "Diluted earnings per share, the second", "quarter of 2024"),
                                               ("$9,977 million", "Gross profit, the second quarter of", "2025")]):
        x = 40 + 300 * k
        texts += [(x, 200, big, 28), (x, 236, first, 11), (x, 250, second, 11)]
    deck = _pdf("IBM: 2Q25 at a glance", texts)
    (slide,) = deck.slides
    assert not slide.tables
    assert [c.value for c in extract_claims(deck).claims] == [Decimal("2.10"), Decimal("196"), Decimal("9977")]


@pytest.mark.parametrize("caption", ["Cloud services and license support share of total revenues, the first quarter of fiscal 2025",
                                     "Subscription and support share of total revenues, the fiscal year ended January 31, 2024"])
def test_a_callouts_long_caption_is_still_its_caption(caption):
    deck = _md(f"# Review\n\n---\n\n# Oracle at a glance\n\n## 79%\n\n{caption}\n")
    assert [c.text for c in extract_claims(deck).claims] == [f"79% {caption}"]


def _two_charts(make, left_title: str, right_title: str, left: list[str], right: list[str]) -> Deck:
    """Two five-quarter bar charts side by side on one baseline, a legend row under each title and a
    footer line with a page number under the axis, as results decks draw them."""
    quarters = ["Q2 FY25", "Q3 FY25", "Q4 FY25", "Q1 FY26", "Q2 FY26"]
    items = [(48, 95, 300, left_title, 14), (470, 95, 300, right_title, 14),
             (62, 121, 80, "Prior quarters", 8), (159, 121, 60, "Q2 FY26", 8),
             (48, 516, 200, "Acme Corporation | Q2 FY26", 8), (906, 516, 20, "4", 8)]
    for k, value in enumerate(left):
        items += [(64 + 77 * k, 150 + 10 * k, 45, value, 12), (64 + 77 * k, 472, 45, quarters[k], 9)]
    for k, value in enumerate(right):
        items += [(481 + 62 * k, 200 - 8 * k, 40, value, 12), (479 + 62 * k, 472, 45, quarters[k], 9)]
    return make(items)


def _as_pdf(items):
    return _pdf("Margins", [(x, y + size, text, size) for x, y, _, text, size in items])


def _as_pptx(items):
    return _pptx("Margins", items)


@pytest.mark.parametrize("make", [_as_pdf, _as_pptx])
def test_two_bar_charts_on_one_baseline_are_two_tables_under_their_own_titles(make) -> None:
    deck = _two_charts(make, "GAAP gross margin", "Diluted EPS (GAAP)",
                       ["75.1%", "74.6%", "73.0%", "60.5%", "72.4%"], ["$0.67", "$0.78", "$0.89", "$0.76", "$1.08"])
    tables = deck.slides[0].tables
    assert [t[1][0] for t in tables] == ["GAAP gross margin", "Diluted EPS (GAAP)"], tables
    assert tables[0][0][1:] == ["Q2 FY25", "Q3 FY25", "Q4 FY25", "Q1 FY26", "Q2 FY26"]
    assert tables[1][1][1:] == ["$0.67", "$0.78", "$0.89", "$0.76", "$1.08"]
    assert not any("Acme Corporation" in row[0] for t in tables for row in t), "a footer is no row of the chart"


def test_a_charts_legend_is_not_its_title() -> None:
    quarters = ["Q3 FY24", "Q4 FY24", "Q1 FY25", "Q2 FY25", "Q3 FY25"]
    texts = [(48, 111, "Net sales ($B)", 14), (62, 132, "Prior quarters", 8), (159, 132, "Q3 FY25", 8)]
    for k, value in enumerate(["85.8", "94.9", "124.3", "95.4", "94.0"]):
        texts += [(88 + 110 * k, 250 - 15 * k, value, 12), (70 + 110 * k, 480, quarters[k], 9)]
    (table,) = _pdf("Financial highlights", texts).slides[0].tables
    assert table[1][0] == "Net sales ($B)"


@pytest.mark.parametrize(("caption", "change", "metric"), [
    ("DATA CENTER, Q2 FY26", "Y/Y +56%", "revenue"),
    ("NET SALES, Q3 FY25", "Y/Y +10%", "revenue"),
])
def test_a_small_caption_over_a_change_line_is_one_callout(caption, change, metric) -> None:
    deck = _pdf("Revenue by market", [(704, 174, caption, 9), (704, 208, change, 18)])
    (block,) = [b for b in deck.slides[0].blocks if change in b.text]
    assert block.text == f"{caption} {change}"
    (claim,) = extract_claims(deck).claims
    assert claim.kind == "growth" and claim.value == Decimal(change.split("+")[1].rstrip("%"))


def _grid_pptx(title: str, cells: list[tuple[int, int, str]], *, group: bool = False, reverse: bool = False) -> Deck:
    """A table drawn as one text box per cell (row, column, text), think-cell style, optionally grouped and
    written column by column from the last, as bank decks save them."""
    from pptx.enum.text import PP_ALIGN

    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[5])
    slide.shapes.title.text = title
    shapes = slide.shapes.add_group_shape().shapes if group else slide.shapes
    order = sorted(cells, key=lambda c: (-c[1], c[0])) if reverse else cells
    for row, col, text in order:
        left = 40 if col == 0 else 220 + 90 * (col - 1)
        width = 170 if col == 0 else 80
        frame = shapes.add_textbox(Pt(left), Pt(150 + 26 * row), Pt(width), Pt(20)).text_frame
        paragraph = frame.paragraphs[0]
        paragraph.alignment = PP_ALIGN.LEFT if col == 0 else PP_ALIGN.RIGHT
        run = paragraph.add_run()
        run.text, run.font.size = text, Pt(12)
    buf = io.BytesIO()
    prs.save(buf)
    deck = load_deck(buf.getvalue(), "grid.pptx")
    assert isinstance(deck, Deck)
    return deck


def _cells(rows: list[list[str]]) -> list[tuple[int, int, str]]:
    return [(r, c, text) for r, row in enumerate(rows) for c, text in enumerate(row) if text]


@pytest.mark.parametrize(("title", "rows", "group", "reverse"), [
    ("Company profile | Union Pacific", [["", "2Q24", "2Q25", "Y/Y"], ["Operating revenues", "6,007", "6,154", "+2.4%"],
                                         ["Operating ratio (%)", "60.0", "59.0", "(100)bps"]], False, True),
    ("NVIDIA", [["$ in millions", "Q2 FY25", "Q2 FY26"], ["Data Center", "26,272", "41,096"],
                ["Total revenue", "30,040", "46,743"]], True, False),
])
def test_a_table_drawn_as_a_grid_of_text_boxes_is_read_as_a_table(title, rows, group, reverse) -> None:
    deck = _grid_pptx(title, _cells(rows), group=group, reverse=reverse)
    (table,) = deck.slides[0].tables
    assert table == rows
    assert not any(b.text in {"6,007", "26,272"} for b in deck.slides[0].blocks)


def test_a_rows_percent_sign_makes_its_bare_figures_percent_under_a_currency_units_box() -> None:
    rows = [["", "2Q24", "2Q25"], ["Operating revenues", "6,007", "6,154"], ["Operating ratio (%)", "60.0", "59.0"]]
    deck = _grid_pptx("Company profile | Union Pacific", _cells(rows) + [(-2, 0, "US$ m")])
    units = {c.printed: c.unit for c in extract_claims(deck).claims}
    assert units["6,154"] == "USD" and units["59.0"] == "percent"
