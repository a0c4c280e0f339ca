"""Deck loaders: every format lands in the same slides, titles, blocks and tables."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from parsers.claims import extract_claims
from parsers.decks import load_deck
from parsers.model import Deck, ParseFailure

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"


def _pdf(pages: list[list[tuple[float, float, str, float]]]) -> bytes:
    import pymupdf

    doc = pymupdf.open()
    for items in pages:
        page = doc.new_page(width=960, height=540)
        for x, y, text, size in items:
            page.insert_text((x, y), text, fontsize=size)
    return doc.tobytes()


def test_pdf_slide_title_is_the_largest_text_and_bullets_are_blocks() -> None:
    data = _pdf([[(40, 50, "Acme FY2024 Highlights", 28), (82, 140, "Revenue was $5.0B", 21),
                  (82, 187, "Net income rose 12% Y/Y", 21), (914, 525, "1", 10)]])
    deck = load_deck(data, "acme.pdf")
    assert isinstance(deck, Deck)
    s = deck.slides[0]
    assert s.title == "Acme FY2024 Highlights"
    assert [b.text for b in s.blocks] == ["Revenue was $5.0B", "Net income rose 12% Y/Y", "1"]
    assert all(b.bbox is not None for b in s.blocks)


@pytest.mark.parametrize(("title", "rows"), [
    ("Walmart Key Metrics", [("Total revenues", "$681.0B"), ("Free cash flow", "$12.7B")]),
    ("Oracle Key Metrics", [("Total revenues", "$57.4B"), ("Operating cash flow", "$20.8B")]),
])
def test_pdf_borderless_table_is_read_from_positions(title: str, rows: list[tuple[str, str]]) -> None:
    items = [(40, 50, title, 28), (94, 150, "Metric", 16), (780, 150, "FY2025", 16)]
    for i, (label, figure) in enumerate(rows):
        items += [(94, 190 + 42 * i, label, 17), (763, 190 + 42 * i, figure, 18)]
    items += [(40, 525, "Footer | For discussion purposes only", 9), (914, 525, "5", 10)]
    deck = load_deck(_pdf([items]), "t.pdf")
    assert isinstance(deck, Deck)
    assert deck.slides[0].tables == [[["Metric", "FY2025"], *[list(r) for r in rows]]]
    assert deck.slides[0].table_boxes[0][1][1] is not None


def test_pptx_title_paragraphs_and_tables() -> None:
    from pptx import Presentation
    from pptx.util import Inches

    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[5])
    slide.shapes.title.text = "P&G FY2025 Highlights"
    box = slide.shapes.add_textbox(Inches(1), Inches(1.5), Inches(6), Inches(2)).text_frame
    box.text = "Net sales of $84.3B"
    box.add_paragraph().text = "Gross margin was 51.4%"
    table = slide.shapes.add_table(2, 2, Inches(1), Inches(4), Inches(6), Inches(1)).table
    for r, row in enumerate([["Metric", "FY2025"], ["Operating cash flow", "$17.8B"]]):
        for c, text in enumerate(row):
            table.cell(r, c).text = text
    buf = io.BytesIO()
    prs.save(buf)
    deck = load_deck(buf.getvalue(), "pg.pptx")
    assert isinstance(deck, Deck)
    s = deck.slides[0]
    assert s.title == "P&G FY2025 Highlights"
    assert [b.text for b in s.blocks] == ["Net sales of $84.3B", "Gross margin was 51.4%"]
    assert s.tables == [[["Metric", "FY2025"], ["Operating cash flow", "$17.8B"]]]
    assert {c.text for c in extract_claims(deck).claims} == {"Net sales of $84.3B", "Gross margin was 51.4%", "$17.8B"}


def test_markdown_headings_start_slides_and_figure_headings_do_not() -> None:
    md = b"## Results FY25\n\n- Revenue of $34,857M\n\n## 3.5B\n\ncards\n\n## Select Measures\n\n" \
         b"| $ millions | FY25 |\n|---|---|\n| Remaining Performance Obligations | $63,400 |\n"
    deck = load_deck(md, "deck.md")
    assert isinstance(deck, Deck)
    assert [s.title for s in deck.slides] == ["Results FY25", "Select Measures"]
    # A callout figure and the caption under it are one block, as a KPI box is one claim.
    assert [b.text for b in deck.slides[0].blocks] == ["Revenue of $34,857M", "3.5B cards"]
    assert deck.slides[1].tables == [[["$ millions", "FY25"], ["Remaining Performance Obligations", "$63,400"]]]


def test_plain_text_pages_split_on_form_feeds() -> None:
    deck = load_deck(b"Acme FY2024\nRevenue was $5.0B\n\fLeadership\nJane Doe, CEO", "deck.txt")
    assert isinstance(deck, Deck)
    assert [(s.page, s.title) for s in deck.slides] == [(1, "Acme FY2024"), (2, "Leadership")]


@pytest.mark.parametrize(("data", "name", "reason"), [
    (b"", "x.pdf", "empty"),
    (b"%PDF-1.4 garbage", "x.pdf", "corrupt"),
    (b"PK\x03\x04 not a zip", "x.pptx", "corrupt"),
    (b"\xff\xfe\x00\x01binary", "x.bin", "unsupported"),
])
def test_unreadable_files_are_typed_failures(data: bytes, name: str, reason: str) -> None:
    got = load_deck(data, name)
    assert isinstance(got, ParseFailure) and got.reason == reason


def _real(path: str) -> bytes:
    p = DATA / path
    if not p.exists():
        pytest.skip(f"needs {p}, which this checkout does not have")
    return p.read_bytes()


def test_twilio_deck_yields_table_claims_with_company_and_periods() -> None:
    deck = load_deck(_real("decks/TWLO/twilio_q4_2023_earnings_presentation.pdf"), "twilio.pdf")
    assert isinstance(deck, Deck)
    parsed = extract_claims(deck)
    assert parsed.entity == "Twilio Inc."
    revenue = [c for c in parsed.claims if c.page == 4 and c.metric == "revenue" and c.kind == "value" and c.basis == "GAAP"]
    assert [(c.printed, c.period) for c in revenue] == [("$1,076M", "Q4 FY2023"), ("$4,154M", "FY2023")]
    assert not [c for c in parsed.claims if c.page == 7], "the guidance slide is all projection"


def test_markdown_and_docling_exports_of_one_deck_give_the_same_table_claims() -> None:
    md = load_deck(_real("decks/ESTC/Q4FY25-Investor-Presentation.md"), "q4.md")
    dl = load_deck(_real("decks/ESTC/Q4FY25-Investor-Presentation.docling.json"), "q4.docling.json")
    assert isinstance(md, Deck) and isinstance(dl, Deck)
    read = [extract_claims(deck) for deck in (md, dl)]
    cells = [{(c.text, c.metric, c.period, c.scale, c.basis) for c in parsed.claims if c.row} for parsed in read]
    assert cells[0] and cells[0] == cells[1]
    assert [parsed.entity for parsed in read] == ["Elastic", "Elastic"]
    # The tables head their columns "$ millions": every dollar cell is read in millions, whichever export.
    assert {scale for _, metric, _, scale, _ in cells[0] if metric == "revenue" and scale} == {6}


@pytest.mark.parametrize(("title", "rows"), [
    ("Meta segments, 2024", [("Family of Apps", "$87,109", "53.7%"), ("Reality Labs", "$(16,120)", "n.m."),
                             ("Total", "$69,380", "42.2%")]),
    ("Tesla segments, 2Q25", [("Automotive", "$16,661", "15.0%"), ("Energy", "$2,789", "n/a"),
                              ("Total", "$22,496", "17.2%")]),
])
def test_a_table_row_with_a_not_meaningful_cell_or_a_dollar_negative_stays_in_its_table(title, rows) -> None:
    items = [(40, 50, title, 28), (94, 150, "$ millions", 16), (600, 150, "Op. income", 16), (780, 150, "Margin", 16)]
    for i, (label, amount, margin) in enumerate(rows):
        items += [(94, 190 + 42 * i, label, 17), (600, 190 + 42 * i, amount, 18), (780, 190 + 42 * i, margin, 18)]
    deck = load_deck(_pdf([items]), "t.pdf")
    assert isinstance(deck, Deck)
    assert deck.slides[0].tables == [[["$ millions", "Op. income", "Margin"], *[list(r) for r in rows]]]


def test_a_plain_text_memo_reads_aligned_tables_wrapped_prose_and_underlined_headings() -> None:
    text = ("Harbor memo\n\nSummary\n-------\n\n  - Net sales of $14.5bn, most of the\n    growth from price.\n"
            "Sales were flat in the\nquarter on volume.\n\n  $ in millions     FY2022   FY2021    Chg\n"
            "  Flexibles         11,151   10,040   11.1%\n  Total net sales   14,544   12,861   13.1%\n\n"
            "                      4Q22     y/y\n  Las Vegas Strip    2,297     27%\n  Total              3,592     18%\n")
    deck = load_deck(text.encode(), "memo.txt")
    assert isinstance(deck, Deck)
    (slide,) = deck.slides
    assert [b.text for b in slide.blocks] == ["Summary", "Net sales of $14.5bn, most of the growth from price.",
                                              "Sales were flat in the quarter on volume."]
    assert slide.tables[0][0] == ["$ in millions", "FY2022", "FY2021", "Chg"]
    # A header over the figures alone leaves the label column empty.
    assert slide.tables[1] == [["", "4Q22", "y/y"], ["Las Vegas Strip", "2,297", "27%"], ["Total", "3,592", "18%"]]
    assert all(b.bbox is not None for b in slide.blocks)


def _chart_deck(kind: str, categories: list[str], series: list[tuple[str, list[float]]], fmt: str) -> Deck:
    from pptx import Presentation
    from pptx.chart.data import CategoryChartData
    from pptx.enum.chart import XL_CHART_TYPE
    from pptx.util import Inches

    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[5])
    slide.shapes.title.text = "Chart"
    data = CategoryChartData()
    data.categories = categories
    for name, values in series:
        data.add_series(name, values)
    chart = slide.shapes.add_chart(getattr(XL_CHART_TYPE, kind), Inches(1), Inches(2), Inches(6), Inches(4), data).chart
    chart.has_title = True
    chart.chart_title.text_frame.text = "Net sales ($ in billions)"
    if fmt:
        chart.plots[0].has_data_labels = True
        labels = chart.plots[0].data_labels
        labels.show_value, labels.number_format, labels.number_format_is_linked = True, fmt, False
    buf = io.BytesIO()
    prs.save(buf)
    deck = load_deck(buf.getvalue(), "chart.pptx")
    assert isinstance(deck, Deck)
    return deck


@pytest.mark.parametrize(("kind", "categories", "series", "fmt", "grid"), [
    ("COLUMN_CLUSTERED", ["FY22", "FY23"], [("Net sales", [394.328, 383.285])], "$#,##0.0",
     [["", "FY22", "FY23"], ["Net sales ($ in billions)", "$394.3", "$383.3"]]),
    ("LINE_MARKERS", ["2023", "2024"], [("Revenue", [60.9, 130.5]), ("Net income", [4.368, 72.88])], "#,##0.0",
     [["Net sales ($ in billions)", "2023", "2024"], ["Revenue", "60.9", "130.5"], ["Net income", "4.4", "72.9"]]),
    ("DOUGHNUT", ["Beauty", "Grooming"], [("Share", [0.18, 0.08])], "0%",
     [["Net sales ($ in billions)", "Net sales ($ in billions)"], ["Beauty", "18%"], ["Grooming", "8%"]]),
])
def test_a_native_chart_with_value_labels_is_read_as_the_table_it_plots(kind, categories, series, fmt, grid) -> None:
    assert _chart_deck(kind, categories, series, fmt).slides[0].tables == [grid]


def test_a_native_chart_without_value_labels_prints_no_figures() -> None:
    assert _chart_deck("COLUMN_CLUSTERED", ["FY22", "FY23"], [("Net sales", [394.3, 383.3])], "").slides[0].tables == []
