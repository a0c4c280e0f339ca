"""Slide images for the deck view: a 25-page deck rendered to images, cold and from the cache.

``python -m benchmarks.render`` prints one JSON object. The budget is 1 s for a 25-page deck's
slide images (cold: every page drawn and encoded); a PPTX or Markdown deck is first drawn as
PDF pages from its text boxes, timed separately.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

import pymupdf

from parsers.model import Deck, Slide, TextBlock
from services.deckview import IMAGE_WIDTH, DeckPages, locate_claims, rendered_deck, slide_image

PAGES = 25
BUDGET_S = 1.0
_SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "decks"


def _pdf_deck(pages: int) -> bytes:
    """A slide-shaped PDF with a title, bullets, a table and a coloured band per page."""
    doc = pymupdf.open()
    for n in range(1, pages + 1):
        page = doc.new_page(width=960, height=540)
        page.draw_rect(pymupdf.Rect(0, 0, 960, 70), color=None, fill=(0.12, 0.3, 0.55))
        page.insert_text((40, 48), f"Acme Corporation FY2024 results: part {n}", fontsize=26, color=(1, 1, 1))
        for i in range(6):
            page.insert_text((60, 120 + 34 * i), f"Segment {i + 1} revenue of ${n + i}.{i}B in FY2024, up {10 + i}% "
                             "year over year", fontsize=16)
        for r in range(5):
            for c in range(4):
                page.insert_text((560 + 95 * c, 360 + 26 * r), f"{(n * 7 + r * 3 + c) % 97:,}.{c}", fontsize=13)
    return doc.tobytes()


def _slides_deck(pages: int) -> Deck:
    slides = []
    for n in range(1, pages + 1):
        blocks = [TextBlock(text=f"Segment {i + 1} revenue of ${n + i}.{i}B in FY2024, up {10 + i}%",
                            bbox=(50.0, 110.0, 670.0, 360.0), size=16.0) for i in range(6)]
        slides.append(Slide(page=n, title=f"Acme FY2024 results: part {n}", blocks=blocks,
                            tables=[[["Metric", "FY2024", "FY2023"], ["Revenue", "$5.0B", "$4.4B"],
                                     ["Customers", "12,150", "10,900"]]]))
    return Deck(format="pptx", slides=slides, title="Acme")


def _time_images(pdf: bytes) -> tuple[float, int, float]:
    """Wall seconds, bytes, and CPU seconds: on a shared machine the CPU figure is the one that
    says what rendering costs, the wall figure what a reader waited."""
    started, cpu = time.perf_counter(), time.process_time()
    total = 0
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        count = doc.page_count
    for n in range(1, count + 1):
        total += len(slide_image(pdf, n))
    return time.perf_counter() - started, total, time.process_time() - cpu


def main() -> int:
    pdf = _pdf_deck(PAGES)
    cold_s, image_bytes, cold_cpu_s = _time_images(pdf)

    deck = _slides_deck(PAGES)
    started = time.perf_counter()
    drawn = rendered_deck(deck)
    draw_s = time.perf_counter() - started
    drawn_pngs_s, _, _ = _time_images(drawn)

    claims = [{"id": f"p{n}-c{i}", "page": n, "printed": f"${n + i}.{i}B",
               "text": f"Segment {i + 1} revenue of ${n + i}.{i}B in FY2024"} for n in range(1, PAGES + 1) for i in range(6)]
    started = time.perf_counter()
    marks = locate_claims(pdf, claims)
    locate_s = time.perf_counter() - started

    with tempfile.TemporaryDirectory() as tmp:
        cache = DeckPages(Path(tmp))
        for n in range(1, PAGES + 1):
            cache.image("bench", pdf, n)
        started = time.perf_counter()
        for n in range(1, PAGES + 1):
            cache.image("bench", pdf, n)
        cached_s = time.perf_counter() - started

    out: dict[str, object] = {
        "pages": PAGES,
        "image_width_px": IMAGE_WIDTH,
        "pdf_deck_images_s": round(cold_s, 3),
        "pdf_deck_images_cpu_s": round(cold_cpu_s, 3),
        "per_page_ms": round(cold_s * 1000 / PAGES, 1),
        "image_kb_per_page": round(image_bytes / PAGES / 1024, 1),
        "cached_images_s": round(cached_s, 4),
        "pptx_drawn_as_pdf_s": round(draw_s, 3),
        "pptx_drawn_images_s": round(drawn_pngs_s, 3),
        "locate_150_claims_s": round(locate_s, 3),
        "claims_located": sum(1 for m in marks if m.box is not None),
        "budget_s": BUDGET_S,
        "within_budget": cold_s <= BUDGET_S,
    }
    real = sorted(_SHARED.glob("*/*.pdf"))
    if real:
        data = real[0].read_bytes()
        with pymupdf.open(stream=data, filetype="pdf") as doc:
            count = doc.page_count
        seconds, _, cpu_s = _time_images(data)
        out["real_deck"] = {"file": f"{real[0].parent.name}/{real[0].name}", "pages": count,
                            "images_s": round(seconds, 3), "images_cpu_s": round(cpu_s, 3),
                            "per_page_ms": round(seconds * 1000 / count, 1),
                            "first_25_pages_cpu_s": round(cpu_s * 25 / count, 3)}
    out["load_average_1m"] = round(os.getloadavg()[0], 2)
    json.dump(out, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0 if out["within_budget"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
