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
