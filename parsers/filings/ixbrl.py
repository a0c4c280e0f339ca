"""XBRL contexts, units and numeric facts, shared by inline XBRL (HTML) and instance documents (XML)."""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal, InvalidOperation
from functools import lru_cache

import msgspec

from parsers.metrics import by_concept, label_metric
from parsers.model import Fact, FactSource
from parsers.periods import FiscalYearEnd, label_for_span

__all__ = [
    "Context",
    "XbrlFact",
    "basis_for",
    "contexts_from",
    "fact_from",
    "ix_number",
    "local",
    "units_from",
]


class Context(msgspec.Struct, frozen=True):
    id: str
    start: date | None
    end: date | None
    dimensions: dict[str, str]


class XbrlFact(msgspec.Struct):
    """A numeric XBRL fact before it becomes a ``Fact``: exact value in base units."""

    concept: str
    context: str
    unit: str | None
    value: Decimal
    scale: int
    decimals: str | None
    printed: str
    id: str | None = None


def local(tag: object) -> str:
    """Lower-case local name of an lxml tag, Clark or prefixed: ``{ns}nonFraction`` -> ``nonfraction``."""
    if not isinstance(tag, str):
        return ""
    return tag.rsplit("}", 1)[-1].rsplit(":", 1)[-1].lower()


def _date(text: str | None) -> date | None:
    if not text:
        return None
    try:
        return date.fromisoformat(text.strip()[:10])
    except ValueError:
        return None


def contexts_from(elements) -> dict[str, Context]:
    """Contexts by id from an iterable of ``context`` elements."""
    out: dict[str, Context] = {}
    for ctx in elements:
        cid = ctx.get("id")
        if not cid:
            continue
        start = end = None
        dims: dict[str, str] = {}
        for el in ctx.iter():
            name = local(el.tag)
            if name == "startdate":
                start = _date(el.text)
            elif name in ("enddate", "instant"):
                end = _date(el.text)
            elif name in ("explicitmember", "typedmember"):
                dim = el.get("dimension") or ""
                dims[dim] = (el.text or "".join(el.itertext())).strip()
        out[cid] = Context(cid, start, end, dims)
    return out


def units_from(elements) -> dict[str, str]:
    """Unit ids to our unit words: ``USD``, ``USD/share``, ``shares``, ``pure``, or the measure."""
    out: dict[str, str] = {}
    for u in elements:
        uid = u.get("id")
        measures = [(m.text or "").strip().rsplit(":", 1)[-1] for m in u.iter() if local(m.tag) == "measure"]
        if not uid or not measures:
            continue
        if len(measures) == 2:
            out[uid] = f"{measures[0]}/{'share' if measures[1].lower() == 'shares' else measures[1]}"
        else:
            out[uid] = measures[0]
    return out


_WORDS = {
    "no": 0, "none": 0, "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "hundred": 100,
}
_NONDIGIT = re.compile(r"[^\d.]")


def ix_number(text: str, fmt: str | None) -> Decimal | None:
    """The number an ``ix:nonFraction`` displays, read through its ``format`` transform."""
    f = (fmt or "").rsplit(":", 1)[-1].lower().replace("-", "")
    t = text.strip()
    if f in ("fixedzero", "zerodash", "numdash", "fixedempty") or (t and t in "—–-" and len(t) == 1):
        return Decimal(0)
    if f.startswith("numwords") or f == "numwordsen":
        t = t.lower().replace("-", " ")
        if t in _WORDS:
            return Decimal(_WORDS[t])
        total = sum(_WORDS.get(w, 0) for w in t.split())
        return Decimal(total) if total else None
    if f in ("numcommadecimal", "numdotcomma", "numspacecomma"):
        t = t.replace(".", "").replace(" ", "").replace(",", ".")
    t = _NONDIGIT.sub("", t)
    if not t or t == ".":
        return None
    try:
        return Decimal(t)
    except InvalidOperation:
        return None


_SEGMENT_AXIS = re.compile(r"segment|productorservice|geograph|businessunit|consolidationitems", re.I)


def basis_for(dimensions: dict[str, str]) -> str:
    """``segment:<Member>`` when a dimension is a segment-like axis, else GAAP. A consolidation-items
    member ("OperatingSegmentsMember") beside a business-segment one ("ibm:SoftwareMember") only says the
    figure is a segment's: the segment is the other member."""
    axes = [(axis, member) for axis, member in dimensions.items() if _SEGMENT_AXIS.search(axis)]
    axes.sort(key=lambda am: "consolidationitems" in am[0].lower())
    return "segment:" + axes[0][1].rsplit(":", 1)[-1] if axes else "GAAP"


_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


@lru_cache(maxsize=1 << 14)
def _concept_metric(concept: str) -> str:
    metric = by_concept(concept)
    if metric:
        return metric
    return label_metric(_CAMEL.sub(" ", concept.rsplit(":", 1)[-1]))


def fact_from(x: XbrlFact, ctx: Context, entity: str, fye: FiscalYearEnd | None, locator: str = "") -> Fact | None:
    """A ``Fact`` (kind ixbrl) from a numeric XBRL fact in its context."""
    if ctx.end is None:
        return None
    unit_word = (x.unit or "").upper()
    value = x.value
    if unit_word == "USD":
        unit, currency = "USD", "USD"
    elif unit_word.endswith("/SHARE"):
        unit, currency = "USD/share", unit_word.split("/")[0]
    elif unit_word == "SHARES":
        unit, currency = "shares", None
    elif unit_word == "PURE":
        # Ratios are stored as fractions; facts carry percent points as printed.
        unit, currency, value = "percent", None, value * 100
    elif len(unit_word) == 3 and unit_word.isalpha():
        unit, currency = "currency", unit_word
    else:
        unit, currency = "other", None
    return Fact(
        entity=entity,
        metric=_concept_metric(x.concept),
        label=x.concept,
        basis=basis_for(ctx.dimensions),
        period=label_for_span(ctx.start, ctx.end, fye),
        period_start=ctx.start,
        period_end=ctx.end,
        value=value,
        unit=unit,
        scale=x.scale,
        currency=currency,
        as_printed=x.printed,
        source=FactSource(kind="ixbrl", concept=x.concept, context=x.context, locator=locator or f"{x.concept} @ {x.context}"),
        dimensions=dict(ctx.dimensions),
    )
