"""Typed facts from table grids (through the metric registry) and from sentences; iXBRL agreement."""

from __future__ import annotations

import re
from collections.abc import Callable
from decimal import Decimal

import msgspec

from parsers.filings.ixbrl import Context, basis_for
from parsers.filings.tables import Grid
from parsers.metrics import basis_from_text, by_id, find_metric, label_metric, normalise_label
from parsers.model import Cell, Column, Fact, FactSource, ParsedDocument, Row, Table
from parsers.numbers import parse_printed
from parsers.periods import FiscalYearEnd, column_period, period_from_text

__all__ = [
    "Agreement",
    "ixbrl_agreement",
    "make_table",
    "row_metric",
    "table_facts",
    "text_facts",
]

_QUALIFIERS = re.compile(
    r"\b(?:non-gaap|gaap|as reported|reported|measure|\(non-gaap\)|\(gaap\))\b|^total\s+|,?\s+net$|\s*\([^)]*\)\s*$",
    re.I,
)
_PER_SHARE = re.compile(r"per (?:common |ordinary )?share|per diluted share|\beps\b", re.I)
_EPS_WORDS = re.compile(
    r"(?:income|earnings|loss|dividends?|eps)\b[^.]{0,40}\bper\s+(?:common\s+|ordinary\s+|diluted\s+)?share", re.I
)
_SHARE_COUNT = re.compile(r"weighted|shares used|shares outstanding|number of shares|shares of common|share count", re.I)
_SHARES = re.compile(r"\bshares\b|\bshare count\b", re.I)
_PERCENT_CONTEXT = re.compile(r"%|\bpercent|\bpercentage\b|\bmargin\b(?!.*\$)|\brate\b|\bgrowth\b|\bchange\b", re.I)
_PCT_GROUP = re.compile(r"percent|growth|%|\bchange in (?:net )?(?:sales|revenue)|\bmargin\b", re.I)
_NON_GAAP_TITLE = re.compile(r"non[- ]?gaap|reconciliation|free cash flow|adjusted", re.I)
_GAAP_WORD = re.compile(r"(?<!non-)(?<!non )\bgaap\b", re.I)


def row_metric(label: str, group: str = "") -> tuple[str, str | None]:
    """Registry metric for a row (exact name, then with qualifiers and "Total"/", net" removed) and
    the basis its words state; rows outside the registry get ``label:`` ids qualified by their group."""
    basis = basis_from_text(label)
    g = normalise_label(group)
    if g and _PCT_GROUP.search(g):
        return label_metric(f"{group} {label}"), basis
    metric = find_metric(label, exact=True)
    if metric is None:
        loose = _QUALIFIERS.sub("", normalise_label(label)).strip(" ,")
        loose = re.sub(r"^(?:add|less|plus)[:\s]+", "", loose)
        if loose:
            metric = find_metric(loose, exact=True)
    if metric in ("eps_basic", "eps_diluted") and g and _SHARES.search(g) and not _PER_SHARE.search(g):
        return label_metric(f"{group} {label}"), basis
    if metric in ("eps_basic", "eps_diluted") and normalise_label(label) in ("basic", "diluted"):
        if not (_PER_SHARE.search(g) or "earnings" in g or "income" in g):
            return label_metric(f"{group} {label}"), basis
    if metric and g:
        gm = find_metric(group, exact=True)
        if gm and gm != metric and gm != "revenue":
            return label_metric(f"{group} {label}"), basis
    if metric is None:
        return label_metric(f"{group} {label}" if g and len(normalise_label(label)) < 25 else label), basis
    return metric, basis


def make_table(
    grid: Grid,
    table_id: str,
    section: str | None,
    title: str,
    scale: int,
    scale_source: str,
    fye: FiscalYearEnd | None,
    page: int | None = None,
) -> Table:
    """A ``Table`` from a grid, with each column's period resolved against the fiscal year end."""
    columns = []
    for header in grid.headers:
        p = column_period(" ".join(header), fye)
        columns.append(Column(header=header, period=p[0] if p else None,
                              period_start=p[1] if p else None, period_end=p[2] if p else None))
    rows = [
        Row(label=r.label,
            cells=[Cell(text=c.text, value=c.value, column=c.column, concept=c.concept, context=c.context,
                        bbox=c.bbox, footnote=c.footnote) for c in r.cells],
            bbox=r.bbox, group=r.group)
        for r in grid.rows
    ]
    return Table(id=table_id, section=section, title=title, scale=scale, scale_source=scale_source,
                 columns=columns, rows=rows, page=page)


_SHARES_IN = re.compile(
    r"\bshares(?:,? which are reflected)?\s+(?:are\s+)?in (thousands|millions)|(thousands|millions) of shares", re.I
)


def _shares_scale(scale: int, scale_source: str) -> int:
    if scale_source.startswith("document convention"):
        return 0
    m = _SHARES_IN.search(scale_source)
    if m:
        return 3 if "thousands" in (m.group(1) or m.group(2)).lower() else 6
    return scale


def table_facts(
    table: Table,
    entity: str,
    contexts: dict[str, Context] | None = None,
    page_of: Callable[[Cell], int | None] | None = None,
    tag_units: dict[tuple[str, str], str] | None = None,
) -> list[Fact]:
    """One fact per numeric cell whose column denotes a period: registry metrics where the row names one.

    A cell tagged in iXBRL lends its unit (shares, USD per share, pure) but never its scale: the scale
    comes from the table's caption, so the iXBRL agreement rate measures our reading of the page.
    """
    out: list[Fact] = []
    non_gaap_table = bool(_NON_GAAP_TITLE.search(table.title))
    cols = table.columns
    for ri, row in enumerate(table.rows):
        if not row.cells:
            continue
        label = row.label or row.group
        if not label:
            continue
        metric, stated = row_metric(label, row.group if row.label else "")
        reg = by_id(metric)
        context_words = f"{row.group} {label}"
        if stated is None and non_gaap_table and not (reg and reg.concepts) and not _GAAP_WORD.search(label):
            stated = "non-GAAP"
        if stated is None and reg is not None and reg.basis != "GAAP":
            stated = reg.basis
        if stated is None and _GAAP_WORD.search(label):
            stated = "GAAP"
        shares = bool(_SHARES.search(context_words)) and (
            bool(_SHARE_COUNT.search(context_words)) or not _EPS_WORDS.search(context_words))
        per_share = not shares and (bool(_PER_SHARE.search(context_words)) or (reg is not None and reg.unit == "USD/share"))
        for cell in row.cells:
            if cell.value is None or cell.column >= len(cols):
                continue
            col = cols[cell.column]
            if col.period is None:
                continue
            header = " ".join(col.header)
            text = cell.text
            basis = stated or "GAAP"
            dims: dict[str, str] = {}
            if contexts and cell.context and cell.context in contexts:
                dims = dict(contexts[cell.context].dimensions)
                if dims and stated is None:
                    basis = basis_for(dims)
            tag_unit = tag_units.get((cell.concept, cell.context)) if tag_units and cell.concept else None
            if tag_unit is not None:
                tu = tag_unit.lower()
                kind = ("pershare" if tu.endswith("/share") else "shares" if tu == "shares"
                        else "percent" if tu == "pure" else "money" if len(tu) == 3 else None)
            else:
                kind = None
            if kind == "percent" or (kind is None and (text.endswith("%") or "%" in header or (reg is not None and reg.unit == "percent") or (
                    _PCT_GROUP.search(row.group) and "$" not in text))):
                unit, scale, currency = "percent", 0, None
            elif kind == "pershare" or (kind is None and per_share):
                unit, scale, currency = "USD/share", 0, "USD"
            elif kind == "shares" or (kind is None and (shares or _SHARES.search(header))):
                unit, scale, currency = "shares", _shares_scale(table.scale, table.scale_source), None
            elif reg is not None and reg.unit == "count":
                unit, scale, currency = "count", table.scale, None
            else:
                unit, scale, currency = "USD", table.scale, "USD"
            value = cell.value.scaleb(scale) if scale else cell.value
            locator = f"{table.title}; row '{row.label or row.group}'; column '{header}'"
            page = page_of(cell) if page_of else table.page
            out.append(Fact(
                entity=entity, metric=metric, label=row.label or row.group, basis=basis, period=col.period,
                period_start=col.period_start, period_end=col.period_end, value=value, unit=unit, scale=scale,
                currency=currency, as_printed=text.lstrip("$ ").strip(),
                source=FactSource(kind="table", table=table.id, row=ri, column=cell.column, concept=cell.concept,
                                  context=cell.context, section=table.section, page=page, bbox=cell.bbox,
                                  locator=locator),
                dimensions=dims,
            ))
    return out


_TEXT_CUE = re.compile(
    r"\b(?:was|were|of|totaled|totalled|reached|to|at|is|are)(\s+(?:approximately\s+|a record\s+|record\s+|over\s+|about\s+)?)"
    r"(?=[$€£]?\s?\d)",
    re.I,
)
_TEXT_METRIC = re.compile(
    r"(?P<name>[A-Za-z&,\-' ]{3,80}?)\s+(?:was|were|of|totaled|totalled|reached|increased to|decreased to|grew to|"
    r"amounted to|came in at|is|are)\s+(?:approximately\s+|a record\s+|record\s+|over\s+|about\s+)?$",
    re.I,
)


def text_facts(text: str, entity: str, fye: FiscalYearEnd | None, default_period: str | None,
               section: str | None, section_title: str, page: int | None = None) -> list[Fact]:
    """Facts stated in a sentence: "Revenue was $39.0 billion" (registry metric named just before the figure)."""
    out: list[Fact] = []
    cues = list(_TEXT_CUE.finditer(text))
    if not cues:
        return out
    period = period_from_text(text, fye) or default_period
    if period is None:
        return out
    figures = []
    for c in cues:
        base = c.end(1)
        for p in parse_printed(text[base:base + 40])[:1]:
            if p.start == 0 and (p.currency or p.scale or p.unit == "percent"):
                figures.append(msgspec.structs.replace(p, start=p.start + base, end=p.end + base))
    for p in figures:
        before = text[max(0, p.start - 90):p.start]
        m = _TEXT_METRIC.search(before)
        if not m:
            continue
        name = m.group("name").strip()
        metric = find_metric(name)
        if metric is None:
            continue
        reg = by_id(metric)
        if reg is not None and (reg.unit == "percent") != (p.unit == "percent"):
            continue
        if p.unit == "percent":
            unit, currency, value = "percent", None, p.value
        elif reg is not None and reg.unit == "USD/share":
            unit, currency, value = "USD/share", p.currency, p.value
        else:
            unit = "USD" if p.currency == "USD" else ("count" if not p.currency else "currency")
            currency, value = p.currency, p.value.scaleb(p.scale) if p.scale else p.value
        basis = basis_from_text(before[-60:]) or (reg.basis if reg else "GAAP")
        out.append(Fact(
            entity=entity, metric=metric, label=text[:300], basis=basis, period=period, period_start=None,
            period_end=None, value=value, unit=unit, scale=p.scale, currency=currency, as_printed=p.text,
            source=FactSource(kind="text", section=section, page=page,
                              locator=f"{section_title}; text '{text[max(0, p.start - 60):p.end + 20].strip()}'"),
        ))
    return out


class Agreement(msgspec.Struct):
    """How table cells linked to an iXBRL tag compare with the tagged value."""

    pairs: int
    agree: int
    sign_flipped: int
    """Pairs equal in magnitude whose printed sign is presentation (outflows shown in parentheses)."""
    rate: float
    mismatches: list[str] = []


def ixbrl_agreement(doc: ParsedDocument) -> Agreement:
    """Share of table facts with an iXBRL twin (same concept and context) whose value agrees in magnitude."""
    tagged: dict[tuple[str, str], set[Decimal]] = {}
    for f in doc.facts:
        if f.source.kind == "ixbrl" and f.source.concept and f.source.context:
            tagged.setdefault((f.source.concept, f.source.context), set()).add(abs(f.value))
    pairs = agree = flipped = 0
    mismatches: list[str] = []
    for f in doc.facts:
        if f.source.kind != "table" or not f.source.concept or not f.source.context:
            continue
        twin = tagged.get((f.source.concept, f.source.context))
        if twin is None:
            continue
        pairs += 1
        if abs(f.value) in twin:
            agree += 1
            flipped += f.value < 0
        else:
            mismatches.append(f"{f.source.locator}: table {f.value} vs iXBRL {sorted(twin)} ({f.source.concept})")
    return Agreement(pairs, agree, flipped, agree / pairs if pairs else 1.0, mismatches)
