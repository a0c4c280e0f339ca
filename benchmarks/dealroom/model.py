"""The benchmark's boundary structs: decks as written, claims as labelled, non-claims."""

from __future__ import annotations

from typing import Literal

import msgspec

__all__ = ["Block", "DeckSpec", "LabelledClaim", "NonClaim", "Slide", "Stratum", "VERDICTS"]

VERDICTS = ("supported", "contradicted", "different-basis", "no-evidence")


class Stratum(msgspec.Struct, frozen=True):
    format: str
    """pdf, pptx, md."""
    layout: str
    """bullets, sentences, kpi, table, multi-company, footnoted, header-scale."""
    kind: str
    """value, growth, margin, share."""
    trap: str
    """none or the planted trap's class."""


class LabelledClaim(msgspec.Struct):
    id: str
    deck: str
    page: int
    text: str
    """The line, cell or box as the deck prints it."""
    printed: str
    """The figure as printed ("$130.5B", "294¢", "130,497")."""
    number: str
    """The figure's digits as a scorer matches them ("130.5", "130497")."""
    expected: str
    why: str
    entity: str
    metric: str
    period: str
    stratum: Stratum
    claimed: str
    """What the deck asserts, in base units (dollars, dollars per share, percentage points)."""
    recomputed: str
    """The same quantity recomputed from the independent facts with Decimal; empty when none exists."""
    tolerance: str
    """Half a unit of the printed precision, in the same units."""
    evidence: list[str] = []
    """``path#concept@start..end[dims]=value`` for each fact the label was computed from."""


class NonClaim(msgspec.Struct):
    id: str
    deck: str
    page: int
    text: str
    number: str
    category: str
    """guidance, superlative, bio, market-size."""


class Block(msgspec.Struct):
    kind: Literal["line", "kpi", "table", "footnote", "note"]
    text: str = ""
    caption: str = ""
    rows: list[list[str]] = []
    bullet: bool = False


class Slide(msgspec.Struct):
    page: int
    title: str
    subtitle: str = ""
    blocks: list[Block] = []


class DeckSpec(msgspec.Struct):
    name: str
    format: str
    slides: list[Slide]
    room: list[str]
    """Filing paths relative to the data folder, copied into the deck's room."""
    companies: list[str]
