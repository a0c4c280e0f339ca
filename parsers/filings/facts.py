"""Typed facts from table grids (through the metric registry) and from sentences; iXBRL agreement."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from decimal import Decimal
from functools import lru_cache

import msgspec

from parsers.filings.ixbrl import Context, basis_for
from parsers.filings.tables import Grid
from parsers.metrics import (
    basis_from_text,
    by_concept,
    by_id,
    find_metric,
    find_metric_span,
    label_metric,
    LOSS_METRICS,
    names_a_loss,
    normalise_label,
    states_gaap,
)
from parsers.model import Cell, Column, Fact, FactSource, ParsedDocument, Row, Table
from parsers.numbers import parse_printed
from parsers.periods import (
    MONTHS,
    FiscalYearEnd,
    bare_quarter,
    column_period,
    dates_in,
    label_for_span,
    period_from_text,
    span_of_label,
)
from parsers.quantities import growth_metric, is_label, share_metric

__all__ = [
    "Agreement",
    "growth_facts",
    "ixbrl_agreement",
    "make_table",
    "part_subtotals",
    "row_metric",
    "table_facts",
    "text_facts",
]

# Words a row label adds to a quantity's name that state its basis (kept apart, by basis_from_text):
# "Adjusted diluted earnings per share" is diluted EPS on a non-GAAP basis.
_QUALIFIERS = re.compile(
    r"\b(?:non-gaap|gaap|as reported|reported|measure|\(non-gaap\)|\(gaap\)|adjusted|adj\.|core|pro forma)(?:\b|(?<=\.))"
    r"|^total\s+|,?\s+net$|\s*\([^)]*\)\s*$",
    re.I,
)
_PER_SHARE = re.compile(r"per (?:common |ordinary )?share|per diluted share|\beps\b", re.I)
# "Average monthly revenue per paying membership ... $11.70" in a table "in thousands": an amount per
# unit is printed in whole currency, whatever the table's scale.
_PER_UNIT = re.compile(r"\b(?:revenues?|sales|costs?|income|profit|price|fees?|expenses?|spend)\s+per\s+"
                       r"(?!(?:common |ordinary |diluted |basic )?share\b)[a-z]", re.I)
# A per-share figure printed in cents ("EPS (diluted US cents)", "19.3 cps"): dollars two places to the right.
_CENTS = re.compile(r"\bcents?\b|¢|\bcps\b", re.I)
_CENTS_WORDS = re.compile(r"\b(?:in\s+)?(?:us\s+|u\.s\.\s+)?(?:cents?|cps)\b|\bus\s*$|¢", re.I)
_PER_SHARE_OWNER = re.compile(
    r"\s+attributable\s+to\s+(?![^,;]*\bnon-?\s?controlling\b)(?:(?!per\b|basic\b|diluted\b)[^\s,;]+\s*){1,4}", re.I)
_EPS_WORDS = re.compile(
    r"(?:income|earnings|loss|dividends?|eps)\b[^.]{0,40}\bper\s+(?:common\s+|ordinary\s+|diluted\s+)?share", re.I
)
_SHARE_COUNT = re.compile(r"weighted|shares used|shares outstanding|number of shares|shares of common|share count", re.I)
_SHARES = re.compile(r"\bshares\b|\bshare count\b", re.I)
_PCT_GROUP = re.compile(r"percent|growth|%|\bchange in (?:net )?(?:sales|revenue)|\bmargin\b", re.I)
_NON_GAAP_TITLE = re.compile(r"non[- ]?gaap|reconciliation|free cash flow|adjusted", re.I)
# A heading over rows that calls them adjusted ("Adjusted non-GAAP results") states their basis; one that
# reconciles to an adjusted measure heads its GAAP inputs.
_NON_GAAP_GROUP = re.compile(r"non[- ]?gaap|\badjusted\b", re.I)
_RECONCILES = re.compile(r"reconcil|\bto\b", re.I)
# A table title carried into a column's header ("Reconciliation of GAAP to Non-GAAP Data ... Three Months
# Ended") names both bases and states neither for the column.
_RECONCILIATION_TITLE = re.compile(r"\breconciliations? of GAAP to non-GAAP(?: data| financial measures| measures)?"
                                   r"|\bGAAP to non-GAAP reconciliations?", re.I)


def _header_basis(header: str) -> str | None:
    if _RECONCILIATION_TITLE.search(header):
        # Under "Reconciliation of GAAP to Non-GAAP Data / Adjusted Free Cash Flow" the quantity reconciled
        # is named, not a column's basis; only "Excluding Currency Changes" sets a column apart.
        basis = basis_from_text(_RECONCILIATION_TITLE.sub(" ", header))
        return basis if basis in ("constant-currency", "organic") else None
    return basis_from_text(header)


# "Domestic Segment Results", "International Segment Non-GAAP Results": the rows are that segment's.
_SEGMENT_GROUP = re.compile(r"^(?:the\s+)?(?P<name>[a-z][a-z&' -]{1,40}?)\s+(?:segment|business|division)s?\b", re.I)
_NOT_SEGMENT_NAME = re.compile(r"\b(?:by|per|of|all|other|total|reportable|operating|results?|information|data)\b", re.I)


_BY_GROUP = re.compile(r"\b(?:revenues?|sales)\s+by\s+\w", re.I)


def _group_basis(group: str) -> str | None:
    """The basis a heading over rows states: a named segment's, else non-GAAP where it calls the rows
    adjusted (a heading that reconciles to an adjusted measure heads GAAP inputs)."""
    if not group:
        return None
    m = _SEGMENT_GROUP.match(normalise_label(group))
    if m and not _NOT_SEGMENT_NAME.search(m.group("name")):
        return f"segment:{' '.join(m.group('name').split())}"
    return "non-GAAP" if _NON_GAAP_GROUP.search(group) and not _RECONCILES.search(group) else None


@lru_cache(maxsize=1 << 14)  # pure, and the same row labels recur in every table and filing
def row_metric(label: str, group: str = "") -> tuple[str, str | None]:
    """Registry metric for a row (exact name, then with qualifiers and "Total"/", net" removed) and
    the basis its words state; rows outside the registry get ``label:`` ids qualified by their group."""
    basis = basis_from_text(label)
    if basis is None and group and (heading := basis_from_text(group)) in ("constant-currency", "organic"):
        # "International" under "Year-over-year Percentage Growth, excluding the effect of foreign
        # exchange rates" is that segment's growth ex-FX; a heading's "non-GAAP" may only name what the
        # rows reconcile to, so it is not taken from here.
        basis = heading
    g = normalise_label(group)
    if g and _PCT_GROUP.search(g):
        margin = find_metric(_PERCENT_WORD.sub("", _QUALIFIERS.sub("", g)).strip(" ,:"), exact=True)
        reg = by_id(margin) if margin and re.search(r"percent|%", g) else None
        own = find_metric(label, exact=True)
        if reg is not None and reg.ratio_of and reg.unit == "percent" and basis is None \
                and (own is None or by_id(own).unit != "percent") and not label.lower().startswith("total"):
            # "Services" under "Gross margin percentage:": that slice's gross margin.
            return margin, f"segment:{normalise_label(label)}"
        if reg is not None and reg.ratio_of and label.lower().startswith("total") and \
                find_metric(_PERCENT_WORD.sub("", _QUALIFIERS.sub("", normalise_label(label))).strip(), exact=True) == margin:
            return margin, basis  # "Total gross margin percentage": the company's
        return label_metric(f"{group} {label}"), basis
    metric = find_metric(label, exact=True)
    if metric is None:
        loose = _QUALIFIERS.sub("", normalise_label(label)).strip(" ,")
        loose = re.sub(r"^(?:add|less|plus)[:\s]+", "", loose)
        # "SALES, Net of returns and allowances": what a line is net of is no part of its name.
        loose = re.sub(r",?\s+net of (?:sales )?(?:returns|discounts|allowances|rebates)(?:[\w ,&]*)$", "", loose)
        # "Net income attributable to Verizon": the company's own net income, not the non-controlling share.
        loose = re.sub(r"^(net (?:income|earnings)(?: loss)?|net loss)\s+attributable to (?!non-?controlling|noncontrolling|"
                       r"minority|redeemable)[\w&.,' -]+$", r"\1 attributable", loose)
        # "Paid memberships at end of period": a count as at the column's date.
        loose = re.sub(r"\s+(?:at|as of)\s+(?:the\s+)?end\s+of\s+(?:the\s+)?(?:period|year|quarter)$", "", loose)
        if loose and _PER_SHARE.search(loose):
            # "EPS (diluted US cents)", "Diluted earnings per share attributable to Amcor": a per-share
            # figure's unit and its owner are no part of its name (an EPS is always the parent's).
            loose = _PER_SHARE_OWNER.sub(" ", _CENTS_WORDS.sub(" ", loose)).strip(" ,")
            # "Earnings (loss) per share": the sign a figure may take, no part of the quantity's name.
            loose = re.sub(r"\s+\(?loss(?:es)?\)?(?=\s+per\b)", "", loose)
            # "Net (loss) income per share", "Net loss per share, basic and diluted": one figure, both ways.
            loose = re.sub(r"\bloss(?:es)?\s+(?=(?:income|earnings)\b)", "", loose)
            loose = re.sub(r"^net per share\b", "net income per share", loose)
            loose = re.sub(r"\bbasic and diluted$", "diluted", loose)
            loose = re.sub(r"\bper\s+(?:common|ordinary)\s+share\b", "per share", loose).replace(" - ", " ")
            loose = re.sub(r"^(eps|earnings per share|(?:net )?income per share),?\s+(basic|diluted)$", r"\2 \1",
                           " ".join(loose.split()).replace(" ,", ","))
        if loose:
            # "GAAP research and development expense": the line, its basis kept apart.
            metric = find_metric(loose, exact=True) or find_metric(re.sub(r"\s+expenses?$", "", loose), exact=True)
            if metric is None and (bare := _PERCENT_WORD.sub("", loose).strip()) != loose:
                # "(gross margin %)" under Corning's gross margin in dollars: the margin in percent.
                rate = find_metric(bare, exact=True)
                metric = rate if rate is not None and by_id(rate).unit == "percent" else None
    if metric in ("eps_basic", "eps_diluted") and g and _SHARES.search(g) and not _PER_SHARE.search(g):
        return label_metric(f"{group} {label}"), basis
    if metric in ("eps_basic", "eps_diluted") and normalise_label(label) in ("basic", "diluted"):
        if not (_PER_SHARE.search(g) or "earnings" in g or "income" in g):
            return label_metric(f"{group} {label}"), basis
    if metric and g and label.lower().startswith("total") and (part := segment_row(group)) is not None \
            and part[0] == metric and part[2]:
        # "Total revenues" under "Cloud and License Revenues" (Oracle's business tables) is that
        # business's revenue, not the company's.
        return metric, f"segment:{part[1]}"
    if metric == "revenue" and _BY_GROUP.search(g) and not label.lower().startswith("total"):
        # "Sales" under "Subscription and Support Revenue by the Company's service offerings" is one
        # offering's revenue (Salesforce's Sales Cloud), not the company's.
        return metric, f"segment:{normalise_label(label)}"
    if metric and g:
        gm = find_metric(group, exact=True)
        # A line under "Operating expenses:" is one of them; under another quantity's name it is a part
        # of that one ("Automotive" under "Cost of revenues").
        if gm and gm != metric and gm not in ("revenue", "operating_expenses") \
                and not {gm, metric} <= {"eps_basic", "eps_diluted"}:  # "Basic" under "Net income per share:"
            return label_metric(f"{group} {label}"), basis
    if metric is None and g and find_metric(group, exact=True) == "revenue":
        metric = find_metric(f"{label} revenue", exact=True)  # "Cloud" under "Revenue:"
    if metric is None:
        return label_metric(f"{group} {label}" if g and len(normalise_label(label)) < 25 else label), basis
    reg = by_id(metric)
    if reg is not None and reg.instant and _CHANGE_ROW.search(f"{group} {label}"):
        # "Deferred revenue" under "Changes in operating assets and liabilities" is the year's change,
        # not the balance: read as the balance it would support a claim it has nothing to do with.
        return label_metric(f"{group} {label}" if g else f"change in {label}"), basis
    return metric, basis


def _row_metric_of(row: Row, label: str, entity: str) -> tuple[str, str | None]:
    """row_metric for a table row of ``entity``'s filing."""
    metric, stated = row_metric(label, row.group if row.label else "")
    if is_label(metric) and row.label and (plain := _without_own_name(row.label, entity)):
        # "Elastic Cloud" under "Revenue" in Elastic's release is its cloud revenue.
        own_metric, own_stated = row_metric(plain, row.group)
        if not is_label(own_metric):
            return own_metric, own_stated or stated
    return metric, stated


def _without_own_name(label: str, entity: str) -> str | None:
    """A row label without the filer's own name in front ("Elastic Cloud" -> "Cloud"), else None."""
    first = entity.split()[0].strip(",.").lower() if entity.strip() else ""
    words = label.split()
    if len(first) < 3 or len(words) < 2 or words[0].strip(",.").lower() != first:
        return None
    return " ".join(words[1:])


_PERCENT_WORD = re.compile(r"\s*(?:percentage|percent|%)\s*$", re.I)
_CHANGE_ROW = re.compile(r"\bchanges? in\b|\bincreases?\b|\bdecreases?\b|\(increase\)|\(decrease\)", re.I)

# Words that make a row a rate, whatever its cells print.
_RATE_WORDS = re.compile(r"%|\bpercent|\brate\b|\bratio\b|\bbps\b|\bbasis points?\b|\bpoints?\b|\bpts\b", re.I)
_PERCENT_CAPTION = re.compile(r"percent|%|ratios?\b|margins?\b", re.I)
_MONEY_CELL = re.compile(r"[$€£¥]")
# "Operating ratio (%)", "Effective tax rate, percent": a row that prints its unit in its name.
_PERCENT_ROW = re.compile(r"%|\bpercent(?:age)?\b", re.I)


def amount_of_margin(metric: str, row: Row, table: Table) -> str | None:
    """The quantity a margin-named row prints when its cells are money, not percentages: "Gross margin
    $4,506" in a table "in millions" is gross profit (Corning and Intel name it so), Oracle's "Operating
    margin 3,991" operating income. Returns that numerator's id, or None for a row of percentages.

    A cell with a currency sign is money; so is one of 100 or more (no margin is 100% of revenue) or,
    in a table whose caption states a money scale and no percentages, one in a column that prints
    dollars elsewhere. A "%" in the cell, its header or its column, or a rate word in the row's
    label or group, keeps the row a percentage."""
    reg = by_id(metric)
    if reg is None or reg.unit != "percent" or reg.ratio_of is None:
        return None
    if _RATE_WORDS.search(f"{row.group} {row.label}"):
        return None
    cols = table.columns
    cells = [c for c in row.cells if c.value is not None and c.column < len(cols) and cols[c.column].period is not None]
    if not cells:
        return None
    marks: dict[int, set[str]] = {}
    for r in table.rows:
        for c in r.cells:
            seen = marks.setdefault(c.column, set())
            if "%" in c.text:
                seen.add("%")
            if _MONEY_CELL.search(c.text):
                seen.add("$")
    for c in cells:
        header = " ".join(cols[c.column].header)
        if "%" in c.text or "%" in header or "percent" in header.lower() or marks.get(c.column) == {"%"}:
            return None
    money = any(_MONEY_CELL.search(c.text) for c in cells) or any(abs(c.value) >= 100 for c in cells) or (
        table.scale > 0 and not _PERCENT_CAPTION.search(table.scale_source)
        and any("$" in marks.get(c.column, ()) for c in cells))
    return reg.ratio_of[0] if money else None


def _unsure_basis_columns(table: Table) -> set[int]:
    """Columns whose basis the table leaves open: where headers print "GAAP" and "Non-GAAP" over groups
    of periods, a column that names neither and whose period another column also has may be either
    (a PDF sets a spanning "Non-GAAP" over one column of its group, as Intel's summary shows)."""
    headers = [_RECONCILIATION_TITLE.sub(" ", " ".join(c.header)) for c in table.columns]
    if not (any(_NON_GAAP_GROUP.search(h) for h in headers) and any(states_gaap(h) for h in headers)):
        return set()
    periods = Counter(c.period for c in table.columns if c.period)
    return {i for i, (c, h) in enumerate(zip(table.columns, headers))
            if c.period and periods[c.period] > 1 and not (states_gaap(h) or _header_basis(h))}


_BARE_YEAR = re.compile(r"\s*(?:19|20)\d{2}\s*(?:\(\w\))?\s*")
_YEAR4 = re.compile(r"(?<!\d)(?:19|20)\d{2}(?!\d)")
_MONTH_DAY = re.compile(rf"\b(?:{'|'.join(sorted(MONTHS, key=len, reverse=True))})\.?\s+\d{{1,2}}\b", re.I)
_SPAN = re.compile(r"\b(?:months|weeks|quarters?|years?)\s+end(?:ed|ing)\b", re.I)
_PARTS = (  # a header line naming a part of the year without its year, and the words that name it with one
    (re.compile(r"\b(?:twelve|12)[\s-]+months|\bfull[\s-]+year\b|\b(?:fifty-two|52|fifty-three|53)[\s-]+weeks|"
                r"\b(?:fiscal[\s-]+)?years?[\s-]+end(?:ed|ing)\b", re.I), "fiscal year"),
    (re.compile(r"\b(?:nine|9)[\s-]+months|\b(?:thirty-nine|39|thirty-six|36|forty|40)[\s-]+weeks|\b9M\b", re.I), "9M"),
    (re.compile(r"\b(?:six|6)[\s-]+months|\b(?:twenty-six|26|twenty-four|24|twenty-eight|28)[\s-]+weeks|"
                r"\b(?:first|1st)[\s-]+half\b|\b1H\b|\bH1\b", re.I), "1H"),
)
_SOME_QUARTER = re.compile(r"\b(?:three|3)[\s-]+months|\b(?:thirteen|13|twelve|12|sixteen|16)[\s-]+weeks|"
                           r"\bquarters?[\s-]+end", re.I)
_QUARTER_NAMES = ("first quarter", "second quarter", "third quarter", "fourth quarter")


def _banner_of(line: str) -> str | None:
    """The words a header line that names a part of the year without its year puts before a year: "FIRST
    QUARTER" -> "first quarter", "SIX MONTHS" -> "1H", "Three Months Ended April 30," -> itself; "" for
    a quarter that does not say which ("Three Months Ended"). None for a line that prints a year (a
    column's own header) or names no part."""
    if _YEAR4.search(line):
        return None
    if _SPAN.search(line) and _MONTH_DAY.search(line):
        return line.strip().rstrip(",")
    if (q := bare_quarter(line)) is not None:
        return _QUARTER_NAMES[q - 1]
    for pattern, words in _PARTS:
        if pattern.search(line):
            return words
    return "" if _SOME_QUARTER.search(line) else None


def _banner_parts(headers: list[list[str]]) -> list[str | None]:
    """For each column, the words a bare year column ("2023") takes from a banner printed in another
    column's header (a PDF sets "SECOND QUARTER" or "Three Months Ended April 30," over "2023 | 2022"
    wherever its layout puts it): None to read the column as it stands, "" when it gives no fact.

    One banner applies to every bare year column. Several ("FOURTH QUARTER", "TWELVE MONTHS") apply in
    their order when the bare year columns fall into as many runs of the same years; otherwise a bare
    year is no period it can be trusted to be, and its column gives no fact."""
    banners: list[str] = []
    for header in headers:
        for line in header:
            words = _banner_of(line)
            if words is not None and (not banners or banners[-1] != words):
                banners.append(words)
    bare = [i for i, h in enumerate(headers) if _BARE_YEAR.fullmatch(" ".join(h))]
    out: list[str | None] = [None] * len(headers)
    if not banners or not bare:
        return out
    if len(bare) % len(banners) == 0:
        size = len(bare) // len(banners)
        groups = [bare[k * size:(k + 1) * size] for k in range(len(banners))]
        years = [[" ".join(headers[i]).strip() for i in g] for g in groups]
        if all(y == years[0] for y in years):
            for words, group in zip(banners, groups, strict=True):
                for i in group:
                    out[i] = words
            return out
    for i in bare:
        out[i] = ""
    return out


def _year_banner(headers: list[list[str]]) -> str | None:
    """The one year a table prints on a header line of its own ("2023" over "Q1 | Q2 | SIX MONTHS")."""
    years = {line.strip() for h in headers for line in h if _BARE_YEAR.fullmatch(line)}
    return years.pop() if len(years) == 1 else None


def _part_with_year(text: str, year_banner: str | None) -> str:
    """A header naming a part of the year and a year in another order than the period reader's ("2023
    Q2 Amount"), or a part under the table's year banner ("Q1 Amount"), as "second quarter 2023"."""
    if dates_in(text):
        return text
    years = set(_YEAR4.findall(text))
    words = _banner_of(_YEAR4.sub(" ", text))
    if not words or _MONTH_DAY.search(words):
        return text
    year = years.pop() if len(years) == 1 else year_banner if not years else None
    return f"{words} {year}" if year else text


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
    year_banner = _year_banner(grid.headers)
    for header, banner in zip(grid.headers, _banner_parts(grid.headers), strict=True):
        joined = _part_with_year(" ".join(header), year_banner)
        p = column_period(f"{banner} {joined}" if banner else joined, fye) if banner != "" else None
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


_CHANGE_HEADER = re.compile(
    r"\bchange\b|\bvs\.?(?=\s|$)|\bversus\b|\bgrowth\b|\bincrease\b|year[- ]over[- ]year|\by/y\b|\byoy\b", re.I)
_SEQUENTIAL = re.compile(r"quarter[- ]over[- ]quarter|\bsequential|\bq/q\b|\bqoq\b|month[- ]over[- ]month", re.I)
_CURRENCY_NEUTRAL = re.compile(
    r"constant[- ]currenc|excluding (?:foreign )?(?:currency|exchange)|fx[- ]neutral|currency[- ]neutral"
    # Oracle's stacked header "Percent Change | Actual | Constant" loses "Currency" to the next line.
    r"|\bchange\b.*\bconstant\b", re.I)
_GROWTH_ROW = re.compile(
    r"^(?P<q1>.*?)\b(?:change|growth|increase)\s+in\s+(?P<m1>.+)$|^(?P<m2>.+?)\s+(?:growth|change)(?:\s+rate)?$", re.I)
_VERSUS = re.compile(r"\s(?:vs\.?|versus|compared (?:to|with))\s", re.I)


def _growth_row(label: str) -> tuple[str, str | None] | None:
    """ "Constant currency change in revenues" is revenue growth on a constant-currency basis."""
    m = _GROWTH_ROW.match(normalise_label(label))
    if not m:
        return None
    name = (m.group("m1") or m.group("m2") or "").strip()
    metric = find_metric(name, exact=True) or find_metric(_QUALIFIERS.sub("", name).strip(" ,"), exact=True)
    if metric is None:
        return None
    return metric, basis_from_text(m.group("q1") or "") or basis_from_text(label)


def _change_period(header: str, table: Table, fye: FiscalYearEnd | None) -> tuple[str, object, object] | None:
    """The period a year-over-year change column speaks for: the first side of "Q2'25 vs. Q2'24", else
    the table's latest period (a lone "% Change Year Over Year" beside "Three Months Ended April 30, 2025")."""
    parts = _VERSUS.split(f" {header} ", maxsplit=1)
    if len(parts) == 2:
        lead = re.sub(r"\b(?:%\s*)?change\b|%", " ", parts[0], flags=re.I)
        label = period_from_text(lead, fye)
        if label is not None:
            same = next((c for c in table.columns if c.period == label), None)
            return label, same.period_start if same else None, same.period_end if same else None
    dated = [c for c in table.columns if c.period and c.period_end is not None and c.period_start is not None]
    if not dated:
        return None
    latest = max(dated, key=lambda c: (c.period_end, -(c.period_end - c.period_start).days))
    return latest.period, latest.period_start, latest.period_end


def title_metric(title: str) -> str | None:
    """The one registry quantity a table's title names ("Net Revenue and Organic Revenue Growth"), or
    None when it names none or several ("Net Revenue and Operating Profit")."""
    rest = normalise_label(title)
    found = None
    while rest and (span := find_metric_span(rest)) is not None:
        if found not in (None, span[0]):
            return None
        found = span[0]
        rest = (rest[:span[1]] + " " + rest[span[2]:]).strip()
    return found


def growth_facts(table: Table, entity: str, fye: FiscalYearEnd | None,
                 default_period: tuple[str, object, object] | None = None) -> list[Fact]:
    """Printed year-over-year growth rates as ``growth:<metric>`` facts in percent points.

    Two layouts print them: a "% Change" / "Q2'25 vs. Q2'24" column beside the period columns, and a
    row such as "Constant currency change in revenues". A header or label that says constant currency
    (or "excluding currency changes") gives that basis; sequential changes are not growth rates.
    A table of change columns alone (no dated column) speaks for ``default_period``, the document's
    main period, and its bare "Total" row is the quantity the title names.
    """
    out: list[Fact] = []
    headers = [" ".join(c.header) for c in table.columns]
    change_cols = {i for i, h in enumerate(headers)
                   if _CHANGE_HEADER.search(h) and not _SEQUENTIAL.search(h) and table.columns[i].period is None}
    for ri, row in enumerate(table.rows):
        label = row.label or row.group
        if not label or not row.cells:
            continue
        grow = _growth_row(label)
        if grow is not None:
            metric, stated = grow
        else:
            metric, stated = _row_metric_of(row, label, entity)
            if is_label(metric) and normalise_label(label) == "total":
                metric = title_metric(table.title) or metric
            metric = amount_of_margin(metric, row, table) or metric  # "Gross margin $4,506 ... (11%)": gross profit's
            if stated is None and row.label and not states_gaap(label):
                stated = _group_basis(row.group)
            reg = by_id(metric)
            if reg is None or reg.unit == "percent":
                continue  # a margin's change is in points, not a growth rate
        for cell in row.cells:
            if cell.value is None or cell.column >= len(table.columns):
                continue
            header = headers[cell.column]
            pct = cell.text.rstrip().endswith("%") or (
                ("%" in header or "percent" in header.lower()) and "$" not in header and "$" not in cell.text)
            if not pct:
                continue
            if cell.column in change_cols:
                period = _change_period(header, table, fye) or default_period
            elif grow is not None and table.columns[cell.column].period is not None:
                col = table.columns[cell.column]
                period = (col.period, col.period_start, col.period_end)
            else:
                continue
            if period is None:
                continue
            basis = stated or ("constant-currency" if _CURRENCY_NEUTRAL.search(header) else
                               _header_basis(header) or "GAAP")
            text = cell.text
            out.append(Fact(
                entity=entity, metric=growth_metric(metric), label=row.label or row.group, basis=basis,
                period=period[0], period_start=period[1], period_end=period[2], value=cell.value,
                unit="percent", scale=0, currency=None, as_printed=text.lstrip("$ ").strip(),
                source=FactSource(kind="table", table=table.id, row=ri, column=cell.column, section=table.section,
                                  page=table.page, bbox=cell.bbox,
                                  locator=f"{table.title}; row '{row.label or row.group}'; column '{header}'"),
            ))
    return out


_SLICE_STOP = frozenset(
    "to of per from before after excluding including net related attributable less plus add other's on in by for "
    "as with without beginning end change changes impact effect adjustments deferred unearned".split())
_SLICE_DROP = frozenset("total segment segments the".split())


@lru_cache(maxsize=1 << 14)  # pure, like row_metric
def segment_row(label: str) -> tuple[str, str, bool] | None:
    """A row naming a registry quantity for one slice of the company: "Gross margin total automotive",
    "Energy generation and storage segment revenue". Returns (metric, slice words, whether the slice
    is printed before the name), or None."""
    t = normalise_label(label)
    found = find_metric_span(t)
    if found is None:
        return None
    metric, start, end = found
    if start > 0 and end < len(t):
        return None  # a name in the middle ("cost of revenue for services") is not a slice label
    if start == 0 and not re.match(r"\s*total\b|.*\bsegments?$", t[end:]):
        return None  # "Revenue recognized", "Sales return reserve": words after a name are rarely a slice
    rest = (t[:start] + " " + t[end:]).replace("&", " and ")
    words = [w for w in re.findall(r"[a-z0-9]+", rest) if w not in _SLICE_DROP]
    reg = by_id(metric)
    if not words and end == len(t) and re.fullmatch(r"(?:total\s+)?segments?\s+", t[:start]) and reg is not None \
            and reg.basis == "GAAP" and reg.unit not in ("USD/share", "count"):
        return metric, "", True  # "Segment operating income margin" in a segment's table that names it nowhere
    if (not words or len(words) > 6 or reg is None or reg.unit in ("USD/share", "count") or reg.basis != "GAAP"
            or any(w in _SLICE_STOP for w in words) or all(w in ("and", "other") for w in words)):
        return None
    return metric, " ".join(words), start > 0


_EXCEPT_SCALE = re.compile(
    r"\bexcept(?:\s+for)?\s+(?P<what>[a-z][^()]*?),?\s+(?:which\s+(?:is|are)\s+)?"
    r"(?:presented|stated|shown|expressed|reported|given)?\s*in\s+(?P<scale>thousands|millions|billions)\b", re.I)
_SCALE_WORDS = {"thousands": 3, "millions": 6, "billions": 9}


def excepted_scale(caption: str, label: str, scale: int) -> int:
    """The scale of a row the caption sets apart: "(in millions, except remaining performance
    obligation, which is presented in billions)" puts that row in billions, the rest in millions."""
    if "except" not in caption.lower():
        return scale
    row = normalise_label(label)
    for m in _EXCEPT_SCALE.finditer(caption):
        what = normalise_label(m.group("what"))
        if what and row and (what in row or row in what):
            return _SCALE_WORDS[m.group("scale").lower()]
    return scale


def _concept_words(concept: str) -> str:
    """ "us-gaap:AllocatedShareBasedCompensationExpense" as "allocated share based compensation expense"."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", concept.rsplit(":", 1)[-1]).lower()


_STATUTORY = re.compile(r"\bstatutory\b", re.I)
_RATE_LINE = re.compile(r"\brate\b|\btax(?:es)?\b", re.I)


def table_facts(
    table: Table,
    entity: str,
    contexts: dict[str, Context] | None = None,
    page_of: Callable[[Cell], int | None] | None = None,
    tag_units: dict[tuple[str, str], str] | None = None,
    fye: FiscalYearEnd | None = None,
) -> list[Fact]:
    """One fact per numeric cell whose column denotes a period: registry metrics where the row names one.

    A cell tagged in iXBRL lends its unit (shares, USD per share, pure) but never its scale: the scale
    comes from the table's caption, so the iXBRL agreement rate measures our reading of the page.
    """
    out: list[Fact] = []
    non_gaap_table = bool(_NON_GAAP_TITLE.search(table.title))
    cols = table.columns
    # A column that prints "%" and never "$" is a percentage column, its "25.0" included: NVIDIA's
    # "Results of Operations" gives each line as a percentage of revenue beside no dollar figure.
    marks: dict[int, set[str]] = {}
    for row in table.rows:
        for cell in row.cells:
            marks.setdefault(cell.column, set()).update(ch for ch in "%$" if ch in cell.text)
    percent_columns = {c for c, seen in marks.items() if seen == {"%"}}
    unsure = _unsure_basis_columns(table)
    # A rate reconciliation ("Tax at the statutory rate 21.0%, Stock-based compensation (2.3)%") gives
    # each line's effect on the tax rate: never that line as a percentage of revenue.
    tax_rate_table = any(_STATUTORY.search(r.label or r.group or "") for r in table.rows)
    for ri, row in enumerate(table.rows):
        if not row.cells:
            continue
        label = row.label or row.group
        if not label:
            continue
        metric, stated = _row_metric_of(row, label, entity)
        metric = amount_of_margin(metric, row, table) or metric
        reg = by_id(metric)
        context_words = f"{row.group} {label}"
        if stated is None and non_gaap_table and not (reg and reg.concepts) and not states_gaap(label):
            stated = "non-GAAP"
        if stated is None and row.label and not states_gaap(label):
            stated = _group_basis(row.group)
        if stated is None and reg is not None and reg.basis != "GAAP":
            stated = reg.basis
        if stated is None and states_gaap(label):
            stated = "GAAP"
        sliced = segment_row(row.label) if is_label(metric) and row.label and stated is None else None
        if sliced is not None and sliced[2] and row.group and find_metric(row.group) not in (None, sliced[0]):
            sliced = None  # "Automotive sales" under "Cost of revenues" is a cost, not revenue
        if sliced is not None and (whole := amount_of_margin(sliced[0], row, table)):
            sliced = (whole, sliced[1], sliced[2])  # "Gross margin total automotive $4,506": that slice's gross profit
        if sliced is not None and not sliced[1]:
            sliced = (sliced[0], _part_name(table, ri), sliced[2])  # "Segment net income" under "Specialty Materials"
        shares = bool(_SHARES.search(context_words)) and (
            bool(_SHARE_COUNT.search(context_words)) or not _EPS_WORDS.search(context_words))
        per_share = not shares and (bool(_PER_SHARE.search(context_words)) or (reg is not None and reg.unit == "USD/share"))
        row_cents = bool(_CENTS.search(context_words))
        row_scale = 0 if _PER_UNIT.search(row.label or "") else excepted_scale(table.scale_source, label, table.scale)
        for cell in row.cells:
            if cell.value is None or cell.column >= len(cols):
                continue
            col = cols[cell.column]
            if col.period is None:
                continue
            header = " ".join(col.header)
            text = cell.text
            if stated is None and cell.column in unsure:
                continue
            # "GAAP Q4 FY25 | Non-GAAP Q4 FY25", "% change in constant currency": a column may state the basis;
            # a table title carried into the header ("Reconciliation of GAAP to Non-GAAP Data") states none.
            basis = stated or _header_basis(header) or "GAAP"
            dims: dict[str, str] = {}
            period, period_start, period_end = col.period, col.period_start, col.period_end
            if reg is not None and reg.instant and period_start is not None:
                # A balance under a "Three months ended" column is the balance at the quarter's end
                # (supplementary tables print them beside the quarter's flows); as an instant it
                # answers for the fiscal year that quarter closes too.
                period_start = None
            if contexts and cell.context and cell.context in contexts:
                ctx = contexts[cell.context]
                dims = dict(ctx.dimensions)
                if dims and stated is None:
                    basis = basis_for(dims)
                if ctx.end is not None:
                    # The tag's context says which period the cell is, whatever the header reads as.
                    period, period_start, period_end = label_for_span(ctx.start, ctx.end, fye), ctx.start, ctx.end
            tag_unit = tag_units.get((cell.concept, cell.context)) if tag_units and cell.concept else None
            if tag_unit is not None:
                tu = tag_unit.lower()
                kind = ("pershare" if tu.endswith("/share") else "shares" if tu == "shares"
                        else "percent" if tu == "pure" else "money" if len(tu) == 3 else None)
            else:
                kind = None
            fact_metric = metric
            if cell.concept and by_concept(cell.concept) != metric and \
                    (reg is None or cell.concept.rsplit(":", 1)[-1] not in reg.concepts):
                # The tag decides what a cell is: "Cost of revenue" in a stock-compensation note is tagged
                # as compensation expense, not as cost of revenue.
                fact_metric = by_concept(cell.concept) or label_metric(_concept_words(cell.concept))
            if kind is None and cell.column in percent_columns and not cell.concept and metric == "revenue":
                continue  # revenue as a percentage of itself (100%) says nothing
            if kind is None and cell.column in percent_columns and not cell.concept and reg is not None \
                    and reg.unit != "percent":
                # Each line as a percentage of revenue: the line's share, never an amount.
                fact_metric = share_metric(metric)
                unit, scale, currency = "percent", 0, None
            elif kind == "percent" or (kind is None and (text.endswith("%") or "%" in header or cell.column in percent_columns
                                                       or (reg is not None and reg.unit == "percent") or (
                    (_PCT_GROUP.search(row.group) or _PERCENT_ROW.search(row.label)) and "$" not in text))):
                unit, scale, currency = "percent", 0, None
            elif kind == "pershare" or (kind is None and per_share):
                # Amcor's "EPS (diluted US cents) 19.3" is $0.193 a share.
                unit, scale, currency = "USD/share", -2 if row_cents or _CENTS.search(header) else 0, "USD"
            elif kind == "shares" or (kind is None and (shares or _SHARES.search(header))):
                unit, scale, currency = "shares", _shares_scale(table.scale, table.scale_source), None
            elif reg is not None and reg.unit == "count":
                unit, scale, currency = "count", row_scale, None
            else:
                unit, scale, currency = "USD", row_scale, "USD"
            value = cell.value.scaleb(scale) if scale else cell.value
            fact_label = row.label or row.group
            if tax_rate_table and unit == "percent" and not _RATE_LINE.search(fact_label):
                fact_label = f"Income tax rate effect: {fact_label}"
                fact_metric = label_metric(fact_label)
            locator = f"{table.title}; row '{row.label or row.group}'; column '{header}'"
            page = page_of(cell) if page_of else table.page
            out.append(Fact(
                entity=entity, metric=fact_metric, label=fact_label, basis=basis, period=period,
                period_start=period_start, period_end=period_end, value=value, unit=unit, scale=scale,
                currency=currency, as_printed=text.lstrip("$ ").strip(),
                source=FactSource(kind="table", table=table.id, row=ri, column=cell.column, concept=cell.concept,
                                  context=cell.context, section=table.section, page=page, bbox=cell.bbox,
                                  locator=locator),
                dimensions=dims,
            ))
            if sliced is not None and not dims:
                # The same cell read as the registry quantity on that slice's basis, so a total-company
                # claim can be told it matches a segment's figure (different basis, not contradicted).
                out.append(msgspec.structs.replace(out[-1], metric=sliced[0], basis=f"segment:{sliced[1]}"))
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


# "Diluted EPS was $1.64, up 12% when excluding the one-time charge": the figure is not GAAP.
_EXCLUDING_AFTER = re.compile(
    r"\b(?:when|if|after|before)\s+exclud\w*|\bexcluding\s+(?:the\s+|a\s+)?(?:one-time|non-recurring|special|"
    r"certain|unusual)\b",
    re.I,
)
_SENTENCE_END = re.compile(r"[.;](?:\s|$)(?=\s*[A-Z\u201c\"(]|\s*$)")


_PER_SHARE_AFTER = re.compile(r"\s*(?:per|a|/)\s*(?:diluted\s+|basic\s+)?(?:common\s+|ordinary\s+)?share\b", re.I)


_CHANGE_NAME = re.compile(r"\b(?:increases?|decreases?|changes?|growth|declines?|reductions?|improvements?|"
                          r"differences?|rise|drop)\s*$|\bby\s*$", re.I)


# A figure read as an amount of money carries one of these (see parse_printed).
_MONEY_SIGN = re.compile(r"[$€£¥]")
# A section's every sentence asks its heading for a period.
_heading_period = lru_cache(maxsize=1024)(period_from_text)


def _clause_after(text: str, end: int) -> str:
    m = _SENTENCE_END.search(text, end)
    return text[end: m.start() if m else len(text)]


def text_facts(text: str, entity: str, fye: FiscalYearEnd | None, default_period: str | None,
               section: str | None, section_title: str, page: int | None = None) -> list[Fact]:
    """Facts stated in a sentence: "Revenue was $39.0 billion" (registry metric named just before the figure)."""
    out: list[Fact] = []
    cues = list(_TEXT_CUE.finditer(text))
    money = _MONEY_SIGN.search(text) is not None
    counted = _COUNTED.search(text) is not None
    heads = _HEAD_COUNT_WORD.search(text) is not None
    rates = ("%" in text or "percent" in text) and _GROWTH_VERB.search(text) is not None
    moves = "points" in text and _MARGIN_MOVE.search(text) is not None
    if not (cues or money or counted or heads or rates or moves):
        return out  # no figure below could be read: most of a filing's sentences, skipped before their period
    # A sentence that names no period speaks for its heading ("Full Fiscal 2025 Financial Highlights");
    # the period of what it compares with ("compared to an increase of 37.9% in fiscal 2021") is not its own.
    own = _COMPARED_PERIOD.split(text, maxsplit=1)[0]
    stated = period_from_text(own if len(own.strip()) > 15 else text, fye) or _heading_period(section_title, fye)
    period = stated or default_period
    if period is None:
        return out
    if re.fullmatch(r"FY\d{4}", period) and (q := bare_quarter(text)):
        period = f"Q{q} {period}"  # "Q4 Cloud Revenue of $5.3 billion" under a fiscal-2024 heading

    compared: set[int] = set()

    def fact(metric: str, p, basis: str, unit: str, value, currency) -> Fact:
        label = _sentence_period(text, p.start, fye) or period
        reg = by_id(metric)
        # A flow stated in a sentence covers its whole period; without dates the rules would read it as a
        # balance, which also answers for the year's last quarter.
        span = None if reg is None or reg.instant else span_of_label(label, fye)
        made = Fact(
            entity=entity, metric=metric, label=text[:300], basis=basis, period=label,
            period_start=span[0] if span else None, period_end=span[1] if span else None, value=value, unit=unit,
            scale=p.scale, currency=currency,
            as_printed=p.text,
            source=FactSource(kind="text", section=section, page=page,
                              locator=f"{section_title}; text '{text[max(0, p.start - 60):p.end + 20].strip()}'"),
        )
        if _is_compared(text, p.start, p.end):
            compared.add(id(made))
        return made

    if counted:
        out.extend(_counted_facts(text, fact))
    if heads:
        out.extend(_head_count_facts(text, fact))
    if rates:
        out.extend(_growth_sentence_facts(text, fact))
    if moves and stated:
        # A 10-Q discusses the quarter and the year to date in sentences alike; a move that names neither
        # is not taken for the document's own period.
        out.extend(_margin_move_facts(text, fact))
    if money:
        out.extend(_amount_of_facts(text, fact))
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
        if _CHANGE_NAME.search(name):
            continue  # "an increase of $56.1 million" in sales and marketing is a change, not the expense
        metric = find_metric(name)
        if metric is None:
            continue
        reg = by_id(metric)
        if reg is not None and ((reg.unit == "percent") != (p.unit == "percent") or (reg.unit == "count" and p.currency)):
            continue  # "customers with annual contract value of over $100,000" is not a count of $100,000
        if _PER_SHARE_AFTER.match(text, p.end) and (reg is None or reg.unit != "USD/share"):
            continue  # "a cash dividend of $0.25 per share" is not cash
        if reg is not None and reg.unit == "count" and re.match(r"\s*(?:common\s+)?shares\b", text[p.end:]):
            continue  # "stock available for issuance to employees is 1.5 billion shares" counts no employees
        if p.unit == "percent":
            unit, currency, value = "percent", None, p.value
        elif reg is not None and reg.unit == "USD/share":
            unit, currency, value = "USD/share", p.currency, p.value
        else:
            unit = "USD" if p.currency == "USD" else ("count" if not p.currency else "currency")
            currency, value = p.currency, p.value.scaleb(p.scale) if p.scale else p.value
        if metric in LOSS_METRICS and value > 0 and names_a_loss(name):
            # "net loss was $55.4 million", "net loss per share was $0.25": below zero, as the tables print it.
            value = -value
        basis = basis_from_text(before[-60:])
        if basis is None and _EXCLUDING_AFTER.search(_clause_after(text, p.end)):
            basis = "non-GAAP"
        basis = basis or (reg.basis if reg else "GAAP")
        out.append(fact(metric, p, basis, unit, value, currency))
    return [f for f in out if id(f) not in compared]


# "... to $293.6 million from net sales of $303.5 million for the prior year quarter": the figure the
# sentence compares with belongs to another period, which the sentence names loosely if at all.
_FROM_BEFORE = re.compile(r"\bfrom\b[^.;]{0,40}$", re.I)
_PRIOR_AFTER = re.compile(r"^[^.;]{0,80}?\b(?:(?:prior|previous|last)[- ](?:year|fiscal|quarter|period)|a year (?:ago|earlier)"
                          r"|for the (?:prior|previous|same))", re.I)


_NEW_CLAUSE = re.compile(r",\s+(?:and|while|but|whereas)\s+|;\s+", re.I)


def _is_compared(text: str, start: int, end: int) -> bool:
    """Whether the figure at ``start`` is the one its sentence compares with, not the one it states."""
    # "..., and operating (non-GAAP) EPS of $2.80 increased 15.2 percent": a new clause states anew.
    before = _NEW_CLAUSE.split(text[_sentence_start(text, start):start])[-1]
    return bool(_COMPARED.search(before)) or bool(_FROM_BEFORE.search(before) and _PRIOR_AFTER.search(text[end:]))


def _sentence_start(text: str, at: int) -> int:
    """Where the sentence holding offset ``at`` begins."""
    start = 0
    for m in _SENTENCE_END.finditer(text, 0, at):
        start = m.end()
    return start


def _sentence_period(text: str, at: int, fye: FiscalYearEnd | None) -> str | None:
    """The period the figure's own sentence names: a paragraph often spans several years."""
    start = _sentence_start(text, at)
    end = _SENTENCE_END.search(text, at)
    sentence = _COMPARED_PERIOD.split(text[start: end.start() if end else len(text)], maxsplit=1)[0]
    if sentence.strip() == text.strip():
        return None
    return period_from_text(sentence, fye)


# "..., an increase of $917 million compared to the year ended December 31, 2023": the comparison is not the period.
_COMPARED = re.compile(r"\b(?:compared (?:to|with)|as compared|versus|vs\.?|from the (?:prior|previous|same))\b", re.I)
# "Operating income of $9.7 billion increased 7% from 2023": the year compared with is not the period,
# though a figure after it may be the sentence's own ("rose from 2023's level to $9.7 billion").
_COMPARED_PERIOD = re.compile(_COMPARED.pattern + r"|\b(?:from|over)\s+(?:fiscal\s+)?(?=(?:19|20)\d{2}\b)", re.I)


# "delivered approximately 2,700,000 vehicles": a count whose noun and verb name the metric.
_COUNTED = re.compile(
    r"\b(?P<verb>delivered|produced|shipped|sold)\s+(?:approximately\s+|about\s+|over\s+|more than\s+|nearly\s+)?"
    r"(?=\d)(?P<fig>\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?\s+(?:thousand|million|billion))\s+"
    r"(?P<noun>[a-z][a-z -]{2,40}?)(?=\s*[,.;]|\s+(?:in|during|and|for|as|through|to|from)\b)",
    re.I,
)
# "recognized $310 million of Data Cloud (Premium) revenue due to ...": the quantity is named after "of".
_AMOUNT_OF = re.compile(
    r"\s+of\s+(?P<name>[A-Za-z][\w()&'’ -]{2,60}?)(?=\s+(?:due|in|during|for|from|as|related|which|that|and|was|were|"
    r"under|compared)\b|\s*[,.;]|\s*$)")
_NOT_SLICE = frozenset("total net our the its their consolidated gaap reported annual quarterly".split())


# People and accounts a company counts: "a global workforce of 74,067 employees", "Headcount was
# 74,067", "301.6 million paid memberships". A bound ("more than 10,000 customers") is not the count.
_HEAD_COUNT_WORD = re.compile(r"\b(?:employees|headcount|customers|paid memberships|paid members|subscribers)\b", re.I)
_COUNT_FIG = r"(?P<fig>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?(?:\s+(?:thousand|million|billion))?)"
_COUNT_BOUND = re.compile(r"(?:more than|over|at least|nearly|almost|up to|under|fewer than|less than)\s*$", re.I)
_COUNT_AFTER = re.compile(
    r"(?<![\d$.,])" + _COUNT_FIG + r"\s+(?P<noun>(?:(?:full|part)-time\s+(?:and\s+(?:full|part)-time\s+)?)?"
    r"(?:employees|paid memberships|paid members|"
    r"customers|subscribers))\b(?!\s+(?:with|building|using|who|that|paying|spending|over|above|in|on|of)\b)",
    re.I)
_COUNT_BEFORE = re.compile(
    r"\b(?P<noun>headcount|(?:total\s+)?employees|paid memberships|(?:total\s+)?customers|subscribers)\s+"
    r"(?:was|were|of|totaled|totalled|reached|stood at)\s+(?:approximately\s+|about\s+|roughly\s+)?(?<![\d$.,])"
    + _COUNT_FIG + r"(?![\d.,]*\s*%)", re.I)


# "Organic sales increased 2%", "Revenue grew 9% year-over-year": a quantity named exactly (basis words
# aside), a verb of change, and the rate. A name with other words in it ("International revenue grew")
# is a slice this sentence does not say, so it gives nothing.
_GROWTH_VERB = re.compile(r"\b(?:increased|grew|rose|declined|decreased|fell)\b", re.I)
_GROWTH_SENTENCE = re.compile(
    r"(?:^|[.;:,]\s+|\b(?:and|while|with)\s+)(?P<name>[A-Za-z][A-Za-z&\- ]{1,50}?)\s+(?:\([^()]{0,120}\)\s+)?"
    # "Comparable store net sales for the 13-week period ended November 2, 2024 decreased 0.7 percent".
    r"(?:for the [\w ,-]{0,80}?\bended\s+[A-Z][a-z]+\.?\s+\d{1,2},\s+\d{4}\s+)?"
    r"(?P<verb>increased|grew|rose|declined|decreased|fell)\s+(?:by\s+)?(?:approximately\s+|about\s+)?"
    r"(?P<fig>\d{1,3}(?:\.\d+)?)\s?(?:%|percent\b)(?!\s*(?:points?|pts))", re.I)
_GROWTH_DROP = re.compile(r"\b(?:organic|constant[- ]currency|reported|total|our|the|gaap)\b", re.I)


def _growth_sentence_facts(text: str, make) -> list[Fact]:
    out = []
    for m in _GROWTH_SENTENCE.finditer(text):
        name = m.group("name").strip()
        after = text[m.end():m.end() + 60]
        if _SEQUENTIAL.search(after[:30]):
            continue  # "declined 3% sequentially" is no year-over-year rate
        core = " ".join(_GROWTH_DROP.sub(" ", name).split())
        metric = (find_metric(core, exact=True) or find_metric(re.sub(r"\bnet\s+", "", core), exact=True)) if core else None
        reg = by_id(metric) if metric else None
        # A rate is no quantity that grows, except one that is itself a growth rate: "comparable sales
        # (stores open at least 14 months) increased 15.6%" is the comparable sales figure.
        rate = reg is not None and reg.unit == "percent" and reg.ratio_of is None and reg.basis == "operating metric" \
            and not m.group("name").lower().rstrip().endswith("rate")
        if reg is None or (reg.unit == "percent" and not rate):
            continue
        p = next(iter(parse_printed(m.group("fig") + "%")), None)
        if p is None:
            continue
        p = msgspec.structs.replace(p, start=m.start("fig"), end=m.start("fig") + len(p.text))
        down = m.group("verb").lower() in ("declined", "decreased", "fell")
        basis = basis_from_text(f"{name} {after[:40]}") or ("GAAP" if not rate else reg.basis)
        out.append(make(metric if rate else growth_metric(metric), p, basis, "percent", -p.value if down else p.value,
                        None))
    return out


# "operating margin increased 90 basis points to 23.0%", "Gross margin decreased 20 basis points": a
# margin's move in points, stated only where the sentence names the margin exactly.
_MARGIN_MOVE = re.compile(
    r"\b(?P<name>(?:gross|operating|net)(?: profit| income)? margins?)\s+(?:was\s+|were\s+)?"
    r"(?P<verb>increased|decreased|expanded|contracted|improved|declined|rose|fell|grew|was up|was down|up|down)\s+"
    r"(?:by\s+)?(?:approximately\s+|about\s+)?(?P<fig>\d{1,4}(?:\.\d+)?)\s*(?P<unit>basis points?|bps|bp|"
    r"percentage points?|points?|pts)\b", re.I)


def _margin_move_facts(text: str, make) -> list[Fact]:
    out = []
    for m in _MARGIN_MOVE.finditer(text):
        metric = find_metric(m.group("name"), exact=True)
        reg = by_id(metric) if metric else None
        if reg is None or reg.unit != "percent" or not reg.ratio_of:
            continue
        p = next(iter(parse_printed(m.group("fig"))), None)
        if p is None:
            continue
        p = msgspec.structs.replace(p, start=m.start("fig"), end=m.end("unit"), text=m.group(0)[m.start("fig") - m.start():])
        points = p.value / 100 if m.group("unit").lower().startswith("b") else p.value
        down = m.group("verb").lower() in ("decreased", "contracted", "declined", "fell", "was down", "down")
        basis = basis_from_text(text[max(0, m.start() - 40):m.start()]) or "GAAP"
        out.append(make(growth_metric(metric), p, basis, "pp", -points if down else points, None))
    return out


def _head_count_facts(text: str, make) -> list[Fact]:
    out = []
    for pattern in (_COUNT_AFTER, _COUNT_BEFORE):
        for m in pattern.finditer(text):
            if pattern is _COUNT_AFTER and _COUNT_BOUND.search(text[max(0, m.start() - 14):m.start()]):
                continue
            metric = find_metric(m.group("noun"))
            reg = by_id(metric) if metric else None
            p = next(iter(parse_printed(m.group("fig"))), None)
            if reg is None or reg.unit != "count" or p is None:
                continue
            p = msgspec.structs.replace(p, start=m.start("fig"), end=m.end("fig"))
            out.append(make(metric, p, reg.basis, "count", p.value.scaleb(p.scale) if p.scale else p.value, None))
    return out


def _counted_facts(text: str, make) -> list[Fact]:
    out = []
    for m in _COUNTED.finditer(text):
        metric = find_metric(f"{m.group('noun')} {m.group('verb')}")
        reg = by_id(metric) if metric else None
        if reg is None or reg.unit != "count":
            continue
        p = next(iter(parse_printed(m.group("fig"))), None)
        if p is None:
            continue
        p = msgspec.structs.replace(p, start=m.start("fig"), end=m.end("fig"))
        value = p.value.scaleb(p.scale) if p.scale else p.value
        out.append(make(metric, p, reg.basis, "count", value, None))
        # "delivered 1.2 million Model Y vehicles": the noun's own qualifier is also a slice, so a claim that
        # names it ("Model Y vehicles delivered") finds the count on that basis as well as the total's.
        found = find_metric_span(f"{m.group('noun')} {m.group('verb')}")
        words = [w for w in re.findall(r"[a-z0-9]+", normalise_label(m.group("noun"))[: found[1]]) if w not in _NOT_SLICE] \
            if found else []
        if words:
            out.append(make(metric, p, f"segment:{' '.join(words)}", "count", value, None))
    return out


def _amount_of_facts(text: str, make) -> list[Fact]:
    out = []
    for p in parse_printed(text):
        if p.currency is None or not p.scale:
            continue
        m = _AMOUNT_OF.match(text, p.end)
        if not m:
            continue
        name = normalise_label(m.group("name"))
        found = find_metric_span(name)
        if found is None or found[2] != len(name):
            continue  # the quantity must end the phrase: "of license support revenue"
        metric, start, _ = found
        reg = by_id(metric)
        if reg is None or reg.unit != "USD":
            continue
        words = [w for w in re.findall(r"[a-z0-9]+", name[:start]) if w not in _NOT_SLICE]
        basis = basis_from_text(name[:start]) or (f"segment:{' '.join(words)}" if words else reg.basis)
        out.append(make(metric, p, basis, "USD" if p.currency == "USD" else "currency", p.value.scaleb(p.scale),
                        p.currency))
    return out


# A company's own revenue is what its income statement (or the untagged-dimension iXBRL fact) says.
_INCOME_STATEMENT = re.compile(
    r"\bstatements?\s+of\s+(?:consolidated\s+)?(?:operations|income|earnings|comprehensive\s+income)\b"
    r"|\bincome\s+statements?\b", re.I)
_PART_METRICS = ("revenue",)


def _is_statement_total(value: Decimal, totals: dict[tuple, list[Decimal]], metric: str) -> bool:
    """The figure is one the statement prints for some period: the company's total, whatever period
    its own column was read as."""
    return any(k[0] == metric and any(abs(value - w) <= w / 2000 for w in ws) for k, ws in totals.items())


def _statement_totals(facts: list[Fact], tables: list[Table]) -> dict[tuple, list[Decimal]]:
    statements = {t.id for t in tables if _INCOME_STATEMENT.search(t.title)}
    out: dict[tuple, list[Decimal]] = {}
    for f in facts:
        if f.metric not in _PART_METRICS or f.dimensions or f.basis not in ("GAAP", "reported"):
            continue
        if f.source.kind == "ixbrl" or (f.source.kind == "table" and f.source.table in statements):
            # By label and end: a table column's start may be a day off the tagged context's.
            out.setdefault((f.metric, f.period, f.period_end), []).append(abs(f.value))
    return out


def _part_name(table: Table | None, row: int | None) -> str:
    """The slice a part's subtotal belongs to, where its table names one: the group over the row
    ("Flexibles" heading Amcor's segment table) or a short title that names no quantity, basis,
    period or statement ("Cloud and License Business", "FABRIC & HOME CARE")."""
    if table is None:
        return ""
    heads = []
    if row is not None and row < len(table.rows):
        heads.append(table.rows[row].group)
    # A title naming a business ("Cloud and License Business", P&G's "FABRIC & HOME CARE").
    heads.append(re.sub(r"\s+(?:business|segment|group|division)$", "", table.title.strip(), flags=re.I))
    for head in heads:
        words = re.findall(r"[a-z0-9]+", normalise_label(head).replace("&", " and "))
        if words and len(words) <= 5 and find_metric(head) is None and basis_from_text(head) is None \
                and not _PERIOD_HEAD.search(head) and not _NOT_A_PART.search(head) \
                and not any(w in _SLICE_STOP or w in _SLICE_DROP for w in words):
            return " ".join(words)
    return ""


_NOT_A_PART = re.compile(r"\b(?:balance sheets?|statements?|information|data|results|summary|consolidated|"
                         r"guarantors?|parent|issuer|subsidiar\w*|eliminations?|increase|decrease)\b", re.I)
_PERIOD_HEAD = re.compile(r"\d|\bquarter\b|\bmonths?\b|\bweeks?\b|\byears?\b|\bended\b|\bfiscal\b|"
                          r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b", re.I)


def part_subtotals(facts: list[Fact], tables: list[Table]) -> list[Fact]:
    """Facts whose row reads as the company's revenue but whose figure the income statement shows to be
    a part of it, set on a segment basis (named where the table names the part, else ``segment:``).

    Verizon's 10-K prints "Total Operating Revenues 103,506" in its Consumer segment's table and
    136,835 on its income statement; Amcor's release prints each segment's "Net sales" under the
    segment's name. A smaller figure for the same period than every figure the statement (or the
    iXBRL fact with no dimension) gives cannot be the company's total; one a power of a thousand
    away is a scale misreading, not a part, and is left alone. The table's growth rate for that
    row is the part's too."""
    totals = _statement_totals(facts, tables)
    if not totals:
        return facts
    table_of = {t.id: t for t in tables}
    statements = {t.id for t in tables if _INCOME_STATEMENT.search(t.title)}
    parts: dict[tuple[str | None, int | None], str] = {}
    wholes: set[tuple[str | None, int | None]] = set()
    out = []
    for f in facts:
        if (f.metric in _PART_METRICS and f.source.kind == "table" and not f.dimensions and not f.source.concept
                and f.basis in ("GAAP", "reported") and f.source.table not in statements):
            whole = totals.get((f.metric, f.period, f.period_end))
            key = (f.source.table, f.source.row)
            if _is_statement_total(abs(f.value), totals, f.metric):
                wholes.add(key)  # "Total" beside the segments' columns: the row's growth is the company's
            elif whole and f.value > 0 and all(f.value < w * Decimal("0.995") for w in whole) \
                    and not any(abs(f.value * 10**k - w) <= w / 200 for w in whole for k in (3, 6, 9)):
                parts[key] = parts.get(key) or _part_name(table_of.get(f.source.table or ""), f.source.row)
                f = msgspec.structs.replace(f, basis=f"segment:{parts[key]}")
        out.append(f)
    if not parts:
        return facts
    # The row's growth column speaks for the same part, unless the row also prints the whole.
    return [msgspec.structs.replace(f, basis=f"segment:{parts[(f.source.table, f.source.row)]}")
            if f.source.kind == "table" and f.metric.startswith("growth:") and f.metric[7:] in _PART_METRICS
            and (key := (f.source.table, f.source.row)) in parts and key not in wholes
            and not f.basis.startswith("segment:") else f
            for f in out]


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
