"""Born-digital PDF filings and releases: rows by y, cells by x-gaps, through the shared assembler.

PyMuPDF's ``find_tables`` misses the borderless tables financial PDFs print, so tables are rebuilt
from word positions: words on one baseline form a row, a wide horizontal gap starts a new cell, and a
run of rows with numbers on the right is a table. Cells keep their page and bounding box.
"""

from __future__ import annotations

import re

import pymupdf

from parsers.filings.assemble import Assembler, form_from, guess_entity
from parsers.filings.tables import RawCell, build_grid, split_footnote
from parsers.model import ParsedDocument, ParseFailure

__all__ = ["parse_pdf"]

_LEADER = re.compile(r"^[.·…_]{2,}$")
_LEADER_CHARS = frozenset(".·…_")
_YEAR_ROW = re.compile(r"^(?:(?:19|20)\d{2}|\$|%)$")


class _Row:
    __slots__ = ("y0", "y1", "words")

    def __init__(self, w) -> None:
        self.y0, self.y1 = w[1], w[3]
        self.words = [w]


def _mid_then_x(w) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    return (w[1] + w[3]) / 2, w[0]


def _x0(w) -> float:  # type: ignore[no-untyped-def]
    return w[0]


def _rows(words) -> list[_Row]:
    # Every page's every word passes here: plain comparisons, not min()/max() calls, in the loop.
    rows: list[_Row] = []
    row: _Row | None = None
    for w in sorted(words, key=_mid_then_x):
        top, bottom = w[1], w[3]
        tolerance = (bottom - top) * 0.35
        if tolerance < 2.0:
            tolerance = 2.0
        if row is not None and abs((top + bottom) / 2 - (row.y0 + row.y1) / 2) <= tolerance:
            row.words.append(w)
            if top < row.y0:
                row.y0 = top
            if bottom > row.y1:
                row.y1 = bottom
        else:
            row = _Row(w)
            rows.append(row)
    return rows


def _segments(row: _Row) -> list[RawCell]:
    words = sorted((w for w in row.words if w[4][:1] not in _LEADER_CHARS or not _LEADER.match(w[4])), key=_x0)
    out: list[RawCell] = []
    cur: list = []
    right = 0.0
    for w in words:
        gap = (w[3] - w[1]) * 0.55
        if gap < 4.5:
            gap = 4.5
        if cur and w[0] - right > gap:
            out.append(_cell(cur))
            cur = []
        cur.append(w)
        right = w[2]
    if cur:
        out.append(_cell(cur))
    return out


def _cell(words) -> RawCell:
    first = words[0]
    x0, y0, x1, y1 = first[0], first[1], first[2], first[3]
    for w in words:
        if w[0] < x0:
            x0 = w[0]
        if w[1] < y0:
            y0 = w[1]
        if w[2] > x1:
            x1 = w[2]
        if w[3] > y1:
            y1 = w[3]
    return RawCell(x0, x1, " ".join(w[4] for w in words), bbox=(x0, y0, x1, y1))


def _numeric_cells(cells: list[RawCell]) -> int:
    return sum(1 for c in cells[1:] if split_footnote(c.text)[1] is not None) + (
        1 if len(cells) > 1 and split_footnote(cells[0].text)[1] is not None else 0)


def _page(a: Assembler, page) -> None:
    words = page.get_text("words", sort=False)
    if not words:
        return
    rows = _rows(words)
    segs = [_segments(r) for r in rows]
    kinds = []
    for cells in segs:
        text = " ".join(c.text for c in cells)
        if len(cells) >= 2 and _numeric_cells(cells) >= 1:
            kinds.append("N")
        elif len(text) < 100 and not text.endswith((".", ";")) and (
                len(cells) >= 2 or all(_YEAR_ROW.match(c.text) or c.text[:1].isupper() or c.text[:1] in "($"
                                       for c in cells)):
            kinds.append("H")
        else:
            kinds.append("T")
    i, n = 0, len(rows)
    para: list[str] = []
    last_y = None

    def flush() -> None:
        if para:
            a.line(" ".join(para), bold=False)
            para.clear()

    while i < n:
        if kinds[i] == "N":
            j = i
            numeric = 0
            while j < n and kinds[j] in "NH":
                numeric += kinds[j] == "N"
                j += 1
            while j > i and kinds[j - 1] == "H":
                j -= 1
            if numeric >= 2:
                # Header rows are the short multi-cell rows just above the first numeric row.
                h = i
                while h > 0 and kinds[h - 1] == "H" and i - h < 4 and (len(segs[h - 1]) >= 2 or _YEAR_ROW.match(segs[h - 1][0].text) or _is_header_text(segs[h - 1])):
                    h -= 1
                flush()
                a.take_back([" ".join(c.text for c in segs[k]) for k in range(h, i) if kinds[k] == "H"])
                grid = build_grid([segs[k] for k in range(h, j)])
                if grid is not None:
                    a.emit_table(grid)
                    i = j
                    last_y = None
                    continue
        cells = segs[i]
        text = " ".join(c.text for c in cells)
        gap = rows[i].y0 - last_y if last_y is not None else 0
        if kinds[i] == "H" or gap > (rows[i].y1 - rows[i].y0) * 0.9:
            flush()
        if kinds[i] == "H" and len(text) < 100:
            a.line(text, bold=False)
        else:
            para.append(text)
        last_y = rows[i].y1
        i += 1
    flush()


_HEADER_WORDS = re.compile(r"ended|weeks|months|year|quarter|fiscal|as of|change|%|\b(?:19|20)\d{2}\b", re.I)


def _is_header_text(cells: list[RawCell]) -> bool:
    return bool(_HEADER_WORDS.search(" ".join(c.text for c in cells)))


def parse_pdf(data: bytes, name: str = "") -> ParsedDocument | ParseFailure:
    """Parse a born-digital PDF; encrypted files come back as a failure to act on."""
    doc = pymupdf.open(stream=data, filetype="pdf")
    try:
        if doc.needs_pass:
            return ParseFailure("encrypted", f"{name or 'the PDF'} is password-protected; upload an unlocked copy")
        a = Assembler()
        for pno in range(doc.page_count):
            a.page = pno + 1
            a.tree.touch_page(a.page)
            _page(a, doc[pno])
        if not a.pending_tables and not a.passages:
            return ParseFailure("no-content", f"{name or 'the PDF'} has no text layer (scanned?); OCR it first")
        title = (doc.metadata or {}).get("title") or ""
        entity = guess_entity(title if len(title) < 60 else "", a.first_lines, a.cues,
                              body=" ".join(p.text for p in a.passages)) or ""
        return a.finish("pdf", entity, None, form_from(a.first_lines, title), pages=doc.page_count)
    finally:
        doc.close()
