"""What the verdict engine takes in and gives back."""

from __future__ import annotations

from decimal import Decimal
from typing import Literal

import msgspec

from parsers.model import BBox, Fact

__all__ = ["Citation", "Coverage", "Evidence", "PassageHit", "RuleOutcome", "Verdict", "VerdictLabel"]

VerdictLabel = Literal["supported", "contradicted", "different-basis", "no-evidence"]
RuleName = Literal["scope", "locate", "unit", "period", "scale", "compute", "band", "basis"]


class Citation(msgspec.Struct):
    document: str
    """Path relative to the room."""
    locator: str
    """For a person: section; table; row; column (or the sentence's section)."""
    as_printed: str
    document_id: int | None = None
    """The stored document version, so a citation keeps pointing at what was read."""
    section: str | None = None
    table: str | None = None
    row: int | None = None
    column: int | None = None
    page: int | None = None
    bbox: BBox | None = None
    concept: str | None = None
    role: str = "evidence"
    """``evidence``, ``numerator``, ``denominator``, ``current``, ``prior``, ``other-basis``, ``other-period``,
    ``superseded``."""


class RuleOutcome(msgspec.Struct):
    rule: RuleName
    outcome: Literal["pass", "fail", "skip", "decided"]
    detail: str


class Verdict(msgspec.Struct):
    claim_id: str
    verdict: VerdictLabel
    reason: str
    """One sentence an analyst understands."""
    claimed: Decimal | None = None
    """The claim's value in base units (percent points for percentages)."""
    found: Decimal | None = None
    """The evidence value (or computed value) it was compared with, in the same units."""
    tolerance: Decimal | None = None
    citations: list[Citation] = []
    trace: list[RuleOutcome] = []


class Coverage(msgspec.Struct):
    """One room document: whose figures it holds and for which periods."""

    document: str
    entity: str | None
    form: str | None
    periods: list[str]
    fiscal_year_end: str | None = None
    """``--MM-DD`` as in ``DocumentInfo``: dates in passages are read as fiscal periods with it."""


class PassageHit(msgspec.Struct):
    document: str
    section: str | None
    text: str
    page: int | None = None
    score: float = 0.0


class Evidence(msgspec.Struct):
    """Everything the room offers for one claim; gathered by services, judged by the rules."""

    coverage: list[Coverage]
    facts: list[Fact]
    passages: list[PassageHit] = []
