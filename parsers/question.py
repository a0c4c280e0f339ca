"""The question a claim asks of the room, as one typed value: what figure to look for, under which
metric ids, and which inputs would compute it. The rules judge with it, the verifier fetches facts
with it, and re-verification asks it which new facts touch a claim."""

from __future__ import annotations

from typing import Literal

import msgspec

from parsers.metrics import REGISTRY, alternates, by_id, label_metric
from parsers.model import Claim
from parsers.quantities import growth_metric, is_label, label_text, quantity, ratio_metric, share_metric

__all__ = ["Question", "QuestionKind", "question"]

QuestionKind = Literal["value", "growth", "change", "margin", "share", "ratio"]


class Question(msgspec.Struct, frozen=True):
    """A claim restated as lookups: the figure printed directly, or the inputs to compute it.

    The rules read it to judge, the verifier to fetch facts, re-verification to know which new facts
    touch the claim: one reading of the claim for all three.
    """

    kind: QuestionKind
    """``value``, ``growth``, ``change`` (a margin's move in points), ``margin`` (a/b in percent), ``share``
    (a/b in percent) or ``ratio`` (a/b)."""
    metric: str
    printed: tuple[str, ...]
    """Metric ids a room may print the claimed figure under."""
    alternates: tuple[str, ...] = ()
    """Other quantities a deck may present as this one (ARR as revenue): matches are another basis."""
    num: str | None = None
    den: str | None = None
    part: str | None = None
    """For a share of a named slice ("Data Center accounted for 78% of revenue"): the slice's words, read
    as a segment of the denominator as well as a quantity of its own."""
    rates: tuple[str, ...] = ()
    """For a growth: rates the room prints that are this quantity's growth on another basis (comparable
    sales for revenue): a match is another basis."""

    def needed(self) -> set[str]:
        """Every metric id whose facts the rules may read for this question."""
        out = set(self.printed) | set(self.alternates) | {self.metric}
        out |= {x for x in (self.num, self.den) if x}
        if self.kind == "growth":
            out |= {growth_metric(a) for a in self.alternates} | set(self.rates)
        return out


# The slice of revenue a revenue line is, in the words a filing's segment or product member uses.
_SLICE_OF = {"services_revenue": "services", "product_revenue": "products", "subscription_revenue": "subscription",
             "cloud_revenue": "cloud"}


# Rates that are a quantity's growth measured another way: comparable (same-store) sales are sales growth
# from stores open a year and more.
_GROWTH_RATES = {"revenue": ("comparable_sales",)}


def question(claim: Claim) -> Question:
    """What the room must hold to judge ``claim``."""
    m = claim.metric or label_metric(claim.label)
    asked = quantity(m)
    if asked.kind == "ratio":
        return Question("ratio", m, (m,), num=asked.base, den=asked.denominator)
    reg = by_id(m)
    if claim.kind == "growth" and claim.unit in ("pp", "bp") and reg is not None and reg.ratio_of:
        # "Operating margin expanded 120 bps": this year's margin less last year's, in points.
        return Question("change", m, (growth_metric(m),), num=reg.ratio_of[0], den=reg.ratio_of[1])
    if claim.kind == "growth" and claim.unit in ("pp", "bp") and (reg is None or reg.unit == "percent"):
        # "Operating ratio (100) bps", "Net revenue retention down 2 points": a rate's move is this
        # period's level less the prior one's.
        return Question("change", m, (growth_metric(m),))
    if claim.kind == "growth":
        return Question("growth", m, (growth_metric(m),), alternates(m), rates=_GROWTH_RATES.get(m, ()))
    if claim.kind == "share":
        whole = claim.denominator or "revenue"
        part = label_text(m) if is_label(m) else None
        segment = claim.basis[len("segment:"):] if claim.basis.startswith("segment:") else ""
        if part is None and (slice_word := _SLICE_OF.get(m)) and whole == "revenue":
            # "Services accounted for 55.5% of revenue": a room that tags services as a slice of revenue
            # (a product-or-service member) answers as well as one with a services revenue line.
            part = f"{segment} {slice_word}".strip()
        elif part is None and segment and m == whole:
            # A segment-mix row ("Beauty | 18%" under "% of net sales"): the segment is the slice.
            part = segment
        return Question("share", m, (share_metric(m),), num=m, den=whole, part=part)
    ratio_of = reg.ratio_of if reg else None
    if ratio_of is None and claim.kind == "ratio" and claim.denominator:
        # "Operating cash flow covered capex 1.3x": the claim names its own denominator.
        ratio_of = (m, claim.denominator)
        m = ratio_metric(*ratio_of)
    if ratio_of is None and claim.kind == "margin":
        margin = next((r for r in REGISTRY if r.ratio_of and r.ratio_of[0] == m), None)
        if margin is not None:
            m, ratio_of = margin.id, margin.ratio_of
        else:
            ratio_of = (m, "revenue")
            m = ratio_metric(*ratio_of)
    if ratio_of is not None:
        if claim.unit in ("USD", "currency"):
            # "Gross margin of $180.7B": the dollar figure, which Apple's statements also call gross margin.
            return Question("value", ratio_of[0], (ratio_of[0], m))
        kind: QuestionKind = "ratio" if claim.unit == "multiple" else "margin"
        return Question(kind, m, (m,), num=ratio_of[0], den=ratio_of[1])
    return Question("value", m, (m,), alternates(m))
