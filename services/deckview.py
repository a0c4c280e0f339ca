"""The deck as the pages a person reads: every format as PDF pages (a PDF deck is its own; PPTX,
Markdown and text decks are drawn from their slides' text boxes), slide images, and where on each
page every claim's figure and every discarded figure sits."""

from __future__ import annotations

import asyncio
import functools
import io
import os
import re
import threading
import weakref
from collections import Counter, OrderedDict
from pathlib import Path
from typing import Any

import msgspec
import pymupdf

from parsers.model import Deck, ParseFailure, Slide
from services.access import Acquirer
from services.sqlfiles import query

__all__ = ["DeckLayout", "DeckPages", "DeckUnavailable", "Mark", "PageSize", "RunDeck", "deck_pdf", "layout",
           "locate_claims", "locate_discards", "numbered", "pages_under", "rendered_deck", "run_deck", "slide_image"]

IMAGE_WIDTH = 800
"""Slide images are this many pixels wide: the run page's deck column is about 620 px at 1280."""
IMAGE_QUALITY = 88
"""JPEG: encoding a slide is ten times faster than PNG (a 27-page photo deck: 0.06 s against
0.6 s), and text at this quality stays clean."""

_MARGIN = 40.0
_TITLE_SIZE = 22.0
_BODY_SIZE = 14.0
_CELL_SIZE = 11.0
_FONT = "helv"
_BOLD = "hebo"
_INK = (0.11, 0.14, 0.19)
_SOFT = (0.45, 0.50, 0.58)
_RULE = (0.80, 0.83, 0.87)
_WIDE_SLIDE = (960.0, 540.0)
_SLIDE = (720.0, 405.0)

Box = tuple[float, float, float, float]


class PageSize(msgspec.Struct, frozen=True):
    page: int
    width: float
    height: float


class Mark(msgspec.Struct):
    """Where a claim's figure (or a discarded figure) is printed on its page, in PDF points."""

    page: int
    box: Box | None
    """None when the figure could not be found on the page; the views stack such marks in the margin."""
    claim_id: str | None = None
    n: int | None = None
    """The claim's number, 1-based in the run's order: the same number on the page and in the PDF export."""
    text: str | None = None
    why: str | None = None


class DeckLayout(msgspec.Struct):
    run_id: int
    deck: str
    format: str
    rendered: bool
    """True when the pages are a text rendering of the slides (PPTX, Markdown), not the deck's own."""
    pages: list[PageSize]
    marks: list[Mark]
    discarded: list[Mark]


# ---------------------------------------------------------------- every deck as PDF pages


def _format_of(name: str, data: bytes) -> str:
    if data[:5] == b"%PDF-":
        return "pdf"
    return name.lower().rsplit(".", 1)[-1] if "." in name else "txt"


def deck_pdf(data: bytes, name: str, deck: Deck | None) -> bytes:
    """The deck as PDF pages, one per slide: its own bytes for a PDF, else ``rendered_deck(deck)``."""
    if _format_of(name, data) == "pdf":
        return data
    if deck is None:
        raise ValueError(f"{name} is not a PDF: its loaded slides are needed to draw it")
    return rendered_deck(deck)


def _slide_size(deck: Deck) -> tuple[float, float]:
    # A PPTX carries its boxes in points but not its slide size: the boxes say which of the two
    # common sizes it is (10 in or 13.33 in wide, 16:9), or (docling's page boxes) how much
    # larger the page must have been.
    right = max((b.bbox[2] for s in deck.slides for b in s.blocks if b.bbox), default=0.0)
    bottom = max((b.bbox[3] for s in deck.slides for b in s.blocks if b.bbox), default=0.0)
    for boxes in (t for s in deck.slides for t in s.table_boxes):
        for row in boxes:
            for cell in row:
                if cell:
                    right, bottom = max(right, cell[2]), max(bottom, cell[3])
    for w, h in (_SLIDE, _WIDE_SLIDE):
        if right <= w + 1:
            return w, max(h, bottom + 8)
    w = right + _MARGIN / 2
    return w, max(w * 9 / 16, bottom + 8)


def rendered_deck(deck: Deck) -> bytes:
    """A faithful text rendering of each slide: the title, the text boxes where the deck placed
    them (or stacked in reading order when the format has no boxes), and tables as ruled grids."""
    width, height = _slide_size(deck)
    out = pymupdf.open()
    for slide in deck.slides:
        needed = _draw_slide(None, slide, width, height)
        page = out.new_page(width=width, height=max(height, needed))
        # One shape per slide: PyMuPDF's page-level drawing calls each build and commit their own.
        shape = page.new_shape()
        _draw_slide(shape, slide, width, page.rect.height)
        shape.commit()
    out.set_metadata({"title": deck.title or "Deck", "creator": "Tickmark"})
    return out.tobytes(garbage=1, deflate=True)


@functools.cache
def _font(name: str) -> pymupdf.Font:
    return pymupdf.Font(name)


@functools.cache
def _advance(name: str, char: str) -> float:
    return _font(name).glyph_advance(ord(char))


def _length(text: str, font: str, size: float) -> float:
    # Per-character advances, cached: PyMuPDF's own measuring re-decodes the string every call.
    return size * sum(_advance(font, c) for c in text)


def _wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """Greedy word wrap by the font's own advance widths; a newline starts a paragraph, which
    begins with an empty marker line ("") after the first."""
    lines: list[str] = []
    for k, para in enumerate(text.split("\n")):
        if k:
            lines.append("")
        line = ""
        for word in para.split():
            trial = f"{line} {word}" if line else word
            if line and _length(trial, font, size) > width:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
    return lines


def _fit(page: pymupdf.Shape | None, rect: pymupdf.Rect, text: str, size: float, *, font: str = _FONT,
         colour: tuple[float, float, float] = _INK, align: int = 0, shrink: bool = True) -> float:
    """Write ``text`` wrapped in ``rect``, shrinking the type (down to 7 pt) until it fits when
    ``shrink``; what still does not fit runs on below the box. The height used; with ``page``
    None nothing is drawn, only measured."""
    # A paragraph break is a third of a line: figures on consecutive bullets keep apart.
    def height(lines: list[str]) -> float:
        return sum(size * (0.4 if not line else 1.25) for line in lines)

    while True:
        lines = _wrap(text, font, size, rect.width)
        if not shrink or height(lines) <= rect.height or size <= 7:
            break
        size -= 1
    if page is not None:
        y = rect.y0 + size
        for line in lines:
            if not line:
                y += size * 0.4
                continue
            x = rect.x1 - _length(line, font, size) if align == 2 else rect.x0
            page.insert_text((x, y), line, fontsize=size, fontname=font, color=colour)
            y += size * 1.25
    return height(lines)


def _draw_slide(page: pymupdf.Shape | None, slide: Slide, width: float, height: float) -> float:
    """Draw one slide (or with ``page`` None only measure it); the height the slide needs."""
    y = _MARGIN
    if slide.title:
        y += _fit(page, pymupdf.Rect(_MARGIN, y, width - _MARGIN, y + 80), slide.title, _TITLE_SIZE,
                  font=_BOLD, shrink=False) + 10
        if page is not None:
            page.draw_line((_MARGIN, y - 4), (width - _MARGIN, y - 4))
            page.finish(color=_RULE, width=0.8)
    bottom = y
    # Paragraphs of one PPTX shape share the shape's box: stack them inside it.
    placed: dict[Box, list[str]] = {}
    sizes: dict[Box, float] = {}
    flowing: list[str] = []
    for block in slide.blocks:
        if block.bbox:
            placed.setdefault(block.bbox, []).append(block.text)
            sizes.setdefault(block.bbox, block.size or _BODY_SIZE)
        else:
            flowing.append(block.text)
    for box, texts in placed.items():
        rect = pymupdf.Rect(box)
        if rect.y0 < y:  # a shape under the title we drew (PPTX keeps no box for the title)
            rect.y1, rect.y0 = rect.y1 + (y - rect.y0), y
        used = _fit(page, rect, "\n".join(texts), min(sizes[box], 28.0))
        bottom = max(bottom, rect.y0 + used)
    y = max(y, bottom + 6) if placed and flowing else y
    for text in flowing:
        rect = pymupdf.Rect(_MARGIN + 14, y, width - _MARGIN, y + 2000)
        if page is not None:
            page.draw_circle((_MARGIN + 4, y + _BODY_SIZE * 0.55), 2.2)
            page.finish(color=_SOFT, fill=_SOFT)
        y += _fit(page, rect, text, _BODY_SIZE, shrink=False) + 6
    bottom = max(bottom, y)
    for t, grid in enumerate(slide.tables):
        boxes = slide.table_boxes[t] if t < len(slide.table_boxes) else []
        bottom = max(bottom, _draw_table(page, grid, boxes, width, max(bottom, y) + 4))
    return bottom + _MARGIN


def _draw_table(page: pymupdf.Shape | None, grid: list[list[str]], boxes: list[list[Box | None]],
                width: float, top: float) -> float:
    """A ruled grid: in the table's own box when the deck gave one, else below what came before;
    each cell in its own box when the deck gave one per cell (PDF and docling decks)."""
    if not grid:
        return top
    cells = {c for row in boxes for c in row if c}
    if len(cells) > 1:
        bottom = top
        for r, row in enumerate(grid):
            for c, text in enumerate(row):
                box = boxes[r][c] if r < len(boxes) and c < len(boxes[r]) else None
                if text and box:
                    rect = pymupdf.Rect(box)
                    _fit(page, rect, text, min(_CELL_SIZE * 1.6, max(6.0, rect.height * 0.8)),
                         font=_BOLD if r == 0 else _FONT, align=0 if c == 0 else 2)
                    bottom = max(bottom, rect.y1)
        return bottom
    cols = max(len(r) for r in grid)
    own = next((pymupdf.Rect(c) for row in boxes for c in row if c), None)
    if own is not None and own.width > 40:
        area = own
        pitch = max(14.0, min(24.0, area.height / max(1, len(grid))))
    else:
        area = pymupdf.Rect(_MARGIN, top, width - _MARGIN, top)
        pitch = 20.0
    first = min(area.width * 0.4, max(area.width / cols, 160.0)) if cols > 1 else area.width
    rest = (area.width - first) / (cols - 1) if cols > 1 else 0.0
    y = area.y0
    for r, row in enumerate(grid):
        x = area.x0
        for c in range(cols):
            text = row[c] if c < len(row) else ""
            w = first if c == 0 else rest
            cell = pymupdf.Rect(x + 3, y + 3, x + w - 3, y + pitch)
            if text:
                _fit(page, cell, text, _CELL_SIZE, font=_BOLD if r == 0 else _FONT, align=0 if c == 0 else 2)
            x += w
        y += pitch
        if page is not None:
            page.draw_line((area.x0, y), (area.x1, y))
            page.finish(color=_RULE, width=0.6)
    return y


# ---------------------------------------------------------------- images


def slide_image(pdf: bytes, page_number: int, width_px: int = IMAGE_WIDTH) -> bytes:
    """JPEG of page ``page_number`` (from 1), ``width_px`` wide."""
    from PIL import Image

    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        if not 1 <= page_number <= doc.page_count:
            raise IndexError(page_number)
        page = doc[page_number - 1]
        zoom = width_px / page.rect.width
        pix = page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), alpha=False, colorspace=pymupdf.csRGB)
    out = io.BytesIO()
    Image.frombytes("RGB", (pix.width, pix.height), pix.samples).save(out, format="JPEG", quality=IMAGE_QUALITY)
    return out.getvalue()


def page_sizes(pdf: bytes) -> list[PageSize]:
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        return [PageSize(page=p.number + 1, width=round(p.rect.width, 2), height=round(p.rect.height, 2))
                for p in doc]


# ---------------------------------------------------------------- where each figure is printed


def _rect_tuple(rect: pymupdf.Rect) -> Box:
    return (round(rect.x0, 2), round(rect.y0, 2), round(rect.x1, 2), round(rect.y1, 2))


def _first_match(page: pymupdf.Page, text: str, clip: pymupdf.Rect | None) -> pymupdf.Rect | None:
    """The first place ``text`` is printed (a match wrapped over lines: all its lines' union)."""
    hits = page.search_for(text, clip=clip) if text.strip() else []
    if not hits:
        return None
    box = pymupdf.Rect(hits[0])
    for hit in hits[1:]:
        # search_for gives one rect per line of a wrapped match: lines directly below continue it.
        if 0 <= hit.y0 - box.y1 <= hit.height * 0.8:
            box |= hit
        else:
            break
    return box


def _text_hint(text: str) -> str:
    # The first words of the sentence find its line; a whole wrapped paragraph may not match
    # the page's own hyphenation or spacing.
    words = text.split()
    return " ".join(words[:6])


def locate_claims(pdf: bytes, claims: list[dict[str, Any]]) -> list[Mark]:
    """Each claim's figure on its page, numbered in order: the printed figure searched within the
    claim's own box (PDF decks: its line; PPTX: its shape), or near its sentence when it has none."""
    out: list[Mark] = []
    seen: Counter[tuple[int, Box | None, str]] = Counter()
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        for n, claim in enumerate(claims, start=1):
            page_no = int(claim.get("page") or 0)
            mark = Mark(page=page_no, box=None, claim_id=claim.get("id"), n=n)
            out.append(mark)
            if not 1 <= page_no <= doc.page_count:
                continue
            page = doc[page_no - 1]
            given = claim.get("bbox")
            clip = pymupdf.Rect(given) + (-2, -2, 2, 2) if given else None
            printed = (claim.get("printed") or "").strip()
            if clip is None and claim.get("text"):
                line = _first_match(page, _text_hint(claim["text"]), None)
                if line is not None:
                    clip = pymupdf.Rect(page.rect.x0, line.y0 - 2, page.rect.x1, line.y1 + line.height * 3)
            hits = page.search_for(printed, clip=clip) if printed else []
            # Two claims in one box with the same figure take its occurrences in order.
            key = (page_no, tuple(given) if given else None, printed)
            k = seen[key]
            seen[key] += 1
            if hits:
                mark.box = _rect_tuple(hits[min(k, len(hits) - 1)])
            elif given:
                mark.box = _rect_tuple(pymupdf.Rect(given))
            elif clip is not None:
                mark.box = _rect_tuple(clip)
            if mark.box is not None and not pymupdf.Rect(mark.box).intersects(page.rect):
                mark.box = None  # a box from outside the page places nothing
    return out


def locate_discards(pdf: bytes, discarded: list[dict[str, Any]]) -> list[Mark]:
    """Each discarded figure's place on its page, searched by its text (discards carry no box)."""
    out: list[Mark] = []
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        for d in discarded:
            page_no = int(d.get("page") or 0)
            text = d.get("text") or ""
            mark = Mark(page=page_no, box=None, text=text, why=d.get("why"))
            out.append(mark)
            if not 1 <= page_no <= doc.page_count:
                continue
            page = doc[page_no - 1]
            # A discarded table cell reads "label: cell"; the cell is what is printed.
            for probe in (text, text.rsplit(": ", 1)[-1], _text_hint(text)):
                found = _first_match(page, probe, None)
                if found is not None:
                    mark.box = _rect_tuple(found)
                    break
    return out


_CLAIM_ID = re.compile(r"p(\d+)-c(\d+)$")


def numbered(claims: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Claims in reading order (page, then place on the page): the order their numbers follow
    on the page, in the deck view and in the PDF export, whether the run is finished or not."""
    def key(claim: dict[str, Any]) -> tuple[int, int, int, str]:
        m = _CLAIM_ID.search(str(claim.get("id") or ""))
        page = int(claim.get("page") or 0)
        return (page, int(m.group(2)), 0, "") if m else (page, 10**9, 1, str(claim.get("id")))
    return sorted(claims, key=key)


def layout(run_id: int, deck: str, fmt: str, pdf: bytes, claims: list[dict[str, Any]],
           discarded: list[dict[str, Any]]) -> DeckLayout:
    """Pages, claim marks (numbered in reading order) and discard marks of a run's deck."""
    return DeckLayout(run_id=run_id, deck=deck, format=fmt, rendered=fmt != "pdf", pages=page_sizes(pdf),
                      marks=locate_claims(pdf, numbered(claims)), discarded=locate_discards(pdf, discarded))


# ---------------------------------------------------------------- cache


class DeckPages:
    """Deck PDFs and slide images by the deck's sha256, on disk under ``root`` and a few in memory.

    A sha256 names one version of the bytes, so nothing here ever goes stale."""

    def __init__(self, root: Path, *, keep: int = 8) -> None:
        self._root = root
        self._keep = keep
        self._pdfs: OrderedDict[str, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def _dir(self, sha: str) -> Path:
        if not sha.isalnum():
            raise ValueError(f"not a sha256: {sha!r}")
        return self._root / sha

    def _remember(self, sha: str, pdf: bytes) -> bytes:
        with self._lock:
            self._pdfs[sha] = pdf
            self._pdfs.move_to_end(sha)
            while len(self._pdfs) > self._keep:
                self._pdfs.popitem(last=False)
        return pdf

    def cached_pdf(self, sha: str) -> bytes | None:
        with self._lock:
            if sha in self._pdfs:
                self._pdfs.move_to_end(sha)
                return self._pdfs[sha]
        path = self._dir(sha) / "deck.pdf"
        return self._remember(sha, path.read_bytes()) if path.is_file() else None

    def store_pdf(self, sha: str, pdf: bytes, *, original: bool) -> bytes:
        # A PDF deck's own bytes are already stored in the database; only drawn decks go to disk.
        if not original:
            _write_atomically(self._dir(sha) / "deck.pdf", pdf)
        return self._remember(sha, pdf)

    def image(self, sha: str, pdf: bytes, page_number: int, width_px: int = IMAGE_WIDTH) -> bytes:
        path = self._dir(sha) / f"p{page_number}-w{width_px}-q{IMAGE_QUALITY}.jpg"
        if path.is_file():
            return path.read_bytes()
        image = slide_image(pdf, page_number, width_px)
        _write_atomically(path, image)
        return image


def _write_atomically(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    tmp.write_bytes(data)
    tmp.replace(path)


@functools.cache
def pages_under(home: Path) -> DeckPages:
    """The one cache of a process for a TICKMARK_HOME."""
    return DeckPages(home / "renders")


class DeckUnavailable(Exception):
    """The run's deck cannot be drawn: its bytes were never stored, or they no longer load."""


class RunDeck(msgspec.Struct):
    room: str
    deck_path: str
    sha256: str
    format: str
    pdf: bytes


_drawing: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()


async def _draw(core: Any, cache: DeckPages, sha: str, name: str) -> bytes:
    # Blobs are shared by content across rooms and only the owner reads them; the caller checked
    # the run's room through its own view first.
    async with core.pool.acquire() as conn:
        data = await conn.fetchval(query("page_deck_bytes"), sha)
    if data is None:
        raise DeckUnavailable(f"the bytes of {name} are no longer stored")
    data = bytes(data)
    original = _format_of(name, data) == "pdf"
    deck = None
    if not original:
        loaded = await core.parsers.load_deck(data, name)
        if isinstance(loaded, ParseFailure):
            raise DeckUnavailable(f"{name} no longer loads: {loaded.reason}: {loaded.detail}")
        deck = loaded
    pdf = await asyncio.to_thread(deck_pdf, data, name, deck)
    return cache.store_pdf(sha, pdf, original=original)


async def run_deck(core: Any, db: Acquirer, run_id: int) -> RunDeck | None:
    """The PDF pages of the deck run ``run_id`` read; None when ``db`` does not see the run."""
    async with db.acquire() as conn:
        row = await conn.fetchrow(query("page_run_deck"), run_id)
    if row is None:
        return None
    if not row["sha256"]:
        raise DeckUnavailable(f"run {run_id} was verified from the command line; its deck's bytes are not stored")
    sha, name = row["sha256"], row["deck_path"]
    fmt = row["format"] or _format_of(name, b"")
    cache = pages_under(core.settings.home)
    pdf = cache.cached_pdf(sha)
    if pdf is None:
        # The page asks for the layout and the first slides at once: one of them draws the deck.
        lock = _drawing.setdefault(sha, asyncio.Lock())
        async with lock:
            pdf = cache.cached_pdf(sha) or await _draw(core, cache, sha, name)
    return RunDeck(room=row["room"], deck_path=name, sha256=sha, format=fmt, pdf=pdf)
