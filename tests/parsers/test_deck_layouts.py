"""Deck layouts read as a person reads them: KPI callouts with their captions, sub-headings inside a
ruled page, sub-bullets under a figure-less parent. Each on two decks' shapes."""

from __future__ import annotations

import io

import pytest

from parsers.claims import extract_claims
from parsers.decks import load_deck
from parsers.model import Deck


def _md(text: str) -> Deck:
    deck = load_deck(text.encode(), "deck.md")
    assert isinstance(deck, Deck)
    return deck


@pytest.mark.parametrize(("figure", "caption", "metric"), [
    ("+21%", "Operating income growth y/y, Q1 FY25", "operating_income"),
    ("86¢", "Diluted EPS, the first quarter of fiscal 2024", "eps_diluted"),
    ("$39.0B", "Revenue, FY2024", "revenue"),
])
def test_a_markdown_callout_and_its_caption_are_one_claim(figure: str, caption: str, metric: str) -> None:
    deck = _md(f"# Review\n\n---\n\n# Oracle at a glance\n\n## {figure}\n\n{caption}\n\n## 12%\n\nNet margin, FY2024\n")
    assert [s.title for s in deck.slides] == ["Review", "Oracle at a glance"]
    claims = extract_claims(deck).claims
    assert [c.metric for c in claims][:1] == [metric]
    assert claims[0].text == f"{figure} {caption}"


def test_sub_headings_inside_a_ruled_page_do_not_start_pages() -> None:
    deck = _md("# Walmart FY2025\n\n## Revenue\n\n- Total revenues of $681.0 billion\n\n## Profit\n\n"
               "- Operating income of $29.3 billion\n\n---\n\n# P&G FY2025\n\n## Sales\n\n- Net sales of $84.3 billion\n")
    # The heading right under the title reads as its subtitle; the later one stays on the page.
    assert [s.title for s in deck.slides] == ["Walmart FY2025 Revenue", "P&G FY2025 Sales"]
    assert [c.page for c in extract_claims(deck).claims] == [1, 1, 2]


def test_headings_start_pages_in_a_deck_without_rules() -> None:
    deck = _md("# Walmart FY2025\n\n- Total revenues of $681.0 billion\n\n# P&G FY2025\n\n- Net sales of $84.3 billion\n")
    assert [s.title for s in deck.slides] == ["Walmart FY2025", "P&G FY2025"]


def _pptx(paragraphs: list[tuple[str, int]]) -> Deck:
    from pptx import Presentation
    from pptx.util import Inches

    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[5])
    slide.shapes.title.text = "Mastercard FY2024"
    frame = slide.shapes.add_textbox(Inches(1), Inches(2), Inches(3), Inches(2)).text_frame
    frame.text = paragraphs[0][0]
    for text, level in paragraphs[1:]:
        p = frame.add_paragraph()
        p.text, p.level = text, level
    buf = io.BytesIO()
    prs.save(buf)
    deck = load_deck(buf.getvalue(), "deck.pptx")
    assert isinstance(deck, Deck)
    return deck


@pytest.mark.parametrize(("figure", "caption"), [("$28.2B", "Net revenue"), ("55.3%", "Operating margin")])
def test_a_pptx_kpi_box_is_one_block(figure: str, caption: str) -> None:
    deck = _pptx([(figure, 0), (caption, 0)])
    assert [b.text for b in deck.slides[0].blocks] == [f"{figure} {caption}"]


def test_pptx_sub_bullets_carry_a_figure_less_parents_words() -> None:
    deck = _pptx([("Net revenue by segment:", 0), ("Payment network: $17.3B", 1), ("Value-added services: $10.8B", 1),
                  ("Operating income of $15.6B", 0)])
    assert [b.text for b in deck.slides[0].blocks] == [
        "Net revenue by segment:", "Net revenue by segment: Payment network: $17.3B",
        "Net revenue by segment: Value-added services: $10.8B", "Operating income of $15.6B"]


def _tiles_pptx(title: str, tiles: list[tuple[float, float, str]]) -> Deck:
    from pptx import Presentation
    from pptx.util import Inches

    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[5])
    slide.shapes.title.text = title
    for left, top, text in tiles:
        slide.shapes.add_textbox(Inches(left), Inches(top), Inches(2.5), Inches(0.6)).text_frame.text = text
    buf = io.BytesIO()
    prs.save(buf)
    deck = load_deck(buf.getvalue(), "deck.pptx")
    assert isinstance(deck, Deck)
    return deck


def _tiles_pdf(title: str, tiles: list[tuple[float, float, str]]) -> Deck:
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page(width=960, height=540)
    page.insert_text((40, 50), title, fontsize=24)
    for left, top, text in tiles:
        page.insert_text((left * 72, top * 72), text, fontsize=14)
    deck = load_deck(doc.tobytes(), "deck.pdf")
    assert isinstance(deck, Deck)
    return deck


# The share tile sits under the first tile; the tile read just before it is the second one in the row.
@pytest.mark.parametrize(("make", "title", "tiles", "part"), [
    (_tiles_pptx, "Salesforce Q1 FY24 at a glance",
     [(0.5, 2.0, "$7.6B Subscription revenue"), (4.5, 2.0, "11% Revenue growth y/y"),
      (0.5, 3.4, "94% of Total Revenue")], "subscription_revenue"),
    (_tiles_pdf, "Apple Q4 FY24 results at a glance",
     [(0.8, 2.5, "$25.0B Services net sales"), (5.5, 2.5, "6% Net sales growth"),
      (0.8, 4.5, "26% of total net sales")], "services_revenue"),
])
def test_a_share_tile_is_the_share_of_the_figure_stacked_above_it(make, title, tiles, part) -> None:
    share = next(c for c in extract_claims(make(title, tiles)).claims if c.kind == "share")
    assert (share.metric, share.denominator) == (part, "revenue")


@pytest.mark.parametrize("make", [_tiles_pptx, _tiles_pdf])
def test_a_share_tile_with_nothing_stacked_above_it_names_no_part(make) -> None:
    # The tile above sits in another column: it is not the part this share measures.
    deck = make("Salesforce Q1 FY24 at a glance",
                [(0.5, 2.0, "$7.6B Subscription revenue"), (5.5, 3.4, "94% of Total Revenue")])
    share = next(c for c in extract_claims(deck).claims if c.kind == "share")
    assert share.metric == "revenue"
