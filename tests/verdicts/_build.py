"""Hand builders for claims and evidence, shaped as the deck and filing parsers deliver them."""

from __future__ import annotations

import re
from datetime import date, timedelta
from decimal import Decimal

from parsers.model import Claim, Fact, FactSource
from parsers.numbers import parse_printed
from verdicts.model import Coverage, Evidence, PassageHit

__all__ = ["claim", "cov", "ev", "fact", "passage"]

_SCALES = {"thousands": 3, "millions": 6, "billions": 9}
_BOUND = re.compile(r"^(over|more than|at least|surpassed|exceeded)\b|\+\s*$", re.I)


def claim(
    printed: str,
    metric: str,
    period: str,
    *,
    entity: str = "Acme Inc.",
    kind: str = "value",
    basis: str = "GAAP",
    label: str = "",
    comparison: str | None = None,
    id: str = "c",
    text: str = "",
) -> Claim:
    """A claim as the deck extractor delivers it: the number as printed, with its scale and precision."""
    p = parse_printed(printed)[0]
    bound = "approx" if p.approx else ("ge" if _BOUND.search(printed.strip()) else "eq")
    return Claim(
        id=id, page=1, text=text or printed, value=p.value, printed=printed, decimals=p.decimals,
        unit=p.unit, scale=p.scale, kind=kind, bound=bound, entity=entity, metric=metric,  # type: ignore[arg-type]
        label=label, currency=p.currency, period=period, comparison_period=comparison, basis=basis,
        basis_stated=basis != "GAAP",
    )


def fact(
    metric: str,
    period: str,
    printed: str,
    scale: str | int = "millions",
    *,
    entity: str = "Acme Inc.",
    basis: str = "GAAP",
    unit: str = "USD",
    doc: str = "acme-10-K-FY2024.html",
    label: str = "",
    instant: bool = False,
    where: str = "",
    kind: str = "table",
    dims: dict[str, str] | None = None,
    currency: str | None = "USD",
) -> Fact:
    """A fact as the filing parser delivers it: value in base units, the printed string kept."""
    power = _SCALES.get(scale, 0) if isinstance(scale, str) else scale
    m = re.search(r"\d[\d,]*(?:\.\d+)?", printed)
    assert m, printed
    value = Decimal(m.group(0).replace(",", "")).scaleb(power)
    if "(" in printed or re.search(r"(^|\s)[-−]\s*\$?\d", printed):
        value = -value
    end = date(2024, 12, 31)
    return Fact(
        entity=entity, metric=metric, label=label or metric, basis=basis, period=period,
        period_start=None if instant else end - timedelta(days=90), period_end=end, value=value,
        unit=unit, scale=power, currency=currency if unit == "USD" else None, as_printed=printed,  # type: ignore[arg-type]
        source=FactSource(kind=kind, locator=where or f"{label or metric}; {period}"),  # type: ignore[arg-type]
        document=doc, dimensions=dims or {},
    )


def cov(doc: str, entity: str, *periods: str, fye: str | None = None) -> Coverage:
    return Coverage(document=doc, entity=entity, form=None, periods=list(periods), fiscal_year_end=fye)


def passage(doc: str, text: str, section: str = "MD&A") -> PassageHit:
    return PassageHit(document=doc, section=section, text=text)


def ev(coverage: list[Coverage], *facts: Fact, passages: list[PassageHit] | None = None) -> Evidence:
    return Evidence(coverage=coverage, facts=list(facts), passages=passages or [])
