"""The tickmarked deck as a PDF for the deal team: the deck's own pages with a mark and a number
at every claim, drawn as annotations a reviewer can toggle, then pages listing each numbered
claim with its verdict, the reason and its citation."""

from __future__ import annotations

import asyncio
import html
import io
from typing import Any

import pymupdf

from services.deckview import Mark, deck_pdf, locate_claims, locate_discards, numbered
from services.parsing import ParserPool
from parsers.model import ParseFailure

__all__ = ["ANNOT_TITLE", "LAYER_NAMES", "NOT_CHECKED_LAYER", "NOT_CHECKED_SUBJECT", "VERDICT_COLOURS", "export_for_deck", "export_pdf", "tickmarked_pdf"]

ANNOT_TITLE = "Tickmark"
"""Every annotation this export adds carries this author, so a reader can filter or strip them."""

VERDICT_COLOURS: dict[str, tuple[float, float, float]] = {
    "supported": (0.09, 0.41, 0.25),
    "contradicted": (0.66, 0.15, 0.11),
    "different-basis": (0.77, 0.54, 0.07),
    "no-evidence": (0.42, 0.46, 0.52),
    "pending": (0.55, 0.58, 0.63),
}
VERDICT_LABELS = {"supported": "Supported", "contradicted": "Contradicted", "different-basis": "Different basis",
                  "no-evidence": "No evidence", "pending": "Not decided"}
LAYER_NAMES = {v: f"Tickmarks: {label}" for v, label in VERDICT_LABELS.items()}
"""One optional-content layer per verdict: a reader's layer panel hides or shows each."""
NOT_CHECKED_LAYER = "Tickmarks: Not checked"
"""Figures the extractor set aside, outlined and dashed; off at first, so the marks read clean."""
NOT_CHECKED_SUBJECT = "not checked"
_NOT_CHECKED_COLOUR = (0.55, 0.58, 0.65)

_BADGE = 12.0
"""The stacking pitch of marks whose figure was not found on the page."""
_LIST_PAGE = (612.0, 792.0)
_LIST_MARGIN = 48.0
_CSS = """
* { font-family: sans-serif; }
body { font-size: 9pt; color: #1b2330; }
h1 { font-size: 15pt; margin: 0 0 4pt 0; }
p.sub { color: #4a5567; margin: 0 0 10pt 0; }
table { border-collapse: collapse; width: 100%; }
th { text-align: left; font-size: 8pt; color: #4a5567; border-bottom: 1px solid #8b95a5; padding: 3pt 4pt; }
td { vertical-align: top; border-bottom: 1px solid #dde1e7; padding: 4pt 4pt; }
td.n { font-weight: bold; width: 22pt; }
td.v { font-weight: bold; width: 66pt; }
td.c { width: 170pt; }
td.p { width: 24pt; }
.cite { color: #4a5567; }
h2 { font-size: 12pt; margin: 14pt 0 4pt 0; }
"""


def _symbol(verdict: str, box: pymupdf.Rect) -> list[list[tuple[float, float]]]:
    """The verdict's glyph as ink strokes inside ``box``: tick, cross, wave pair, question mark."""
    x0, y0, w, h = box.x0, box.y0, box.width, box.height

    def at(fx: float, fy: float) -> tuple[float, float]:
        return (x0 + fx * w, y0 + fy * h)

    if verdict == "supported":
        return [[at(0.15, 0.55), at(0.4, 0.8), at(0.85, 0.2)]]
    if verdict == "contradicted":
        return [[at(0.2, 0.2), at(0.8, 0.8)], [at(0.8, 0.2), at(0.2, 0.8)]]
    if verdict == "different-basis":
        return [[at(0.15, 0.4), at(0.35, 0.28), at(0.5, 0.4), at(0.65, 0.52), at(0.85, 0.4)],
                [at(0.15, 0.68), at(0.35, 0.56), at(0.5, 0.68), at(0.65, 0.8), at(0.85, 0.68)]]
    if verdict == "no-evidence":
        return [[at(0.3, 0.3), at(0.4, 0.15), at(0.6, 0.15), at(0.7, 0.3), at(0.6, 0.45), at(0.5, 0.55),
                 at(0.5, 0.65)], [at(0.5, 0.8), at(0.5, 0.86)]]
    return [[at(0.2, 0.5), at(0.8, 0.5)]]


def _first_citation_line(claim: dict[str, Any]) -> str:
    cites = claim.get("citations") or []
    if not cites:
        return "no citation"
    c = cites[0]
    return f"{c.get('document')}: {c.get('locator')} (printed {c.get('as_printed')})"


def _badge_rect(page: pymupdf.Page, box: pymupdf.Rect) -> pymupdf.Rect:
    """Where a footnote mark goes: off the figure's top-right corner (top-left when the page ends),
    sized to the figure's type."""
    # Decks drawn on big pages (1920 pt wide) would shrink a fixed-size mark to a speck.
    scale = max(1.0, page.rect.width / 960)
    size = min(13.0 * scale, max(9.0 * scale, box.height * 0.6))
    width = 2.2 * size
    x = box.x1 + 1 if box.x1 + 1 + width <= page.rect.x1 else max(page.rect.x0, box.x0 - 1 - width)
    y = min(max(page.rect.y0, box.y0 - size * 0.6), page.rect.y1 - size)
    return pymupdf.Rect(x, y, x + width, y + size)


def _annotate(page: pymupdf.Page, claim: dict[str, Any], mark: Mark, box: pymupdf.Rect, layer: int) -> None:
    verdict = claim.get("verdict") or "pending"
    colour = VERDICT_COLOURS.get(verdict, VERDICT_COLOURS["pending"])
    n = mark.n or 0
    summary = (f"#{n} {VERDICT_LABELS.get(verdict, verdict)}: {claim.get('text', '')}\n"
               f"{claim.get('reason') or ''}\n{_first_citation_line(claim)}")
    subject = f"#{n} {verdict}"

    frame = page.add_rect_annot(box + (-1.5, -1.5, 1.5, 1.5))
    frame.set_colors(stroke=colour)
    frame.set_border(width=1.2)
    frame.set_info(title=ANNOT_TITLE, subject=subject, content=summary)
    frame.set_name(f"tickmark-{n}-box")
    frame.set_oc(layer)
    frame.update()

    # No fill behind the number: a white box would blank the tops of the words beside the figure.
    badge = _badge_rect(page, box)
    size = badge.height
    digits = pymupdf.Rect(badge.x0 + size * 0.85, badge.y0 - 1.5, badge.x1 + size * 0.4, badge.y1 + 1.5)
    number = page.add_freetext_annot(digits, str(n), fontsize=size * 0.85, fontname="helv", text_color=colour,
                                     align=pymupdf.TEXT_ALIGN_LEFT)
    # A free-text annotation's contents are its text: only its author and subject are set.
    number.set_info(title=ANNOT_TITLE, subject=subject)
    number.set_name(f"tickmark-{n}-number")
    number.set_oc(layer)
    number.update()

    glyph_box = pymupdf.Rect(badge.x0 + 1, badge.y0 + 1, badge.x0 + size - 1, badge.y1 - 1)
    glyph = page.add_ink_annot(_symbol(verdict, glyph_box))
    glyph.set_colors(stroke=colour)
    glyph.set_border(width=max(1.0, size / 7))
    glyph.set_info(title=ANNOT_TITLE, subject=subject, content=summary)
    glyph.set_name(f"tickmark-{n}-mark")
    glyph.set_oc(layer)
    glyph.update()


def _unplaced_box(page: pymupdf.Page, index: int) -> pymupdf.Rect:
    """A claim whose figure was not found on its page is marked in the top-right corner, stacked."""
    y = page.rect.y0 + 6 + index * (_BADGE + 4)
    x = page.rect.x1 - 6 - 3 * _BADGE - 4
    return pymupdf.Rect(x, y, x + 4, y + _BADGE)


def _claim_list_html(result: dict[str, Any], marks: dict[str, Mark], discards: list[Mark]) -> str:
    e = html.escape
    rows = []
    for claim in numbered(result.get("claims") or []):
        mark = marks.get(claim.get("id", ""))
        n = mark.n if mark else ""
        verdict = claim.get("verdict") or "pending"
        cites = claim.get("citations") or []
        cite_html = "<br/>".join(
            f"{e(str(c.get('document')))}: {e(str(c.get('locator') or ''))}; "
            f"printed <b>{e(str(c.get('as_printed') or ''))}</b>"
            + (f" ({e(str(c.get('role')))})" if c.get("role") not in (None, "evidence") else "")
            for c in cites[:3]) or "no citation"
        rows.append(
            f"<tr><td class='n'>{n}</td><td class='p'>p{e(str(claim.get('page')))}</td>"
            f"<td class='c'>{e(claim.get('text') or '')}<br/><span class='cite'>printed {e(claim.get('printed') or '')}</span></td>"
            f"<td class='v' style='color:{_css_colour(verdict)}'>{e(VERDICT_LABELS.get(verdict, verdict))}</td>"
            f"<td>{e(claim.get('reason') or '')}<br/><span class='cite'>{cite_html}</span></td></tr>")
    counts = result.get("counts") or {}
    tally = ", ".join(f"{counts[v]} {VERDICT_LABELS[v].lower()}" for v in VERDICT_LABELS if counts.get(v))
    parts = [
        f"<h1>Tickmarks: {e(str(result.get('deck') or 'deck'))}</h1>",
        f"<p class='sub'>Run #{e(str(result.get('run_id')))}"
        f"{' in room ' + e(str(result['room'])) if result.get('room') else ''}"
        f"{' · ' + e(tally) if tally else ''}. Each number matches the mark beside the figure on its page.</p>",
        "<table><tr><th>#</th><th>Page</th><th>Claim</th><th>Verdict</th><th>Reason and citation</th></tr>",
        *rows, "</table>",
    ]
    if discards:
        parts.append("<h2>Not checked</h2><table><tr><th>Page</th><th>As printed</th><th>Why</th></tr>")
        parts += [f"<tr><td>p{d.page}</td><td>{e(d.text or '')}</td><td>{e(d.why or '')}</td></tr>" for d in discards]
        parts.append("</table>")
    return "".join(parts)


def _css_colour(verdict: str) -> str:
    r, g, b = VERDICT_COLOURS.get(verdict, VERDICT_COLOURS["pending"])
    return f"#{int(r * 255):02x}{int(g * 255):02x}{int(b * 255):02x}"


def _claim_list_pages(body: str) -> bytes:
    story = pymupdf.Story(html=body, user_css=_CSS)
    buf = io.BytesIO()
    writer = pymupdf.DocumentWriter(buf)
    page_rect = pymupdf.Rect(0, 0, *_LIST_PAGE)
    where = page_rect + (_LIST_MARGIN, _LIST_MARGIN, -_LIST_MARGIN, -_LIST_MARGIN)
    more = True
    while more:
        device = writer.begin_page(page_rect)
        more, _ = story.place(where)
        story.draw(device)
        writer.end_page()
    writer.close()
    return buf.getvalue()


def tickmarked_pdf(deck_pdf: bytes, result: dict[str, Any], marks: list[Mark],
                   discards: list[Mark] | None = None) -> bytes:
    """``deck_pdf`` with every claim of ``result`` (the ``verify --json`` shape) marked where
    ``marks`` place it, followed by the numbered claim list."""
    doc = pymupdf.open(stream=deck_pdf, filetype="pdf")
    deck_pages = doc.page_count
    layers = {v: doc.add_ocg(name, on=True) for v, name in LAYER_NAMES.items()}
    by_id = {m.claim_id: m for m in marks if m.claim_id}
    unplaced: dict[int, int] = {}
    for claim in result.get("claims") or []:
        mark = by_id.get(claim.get("id", ""))
        if mark is None or not 1 <= mark.page <= deck_pages:
            continue
        page = doc[mark.page - 1]
        box = pymupdf.Rect(mark.box) & page.rect if mark.box is not None else pymupdf.Rect()
        if box.is_empty:
            box = _unplaced_box(page, unplaced.get(mark.page, 0))
            unplaced[mark.page] = unplaced.get(mark.page, 0) + 1
        verdict = claim.get("verdict") or "pending"
        _annotate(page, claim, mark, box, layers.get(verdict, layers["pending"]))
    skipped = doc.add_ocg(NOT_CHECKED_LAYER, on=False)
    for discard in discards or []:
        if discard.box is None or not 1 <= discard.page <= deck_pages:
            continue
        page = doc[discard.page - 1]
        box = pymupdf.Rect(discard.box) & page.rect
        if box.is_empty:
            continue
        frame = page.add_rect_annot(box + (-1.5, -1.5, 1.5, 1.5))
        frame.set_colors(stroke=_NOT_CHECKED_COLOUR)
        frame.set_border(width=0.8, dashes=[2, 2])
        frame.set_info(title=ANNOT_TITLE, subject=NOT_CHECKED_SUBJECT,
                       content=f"Not checked: {discard.why}\n{discard.text}")
        frame.set_oc(skipped)
        frame.update()

    listing = pymupdf.open(stream=_claim_list_pages(_claim_list_html(result, by_id, discards or [])), filetype="pdf")
    doc.insert_pdf(listing)
    toc = [[1, f"Slide {p + 1}", p + 1] for p in range(deck_pages)]
    toc.append([1, "Claims checked", deck_pages + 1])
    doc.set_toc(toc)
    meta = dict(doc.metadata or {})
    meta.update(title=f"Tickmarked: {result.get('deck') or 'deck'}", creator="Tickmark",
                subject=f"run {result.get('run_id')}")
    doc.set_metadata({k: v for k, v in meta.items() if k in {"title", "author", "subject", "keywords", "creator",
                                                               "producer", "creationDate", "modDate"}})
    return doc.tobytes(garbage=3, deflate=True)


def export_pdf(result: dict[str, Any], pages: bytes) -> bytes:
    """The tickmarked PDF of a run: ``pages`` is its deck as PDF pages (``deckview.deck_pdf``)."""
    marks = locate_claims(pages, numbered(result.get("claims") or []))
    return tickmarked_pdf(pages, result, marks, locate_discards(pages, result.get("discarded") or []))


async def export_for_deck(parsers: ParserPool, data: bytes, name: str, result: dict[str, Any]) -> bytes:
    """The tickmarked PDF from a deck's own bytes (the command line's ``verify --pdf``)."""
    deck = None
    if data[:5] != b"%PDF-":
        # A deck arrives from anywhere: it is loaded in a bounded parser process, as for verifying.
        loaded = await parsers.load_deck(data, name)
        if isinstance(loaded, ParseFailure):
            raise ValueError(f"{name}: {loaded.reason}: {loaded.detail}")
        deck = loaded
    pages = await asyncio.to_thread(deck_pdf, data, name, deck)
    return await asyncio.to_thread(export_pdf, result, pages)
