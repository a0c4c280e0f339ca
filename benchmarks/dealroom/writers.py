"""Deck writers: the same slides as a PDF (PyMuPDF), a PPTX (python-pptx) and Markdown."""

from __future__ import annotations

import io

from benchmarks.dealroom.model import Block, DeckSpec, Slide

__all__ = ["write_deck"]

W, H = 960, 540


def write_deck(deck: DeckSpec) -> bytes:
    return {"pdf": _pdf, "pptx": _pptx, "md": _md}[deck.format](deck)


# ---------------------------------------------------------------- PDF


def _pdf_text(page, x: float, y: float, width: float, text: str, size: float, font: str = "helv",  # type: ignore[no-untyped-def]
              align: int = 0) -> float:
    """Write ``text`` wrapped to ``width`` with its first baseline at ``y``; returns the next free y."""
    import pymupdf

    words, lines, cur = text.split(), [], ""
    for w in words:
        trial = f"{cur} {w}".strip()
        if cur and pymupdf.get_text_length(trial, fontname=font, fontsize=size) > width:
            lines.append(cur)
            cur = w
        else:
            cur = trial
    lines.append(cur)
    for line in lines:
        length = pymupdf.get_text_length(line, fontname=font, fontsize=size)
        left = x if align == 0 else (x + (width - length) / 2 if align == 1 else x + width - length)
        page.insert_text((left, y), line, fontsize=size, fontname=font)
        y += size * 1.3
    return y


def _pdf(deck: DeckSpec) -> bytes:
    import pymupdf

    doc = pymupdf.open()
    for slide in deck.slides:
        page = doc.new_page(width=W, height=H)
        page.insert_text((40, 58), slide.title, fontsize=26, fontname="hebo")
        y = 100.0
        if slide.subtitle:
            page.insert_text((40, 88), slide.subtitle, fontsize=14, fontname="helv")
            y = 120.0
        kpis = [b for b in slide.blocks if b.kind == "kpi"]
        if kpis:
            y = _pdf_kpis(page, kpis, y - 14)
        feet = [b for b in slide.blocks if b.kind == "footnote"]
        for b in slide.blocks:
            if b.kind in ("line", "note"):
                size = 18 if b.kind == "note" else 16
                # Base-14 fonts lack U+2022; a hyphen is the bullet they can print.
                y = _pdf_text(page, 40, y, 860, ("- " if b.bullet else "") + b.text, size) + 8
            elif b.kind == "table":
                y = _pdf_table(page, b.rows, y)
        fy = H - 18 - 14 * (len(feet) - 1)
        for b in feet:
            page.insert_text((40, fy), b.text, fontsize=10, fontname="helv")
            fy += 14
    return doc.tobytes()


def _pdf_kpis(page, kpis: list[Block], y: float) -> float:  # type: ignore[no-untyped-def]
    import pymupdf

    width = min(210.0, (W - 80 - 20 * (len(kpis) - 1)) / len(kpis))
    for i, b in enumerate(kpis):
        x = 40 + i * (width + 20)
        page.draw_rect(pymupdf.Rect(x, y, x + width, y + 120), color=(0.2, 0.3, 0.5), width=1.2)
        size = 28.0
        while size > 14 and pymupdf.get_text_length(b.text, fontname="hebo", fontsize=size) > width - 16:
            size -= 1
        _pdf_text(page, x + 8, y + 42, width - 16, b.text, size, "hebo", align=1)
        _pdf_text(page, x + 8, y + 76, width - 16, b.caption, 11, align=1)
    return y + 150


def _pdf_table(page, rows: list[list[str]], y: float) -> float:  # type: ignore[no-untyped-def]
    first, other, height = 300.0, 150.0, 26.0
    for r, row in enumerate(rows):
        x = 40.0
        for c, cell in enumerate(row):
            w = first if c == 0 else other
            _pdf_text(page, x + 4, y + 18, w - 10, cell, 13, "hebo" if r == 0 else "helv", align=0 if c == 0 else 2)
            x += w
        y += height
        if r == 0:
            page.draw_line((40, y - 2), (40 + first + other * (len(row) - 1), y - 2), width=0.8)
    return y + 16


# ---------------------------------------------------------------- PPTX


def _pptx(deck: DeckSpec) -> bytes:
    from pptx import Presentation
    from pptx.enum.shapes import MSO_SHAPE
    from pptx.util import Emu, Pt

    prs = Presentation()
    prs.slide_width, prs.slide_height = Emu(12192000), Emu(6858000)
    px = 12192000 / W
    for slide in deck.slides:
        s = prs.slides.add_slide(prs.slide_layouts[5])
        s.shapes.title.text = slide.title
        s.shapes.title.left, s.shapes.title.top = Emu(int(40 * px)), Emu(int(20 * px))
        s.shapes.title.width, s.shapes.title.height = Emu(int(880 * px)), Emu(int(60 * px))
        y = 90.0
        if slide.subtitle:
            box = s.shapes.add_textbox(Emu(int(40 * px)), Emu(int(y * px)), Emu(int(880 * px)), Emu(int(28 * px)))
            box.text_frame.text = slide.subtitle
            box.text_frame.paragraphs[0].runs[0].font.size = Pt(16)
            y += 34
        kpis = [b for b in slide.blocks if b.kind == "kpi"]
        if kpis:
            width = min(210.0, (W - 80 - 20 * (len(kpis) - 1)) / len(kpis))
            for i, b in enumerate(kpis):
                x = 40 + i * (width + 20)
                shape = s.shapes.add_shape(MSO_SHAPE.ROUNDED_RECTANGLE, Emu(int(x * px)), Emu(int(y * px)),
                                           Emu(int(width * px)), Emu(int(120 * px)))
                tf = shape.text_frame
                tf.word_wrap = True
                tf.text = b.text
                tf.paragraphs[0].runs[0].font.size = Pt(28)
                tf.paragraphs[0].runs[0].font.bold = True
                p = tf.add_paragraph()
                p.text = b.caption
                p.runs[0].font.size = Pt(11)
            y += 140
        lines = [b for b in slide.blocks if b.kind in ("line", "note")]
        if lines:
            box = s.shapes.add_textbox(Emu(int(40 * px)), Emu(int(y * px)), Emu(int(880 * px)), Emu(int(40 * len(lines) * px)))
            tf = box.text_frame
            tf.word_wrap = True
            for i, b in enumerate(lines):
                p = tf.paragraphs[0] if i == 0 else tf.add_paragraph()
                p.text = ("\u2022 " if b.bullet else "") + b.text
                p.runs[0].font.size = Pt(16)
            y += 34 * len(lines) + 10
        for b in slide.blocks:
            if b.kind != "table":
                continue
            rows, cols = len(b.rows), len(b.rows[0])
            shape = s.shapes.add_table(rows, cols, Emu(int(40 * px)), Emu(int(y * px)),
                                       Emu(int((300 + 150 * (cols - 1)) * px)), Emu(int(26 * rows * px)))
            for r, row in enumerate(b.rows):
                for c, cell in enumerate(row):
                    shape.table.cell(r, c).text = cell
            y += 26 * rows + 16
        feet = [b for b in slide.blocks if b.kind == "footnote"]
        if feet:
            box = s.shapes.add_textbox(Emu(int(40 * px)), Emu(int((H - 20 - 16 * len(feet)) * px)), Emu(int(880 * px)),
                                       Emu(int(16 * len(feet) * px)))
            for i, b in enumerate(feet):
                p = box.text_frame.paragraphs[0] if i == 0 else box.text_frame.add_paragraph()
                p.text = b.text
                p.runs[0].font.size = Pt(10)
    out = io.BytesIO()
    prs.save(out)
    return out.getvalue()


# ---------------------------------------------------------------- Markdown


def _md(deck: DeckSpec) -> bytes:
    parts: list[str] = []
    for slide in deck.slides:
        parts.append(_md_slide(slide))
    return ("\n---\n\n".join(parts)).encode()


def _md_slide(slide: Slide) -> str:
    out = [f"# {slide.title}", ""]
    if slide.subtitle:
        out += [f"*{slide.subtitle}*", ""]
    for b in slide.blocks:
        if b.kind == "kpi":
            out += [f"## {b.text}", "", b.caption, ""]
        elif b.kind in ("line", "note"):
            out.append(("- " if b.bullet else "") + b.text)
            out.append("" if not b.bullet else "")
        elif b.kind == "table":
            head, *body = b.rows
            out.append("| " + " | ".join(head) + " |")
            out.append("|" + "|".join("---" if i == 0 else "---:" for i in range(len(head))) + "|")
            out += ["| " + " | ".join(r) + " |" for r in body]
            out.append("")
        elif b.kind == "footnote":
            out += [b.text, ""]
    return "\n".join(out) + "\n"
