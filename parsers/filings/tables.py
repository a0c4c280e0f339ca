"""Clean grids from raw table rows: spacer columns collapsed, split `$`/`%` cells merged, header paths.

Every source format (HTML, PDF text positions, Markdown pipes) hands in rows of ``RawCell`` placed on
an axis: HTML column slots after colspans, PDF x-coordinates, Markdown column indices. Columns are the
overlap clusters of the body's numeric cells on that axis, so SEC spacer columns simply vanish.
"""

from __future__ import annotations

import re
from decimal import Decimal
from functools import lru_cache

import msgspec

from parsers.numbers import parse_cell_number, scale_from_caption

__all__ = ["Grid", "GridRow", "RawCell", "build_grid", "clean_text", "split_footnote", "split_stacked"]


class RawCell(msgspec.Struct, array_like=True):
    """One non-empty source cell on the table's horizontal axis: [start, end)."""

    start: float
    end: float
    text: str
    concept: str | None = None
    context: str | None = None
    bbox: tuple[float, float, float, float] | None = None


class GridCell(msgspec.Struct, array_like=True):
    column: int
    text: str
    value: Decimal | None
    footnote: str | None
    concept: str | None
    context: str | None
    bbox: tuple[float, float, float, float] | None


class GridRow(msgspec.Struct):
    label: str
    cells: list[GridCell]
    group: str
    """The nearest label-only row above ("Net income per share:"), which qualifies this row."""
    footnote: str | None = None
    bbox: tuple[float, float, float, float] | None = None


class Grid(msgspec.Struct):
    headers: list[list[str]]
    """Header path per column, top row first."""
    rows: list[GridRow]
    captions: list[str]
    """Header-area text that states scale or units rather than naming a column."""


_SCALE_PHRASE = re.compile(
    r"(?:\b(?:in|amounts? in|dollars? in|expressed in)\s+)?(?:[A-Z]{0,2}\$|€|£|¥|\b(?:USD|EUR|GBP)\b)?\s?"
    r"\b(?:thousands?|millions?|billions?|mm|mn|bn)\b|(?<![\w])(?:[A-Z]{0,2}\$|€|£)\s?[mk]\b", re.I)
# Header text in the label column that heads no rows: years, rates, units and column words.
_NOT_STUB = re.compile(r"\d|%|\bpercent|\brates?\b|\bchange\b|\bgrowth\b|\bmargin|\bincrease|\bdecrease", re.I)
_PERIOD_WORDS = re.compile(r"\bended\b|\bending\b|\bmonths\b|\bweeks\b|\bfiscal\b|\byears?\b|\bquarter\b", re.I)
_PREFIX = {"$", "US$", "€", "£", "¥", "C$", "A$", "($", "$(", "(", "—$", "$—"}
_SUFFIX = re.compile(r"^(?:%|\)|\)%|%\)|pts?\.?|bps|x|pp)$", re.I)
_FOOTNOTE = re.compile(r"^(?P<body>.*?\d[\d,.]*\s*\)?\s*%?)\s*(?P<fn>\(\d{1,2}\)|\([a-z]\)|\*{1,3}|[†‡§])$")
_LABEL_FOOTNOTE = re.compile(r"\s*(?:\(\d{1,2}\)|\([a-z]\)|\*{1,3}|[†‡§])+\s*$")
_YEARISH = re.compile(r"^(?:FY\s?)?'?(?:19|20)\d{2}$|^(?:Q[1-4]|H[12])\s?(?:FY)?'?\d{2,4}$|^FY\s?'?\d{2}$", re.I)
_DATEISH = re.compile(
    r"^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?(?:\s+\d{4})?$|^\d{1,2}/\d{1,2}/\d{2,4}$",
    re.I,
)


def clean_text(text: str) -> str:
    """Whitespace collapsed, non-breaking and zero-width spaces removed."""
    # str.split() and the regex's \s agree on what whitespace is (non-breaking spaces included).
    return " ".join(text.replace("\u200b", "").split())


@lru_cache(maxsize=1 << 16)
def split_footnote(text: str) -> tuple[str, Decimal | None, str | None]:
    """A cell's text, number and footnote marker: "1,234(1)" is 1234 with footnote "(1)"."""
    value = parse_cell_number(text)
    if value is not None:
        return text, value, None
    m = _FOOTNOTE.match(text)
    if m:
        body = m.group("body").strip()
        value = parse_cell_number(body)
        if value is not None:
            return body, value, m.group("fn")
    return text, None, None


def _merge_tokens(cells: list[RawCell]) -> list[RawCell]:
    # Lone "$" and "%" (and the closing parenthesis of a negative) sit in their own SEC cells.
    out: list[RawCell] = []
    pending: RawCell | None = None
    for c in cells:
        t = c.text
        if t in _PREFIX:
            pending = c if pending is None else RawCell(pending.start, c.end, pending.text + t)
            continue
        if pending is not None:
            c = RawCell(pending.start, max(c.end, pending.end), pending.text + t, c.concept, c.context, _union(pending.bbox, c.bbox))
            pending = None
        if out and _SUFFIX.match(t) and not _is_headerish(out[-1].text) and \
                parse_cell_number(out[-1].text + t.replace("pts", "").strip()) is not None:
            p = out[-1]
            out[-1] = RawCell(p.start, max(p.end, c.end), p.text + t, p.concept, p.context, _union(p.bbox, c.bbox))
            continue
        out.append(c)
    if pending is not None and pending.text.strip("($") and out:
        out.append(pending)
    return out


def _union(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def _is_number(text: str) -> bool:
    return split_footnote(text)[1] is not None


@lru_cache(maxsize=1 << 16)
def _is_headerish(text: str) -> bool:
    return bool(_YEARISH.match(text) or _DATEISH.match(text))


def build_grid(rows: list[list[RawCell]]) -> Grid | None:
    """A grid from raw rows, or None when the table holds no numbers (layout or text tables)."""
    merged = [_merge_tokens([c for c in r if c.text or c.concept]) for r in rows]
    merged = [r for r in merged if r]
    if not merged:
        return None
    # The label area ends where the first numeric cell of a labelled row starts.
    boundary: float | None = None
    for r in merged:
        if _is_number(r[0].text) or _is_headerish(r[0].text):
            continue
        for c in r[1:]:
            if _is_number(c.text) and not _is_headerish(c.text):
                boundary = c.start if boundary is None else min(boundary, c.start)
                break
    if boundary is None:
        for r in merged:
            for c in r:
                if _is_number(c.text) and not _is_headerish(c.text):
                    boundary = c.start if boundary is None else min(boundary, c.start)
        if boundary is None:
            return None
    first_body = None
    for i, r in enumerate(merged):
        data = [c for c in r if c.start >= boundary]
        labelled = any(c.start < boundary for c in r)
        if any(_is_number(c.text) and not _is_headerish(c.text) for c in data) or (
                labelled and any(_is_number(c.text) and not _is_headerish(c.text) for c in r)):
            first_body = i
            break
    if first_body is None:
        return None
    intervals = sorted(
        (c.start, c.end)
        for r in merged[first_body:]
        for c in r
        if c.start >= boundary and (_is_number(c.text) or c.concept)
    )
    clusters: list[list[float]] = []
    for a, b in intervals:
        if clusters and a < clusters[-1][1]:
            if b > clusters[-1][1]:
                clusters[-1][1] = b
        else:
            clusters.append([a, b])
    if not clusters:
        return None
    ncol = len(clusters)

    def col_of(c: RawCell) -> list[int]:
        hit = [i for i, (a, b) in enumerate(clusters) if c.start < b and a < c.end]
        if hit:
            return hit
        mid = (c.start + c.end) / 2
        return [min(range(ncol), key=lambda i: abs((clusters[i][0] + clusters[i][1]) / 2 - mid))]

    headers: list[list[str]] = [[] for _ in range(ncol)]
    captions: list[str] = []
    group = ""
    stub: list[str] = []
    for r in merged[:first_body]:
        # A label alone on the last header row ("Cost of revenues") qualifies the rows below it.
        lone = all(c.end <= boundary for c in r) and len(r) == 1 and not _PERIOD_WORDS.search(r[0].text) \
            and scale_from_caption(r[0].text) is None and not r[0].text.startswith("(")
        group = r[0].text.rstrip(":") if lone else ""
        for c in r:
            if scale_from_caption(c.text) is not None or c.text.lower().startswith(("(in ", "(dollars", "($ in", "(amounts")):
                captions.append(c.text)
                # "2022 $ million" over a column states the scale and names the column's year.
                rest = _SCALE_PHRASE.sub(" ", c.text).strip(" ,;:()")
                if not (_YEAR.search(rest) or _is_headerish(rest)):
                    continue
                c = RawCell(c.start, c.end, rest, c.concept, c.context, c.bbox)
            if c.start < boundary and c.end <= boundary:
                # "For the years ended June 30," printed left of the year cells names every column.
                if _PERIOD_WORDS.search(c.text) and any(x.start >= boundary for x in r):
                    for h in headers:
                        if not h or h[-1] != c.text:
                            h.append(c.text)
                elif any(x.start >= boundary for x in r) and not c.text.startswith("(") and not _NOT_STUB.search(c.text):
                    # "Adjusted non-GAAP results", "Flexibles" in the label column of a header row head
                    # the rows below, as a label-only row would.
                    stub.append(c.text)
                continue
            for i in col_of(c):
                if not headers[i] or headers[i][-1] != c.text:
                    headers[i].append(c.text)
    stub_group = " ".join(stub).rstrip(":")
    out_rows: list[GridRow] = []
    for r in merged[first_body:]:
        label_parts = [c.text for c in r if c.end <= boundary or (c.start < boundary and not _is_number(c.text))]
        data = [c for c in r if not (c.end <= boundary or (c.start < boundary and not _is_number(c.text)))]
        label = " ".join(label_parts)
        footnote = None
        if label:
            m = _LABEL_FOOTNOTE.search(label)
            if m and m.start() > 0:
                footnote, label = label[m.start():].strip(), label[: m.start()].strip()
        if not data:
            if label and not any(scale_from_caption(label) is not None for _ in (0,)):
                group = label.rstrip(":")
            elif label:
                captions.append(label)
            continue
        cells: list[GridCell] = []
        for c in data:
            text, value, fn = split_footnote(c.text)
            cols = col_of(c)
            cells.append(GridCell(cols[0], text, value, fn, c.concept, c.context, c.bbox))
        bbox = None
        for c in r:
            bbox = _union(bbox, c.bbox)
        out_rows.append(GridRow(label, cells, group or (stub_group if label else ""), footnote, bbox))
    return Grid(headers, out_rows, captions)


def _restates_header(row: GridRow) -> bool:
    """A body row that holds no figure and names whole periods ("Year Ended April 30, 2024"): the
    header of the block below it. A bare date under a header above ("January 28, 2023" below
    "Twelve Months Ended") continues that header instead."""
    if row.label and not (_PERIOD_WORDS.search(row.label) or _is_headerish(row.label)):
        return False
    texts = [c.text for c in row.cells]
    return bool(texts) and all(c.value is None for c in row.cells) and \
        any(_PERIOD_WORDS.search(t) and _YEAR.search(t) for t in texts)


_YEAR = re.compile(r"\b(?:19|20)\d{2}\b")
_BARE_YEAR = re.compile(r"(?:19|20)\d{2}")


def _figure_free(row: GridRow) -> bool:
    """A row of words alone, under no label, a caption or a period's words: part of a header printed
    over several rows."""
    return bool(row.cells) and all(c.value is None for c in row.cells) and (
        not row.label or row.label.startswith("(") or bool(_PERIOD_WORDS.search(row.label))
        or any(_PERIOD_WORDS.search(c.text) for c in row.cells))


def _restates_years(row: GridRow) -> bool:
    """A body row of two or more bare years and words ("2023 | 2022 | Total | Operations"), with no
    label: the column headers of the block below, restated."""
    if row.label:
        return False
    years = [c for c in row.cells if _BARE_YEAR.fullmatch(c.text.strip())]
    return len(years) >= 2 and all(c.value is None or c in years for c in row.cells)


def split_stacked(grid: Grid) -> list[Grid]:
    """A table that stacks period blocks ("Three Months Ended ..." rows, then a "Year Ended ..." header
    row and the same rows again) as one grid per block, each with its own column headers; without
    this the year's figures were read under the quarter's header."""
    blocks = [Grid(grid.headers, [], grid.captions)]
    for row in grid.rows:
        if _restates_years(row) and blocks[-1].rows:
            # A header restated over several rows ("SECOND QUARTER", "Percent Change", then
            # "2023 | 2022 | Total | ..."): the figure-free rows above the years are part of it.
            run = [row]
            while blocks[-1].rows and _figure_free(blocks[-1].rows[-1]):
                run.insert(0, blocks[-1].rows.pop())
            headers = [[] for _ in grid.headers]
            for r in run:
                for c in r.cells:
                    if c.column < len(headers):
                        headers[c.column].append(c.text)
            if blocks[-1].rows:
                blocks.append(Grid(headers, [], grid.captions))
            else:
                blocks[-1] = Grid([h + r for h, r in zip(grid.headers, headers, strict=True)], [], grid.captions)
            continue
        if _restates_header(row) and blocks[-1].rows:
            headers: list[list[str]] = [[] for _ in grid.headers]
            for c in row.cells:
                if c.column < len(headers):
                    headers[c.column] = [c.text]
            blocks.append(Grid(headers, [], grid.captions))
            continue
        blocks[-1].rows.append(row)
    return [b for b in blocks if b.rows] or [grid]
