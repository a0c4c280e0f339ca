"""Investor decks from bytes into slides: titles, line-level text blocks with boxes, and tables.

PDF (PyMuPDF), PPTX (python-pptx), Markdown, plain text and docling JSON all land in the same
``Deck``; claim extraction (``parsers.claims``) never looks at the format.
"""

from __future__ import annotations

import io
import json
import re
from collections import Counter

from parsers.model import BBox, Deck, ParseFailure, Slide, TextBlock
from parsers.numbers import ARROW_DOWN, ARROW_UP, parse_printed
from parsers.periods import MONTHS, period_from_text

__all__ = ["MAX_BYTES", "is_figure_cell", "is_period_cell", "load_deck", "repeated_lines"]

MAX_BYTES = 200 * 1024 * 1024

_BULLET = re.compile(r"^\s*(?:[•●◦▪▸►■\-–*]|\d{1,2}[.)])\s+|^[•●◦▪▸►■]")
# Ligatures, and the private-use glyphs some presentation fonts draw parentheses with (docling reads
# Elastic's "(22)" as "\ue08122\ue082"): a figure in them is negative.
_GLYPHS = str.maketrans({"ﬁ": "fi", "ﬂ": "fl", "ﬀ": "ff", "ﬃ": "ffi", "ﬄ": "ffl", "\u00a0": " ",
                            "\ue081": "(", "\ue082": ")"})
_TABLE_SEP = re.compile(r"^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")


def load_deck(data: bytes, name: str) -> Deck | ParseFailure:
    """A deck from a file's bytes; the name's extension decides the format when magic bytes don't."""
    if not data or not data.strip():
        return ParseFailure("empty", f"{name} is empty")
    if len(data) > MAX_BYTES:
        return ParseFailure("too-large", f"{name} is {len(data) // 2**20} MiB; the limit is {MAX_BYTES // 2**20} MiB")
    ext = name.lower().rsplit(".", 1)[-1] if "." in name else ""
    if data[:5] == b"%PDF-" or ext == "pdf":
        return _load_pdf(data, name)
    if data[:2] == b"PK" or ext == "pptx":
        return _load_pptx(data, name)
    try:
        text = data.decode("utf-8-sig").translate(_GLYPHS)
    except UnicodeDecodeError:
        return ParseFailure("unsupported", f"{name} is neither PDF, PPTX nor UTF-8 text")
    if ext == "json" or text.lstrip().startswith("{"):
        return _load_docling(text, name)
    if ext in ("md", "markdown") or re.search(r"^#{1,6}\s", text, re.M):
        return _load_markdown(text)
    return _load_text(text)


def is_figure_cell(text: str) -> bool:
    """True when the text is one printed figure and nothing else: "$1,076M", "(24.2%)", "305,000+"."""
    # An arrow says which way a change went ("▲ 13%", "▼ 40 bps"); the figure is the same.
    t = text.strip().strip(f"+* {ARROW_UP}{ARROW_DOWN}").strip()
    if not t or not any(c.isdigit() for c in t):
        return False
    found = parse_printed(t)
    if len(found) != 1:
        return False
    rest = (t[: found[0].start] + t[found[0].end:]).strip(" ()%")
    return rest == ""


# ---------------------------------------------------------------- PDF


class _Line:
    __slots__ = ("text", "bbox", "size")

    def __init__(self, text: str, bbox: BBox, size: float) -> None:
        self.text, self.bbox, self.size = text, bbox, size


def _load_pdf(data: bytes, name: str) -> Deck | ParseFailure:
    import pymupdf

    try:
        doc = pymupdf.open(stream=data, filetype="pdf")
    except Exception as exc:  # PyMuPDF raises its own types for damaged files
        return ParseFailure("corrupt", f"{name} could not be opened as a PDF: {exc}")
    if doc.needs_pass:
        return ParseFailure("encrypted", f"{name} is password-protected; export an unprotected copy")
    if doc.page_count == 0:
        return ParseFailure("no-content", f"{name} has no pages")
    slides = []
    for page in doc:
        lines = _pdf_lines(page)
        slides.append(_slide_from_lines(page.number + 1, lines, page.rect.height, page.rect.width))
    title = (doc.metadata or {}).get("title") or ""
    if not any(b.text for s in slides for b in s.blocks) and not any(s.title for s in slides):
        return ParseFailure("no-content", f"{name} has no extractable text (scanned images?)")
    return Deck(format="pdf", slides=slides, title=title)


def _pdf_lines(page) -> list[_Line]:
    out = []
    for block in page.get_text("dict")["blocks"]:
        for line in block.get("lines", []):
            for spans in _cells_of(line["spans"]):
                text = " ".join("".join(s["text"] for s in spans).translate(_GLYPHS).split())
                size = max(s["size"] for s in spans if s["text"].strip())
                box = (min(s["bbox"][0] for s in spans), min(s["bbox"][1] for s in spans),
                       max(s["bbox"][2] for s in spans), max(s["bbox"][3] for s in spans))
                out.append(_Line(text, tuple(round(v, 1) for v in box), round(size, 1)))
    return out


def _cells_of(spans: list[dict]) -> list[list[dict]]:
    """A line's spans split where a gap wider than a word space parts two figure cells ("24,119 24,250"
    printed in tight table columns read as one line); prose, whatever its spacing, stays one line."""
    runs: list[list[dict]] = [[]]
    for s in spans:
        if not s["text"].strip():
            if s["bbox"][2] - s["bbox"][0] > 0.45 * s["size"] and runs[-1]:
                runs.append([])
            continue
        if runs[-1] and s["bbox"][0] - runs[-1][-1]["bbox"][2] > 0.45 * s["size"]:
            runs.append([])
        runs[-1].append(s)
    runs = [r for r in runs if r]
    texts = ["".join(s["text"] for s in r).strip() for r in runs]
    if len(runs) > 1 and sum(is_figure_cell(t) or bool(_CATEGORY.match(t)) for t in texts) >= len(runs) - 1:
        return runs
    whole = [s for s in spans if s["text"].strip()]
    return [whole] if whole else []


def _slide_from_lines(page_no: int, lines: list[_Line], height: float, width: float = 0.0) -> Slide:
    title, rest = _take_title(lines, height)
    tables, table_boxes = [], []
    # Charts first: a bar chart's axis of periods over a footer line reads like a table's header row.
    as_blocks = [TextBlock(text=ln.text, bbox=ln.bbox, size=ln.size) for ln in rest]
    for grid, boxes, used in _bar_charts(as_blocks):
        tables.append(grid)
        table_boxes.append(boxes)
        gone = {id(u) for u in used}
        rest = [ln for ln, b in zip(rest, as_blocks) if id(b) not in gone]
        as_blocks = [b for b in as_blocks if id(b) not in gone]
    keyed, rest = _keyed_values(rest)
    kept = {id(ln) for ln in rest}
    title_bottom = max((ln.bbox[3] for ln in lines if id(ln) not in kept), default=0.0)
    left, right = _text_columns(rest, width, portrait=height > width, below=title_bottom)
    for band in (left, right) if right else (rest,):
        table, boxes, band_rest = _take_table(band)
        if table:
            tables.append(table)
            table_boxes.append(boxes)
            taken = {id(ln) for ln in band} - {id(ln) for ln in band_rest}
            rest = [ln for ln in rest if id(ln) not in taken]
    return _with_charts(Slide(page=page_no, title=title, blocks=[*_paragraphs(rest), *keyed], tables=tables,
                              table_boxes=table_boxes))


def _keyed_values(lines: list[_Line]) -> tuple[list[TextBlock], list[_Line]]:
    """A box of key statistics: a caption left, its figure right on the same line, and under them a small
    date or basis line ("as of Dec 31, 2024", "FY2024 vs FY2023") and a change line ("▲ 11.5%"). Each
    entry is one block, "<caption> <date line>: <figure> (<change>)", so the figure keeps its caption and
    its date. A row with no line under it is left to the table reader: a plain two-column table."""
    rows = _rows(lines)
    out: list[TextBlock] = []
    used: set[int] = set()
    # A pair stands apart from anything else on its line: a chart's bar label beside the box is no neighbour.
    pairs = [(row[k], row[k + 1]) for row in rows for k in range(len(row) - 1)
             if (k + 2 == len(row) or not is_figure_cell(row[k + 2].text))
             and (k == 0 or row[k].bbox[0] - row[k - 1].bbox[2] > 40)]
    figures = [ln for ln in lines if is_figure_cell(ln.text)]

    def heads_a_row(ln: _Line, right: float) -> bool:
        """A figure follows ``ln`` on its line before ``right``: a table's row label, not a date line."""
        cy = (ln.bbox[1] + ln.bbox[3]) / 2
        return any(abs((f.bbox[1] + f.bbox[3]) / 2 - cy) <= ln.size * 0.45 and ln.bbox[2] <= f.bbox[0] <= right
                   for f in figures)

    for key, fig in pairs:
        if not _caption(key.text) or not is_figure_cell(fig.text) or fig.bbox[0] - key.bbox[2] < 6:
            continue
        below = [ln for ln in lines if id(ln) not in used and ln is not key and ln is not fig
                 and 0 <= ln.bbox[1] - key.bbox[3] <= key.size * 0.8]
        dated = [ln for ln in below if abs(ln.bbox[0] - key.bbox[0]) <= 3 and ln.size <= key.size
                 and len(ln.text.split()) <= 6 and not heads_a_row(ln, fig.bbox[2] + 10)]
        change = [ln for ln in below if ln.bbox[0] > key.bbox[2] and min(ln.bbox[2], fig.bbox[2]) - max(ln.bbox[0], fig.bbox[0]) > 0
                  and ln.size < fig.size and _change_line(ln.text)]
        if not dated and not change:
            continue
        parts = [key, *dated[:1], fig, *change[:1]]
        text = f"{' '.join(ln.text for ln in (key, *dated[:1]))}: {fig.text}" + (f" ({change[0].text})" if change else "")
        bbox = (min(ln.bbox[0] for ln in parts), min(ln.bbox[1] for ln in parts), max(ln.bbox[2] for ln in parts),
                max(ln.bbox[3] for ln in parts))
        out.append(TextBlock(text=text, bbox=bbox, size=fig.size))
        used |= {id(ln) for ln in parts}
    return out, [ln for ln in lines if id(ln) not in used]


# ---------------------------------------------------------------- charts drawn as labelled shapes

# A bar's category under the axis: "FY21", "2023", "Q3'24", "4Q24", "1H25", "FY25E".
_CATEGORY = re.compile(r"^(?:(?:FY|CY)\s*'?\d{2}(?:\d{2})?|(?:19|20)\d{2}|(?:Q[1-4]|[1-4]Q|H[12]|[12]H)\s*(?:FY)?\s*'?\d{2}"
                       r"(?:\d{2})?)[AEFP]?$", re.I)


def _with_charts(slide: Slide) -> Slide:
    """Bar charts drawn as shapes (a value label over each bar, a category label under the axis) read as
    the tables they plot: each title's quantity by category ("Netflix revenue, $bn" over FY21 | FY22 | ...)."""
    charts = _bar_charts(slide.blocks)
    if not charts:
        return slide
    used = {id(u) for _, _, us in charts for u in us}
    blocks = [b for b in slide.blocks if id(b) not in used]
    return Slide(page=slide.page, title=slide.title, blocks=blocks, tables=[*slide.tables, *(g for g, _, _ in charts)],
                 table_boxes=[*slide.table_boxes, *(b for _, b, _ in charts)])


def _axes(blocks: list[TextBlock]) -> list[list[TextBlock]]:
    """Rows of three or more category labels at one height, each split where the spacing jumps: two
    charts side by side share a baseline ("Q2 FY25 ... Q2 FY26" twice), a legend's one entry is no axis."""
    cats = sorted((b for b in blocks if b.bbox and _CATEGORY.match(b.text.strip())), key=lambda b: b.bbox[1])
    rows: list[list[TextBlock]] = []
    for b in cats:
        if rows and abs(b.bbox[1] - rows[-1][0].bbox[1]) <= 3:
            rows[-1].append(b)
        else:
            rows.append([b])
    axes = []
    for row in rows:
        row.sort(key=lambda b: b.bbox[0])
        centres = [(b.bbox[0] + b.bbox[2]) / 2 for b in row]
        steps = [b - a for a, b in zip(centres, centres[1:])]
        start = 0
        for k, step in enumerate(steps):
            near = steps[max(k - 1, 0):k] + steps[k + 1:k + 2]
            if near and step > 1.3 * max(near) and k + 1 - start >= 3 and len(row) - k - 1 >= 3:
                axes.append(row[start:k + 1])
                start = k + 1
        axes.append(row[start:])
    return [a for a in axes if len(a) >= 3]


_UNIT_NOTE = re.compile(r"\((?:[^)]*\$|[^)]*\b(?:bn|mn|m|millions?|billions?|%)\b)[^)]*\)", re.I)


def _bridges(blocks: list[TextBlock]) -> list[list[TextBlock]]:
    """A bridge (waterfall) chart's axis: a period at each end ("FY2023" ... "FY2024") and between them the
    short names of what moved ("Payment network", "Lower fuel expense"), all hung from one baseline."""
    named = sorted((b for b in blocks if b.bbox and not any(ch.isdigit() for ch in b.text) and len(b.text.split()) <= 5),
                   key=lambda b: b.bbox[1])
    ends = [b for b in blocks if b.bbox and _CATEGORY.match(b.text.strip())]
    out = []
    for first in ends:
        row = sorted([b for b in [*named, *ends] if abs(b.bbox[1] - first.bbox[1]) <= 1.5], key=lambda b: b.bbox[0])
        if row[0] is not first or len(row) < 3 or not _CATEGORY.match(row[-1].text.strip()) \
                or any(_CATEGORY.match(b.text.strip()) for b in row[1:-1]):
            continue
        centres = [(b.bbox[0] + b.bbox[2]) / 2 for b in row]
        steps = [b - a for a, b in zip(centres, centres[1:])]
        if max(steps) <= 1.5 * min(steps):
            out.append(row)
    return out


def _bar_charts(blocks: list[TextBlock]) -> list[tuple[list[list[str]], list[list[BBox | None]], list[TextBlock]]]:
    out = []
    taken: set[int] = set()
    # A bridge's end bars are the two periods' totals; the steps between are changes of parts, not read.
    axes = [(a, list(a)) for a in _axes(blocks)] + [(a, [a[0], a[-1]]) for a in _bridges(blocks)]
    for whole, axis in axes:
        pitch = ((whole[-1].bbox[0] + whole[-1].bbox[2]) - (whole[0].bbox[0] + whole[0].bbox[2])) / 2 / (len(whole) - 1)
        if any(id(a) in taken for a in axis):
            continue
        values = []
        for cat in axis:
            cx = (cat.bbox[0] + cat.bbox[2]) / 2
            half = max(pitch / 2, (cat.bbox[2] - cat.bbox[0]) / 2 + 4)
            above = [b for b in blocks if b.bbox and id(b) not in taken and b is not cat and is_figure_cell(b.text)
                     and b.bbox[3] <= cat.bbox[1] + 2 and abs((b.bbox[0] + b.bbox[2]) / 2 - cx) <= half
                     and not _CATEGORY.match(b.text.strip())]
            values.append(max(above, key=lambda b: b.bbox[3]) if above else None)
        if sum(v is not None for v in values) < min(3, len(axis)):
            continue
        top = min(v.bbox[1] for v in values if v is not None)
        left, right = axis[0].bbox[0] - pitch / 2, axis[-1].bbox[2] + pitch / 2
        inside = [b for b in blocks if b.bbox and id(b) not in taken and b.bbox[3] <= top + 2
                  and b.bbox[0] < right and b.bbox[2] > left and b not in whole]
        # A legend's entries ("Prior quarters", "Q2 FY26") share a line; the chart's title stands alone on its own.
        titles = [b for b in inside if not is_figure_cell(b.text) and not any(
            o is not b and min(o.bbox[3], b.bbox[3]) - max(o.bbox[1], b.bbox[1]) > 0 for o in inside)]
        # Of a title and a note under it, the one that states the chart's unit ("Operating income (US$ bn)").
        stating = [b for b in titles if _UNIT_NOTE.search(b.text)]
        title = max(stating or titles, key=lambda b: b.bbox[3]) if titles else None
        if title is None:
            continue
        grid = [[""] + [c.text.strip() for c in axis], [title.text] + [v.text.strip() if v else "" for v in values]]
        boxes: list[list[BBox | None]] = [[None] + [c.bbox for c in axis],
                                         [title.bbox] + [v.bbox if v else None for v in values]]
        used = [*whole, *(v for v in values if v is not None), title]
        taken |= {id(u) for u in used}
        out.append((grid, boxes, used))
    return out


def _prose(ln: _Line) -> bool:
    return not is_figure_cell(ln.text) and len(ln.text.split()) >= 3


def _text_columns(lines: list[_Line], width: float, portrait: bool = False,
                  below: float = 0.0) -> tuple[list[_Line], list[_Line]]:
    """The lines left and right of a gutter between two text columns ("a key-figures table beside the
    bullets"), or all lines and none. A gap inside a table is no gutter: there the same row goes on
    across it with a figure. A portrait report's columns are each well under half its width, so there a
    byline running over both is no column line; nor is a masthead above the title (``below``)."""
    share = 0.4 if portrait else 0.6
    narrow = [ln for ln in lines if (width <= 0 or ln.bbox[2] - ln.bbox[0] < share * width)
              and (not portrait or ln.bbox[1] >= below)]
    best: tuple[float, list[_Line], list[_Line]] | None = None
    reach = None
    for ln in sorted(narrow, key=lambda ln: ln.bbox[0]):
        if reach is not None and ln.bbox[0] - reach >= _GUTTER:
            gap_left, gap_right = reach, ln.bbox[0]
            left = [x for x in lines if x.bbox[2] <= gap_left]
            right = [x for x in lines if x.bbox[0] >= gap_right]
            if _is_gutter(left, right) and (best is None or gap_right - gap_left > best[0]):
                best = (gap_right - gap_left, left, right)
        reach = ln.bbox[2] if reach is None else max(reach, ln.bbox[2])
    return (best[1], best[2]) if best else (lines, [])


_GUTTER = 18.0  # points of clear space between two text columns


def _figure_rows(lines: list[_Line]) -> bool:
    """At least two rows of a label and figures: a key-figures table standing as a column of its own."""
    return sum(len(r) >= 2 and not is_figure_cell(r[0].text) and all(is_figure_cell(x.text) for x in r[1:])
               for r in _rows(lines)) >= 2


def _is_gutter(left: list[_Line], right: list[_Line]) -> bool:
    if (sum(map(_prose, left)) < 2 and not _figure_rows(left)) or (sum(map(_prose, right)) < 2 and not _figure_rows(right)):
        return False
    across = 0
    for row in _rows(left + right):
        sides = [any(x is r for r in right) for x in row]
        if True in sides and False in sides:
            first = row[sides.index(True)].text.strip()
            across += is_figure_cell(first) or _NOT_MEANINGFUL.match(first) is not None
    return across <= 1


def _take_title(lines: list[_Line], height: float) -> tuple[str, list[_Line]]:
    """The largest words in the top part of the page; big bare figures are callouts, not titles."""
    cands = [
        ln for ln in lines
        if sum(c.isalpha() for c in ln.text) >= 3 and ln.bbox[1] < height * 0.6 and not is_figure_cell(ln.text)
    ]
    if not cands:
        return "", lines
    size = max(ln.size for ln in cands)
    top = min((ln for ln in cands if ln.size >= size - 0.5), key=lambda ln: ln.bbox[1])
    picked = [top]
    # A wrapped title continues directly below in the same size.
    for ln in sorted(cands, key=lambda ln: ln.bbox[1]):
        last = picked[-1]
        if ln is not last and abs(ln.size - size) < 0.5 and 0 <= ln.bbox[1] - last.bbox[1] <= size * 1.6 \
                and ln.bbox[1] > last.bbox[1]:
            picked.append(ln)
    title = " ".join(ln.text for ln in picked).strip()
    return title, [ln for ln in lines if not any(ln is p for p in picked)]


def _rows(lines: list[_Line]) -> list[list[_Line]]:
    """Lines grouped by shared vertical centre, each row sorted left to right."""
    rows: list[list[_Line]] = []
    for ln in sorted(lines, key=lambda ln: (ln.bbox[1] + ln.bbox[3]) / 2):
        cy = (ln.bbox[1] + ln.bbox[3]) / 2
        if rows:
            r = rows[-1]
            rcy = sum((x.bbox[1] + x.bbox[3]) / 2 for x in r) / len(r)
            if abs(cy - rcy) <= max(ln.size, r[0].size) * 0.45:
                r.append(ln)
                continue
        rows.append([ln])
    return [sorted(r, key=lambda ln: ln.bbox[0]) for r in rows]


_BARE_YEAR = re.compile(r"^(?:19|20)\d{2}$")
# A cell a table prints for a figure it does not give: "n.m." (not meaningful), "n/a", "n.a.", "n.r.", a dash.
_NOT_MEANINGFUL = re.compile(r"(?:n\.?\s?[amr]\.?|n/[amr]|na|nmf|[-\u2013\u2014*])$", re.I)


def is_period_cell(text: str) -> bool:
    """A cell that prints only a period ("9M to Jun-25", "F2Q26"): a row of companies in their own calendars."""
    words = re.findall(r"[A-Za-z]{2,}", text)
    return len(text.split()) <= 4 and all(w.lower() in _PERIOD_WORDS for w in words) and period_from_text(text) is not None


_PERIOD_WORDS = frozenset({*MONTHS, "to", "through", "thru", "fy", "cy", "ytd", "ltm", "ttm", "qtr", "wks", "weeks"})


def _take_table(lines: list[_Line]) -> tuple[list[list[str]], list[list[BBox | None]], list[_Line]]:
    """A borderless table from text positions: rows of a label then figure cells, under a header row.

    ``find_tables`` misses most slide tables (no ruling lines), so rows are found by y and columns
    by the header cells' x positions.
    """
    rows = _rows(lines)
    # A bare year beside words is a wrapped caption's end ("quarter of" / "2025"), not a row's figure.
    # A row may be labelled by its year ("2022 | 514.0 | 9.4%"): periods as rows, metrics as columns.
    is_data = [len(r) >= 2 and (not is_figure_cell(r[0].text) or bool(_BARE_YEAR.match(r[0].text.strip())))
               and any(is_figure_cell(x.text) and not _BARE_YEAR.match(x.text.strip()) for x in r[1:])
               and all(is_figure_cell(x.text) or _NOT_MEANINGFUL.match(x.text.strip()) or is_period_cell(x.text)
                       for x in r[1:]) for r in rows]
    # A table's rows sit at a steady pitch; a footer and page number far below are not one more row.
    for k in range(1, len(rows)):
        if is_data[k] and is_data[k - 1]:
            gap = rows[k][0].bbox[1] - rows[k - 1][0].bbox[3]
            if gap > 2.5 * rows[k - 1][0].size or abs(rows[k][0].size - rows[k - 1][0].size) > 3:
                is_data[k] = False
    best: tuple[int, int] | None = None
    i = 0
    while i < len(rows):
        if is_data[i]:
            j = i
            while j + 1 < len(rows) and is_data[j + 1]:
                j += 1
            if best is None or (j - i) > (best[1] - best[0]):
                best = (i, j)
            i = j + 1
        else:
            i += 1
    if best is None:
        return [], [], lines
    start, end = best
    header = rows[start - 1] if start > 0 and len(rows[start - 1]) >= 2 and not is_data[start - 1] else None
    if header is None and end == start:
        return [], [], lines  # one label and a figure on a line is a bullet, not a table
    if end == start and all(re.fullmatch(r"\d{1,3}", x.text.strip()) for x in rows[start][1:] if is_figure_cell(x.text)):
        return [], [], lines  # a footer and its page number under a legend: no table's only row
    label_right = max(r[0].bbox[2] for r in rows[start:end + 1])
    if header is not None and header[0].bbox[0] >= label_right - 2:
        # An empty corner: the header's first cell already heads the first figure column.
        anchors = [((h.bbox[0] + h.bbox[2]) / 2, h.bbox[2]) for h in header]
        head = [""] + [h.text for h in header]
        head_boxes: list[BBox | None] = [None] + [h.bbox for h in header]
    elif header is not None:
        anchors = [((h.bbox[0] + h.bbox[2]) / 2, h.bbox[2]) for h in header[1:]]
        head = [header[0].text] + [h.text for h in header[1:]]
        head_boxes = [h.bbox for h in header]
    else:
        widest = max(rows[start:end + 1], key=len)
        anchors = [((c.bbox[0] + c.bbox[2]) / 2, c.bbox[2]) for c in widest[1:]]
        head = [""] * (len(anchors) + 1)
        head_boxes = [None] * (len(anchors) + 1)
    grid, boxes = [head], [head_boxes]
    for r in rows[start:end + 1]:
        cells = [""] * (len(anchors) + 1)
        cboxes: list[BBox | None] = [None] * (len(anchors) + 1)
        cells[0], cboxes[0] = r[0].text, r[0].bbox
        for c in r[1:]:
            cx, right = (c.bbox[0] + c.bbox[2]) / 2, c.bbox[2]
            k = min(range(len(anchors)), key=lambda k: min(abs(anchors[k][0] - cx), abs(anchors[k][1] - right)))
            cells[k + 1] = c.text.strip()
            cboxes[k + 1] = c.bbox
        grid.append(cells)
        boxes.append(cboxes)
    used = {id(x) for r in rows[start:end + 1] for x in r} | ({id(x) for x in header} if header else set())
    return grid, boxes, [ln for ln in lines if id(ln) not in used]


def _caption(text: str) -> bool:
    return 0 < len(text.split()) <= 6 and not parse_printed(_CATEGORY_WORDS.sub(" ", text)) \
        and not text.rstrip().endswith((".", ":", ";"))


# Period labels a caption may carry ("NET SALES, Q3 FY25") without printing a figure.
_CATEGORY_WORDS = re.compile(r"\b(?:Q[1-4]|[1-4]Q|H[12]|[12]H|FY|CY)(?:\s*'?\d{2,4})?\b(?:\s*(?:FY|CY)\s*'?\d{2,4}\b)?"
                             r"|\b(?:19|20)\d{2}\b", re.I)
_CHANGE_WORDS = re.compile(r"^(?:y/y|yoy|q/q|qoq|vs\.?|change|growth|up|down|[▲▼↑↓])$", re.I)


def _change_line(text: str) -> bool:
    """One figure and at most a change marker beside it: "Y/Y +56%", "+12% YoY", "▲ 40 bps"."""
    found = parse_printed(text)
    if len(found) != 1:
        return False
    rest = (text[: found[0].start] + text[found[0].end:]).replace("+", " ").split()
    return all(_CHANGE_WORDS.match(w) for w in rest)


def _paragraphs(lines: list[_Line]) -> list[TextBlock]:
    """Lines joined where a sentence wraps or a big callout figure sits on its caption; bullets stay apart."""
    ordered = sorted(lines, key=lambda ln: (round(ln.bbox[1] / 4), ln.bbox[0]))
    groups: list[list[_Line]] = []
    for ln in ordered:
        # Two text columns interleave in y order, so a wrapped line may continue any recent group.
        for g in reversed(groups[-12:]):
            prev = g[-1]
            gap = ln.bbox[1] - prev.bbox[3]
            overlap = min(prev.bbox[2], ln.bbox[2]) - max(prev.bbox[0], ln.bbox[0])
            same = abs(prev.size - ln.size) <= 1.0
            wraps = same and -2 <= gap <= prev.size * 0.45 and overlap > 0 and not _BULLET.match(ln.text) \
                and not prev.text.rstrip().endswith((".", ":", ";")) and not is_figure_cell(prev.text)
            callout = is_figure_cell(g[0].text) and len(g) <= 3 and overlap > 0 \
                and -0.25 * g[0].size <= gap <= prev.size * 0.6 and (ln.size < g[0].size or not same)
            # A small caption over a bigger change line: "DATA CENTER, Q2 FY26" above "Y/Y +56%".
            captioned = len(g) == 1 and _caption(prev.text) and _change_line(ln.text) and ln.size > prev.size + 1 \
                and overlap > 0 and 0 <= gap <= ln.size * 1.2
            if wraps or callout or captioned:
                g.append(ln)
                break
        else:
            groups.append([ln])
    out = []
    for g in groups:
        bbox = (min(x.bbox[0] for x in g), min(x.bbox[1] for x in g), max(x.bbox[2] for x in g), max(x.bbox[3] for x in g))
        out.append(TextBlock(text=" ".join(x.text for x in g).strip(), bbox=bbox, size=g[0].size))
    return out


# ---------------------------------------------------------------- PPTX

_EMU_PER_PT = 12700


def _load_pptx(data: bytes, name: str) -> Deck | ParseFailure:
    try:
        from pptx import Presentation
        from pptx.util import Emu  # noqa: F401  (import checks the package is complete)

        prs = Presentation(io.BytesIO(data))
    except Exception as exc:
        return ParseFailure("corrupt", f"{name} could not be opened as a PowerPoint file: {exc}")
    slides = []
    for n, s in enumerate(prs.slides, start=1):
        title = ""
        if s.shapes.title is not None and s.shapes.title.has_text_frame:
            title = " ".join(s.shapes.title.text_frame.text.split())
        blocks, tables, boxes = [], [], []
        for shape in _flat_shapes(s.shapes):
            box = None
            if shape.left is not None and shape.top is not None:
                box = (shape.left / _EMU_PER_PT, shape.top / _EMU_PER_PT,
                       (shape.left + (shape.width or 0)) / _EMU_PER_PT, (shape.top + (shape.height or 0)) / _EMU_PER_PT)
            if getattr(shape, "has_table", False) and shape.has_table:
                grid = [[" ".join(c.text.split()) for c in row.cells] for row in shape.table.rows]
                tables.append(grid)
                boxes.append([[box] * len(r) for r in grid])
                continue
            if getattr(shape, "has_chart", False) and shape.has_chart:
                if (grid := _native_chart(shape.chart)) is not None:
                    tables.append(grid)
                    boxes.append([[box] * len(r) for r in grid])
                continue
            if shape == s.shapes.title or not shape.has_text_frame:
                continue
            blocks.extend(_frame_blocks(shape.text_frame, box))
        if not title and blocks:
            title, blocks = blocks[0].text, blocks[1:]
        blocks = _stacked_callouts(blocks)
        for grid, cell_boxes, used in _box_tables(blocks):
            tables.append(grid)
            boxes.append(cell_boxes)
            blocks = [b for b in blocks if not any(b is u for u in used)]
        slides.append(_with_charts(Slide(page=n, title=title, blocks=blocks, tables=tables, table_boxes=boxes)))
    if not slides:
        return ParseFailure("no-content", f"{name} has no slides")
    return Deck(format="pptx", slides=slides, title=(prs.core_properties.title or ""))


def _flat_shapes(shapes):  # type: ignore[no-untyped-def]
    """Every shape on a slide, the members of a group among them: a table drawn as grouped boxes is read
    box by box."""
    for shape in shapes:
        if getattr(shape, "shape_type", None) == 6 and hasattr(shape, "shapes"):  # MSO_SHAPE_TYPE.GROUP
            yield from _flat_shapes(shape.shapes)
        else:
            yield shape


def _box_tables(blocks: list[TextBlock]) -> list[tuple[list[list[str]], list[list[BBox | None]], list[TextBlock]]]:
    """Tables drawn as a grid of text boxes, one per cell (think-cell style), read as the PDF reader reads
    a borderless table from text positions. Only boxes holding one line take part: a box's paragraphs
    share its box, so their positions say nothing of rows and columns."""
    counts = Counter(b.bbox for b in blocks if b.bbox)
    single = [b for b in blocks if b.bbox and counts[b.bbox] == 1]
    lines = [_Line(b.text, b.bbox, b.size or 12.0) for b in single]
    by_line = {id(ln): b for ln, b in zip(lines, single)}
    out = []
    while lines:
        grid, cell_boxes, rest = _take_table(lines)
        if not grid:
            break
        kept = {id(ln) for ln in rest}
        out.append((grid, cell_boxes, [by_line[id(ln)] for ln in lines if id(ln) not in kept]))
        lines = rest
    return out


# ---------------------------------------------------------------- native PowerPoint charts

_FORMAT_NUMBER = re.compile(r"[#0][#0,]*(?:\.(0+))?")


def format_number(value: float, code: str) -> str:
    """``value`` as a spreadsheet number format shows it: "$#,##0.0" gives "$391.0", "0.0%" gives
    "46.2%" for 0.462, '#,##0"B"' gives "391B". Sections after ";" (negatives, zero) use the first's
    digits with a minus or parentheses as the second prints them."""
    sections = code.split(";")
    negative = value < 0 and len(sections) > 1
    section = sections[1] if negative else sections[0]
    if section.strip().lower() in ("", "general"):
        return f"{value:g}"
    literal = re.sub(r'"([^"]*)"|\\(.)', lambda m: m.group(1) or m.group(2), section)
    literal = re.sub(r"\[[^\]]*\]|_.|\*.", "", literal)  # colours, padding and fill codes print nothing
    m = _FORMAT_NUMBER.search(literal)
    if m is None:
        return literal
    shown = abs(value) if negative else value
    if "%" in literal[m.end():] or "%" in literal[:m.start()]:
        shown *= 100
    decimals = len(m.group(1) or "")
    digits = f"{shown:,.{decimals}f}" if "," in m.group(0) else f"{shown:.{decimals}f}"
    return f"{literal[:m.start()]}{digits}{literal[m.end():]}"


def _chart_label_format(chart) -> str | None:  # type: ignore[no-untyped-def]
    """The number format the chart's value labels print with, or None when no label shows a value
    (a chart without labels prints its values nowhere: they are not the deck's figures)."""
    for plot in chart.plots:
        if plot.has_data_labels and plot.data_labels.show_value:
            labels = plot.data_labels
            if not labels.number_format_is_linked and labels.number_format:
                return labels.number_format
            cache = plot.series[0]._element.find(".//{*}val//{*}formatCode") if plot.series else None
            return cache.text if cache is not None and cache.text else "General"
    return None


def _native_chart(chart) -> list[list[str]] | None:  # type: ignore[no-untyped-def]
    """A chart with value labels read as the table it plots. Over periods ("FY22 | FY23 | FY24") each
    series is a row named by its series (the title, which carries the unit, in the corner), or by the
    title when there is one series; over anything else (segments of a bar or a doughnut) each category
    is a row and each series a column."""
    code = _chart_label_format(chart)
    if code is None or not chart.plots:
        return None
    title = " ".join(chart.chart_title.text_frame.text.split()) if chart.has_title and \
        chart.chart_title.has_text_frame else ""
    plot = chart.plots[0]
    categories = [" ".join(str(c).split()) for c in plot.categories]
    series = [(" ".join((s.name or "").split()), [None if v is None else format_number(v, code) for v in s.values])
              for p in chart.plots for s in p.series]
    if not categories or not series:
        return None
    if sum(1 for c in categories if _CATEGORY.match(c)) * 2 >= len(categories):
        if len(series) == 1:
            return [["", *categories], [title or series[0][0], *(v or "" for v in series[0][1])]]
        return [[title, *categories], *([name, *(v or "" for v in values)] for name, values in series)]
    head = [title, *(name for name, _ in series)] if len(series) > 1 or not title else [title, title]
    return [head, *([c, *(values[i] or "" for _, values in series)] for i, c in enumerate(categories))]


def _stacked_callouts(blocks: list[TextBlock]) -> list[TextBlock]:
    """A KPI callout drawn as stacked text boxes (a big figure, a change line "▲ 12% Y/Y", a caption
    "Net revenue") is one block, as when one box holds all three. The caption may sit above the figure
    instead ("Net sales in fiscal 2024" over "$391bn"), as infographics print it."""
    out: list[TextBlock] = []
    i = 0
    while i < len(blocks):
        head, above = blocks[i], None
        if i + 1 < len(blocks) and _caption_over(head, blocks[i + 1]):
            above, head = head, blocks[i + 1]
        group = [head]
        start = i + (2 if above else 1)
        if head.bbox and head.size and is_figure_cell(head.text):
            for nxt in blocks[start:start + 2]:
                last = group[-1]
                if not (nxt.bbox and last.bbox and nxt.size and nxt.size < head.size and len(nxt.text.split()) <= 8
                        and _stacked(last, nxt, head.size)):
                    break
                group.append(nxt)
        if len(group) > 1 or above:
            # Read as the caption names it, the change in parentheses after its figure: "Operating margin
            # 55.3% (▼ 40 bps)", so the arrow moves the change, not the level.
            changes = [b.text for b in group[1:] if any(ch.isdigit() for ch in b.text)]
            captions = [*([above.text] if above else []), *(b.text for b in group[1:] if not any(ch.isdigit() for ch in b.text))]
            text = " ".join([*captions, head.text]) + (f" ({'; '.join(changes)})" if changes else "")
            parts = [*([above] if above else []), *group]
            bbox = (min(b.bbox[0] for b in parts), parts[0].bbox[1], max(b.bbox[2] for b in parts), parts[-1].bbox[3])
            out.append(TextBlock(text=text, bbox=bbox, size=head.size))
        else:
            out.append(head)
        i = start + len(group) - 1
    return out


def _stacked(upper: TextBlock, lower: TextBlock, size: float) -> bool:
    """Whether ``lower`` sits right under ``upper``, the two about as wide and mostly overlapping (a
    caption spanning a whole table's width under its last cell is no callout's)."""
    assert upper.bbox and lower.bbox
    wu, wl = upper.bbox[2] - upper.bbox[0], lower.bbox[2] - lower.bbox[0]
    overlap = min(upper.bbox[2], lower.bbox[2]) - max(upper.bbox[0], lower.bbox[0])
    gap = lower.bbox[1] - upper.bbox[3]
    return overlap >= 0.7 * min(wu, wl) and max(wu, wl) <= 3 * min(wu, wl) and -2 <= gap <= size


def _caption_over(caption: TextBlock, figure: TextBlock) -> bool:
    """A short caption in small type right above a big figure: "Net sales in fiscal 2024" over "$391bn"."""
    return bool(caption.bbox and figure.bbox and caption.size and figure.size) \
        and figure.size >= 1.3 * caption.size and is_figure_cell(figure.text) and not is_figure_cell(caption.text) \
        and len(caption.text.split()) <= 8 and not any(is_figure_cell(w) and not _BARE_YEAR.match(w) for w in caption.text.split()) \
        and _stacked(caption, figure, caption.size)


_CHANGE_MARKS = ("+", "-", "\u2212", *ARROW_UP, *ARROW_DOWN)


def _frame_blocks(frame, box: BBox | None) -> list[TextBlock]:  # type: ignore[no-untyped-def]
    """A text box's paragraphs as blocks: a KPI box (a big figure and its short caption) is one block,
    and a sub-bullet under a figure-less parent ("Revenue by category:") carries the parent's words."""
    paras = []
    for p in frame.paragraphs:
        text = " ".join("".join(r.text for r in p.runs).split())
        if text:
            size = next((r.font.size.pt for r in p.runs if r.font.size is not None), None)
            paras.append((text, size, p.level))
    # A change line ("▼ 110 bps", "+5%") is the figure's change, not a second figure.
    figures = [t for t, _, _ in paras if is_figure_cell(t)]
    if len(levels := [t for t in figures if not t.lstrip().startswith(_CHANGE_MARKS)]) == 1:
        figures = levels  # a lone "+19.8%" is the box's figure; beside a level it is that level's change
    words = sum(len(t.split()) for t, _, _ in paras)
    if 2 <= len(paras) <= 3 and len(figures) == 1 and words <= 16:
        size = max((z for _, z, _ in paras if z), default=None)
        at = next(k for k, (t, _, _) in enumerate(paras) if t == figures[0])
        # A change line under the figure ("▲ 6.9 pts vs Q2'24") is read as the stacked callouts are:
        # "OP MARGIN 34.1% (▲ 6.9 pts vs Q2'24)", so the arrow moves the change, not the level.
        changes = [t for t, _, _ in paras[at + 1:] if any(ch.isdigit() for ch in t) and t.lstrip().startswith(_CHANGE_MARKS)]
        text = " ".join(t for t, _, _ in paras if t not in changes) + (f" ({'; '.join(changes)})" if changes else "")
        return [TextBlock(text=text, bbox=box, size=size)]
    out, parent = [], ""
    for text, size, level in paras:
        if level == 0:
            parent = text.rstrip(":") if not any(c.isdigit() for c in text) else ""
        elif parent:
            text = f"{parent}: {text}"
        out.append(TextBlock(text=text, bbox=box, size=size))
    return out


# ---------------------------------------------------------------- Markdown and text


def _md_table(lines: list[str]) -> list[list[str]]:
    grid = []
    for ln in lines:
        if _TABLE_SEP.match(ln.strip()):
            continue
        cells = [" ".join(c.split()) for c in ln.strip().strip("|").split("|")]
        grid.append([_unescape(c) for c in cells])
    return grid


_PRIVATE_USE = re.compile("[\ue000-\uf8ff]")


def _unescape(text: str) -> str:
    """HTML entities undone and icon-font glyphs (private-use code points) dropped."""
    return _PRIVATE_USE.sub(" ", text.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">"))


def _load_markdown(text: str) -> Deck | ParseFailure:
    """Slides start at headings (runs of headings make one title) or at page-break rules.

    A heading that is only a figure ("## 300M") is a callout on the current slide, not a new one.
    """
    slides: list[Slide] = []
    title_parts: list[str] = []
    blocks: list[TextBlock] = []
    tables: list[list[list[str]]] = []
    table_lines: list[str] = []
    deck_title = ""

    def flush_table() -> None:
        if table_lines:
            tables.append(_md_table(table_lines))
            table_lines.clear()

    def flush_slide() -> None:
        flush_table()
        if title_parts or blocks or tables:
            slides.append(Slide(page=len(slides) + 1, title=" ".join(title_parts), blocks=list(blocks),
                                tables=list(tables)))
        title_parts.clear()
        blocks.clear()
        tables.clear()

    # A deck that breaks its pages with rules uses headings inside a page for sub-titles, not new pages.
    ruled = bool(re.search(r"^\s*(?:---|\*\*\*|___)\s*$", text, re.M))
    kpi: TextBlock | None = None
    for raw in text.replace("\r\n", "\n").split("\n"):
        line = raw.strip()
        if kpi is not None and line and not line.startswith(("#", "|", "-", "*", "<")) and kpi in blocks \
                and len(line.split()) <= 16:
            # A callout figure and the caption under it are one claim: "## 86¢" + "Diluted EPS, Q1 FY2024".
            blocks[blocks.index(kpi)] = TextBlock(text=f"{kpi.text} {_unescape(' '.join(line.split()))}")
            kpi = None
            continue
        if line:
            kpi = None
        if line.startswith("|"):
            table_lines.append(line)
            continue
        flush_table()
        if not line or line.startswith("<!--") and "break" not in line.lower():
            continue
        if line in ("---", "***", "___", "\f") or line.lower().startswith("<!-- page") or "\f" in raw:
            flush_slide()
            continue
        if m := re.match(r"^(#{1,6})\s+(.*)$", line):
            head = _unescape(m.group(2).strip().strip("#").strip())
            if is_figure_cell(head) or re.fullmatch(r"[\d.,]+\s*[A-Za-z]{1,3}", head):
                kpi = TextBlock(text=head)
                blocks.append(kpi)
                continue
            if not deck_title and m.group(1) == "#":
                deck_title = head
            if ruled and title_parts and (blocks or tables):
                blocks.append(TextBlock(text=head, heading=True))
                continue
            if blocks or tables:
                flush_slide()
            title_parts.append(head)
            continue
        line = _BULLET.sub("", line) if _BULLET.match(line) else line
        blocks.append(TextBlock(text=_unescape(" ".join(line.split()))))
    flush_slide()
    if not slides:
        return ParseFailure("no-content", "the Markdown file has no text")
    return Deck(format="md", slides=slides, title=deck_title or slides[0].title)


# A plain-text deck is an analyst's memo pasted from email or a terminal, read in a fixed-width font:
# headings underlined with a rule, tables aligned with runs of spaces, prose hard-wrapped, bullets
# with wrapped continuation lines. Each line and column gets a box on a character grid, so a
# heading can be found above what it heads, as on a drawn slide.
_CHAR_W, _LINE_H = 7.0, 14.0
_UNDERLINE = re.compile(r"^\s*(?:[=\-_~*]\s?){3,}\s*$")
_TEXT_CELL = re.compile(r"\S+(?: \S+)*")  # a run of words: cells are parted by two spaces or more
_MEMO_FIELD = re.compile(r"^\s*[A-Z][A-Za-z]{1,12}:\s{2,}\S")


def _text_cells(line: str) -> list[tuple[int, int, str]]:
    return [(m.start(), m.end(), m.group(0)) for m in _TEXT_CELL.finditer(line)]


def _tabular(cells: list[tuple[int, int, str]]) -> bool:
    """A line that reads as a table row: a label (or nothing) then short cells set apart by spaces."""
    return len(cells) >= 2 and all(len(c[2]) <= 24 for c in cells[1:])


def _text_table(rows: list[tuple[int, list[tuple[int, int, str]]]]) -> tuple[list[list[str]], list[list[BBox | None]]]:
    """Aligned rows (line number, cells) as a grid: a row with fewer cells than the widest (a header over
    the label column) gives its cells to the columns whose right edges they share."""
    edges = [end for _, end, _ in max((cells for _, cells in rows), key=len)]
    grid: list[list[str]] = []
    boxes: list[list[BBox | None]] = []
    for n, cells in rows:
        row: list[str] = [""] * len(edges)
        row_boxes: list[BBox | None] = [None] * len(edges)
        slots = list(range(len(edges)))
        if len(cells) != len(edges):
            # Figures and headers are right-aligned over their column: nearest right edge, in order.
            slots, k = [], 0
            for _, end, _ in cells:
                best = min(range(k, len(edges)), key=lambda e: abs(edges[e] - end)) if k < len(edges) else len(edges) - 1
                slots.append(best)
                k = best + 1
        for (start, end, text), slot in zip(cells, slots):
            row[slot] = f"{row[slot]} {text}".strip()
            row_boxes[slot] = (start * _CHAR_W, n * _LINE_H, end * _CHAR_W, (n + 1) * _LINE_H)
        grid.append(row)
        boxes.append(row_boxes)
    return grid, boxes


def _text_page(page_no: int, page: str) -> Slide | None:
    lines = [ln.rstrip() for ln in page.split("\n")]
    cells = [_text_cells(ln) for ln in lines]
    title, blocks, tables, table_boxes = "", [], [], []
    para: list[tuple[int, str]] = []
    para_indent = -1  # the indent a bullet's continuation lines sit deeper than; -1 for prose

    def flush(heading: bool = False) -> None:
        nonlocal para_indent
        if para:
            first, last = para[0][0], para[-1][0]
            left = min(len(t) - len(t.lstrip()) for _, t in para)
            right = max(len(t) for _, t in para)
            text = " ".join(" ".join(t.split()) for _, t in para)
            text = _BULLET.sub("", text) if _BULLET.match(text) else text
            blocks.append(TextBlock(text=text, bbox=(left * _CHAR_W, first * _LINE_H, right * _CHAR_W,
                                                     (last + 1) * _LINE_H), heading=heading))
        para.clear()
        para_indent = -1

    def table_row(i: int) -> bool:
        return bool(lines[i].strip()) and _tabular(cells[i]) and not _BULLET.match(lines[i])

    i = 0
    while i < len(lines):
        line = lines[i]
        underlined = i + 1 < len(lines) and lines[i + 1].strip() and _UNDERLINE.match(lines[i + 1])
        if not line.strip() or _UNDERLINE.match(line):
            flush()
            i += 1
            continue
        if not title:
            title = " ".join(line.split())
            i += 2 if underlined else 1
            continue
        if underlined:
            flush()
            para.append((i, line))
            flush(heading=True)
            i += 2
            continue
        if table_row(i):
            j = i + 1
            while j < len(lines) and table_row(j):
                j += 1
            run = [(n, cells[n]) for n in range(i, j)]
            if len(run) >= 2 and sum(any(is_figure_cell(c[2]) for c in row[1:]) for _, row in run) >= 2:
                flush()
                grid, boxes = _text_table(run)
                tables.append(grid)
                table_boxes.append(boxes)
                i = j
                continue
        indent = len(line) - len(line.lstrip())
        if _BULLET.match(line) or _MEMO_FIELD.match(line):
            flush()
            para.append((i, line))
            para_indent = indent if _BULLET.match(line) else 10**6  # a memo field ("To:  ...") stands alone
        elif para and para_indent >= 0 and indent <= para_indent:
            flush()  # a line back at (or left of) the bullet's margin starts its own paragraph
            para.append((i, line))
        else:
            para.append((i, line))
        i += 1
    flush()
    if not title:
        return None
    return Slide(page=page_no, title=title, blocks=blocks, tables=tables, table_boxes=table_boxes)


def _load_text(text: str) -> Deck | ParseFailure:
    """Pages split on form feeds; a page's first line is its title."""
    slides = []
    for page in text.replace("\r\n", "\n").split("\f"):
        slide = _text_page(len(slides) + 1, page)
        if slide is not None:
            slides.append(slide)
    if not slides:
        return ParseFailure("no-content", "the text file is blank")
    return Deck(format="txt", slides=slides, title=slides[0].title)


# ---------------------------------------------------------------- docling JSON


def _translated(obj: dict) -> dict:
    for key in ("text", "orig"):
        if isinstance(obj.get(key), str):
            obj[key] = obj[key].translate(_GLYPHS)
    return obj


def _load_docling(text: str, name: str) -> Deck | ParseFailure:
    """A DoclingDocument export: texts and tables carry their page and a bottom-left-origin box."""
    try:
        # The glyphs are \u-escaped in the JSON: translated once decoded.
        doc = json.loads(text, object_hook=_translated)
    except json.JSONDecodeError as exc:
        return ParseFailure("corrupt", f"{name} is not valid JSON: {exc}")
    if not isinstance(doc, dict) or "texts" not in doc:
        return ParseFailure("unsupported", f"{name} is JSON but not a docling document")
    heights = {int(k): v.get("size", {}).get("height", 0.0) for k, v in (doc.get("pages") or {}).items()}
    pages: dict[int, dict] = {}

    def page_of(item: dict) -> tuple[int, BBox | None]:
        prov = (item.get("prov") or [{}])[0]
        n = int(prov.get("page_no", 1))
        b = prov.get("bbox")
        if not b:
            return n, None
        if b.get("coord_origin") == "BOTTOMLEFT":
            h = heights.get(n, 0.0)
            return n, (b["l"], h - b["t"], b["r"], h - b["b"])
        return n, (b["l"], b["t"], b["r"], b["b"])

    for item in doc["texts"]:
        if item.get("content_layer", "body") != "body":
            continue
        t = " ".join(_unescape(item.get("text", "")).split())
        if not t:
            continue
        n, box = page_of(item)
        p = pages.setdefault(n, {"titles": [], "blocks": [], "tables": [], "boxes": []})
        if item.get("label") in ("title", "section_header") and not is_figure_cell(t) and not p["blocks"]:
            p["titles"].append(t)
        elif item.get("label") in ("title", "section_header") and not is_figure_cell(t) and not p["titles"]:
            p["titles"].append(t)
        else:
            p["blocks"].append(TextBlock(text=t, bbox=box))
    for table in doc.get("tables", []):
        n, _ = page_of(table)
        grid = [[" ".join(_unescape(c.get("text", "")).split()) for c in row] for row in table["data"].get("grid", [])]
        tb = [[(c["bbox"]["l"], c["bbox"]["t"], c["bbox"]["r"], c["bbox"]["b"]) if c.get("bbox") else None
               for c in row] for row in table["data"].get("grid", [])]
        if grid:
            p = pages.setdefault(n, {"titles": [], "blocks": [], "tables": [], "boxes": []})
            p["tables"].append(grid)
            p["boxes"].append(tb)
    if not pages:
        return ParseFailure("no-content", f"{name} has no text items")
    count = max(max(pages), max(heights) if heights else 0)
    slides = []
    for n in range(1, count + 1):
        p = pages.get(n, {"titles": [], "blocks": [], "tables": [], "boxes": []})
        slides.append(Slide(page=n, title=" ".join(p["titles"]), blocks=p["blocks"], tables=p["tables"],
                            table_boxes=p["boxes"]))
    return Deck(format="docling", slides=slides, title=doc.get("name", ""))


def repeated_lines(deck: Deck, min_share: float = 0.5) -> list[str]:
    """Text that recurs on at least ``min_share`` of the slides: running headers and footers."""
    if len(deck.slides) < 3:
        return []
    counts = Counter(t for s in deck.slides for t in {b.text for b in s.blocks})
    return [t for t, c in counts.items() if c >= max(2, min_share * len(deck.slides))]


_FIGURE_MARK = re.compile(r"[$€£¥%]|\d,\d{3}|\d\.\d")


def _is_cover(slide: Slide) -> bool:
    """A title page: a short title over at most four short lines and no figure (dates are no figure)."""
    texts = [b.text for b in slide.blocks]
    return not slide.tables and len(texts) <= 4 and 0 < len(slide.title.split()) <= 6 \
        and all(len(t.split()) <= 12 and not _FIGURE_MARK.search(t) for t in texts)


def section_covers(deck: Deck) -> dict[int, Slide]:
    """Each page's section cover: the nearest title page at or before it, the deck's first page if none.

    A results deck in two parts ("NVIDIA Q2 FY2026 Financial Summary", then "Apple Q3 FY2025 Results")
    opens each with a cover; its pages read in that cover's company and period, not the first one's."""
    out: dict[int, Slide] = {}
    current = deck.slides[0] if deck.slides else None
    for i, slide in enumerate(deck.slides):
        if i > 0 and _is_cover(slide):
            current = slide
        if current is not None:
            out[slide.page] = current
    return out
