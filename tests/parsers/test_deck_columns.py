"""Pages laid out in two text columns, and span columns dated by their slide: a key-figures table
beside the bullets is read as a table, and "3 mo. 2025" is the quarter the slide says ends then.
Each on two layouts."""

from __future__ import annotations

import pymupdf
import pytest

from parsers.claims import extract_claims
from parsers.decks import load_deck
from parsers.metrics import find_metric
from parsers.model import Deck
from tests.parsers.test_deck_layouts import _md

FONT = "helv"


def _pdf(title: str, left: list[tuple[float, list[str]]], right: list[str], xs: tuple[float, ...]) -> Deck:
    """One 960x540 page: a table on the left (label, then cells at ``xs``) and bullets on the right,
    their lines interleaved in height with the table's rows."""
    doc = pymupdf.open()
    page = doc.new_page(width=960, height=540)
    page.insert_text((40, 60), title, fontsize=26, fontname=FONT)
    for y, cells in left:
        page.insert_text((48, y), cells[0], fontsize=12, fontname=FONT)
        for x, cell in zip(xs, cells[1:]):
            page.insert_text((x - pymupdf.get_text_length(cell, FONT, 12), y), cell, fontsize=12, fontname=FONT)
    for k, line in enumerate(right):
        page.insert_text((616, 150 + 19 * k), line, fontsize=14, fontname=FONT)
    deck = load_deck(doc.tobytes(), "onepager.pdf")
    assert isinstance(deck, Deck)
    return deck


@pytest.mark.parametrize(("header", "rows"), [
    (["$ in millions", "2Q25", "2Q24", "Y/Y"], [["Net income", "1,172", "1,400", "(16)%"],
                                               ["Other income (expense), net", "320", "(80)", "n.m."]]),
    (["$ in millions, except per share", "Q3 FY25", "Q3 FY24", "9M FY25"],
     [["Operating income", "(171)", "142", "(698)"], ["Diluted EPS ($)", "1.57", "1.40", "5.62"],
      ["Gross margin", "46.5%", "46.3%", "46.8%"]]),
])
def test_a_table_beside_a_column_of_bullets_keeps_every_row(header, rows):
    left = [(150 + 27 * k, cells) for k, cells in enumerate([header, *rows])]
    bullets = ["Gross margin expanded to 30.3% in the", "quarter", "Over $4.6bn of operating cash flow in",
               "the first half", "Hold; 12-month price target $310"]
    deck = _pdf("Acme: the quarter on one page", left, bullets, (328, 440, 552))
    (slide,) = deck.slides
    assert slide.tables == [[header, *rows]]
    assert any(b.text.startswith("Gross margin expanded to 30.3% in the quarter") for b in slide.blocks)


def test_a_single_column_table_is_not_split_at_its_widest_gap():
    left = [(150, ["$ in billions", "FY2024", "FY2023"]), (177, ["Revenue", "$391.0", "$383.3"]),
            (204, ["Net income", "$93.7", "$97.0"])]
    deck = _pdf("Apple: two years", left, [], (700, 860))
    assert deck.slides[0].tables == [[["$ in billions", "FY2024", "FY2023"], ["Revenue", "$391.0", "$383.3"],
                                      ["Net income", "$93.7", "$97.0"]]]


@pytest.mark.parametrize(("subtitle", "header", "periods"), [
    ("Three and six months ended June 30, 2025", "| $ in thousands | 3 mo. 2025 | 6 mo. 2025 |",
     ["Q2 FY2025", "H1 FY2025"]),
    ("Nine months ended September 30, 2024 and 2023", "| $M | 9 months 2024 | 9 months 2023 |",
     ["9M FY2024", "9M FY2023"]),
])
def test_a_span_column_is_the_span_its_slide_says_ends_then(subtitle, header, periods):
    deck = _md(f"# Review\n\n---\n\n# Netflix on one page\n\n{subtitle}\n\n{header}\n|---|---|---|\n"
               "| Operating income | 3,774,694 | 7,121,693 |\n")
    assert [c.period for c in extract_claims(deck).claims] == periods


def test_a_span_column_no_slide_dates_is_no_fiscal_year():
    deck = _md("# Review\n\n---\n\n# Netflix on one page\n\n| $ in thousands | 3 mo. 2025 | 6 mo. 2025 |\n"
               "|---|---|---|\n| Operating income | 3,774,694 | 7,121,693 |\n")
    assert not [c.period for c in extract_claims(deck).claims if c.period and c.period.startswith("FY")]


@pytest.mark.parametrize("label", ["Other non-op. income/(expense)", "Non-operating income, net",
                                   "Non-interest income"])
def test_a_negated_name_is_another_line(label):
    assert find_metric(label) is None


def _report_page(rows: list[list[str]], *, width: float, height: float, prose_x: float) -> Deck:
    """A research page: a masthead over both columns, a title, a narrow key-figures table whose right-aligned
    cells sit so close that a PDF reader joins each row into one line, and prose beside it."""
    from pathlib import Path

    dejavu = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    if not dejavu.exists():
        pytest.skip("DejaVu Sans (fonts-dejavu-core) is not installed: the tight-cell layout needs its metrics")
    doc = pymupdf.open()
    page = doc.new_page(width=width, height=height)
    page.insert_font(fontname="dejavu", fontfile=str(dejavu))
    page.insert_text((40, 48), "Equity Research | North America | Railroads and more", fontsize=7, fontname=FONT)
    page.insert_text((40, 80), "Union Pacific Corporation (UNP)", fontsize=20, fontname=FONT)
    for k, row in enumerate(rows):
        y = 320 + 13 * k
        page.insert_text((42, y), row[0], fontsize=6.8, fontname="dejavu")
        for c, cell in enumerate(row[1:]):
            right = 132 + 28 * c
            font = pymupdf.Font(fontfile=str(dejavu))
            page.insert_text((right - font.text_length(cell, 6.8), y), cell, fontsize=6.8, fontname="dejavu")
    for k in range(12):
        page.insert_text((prose_x, 300 + 12 * k), "The railroad moved more freight with fewer people and a smaller",
                         fontsize=8, fontname=FONT)
    deck = load_deck(doc.tobytes(), "report.pdf")
    assert isinstance(deck, Deck)
    return deck


@pytest.mark.parametrize(("width", "height", "prose_x"), [(612, 792, 234), (960, 540, 260)])
def test_a_tight_table_beside_prose_is_read_cell_by_cell(width, height, prose_x) -> None:
    rows = [["$m", "2023A", "2024A", "2025E"], ["Revenue", "24,119", "24,250", "24,560"],
            ["Operating income", "9,082", "9,713", "9,950"], ["EPS, diluted ($)", "10.45", "11.09", "12.05"]]
    deck = _report_page(rows, width=width, height=height, prose_x=prose_x)
    assert rows in deck.slides[0].tables, deck.slides[0].tables
