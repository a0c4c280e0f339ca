"""Table shapes statements and summary packs print: two-level column headers whose top row spans the
periods under it, a margin printed in dollars, periods as rows with each metric's unit in its column
header, estimate rows, "n.a." cells, and infographic captions printed above their figures. Each on two
layouts or companies."""

from __future__ import annotations

import io
from decimal import Decimal

import pymupdf
import pytest
from pptx import Presentation
from pptx.util import Inches, Pt

from parsers.claims import extract_claims
from parsers.decks import load_deck
from parsers.model import Claim, Deck
from parsers.periods import period_from_text


def _pptx_table(title: str, rows: list[list[str]], merges: list[tuple[int, int, int]]) -> Deck:
    """One slide holding a native table; ``merges`` are (row, first column, last column) spans."""
    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[5])
    slide.shapes.title.text = title
    table = slide.shapes.add_table(len(rows), len(rows[0]), Inches(0.5), Inches(1.5), Inches(9), Inches(3)).table
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            table.cell(r, c).text = text
    for r, first, last in merges:
        table.cell(r, first).merge(table.cell(r, last))
    buf = io.BytesIO()
    prs.save(buf)
    deck = load_deck(buf.getvalue(), "deck.pptx")
    assert isinstance(deck, Deck)
    return deck


def _md_table(title: str, rows: list[list[str]]) -> Deck:
    """One Markdown slide holding ``rows`` as a pipe table under its header row."""
    lines = ["| " + " | ".join(r) + " |" for r in rows]
    lines.insert(1, "|" + "---|" * len(rows[0]))
    deck = load_deck((f"# {title}\n\n" + "\n".join(lines) + "\n").encode(), "deck.md")
    assert isinstance(deck, Deck)
    return deck


def _by_row(claims: list[Claim], row: str) -> list[Claim]:
    return [c for c in claims if c.row == row]


@pytest.mark.parametrize(("title", "top", "below", "want"), [
    ("Apple Inc.: the June quarter", ["(in millions)", "Q3", "", "YTD", ""], ["", "FY25", "FY24", "FY25", "FY24"],
     ["Q3 FY2025", "Q3 FY2024", "YTD FY2025", "YTD FY2024"]),
    ("IBM: the second quarter", ["(in millions)", "Three months ended June 30", "", "Six months ended June 30", ""],
     ["", "2025", "2024", "2025", "2024"], ["Q2 FY2025", "Q2 FY2024", "H1 FY2025", "H1 FY2024"]),
])
def test_a_header_row_spanning_the_periods_under_it_dates_each_column(title, top, below, want) -> None:
    deck = _pptx_table(title, [top, below, ["Total revenue", "94,036", "85,777", "313,695", "296,105"]],
                       [(0, 1, 2), (0, 3, 4)])
    claims = _by_row(extract_claims(deck).claims, "Total revenue")
    assert [c.period for c in claims] == want
    assert {c.metric for c in claims} == {"revenue"} and {c.scale for c in claims} == {6}


def test_a_span_over_years_and_a_change_column_keeps_each_year() -> None:
    deck = _pptx_table("Amazon: segments", [["", "Fiscal year", "", ""], ["Net sales by segment", "2024", "2023", "% change"],
                                            ["North America", "387,497", "352,828", "10%"]], [(0, 1, 2)])
    claims = _by_row(extract_claims(deck).claims, "North America")
    assert [c.period for c in claims] == ["FY2024", "FY2023", "FY2024"]


@pytest.mark.parametrize(("fmt", "label"), [("pptx", "Gross margin"), ("md", "Gross margin")])
def test_a_margin_printed_in_dollars_in_a_table_of_millions_is_the_profit(fmt, label) -> None:
    rows = [["(in millions)", "FY2024", "FY2023"], ["Net sales", "391,035", "383,285"], [label, "180,683", "169,148"],
            ["Gross margin %", "46.2", "44.1"]]
    if fmt == "pptx":
        deck = _pptx_table("Apple Inc. results", rows, [])
    else:
        deck = _md_table("Best Buy Co., Inc. results", rows)
    claims = extract_claims(deck).claims
    dollars = _by_row(claims, label)
    assert [(c.metric, c.unit, c.scale) for c in dollars] == [("gross_profit", "USD", 6)] * 2
    assert {c.metric for c in _by_row(claims, "Gross margin %")} == {"gross_margin"}, "a bare 46.2 is still the margin"


@pytest.mark.parametrize(("text", "want"), [
    ("Thirteen weeks ended Nov 2, 2024", "Q3 FY2024"),
    ("Thirty-nine weeks ended November 2, 2024", "9M FY2024"),
    ("Twenty-six weeks ended August 3, 2024", "H1 FY2024"),
    ("Fifty-two weeks ended February 1, 2025", "FY2025"),
])
def test_weeks_written_in_words_name_their_part_of_the_year(text, want) -> None:
    assert period_from_text(text) == want


def _pdf(title: str, rows: list[list[str]], xs: list[float]) -> Deck:
    doc = pymupdf.open()
    page = doc.new_page(width=960, height=540)
    page.insert_text((48, 50), title, fontsize=20, fontname="helv")
    for r, row in enumerate(rows):
        for x, cell in zip(xs, row):
            page.insert_text((x, 150 + 22 * r), cell, fontsize=11, fontname="helv")
    deck = load_deck(doc.tobytes(), "deck.pdf")
    assert isinstance(deck, Deck)
    return deck


@pytest.mark.parametrize(("title", "rows"), [
    ("Amazon.com, Inc. - annual history",
     [["Fiscal year", "Net sales ($bn)", "Y/Y", "Operating income ($bn)"], ["2022", "514.0", "9.4%", "12.2"],
      ["2023", "574.8", "11.8%", "36.9"], ["2024", "638.0", "11.0%", "68.6"], ["2025E", "700.0", "9.7%", "80.5"]]),
    ("Walmart Inc. - annual history",
     [["Fiscal year", "Total revenues (US$ bn)", "Y/Y", "Operating income (US$ bn)"], ["2023", "611.3", "n.a.", "20.4"],
      ["2024", "648.1", "6.0%", "27.0"], ["2025", "681.0", "5.1%", "29.3"], ["2026E", "705.0", "3.5%", "31.2"]]),
])
def test_periods_as_rows_date_their_cells_and_each_column_header_gives_its_unit(title, rows) -> None:
    parsed = extract_claims(_pdf(title, rows, [56, 300, 500, 700]))
    revenue = sorted((c for c in parsed.claims if c.metric == "revenue" and c.kind == "value"), key=lambda c: c.period or "")
    years = [r[0] for r in rows[1:-1]]
    assert [c.period for c in revenue] == [f"FY{y}" for y in years]
    assert {(c.unit, c.scale) for c in revenue} == {("USD", 9)}
    assert revenue[0].value == Decimal(rows[1][1])
    assert not any(c.period and c.period.endswith(rows[-1][0][:4]) for c in parsed.claims), "the E row is an estimate"
    assert any(d.why == "projection or guidance" for d in parsed.discarded)


def _infographic(tiles: list[tuple[str, str, str]]) -> Deck:
    """Tiles of a caption in small type over a big figure over a grey period line, as separate boxes."""
    prs = Presentation()
    prs.slide_width, prs.slide_height = Inches(13.33), Inches(7.5)
    slide = prs.slides.add_slide(prs.slide_layouts[5])
    slide.shapes.title.text = tiles[0][0].split(":")[0]
    for k, (caption, figure, footer) in enumerate(tiles):
        x = Inches(0.5 + 3.2 * k)
        for top, height, text, size in ((1.5, 0.4, caption.split(": ")[-1], 11), (1.9, 0.6, figure, 32), (2.5, 0.3, footer, 9)):
            frame = slide.shapes.add_textbox(x, Inches(top), Inches(3), Inches(height)).text_frame
            frame.text = text
            frame.paragraphs[0].runs[0].font.size = Pt(size)
    buf = io.BytesIO()
    prs.save(buf)
    deck = load_deck(buf.getvalue(), "deck.pptx")
    assert isinstance(deck, Deck)
    return deck


@pytest.mark.parametrize(("tiles", "metrics"), [
    ([("Apple at a glance: Net sales in fiscal 2024", "$391bn", "Fiscal year ended Sept. 28, 2024"),
      ("Apple: Net income", "$93.7bn", "Fiscal 2024")], ["revenue", "net_income"]),
    ([("Walmart at a glance: Total revenues", "$681.0bn", "Fiscal year ended Jan. 31, 2025"),
      ("Walmart: Operating income", "$29.3bn", "Fiscal 2025")], ["revenue", "operating_income"]),
])
def test_a_caption_printed_above_its_figure_names_it(tiles, metrics) -> None:
    claims = extract_claims(_infographic(tiles)).claims
    assert [c.metric for c in claims] == metrics
    assert [c.printed for c in claims] == [t[1] for t in tiles]


@pytest.mark.parametrize("fmt", ["md", "pptx"])
def test_a_row_named_over_two_columns_takes_its_company_and_quantity_from_both(fmt) -> None:
    rows = [["Ticker", "Metric", "Print", "Y/Y"], ["AMZN", "Net sales (FY24)", "$638.0bn", "+11%"],
            ["META", "FCF (FY24)", "$52.1bn", "+21%"], ["INTC", "Gross margin (1Q23)", "34.2%", "-16.2pp"]]
    if fmt == "pptx":
        deck = _pptx_table("Numbers that matter", rows, [])
    else:
        deck = _md_table("Numbers that matter", rows)
    claims = extract_claims(deck).claims
    assert [(c.metric, c.kind, c.period) for c in claims] == [
        ("revenue", "value", "FY2024"), ("revenue", "growth", "FY2024"),
        ("free_cash_flow", "value", "FY2024"), ("free_cash_flow", "growth", "FY2024"),
        ("gross_margin", "margin", "Q1 FY2023"), ("gross_margin", "growth", "Q1 FY2023")]
    assert all(c.row.split()[0] in ("AMZN", "META", "INTC") for c in claims), "the ticker stays in the row's name"


def test_a_column_of_periods_beside_the_names_is_not_part_of_the_name() -> None:
    rows = [["Ticker", "Qtr", "Rev ($bn)"], ["NVDA", "F2Q26", "46.7"], ["AAPL", "F3Q25", "94.0"]]
    claims = extract_claims(_pptx_table("Roll-up", rows, [])).claims
    assert [c.row for c in claims] == ["NVDA", "AAPL"]
