"""A slide that sets two companies side by side, each half under a band printing only its name: a figure
belongs to the band above it. And a KPI card's change line reads as its figure's change, not its level.
Each on two pairs of companies."""

from __future__ import annotations

import io

import pytest
from pptx import Presentation
from pptx.util import Inches, Pt

from parsers.catalogue import RoomDocument, build_catalogue
from parsers.claims import extract_claims
from parsers.decks import load_deck
from parsers.model import Deck
from parsers.resolve import resolve_claims

ROOM = build_catalogue([
    RoomDocument(path=f"{t.lower()}-10-Q.html", entity=name, fiscal_year_end="--12-31", periods=("Q2 FY2025",),
                 names=(name, short, t))
    for name, short, t in (("NVIDIA Corporation", "NVIDIA", "NVDA"), ("Tesla, Inc.", "Tesla", "TSLA"),
                           ("Netflix, Inc.", "Netflix", "NFLX"), ("Oracle Corporation", "Oracle", "ORCL"))
])


def _halves(left: str, right: str, cards: list[tuple[str, str, str]]) -> Deck:
    prs = Presentation()
    prs.slide_width, prs.slide_height = Inches(13.33), Inches(7.5)
    slide = prs.slides.add_slide(prs.slide_layouts[5])
    slide.shapes.title.text = "Both step up spend, from very different bases"
    for k, name in enumerate((left, right)):
        band = slide.shapes.add_textbox(Inches(0.5 + 6.4 * k), Inches(1.6), Inches(6), Inches(0.5)).text_frame
        band.text = name.upper()
        for j, (caption, figure, change) in enumerate(cards):
            frame = slide.shapes.add_textbox(Inches(0.5 + 6.4 * k + 3 * j), Inches(2.4), Inches(2.8), Inches(1.6)).text_frame
            frame.text = caption
            for text, size in ((figure, 28), (change, 11)):
                p = frame.add_paragraph()
                p.text = text
                p.runs[0].font.size = Pt(size)
    buf = io.BytesIO()
    prs.save(buf)
    deck = load_deck(buf.getvalue(), "deck.pptx")
    assert isinstance(deck, Deck)
    return deck


@pytest.mark.parametrize(("left", "right", "left_entity", "right_entity"), [
    ("NVIDIA", "Tesla", "NVIDIA Corporation", "Tesla, Inc."),
    ("Netflix", "Oracle", "Netflix, Inc.", "Oracle Corporation"),
])
def test_a_band_printing_only_a_name_heads_the_half_under_it(left, right, left_entity, right_entity) -> None:
    deck = _halves(left, right, [("R&D · Q2 2025", "$4.29B", "▲ 43% YoY"), ("OP MARGIN · Q2 2025", "30.1%", "▼ 110 bps")])
    claims = resolve_claims(extract_claims(deck), ROOM).claims
    assert [c.entity for c in claims] == [left_entity] * 4 + [right_entity] * 4
    # The level is the card's figure; the arrowed line under it is that figure's change.
    assert [c.kind for c in claims[:4]] == ["value", "growth", "margin", "growth"]


@pytest.mark.parametrize(("figure", "caption"), [("+19.8%", "Diluted EPS growth y/y, Q1 fiscal 2025"),
                                                 ("-2%", "Net sales growth y/y, Q3 FY25")])
def test_a_card_whose_only_figure_is_a_signed_change_keeps_its_caption(figure: str, caption: str) -> None:
    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[5])
    slide.shapes.title.text = "Oracle at a glance"
    frame = slide.shapes.add_textbox(Inches(1), Inches(2), Inches(3), Inches(2)).text_frame
    frame.text = figure
    frame.add_paragraph().text = caption
    buf = io.BytesIO()
    prs.save(buf)
    deck = load_deck(buf.getvalue(), "deck.pptx")
    assert isinstance(deck, Deck)
    assert [b.text for b in deck.slides[0].blocks] == [f"{figure} {caption}"]
