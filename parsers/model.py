"""Typed structures that parsers produce and the verdict engine consumes.

Conventions shared by every parser:
- Pages are numbered from 1, as a person reads them.
- ``Fact.value`` is in base units (dollars, not millions); ``scale`` records the power of ten the
  figure was printed in, so ``as_printed`` * 10**scale == value for a plain number.
- Percentages are stored in percent points (46.2 means 46.2%), with ``unit == "percent"``.
- Period labels are fiscal: ``FY2024``, ``Q4 FY2024``, ``H1 FY2024``, ``9M FY2024``; an instant
  (balance-sheet date) takes the label of the fiscal period it closes.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Literal

import msgspec

__all__ = [
    "BBox",
    "Cell",
    "Claim",
    "Column",
    "Deck",
    "Discard",
    "DocumentInfo",
    "Fact",
    "FactSource",
    "ParseFailure",
    "ParsedDeck",
    "ParsedDocument",
    "Passage",
    "Resolution",
    "Row",
    "Section",
    "Slide",
    "Table",
    "TextBlock",
]

BBox = tuple[float, float, float, float]
"""x0, y0, x1, y1 in PDF points, origin top-left (PyMuPDF's convention)."""

Unit = Literal["USD", "currency", "percent", "pp", "bp", "count", "USD/share", "multiple", "shares", "other"]
Basis = str
"""``GAAP``, ``non-GAAP``, ``operating metric``, ``segment:<member>``, ``constant-currency``, ``organic``."""


class ParseFailure(msgspec.Struct, frozen=True):
    """Why a file could not be parsed, in words a person can act on."""

    reason: Literal["empty", "encrypted", "corrupt", "too-large", "unsupported", "hostile", "no-content"]
    detail: str


# ---------------------------------------------------------------- filings


class Section(msgspec.Struct, frozen=True):
    id: str
    """Stable across re-parses of the same bytes: derived from the heading path, not from order."""
    parent: str | None
    title: str
    level: int
    pages: tuple[int, int] | None = None


class Cell(msgspec.Struct):
    text: str
    """As printed, after merging split ``$``/``%`` cells and splitting off footnote markers."""
    value: Decimal | None
    """The printed number with sign applied (parentheses negative, dash zero), before scale."""
    column: int
    concept: str | None = None
    """The iXBRL concept tagged on this cell, when there is one."""
    context: str | None = None
    bbox: BBox | None = None
    footnote: str | None = None
    """A footnote marker printed beside the number ("(1)", "*"), split off the text."""


class Column(msgspec.Struct):
    header: list[str]
    """Header path from the top header row down: ["Year Ended", "January 26, 2025"]."""
    period: str | None = None
    period_start: date | None = None
    period_end: date | None = None


class Row(msgspec.Struct):
    label: str
    cells: list[Cell]
    bbox: BBox | None = None
    group: str = ""
    """The label-only row above that qualifies this one ("Net income per share:")."""


class Table(msgspec.Struct):
    id: str
    section: str | None
    title: str
    scale: int
    """Power of ten the table's figures are printed in: 6 for "(in millions)"."""
    scale_source: str
    """Where the scale was stated: the caption text, or "default" when nothing said."""
    columns: list[Column]
    rows: list[Row]
    page: int | None = None


class Passage(msgspec.Struct, frozen=True):
    id: str
    section: str | None
    text: str
    page: int | None = None


class FactSource(msgspec.Struct, gc=False):
    kind: Literal["ixbrl", "table", "text"]
    table: str | None = None
    row: int | None = None
    column: int | None = None
    concept: str | None = None
    context: str | None = None
    section: str | None = None
    page: int | None = None
    bbox: BBox | None = None
    locator: str = ""
    """For a person: "CONSOLIDATED STATEMENTS OF OPERATIONS; row 'Total net sales'; column '2024'"."""


class Fact(msgspec.Struct, gc=False):
    """One figure a filing prints. Untracked by the garbage collector (it holds only strings, numbers,
    dates and a string map, so it can sit in no reference cycle): the verifier keeps tens of thousands
    of them decoded between runs, and a tracked one would be traversed by every full collection."""

    entity: str
    metric: str
    """A registry id (``revenue``) or ``label:<normalised row label>`` for quantities outside it."""
    label: str
    """The row label or sentence as printed."""
    basis: Basis
    period: str
    period_start: date | None
    period_end: date | None
    value: Decimal
    unit: Unit
    scale: int
    currency: str | None
    as_printed: str
    source: FactSource
    document: str = ""
    """Filled by the service: the document's path relative to its room."""
    document_id: int | None = None
    """Filled by the service: the stored version the fact was read from."""
    dimensions: dict[str, str] = {}


class DocumentInfo(msgspec.Struct):
    format: Literal["ixbrl", "html", "xbrl", "pdf", "md", "txt", "pptx"]
    entity: str | None
    form: str | None
    fiscal_year_end: str | None
    """``--MM-DD`` as XBRL writes it: ``--09-28`` for Apple (last Saturday of September)."""
    periods: list[str] = []
    pages: int | None = None
    ticker: str | None = None
    names: list[str] = []
    """Every name the document prints for its registrant: legal name, short forms, ticker."""


class ParsedDocument(msgspec.Struct):
    document: DocumentInfo
    sections: list[Section]
    tables: list[Table]
    facts: list[Fact]
    passages: list[Passage]


# ---------------------------------------------------------------- decks


class TextBlock(msgspec.Struct):
    text: str
    bbox: BBox | None = None
    size: float | None = None
    heading: bool = False
    """A section heading inside the page (underlined in a text memo, a sub-heading in Markdown): it
    names and dates the section under it."""


class Slide(msgspec.Struct):
    page: int
    title: str
    blocks: list[TextBlock]
    tables: list[list[list[str]]] = []
    table_boxes: list[list[list[BBox | None]]] = []
    """Each table cell's box, parallel to ``tables`` (empty when the format has none)."""


class Deck(msgspec.Struct):
    format: Literal["pdf", "pptx", "md", "txt", "docling"]
    slides: list[Slide]
    title: str = ""


ClaimKind = Literal["value", "growth", "margin", "ratio", "share"]
Bound = Literal["eq", "approx", "ge", "gt", "le", "lt"]


class Resolution(msgspec.Struct, frozen=True):
    """Where each part of a claim's meaning came from, in words: "slide title 'Apple: FY2024'"."""

    entity: str = ""
    period: str = ""
    period_text: str = ""
    """The words the period was read from, so resolution can re-read them in the company's calendar."""


class Claim(msgspec.Struct):
    id: str
    page: int
    text: str
    """The bullet or cell as printed."""
    value: Decimal
    """The number as printed, sign applied, unscaled: 391.0 for "$391.0B"."""
    printed: str
    """The figure as printed: "$391.0B", "36%", "over 1,000"."""
    decimals: int
    """Digits after the decimal point as printed: the claim's own precision."""
    unit: Unit
    scale: int
    """Power of ten from the suffix or word: 9 for "B"/"billion"."""
    kind: ClaimKind = "value"
    bound: Bound = "eq"
    entity: str | None = None
    metric: str | None = None
    label: str = ""
    """The words naming the quantity, for BM25 when the metric is outside the registry."""
    currency: str | None = None
    period: str | None = None
    comparison_period: str | None = None
    compounded_years: int = 0
    """For a compound annual growth rate ("'22-'24 CAGR"): the years from ``comparison_period`` to
    ``period`` it compounds over; 0 for a plain growth."""
    basis: Basis = "GAAP"
    basis_stated: bool = False
    bbox: BBox | None = None
    denominator: str | None = None
    """For a share ("52% of total revenue"): the metric the figure is a part of."""
    row: str = ""
    """For a table cell: its row's label as printed."""
    column: str = ""
    """For a table cell: its column's header as printed."""
    resolution: Resolution = Resolution()


class Discard(msgspec.Struct):
    page: int
    text: str
    why: str


class ParsedDeck(msgspec.Struct):
    deck: Deck
    entity: str | None
    claims: list[Claim]
    discarded: list[Discard]
