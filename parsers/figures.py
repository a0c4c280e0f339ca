"""Figures as a slide prints them: the bound a figure states ("over 1,510", "2,000+", "~1.79M"), the
ranges two figures make ("$43B-$44B", "between 40% and 45%"), and the figures that only define a
quantity ("customers with ACV > $100K"). Pure; read by claim extraction."""

from __future__ import annotations

import re

from parsers.numbers import Printed
from parsers.periods import ACTUAL_MARK

__all__ = ["bound_of", "is_qualifier", "normalise_text", "ranges"]

_BOUND_BEFORE = [
    (re.compile(r"(?:\bat least|\bno less than|≥|>=)\s*$", re.I), "ge"),
    (re.compile(r"(?:\bover|\bmore than|\babove|\bexceed(?:ed|s|ing)?|\bsurpass(?:ed|es|ing)?|\bgreater than|"
                r"\btop(?:ped|s)?|>)\s*$", re.I), "gt"),
    (re.compile(r"(?:\bup to|\bat most|\bno more than|≤|<=)\s*$", re.I), "le"),
    (re.compile(r"(?:\bunder|\bless than|\bbelow|\bfewer than|<)\s*$", re.I), "lt"),
    (re.compile(r"(?:\bnearly|\balmost|\bapprox(?:imately)?\.?|\babout|\baround|\broughly|~|≈)\s*$", re.I), "approx"),
]


def normalise_text(text: str) -> str:
    """Quotes and spaces as one character each, and the gluings some exports print; positions kept."""
    t = text.replace("’", "'").replace("ʼ", "'").replace("‘", "'").replace("\u00a0", " ")
    t = ACTUAL_MARK.sub(r"\1 ", t)
    # "Y/YCC" and "%of Revenue" as some exports glue them.
    return re.sub(r"%(?=of\b)", "% ", re.sub(r"(?i)\by/y(?=cc\b)", "Y/Y ", t))


def bound_of(text: str, p: Printed) -> tuple[str, str]:
    """(bound, printed) for a figure: "Over 1,510" is gt, "2,000+" ge, "~1.79M" approx."""
    before = normalise_text(text[: p.start])
    after = text[p.end: p.end + 2]
    if after.startswith("+"):
        return "ge", p.text + "+"
    if p.approx:
        return "approx", p.text
    for rx, bound in _BOUND_BEFORE:
        if m := rx.search(before):
            return bound, f"{text[m.start(): p.start].strip()} {p.text}".strip()
    return "eq", p.text


def is_qualifier(text: str, p: Printed, others: int) -> bool:
    """The "$100K" in "customers with ACV > $100K" defines the metric; it is not a claim."""
    if others == 0:
        return False
    before = normalise_text(text[max(0, p.start - 25): p.start])
    return bool(re.search(r"(?:[>≥<≤]|\bacv\b|\barr\b|\bspend(?:ing)?\b)\s*(?:over|above)?\s*$", before, re.I)) or \
        bool(re.search(r"\bwith\s+(?:over|more than|at least|>|≥)?\s*$", before, re.I))


def ranges(text: str, figs: list[Printed]) -> dict[int, str]:
    """The bound each end of a range takes: "$43B-$44B", "2% to 3%", "between 40% and 45%" hold their
    figure from below (``ge``) and from above (``le``). "Up 5% to $2.5 billion" is no range: its ends
    measure different things."""
    out: dict[int, str] = {}
    for i in range(len(figs) - 1):
        a, b = figs[i], figs[i + 1]
        between = text[a.end: b.start]
        joined = re.fullmatch(r"\s*(?:-|–|—|to)\s*", between) or (
            re.fullmatch(r"\s*and\s*", between) and re.search(r"\bbetween\s*$", text[: a.start], re.I))
        if joined and a.unit == b.unit and (a.currency == b.currency or not b.currency):
            out[i], out[i + 1] = "ge", "le"
    return out
