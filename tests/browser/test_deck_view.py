"""The tickmarked deck in real headless Chromium against a real ``tickmark serve``: a PDF deck and
a PPTX deck dropped on the page, marks on the slide images as the run streams, a mark opening the
cited cell, one selection across the deck and the cards, keyboard moves, discarded figures with
their reason, the tickmarked PDF checked against the run's JSON, and a claim's history after a
filing changes."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
from collections import Counter
from pathlib import Path
from typing import Any, NamedTuple

import httpx
import pymupdf
import pytest

from tests.browser.room_files import wait_for_room, write_room
from tests.e2e._e2e import serving

pytestmark = pytest.mark.slow

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
ROOM = "acme-deck-view"
"""Not the page test's room: both tests share one database, and a room keeps its documents."""
VERDICT_LABELS = {"supported": "Supported", "contradicted": "Contradicted", "different-basis": "Different basis",
                  "no-evidence": "No evidence"}
_TEXT_FLAGS = pymupdf.TEXTFLAGS_TEXT & ~pymupdf.TEXT_PRESERVE_LIGATURES
SELECTED = re.compile(r"\bis-selected\b")

try:
    from playwright.async_api import Page, async_playwright, expect
except ImportError:  # pragma: no cover - depends on the environment
    async_playwright = None

# The room (tests/browser/room_files.py) states revenue 5,012, operating income 812, net income 604
# (in millions) and 12,150 customers: these bullets are supported, contradicted, different-basis
# and no-evidence, and the outlook is discarded as guidance.
HIGHLIGHTS = ("Acme Corporation FY2024 Highlights", [
    "Acme Corporation revenue of $5.0B in FY2024", "Net income of $604M in FY2024",
    "Operating income of $900M in FY2024", "Non-GAAP operating income of $812M in FY2024",
    "FY2025 revenue outlook of $5.6B"])
CUSTOMERS = ("Acme Customers", ["Over 12,000 customers as of December 31, 2024",
                                "Net revenue retention of 118% in FY2024"])
# More slides, so the run streams for long enough that marks visibly arrive before it ends.
_WORDS = ("Strong", "Record", "Solid", "Robust", "Healthy", "Steady", "Growing", "Resilient")
EXTRA = [(f"{w} year: Acme results", [f"{w} total revenue of $5.0B in FY2024", f"{w} net income of $604M in FY2024",
                                      f"{w} operating income of $900M in FY2024"]) for w in _WORDS]


def _require_browser() -> None:
    if async_playwright is None:
        pytest.skip("the playwright Python package is not installed (pip install -e '.[test]')")
    if not CHROMIUM.exists():
        pytest.skip(f"Debian's chromium is not at {CHROMIUM} (apt-get install -y chromium)")


def pdf_deck(slides: list[tuple[str, list[str]]]) -> bytes:
    doc = pymupdf.open()
    for title, lines in slides:
        page = doc.new_page(width=720, height=405)
        page.draw_rect(pymupdf.Rect(0, 0, 720, 8), color=None, fill=(0.12, 0.3, 0.55))
        page.insert_text((40, 60), title, fontsize=24, fontname="hebo")
        for i, line in enumerate(lines):
            page.insert_text((56, 120 + 34 * i), line, fontsize=16)
    return doc.tobytes()


def pptx_deck(slides: list[tuple[str, list[str]]]) -> bytes:
    from pptx import Presentation
    from pptx.util import Inches, Pt

    prs = Presentation()
    prs.slide_width, prs.slide_height = Inches(13.333), Inches(7.5)
    for title, lines in slides:
        slide = prs.slides.add_slide(prs.slide_layouts[5])
        slide.shapes.title.text = title
        frame = slide.shapes.add_textbox(Inches(0.8), Inches(1.8), Inches(11), Inches(4.5)).text_frame
        for i, line in enumerate(lines):
            para = frame.paragraphs[0] if i == 0 else frame.add_paragraph()
            para.text = line
            para.runs[0].font.size = Pt(20)
    out = io.BytesIO()
    prs.save(out)
    return out.getvalue()


class Served(NamedTuple):
    base: str
    room_dir: Path


@pytest.fixture
def artifacts(tmp_path: Path) -> Path:
    """Screenshots for a person: under ``TICKMARK_TEST_ARTIFACTS`` when set, else the test's temp folder."""
    keep = os.environ.get("TICKMARK_TEST_ARTIFACTS")
    where = Path(keep) / "deck-view" if keep else tmp_path / "artifacts"
    where.mkdir(parents=True, exist_ok=True)
    return where


@pytest.fixture
def server(pg_dsn: str, tmp_path: Path, artifacts: Path):
    _require_browser()
    write_room(tmp_path / "rooms" / ROOM)
    try:
        with serving(pg_dsn, tmp_path, TICKMARK_WATCH_POLLING="1") as served:
            wait_for_room(served.base, ROOM, served.proc, served.log)
            yield Served(served.base, served.rooms / ROOM)
    finally:
        if (tmp_path / "serve.log").exists():
            shutil.copy(tmp_path / "serve.log", artifacts / "serve.log")


# Every verdict a mark shows, with whether the run had finished on the page at that moment.
_RECORD_MARKS = """
window.__marks = [];
new MutationObserver((records) => {
  for (const r of records) {
    const el = r.target;
    if (!(el instanceof Element) || !el.classList.contains("mark")) continue;
    const done = (document.querySelector(".progress-text")?.textContent || "").startsWith("Finished");
    window.__marks.push({ id: el.dataset.claimId, verdict: el.dataset.verdict, done });
  }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-verdict"] });
"""


async def _upload(page: Page, base: str, path: Path) -> int:
    await page.goto(f"{base}/#/rooms/{ROOM}")
    await expect(page.locator("table.documents .status--parsed")).to_have_count(2)
    await page.locator("#deck-file").set_input_files(str(path))
    await page.wait_for_url("**/#/runs/*")
    return int(page.url.rsplit("/", 1)[1])


async def _slides_loaded(page: Page, count: int) -> None:
    images = page.locator(".slide img")
    await expect(images).to_have_count(count)
    for i in range(min(count, 3)):  # later slides load lazily, as they scroll into view
        await page.wait_for_function("img => img.complete && img.naturalWidth > 0",
                                     arg=await images.nth(i).element_handle())


def _annotated(pdf: bytes, deck_pages: int) -> tuple[dict[int, tuple[int, str]], int]:
    """Claim number to (page, verdict), read back from the tickmarked PDF's annotations, and how
    many discarded figures are outlined."""
    seen: dict[int, tuple[int, str]] = {}
    skipped = 0
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        layers = {v["name"] for v in doc.get_ocgs().values()}
        assert {f"Tickmarks: {label}" for label in VERDICT_LABELS.values()} <= layers, layers
        for page in doc:
            kinds: Counter[str] = Counter()
            for annot in page.annots():
                assert annot.info["title"] == "Tickmark"
                assert annot.get_oc() > 0, "every mark sits on a layer, so a reviewer can hide it"
                if annot.info["subject"] == "not checked":
                    kinds["not checked"] += 1
                    continue
                number, verdict = annot.info["subject"].lstrip("#").split(" ", 1)
                assert page.number < deck_pages, "marks are on the deck's own pages, not the claim list"
                seen.setdefault(int(number), (page.number + 1, verdict))
                assert seen[int(number)] == (page.number + 1, verdict)
                kinds[annot.type[1]] += 1
            skipped += kinds.pop("not checked", 0)
            if kinds:
                # A frame round the figure, the verdict's glyph and the claim's number, per claim.
                assert kinds["Square"] == kinds["Ink"] == kinds["FreeText"], kinds
    return seen, skipped


def _claim_list_text(pdf: bytes, deck_pages: int) -> str:
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        assert doc.page_count > deck_pages
        text = "".join(doc[i].get_text("text", flags=_TEXT_FLAGS) for i in range(deck_pages, doc.page_count))
    return _squeezed(text)


def _squeezed(text: str) -> str:
    # The list wraps long words at hyphens and lines anywhere: compare without whitespace.
    return "".join(text.split())


def _check_export(pdf: bytes, run: dict[str, Any], layout: dict[str, Any]) -> None:
    deck_pages = len(layout["pages"])
    by_id = {c["id"]: c for c in run["claims"]}
    expected = {m["n"]: (m["page"], by_id[m["claim_id"]]["verdict"]) for m in layout["marks"]}
    assert _annotated(pdf, deck_pages) == (expected, sum(1 for d in layout["discarded"] if d["box"]))
    listing = _claim_list_text(pdf, deck_pages)
    for mark in layout["marks"]:
        claim = by_id[mark["claim_id"]]
        for words in (claim["text"], VERDICT_LABELS[claim["verdict"]], claim["reason"]):
            assert _squeezed(words) in listing, (mark["n"], words)
        for cite in claim.get("citations") or []:
            assert _squeezed(f"{cite['document']}: {cite['locator']}") in listing
            assert _squeezed(f"printed {cite['as_printed']}") in listing
    for discard in run["discarded"]:
        assert _squeezed(discard["why"]) in listing


async def test_marks_stream_onto_the_slides_and_the_tickmarked_pdf_matches_the_run(
        server: Served, tmp_path: Path, artifacts: Path) -> None:
    base = server.base
    deck_path = tmp_path / "acme-fy2024.pdf"
    deck_path.write_bytes(pdf_deck([HIGHLIGHTS, CUSTOMERS, *EXTRA]))
    pptx_path = tmp_path / "acme-fy2024-board.pptx"
    pptx_path.write_bytes(pptx_deck([HIGHLIGHTS, CUSTOMERS]))
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = await browser.new_page(viewport={"width": 1280, "height": 900}, accept_downloads=True)
        await page.add_init_script(_RECORD_MARKS)
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        requested: list[str] = []
        page.on("request", lambda request: requested.append(request.url))
        try:
            # ---- the PDF deck: marks arrive on its own pages while the run streams
            run_id = await _upload(page, base, deck_path)
            await expect(page.locator(".mark").first).to_be_attached()
            await page.screenshot(path=str(artifacts / "1-deck-view-streaming.png"), animations="disabled")
            await _slides_loaded(page, 2 + len(EXTRA))
            await expect(page.locator(".progress-text")).to_contain_text("Finished", timeout=90_000)
            await expect(page.locator('.mark[data-verdict="pending"]')).to_have_count(0)
            assert any(url.endswith(f"/api/runs/{run_id}/events") for url in requested), requested
            seen = await page.evaluate("window.__marks")
            (artifacts / "marks-timeline.json").write_text(json.dumps(seen, indent=1))
            assert any(not m["done"] and m["verdict"] != "pending" for m in seen), \
                f"no mark took its verdict before the run finished on the page: {seen[:5]}…"

            run = httpx.get(f"{base}/api/runs/{run_id}", timeout=10).json()
            layout = httpx.get(f"{base}/api/runs/{run_id}/deck", timeout=30).json()
            assert not layout["rendered"] and len(layout["pages"]) == 2 + len(EXTRA)
            verdicts = Counter(c["verdict"] for c in run["claims"])
            assert set(verdicts) == set(VERDICT_LABELS), f"the deck should exercise every verdict: {verdicts}"
            # One mark per claim, in the verdict's colour and glyph, at the figure's place.
            assert len(layout["marks"]) == len(run["claims"])
            assert all(m["box"] for m in layout["marks"]), [m for m in layout["marks"] if not m["box"]]
            for claim in run["claims"]:
                mark = page.locator(f'.mark[data-claim-id="{claim["id"]}"]')
                await expect(mark).to_have_attribute("data-verdict", claim["verdict"])
            await expect(page.locator('.mark[data-verdict="supported"] .mark-glyph').first).to_have_text("✓")
            await expect(page.locator('.mark[data-verdict="contradicted"] .mark-glyph').first).to_have_text("✕")
            revenue = next(c for c in run["claims"] if c["printed"] == "$5.0B" and c["page"] == 1)
            placed = next(m for m in layout["marks"] if m["claim_id"] == revenue["id"])
            x0, y0, x1, y1 = placed["box"]
            assert 56 < x0 < x1 < 400 and 100 < y0 < y1 < 128, "the mark sits on '$5.0B' in its line"

            # Discarded figures are on the slide too, dimmed, with the reason on hover.
            assert run["discarded"], "the outlook bullet is discarded as guidance"
            discard = page.locator(".discard").first
            await expect(page.locator(".discard")).to_have_count(len(run["discarded"]))
            await discard.hover()
            await expect(discard.locator(".discard-tip")).to_be_visible()
            await expect(discard.locator(".discard-tip")).to_contain_text(run["discarded"][0]["why"])
            await page.screenshot(path=str(artifacts / "2-discard-reason-on-hover.png"), animations="disabled")

            # A click on a mark opens the evidence view of its citation: the cited cell.
            await page.locator(f'.mark[data-claim-id="{revenue["id"]}"]').click()
            dialog = page.get_by_role("dialog")
            await expect(dialog).to_be_visible()
            await expect(dialog.locator("td.cited")).to_contain_text(revenue["citations"][0]["as_printed"])
            await expect(dialog.locator("tr.cited-row th[scope=row]")).to_have_text("Total revenue")
            await page.screenshot(path=str(artifacts / "3-mark-opens-evidence.png"), animations="disabled")
            await page.keyboard.press("Escape")
            await expect(dialog).to_be_hidden()
            # ... and selected its card: the two views share one selection, both ways.
            card = page.locator(f'.card[data-claim-id="{revenue["id"]}"]')
            await expect(card).to_have_class(SELECTED)
            other = run["claims"][2]
            await page.locator(f'.card[data-claim-id="{other["id"]}"] .claim-text').click()
            await expect(page.locator(f'.mark[data-claim-id="{other["id"]}"]')).to_have_class(SELECTED)
            await expect(page.locator(".mark.is-selected")).to_have_count(1)
            number = next(m["n"] for m in layout["marks"] if m["claim_id"] == other["id"])
            await expect(page.locator(f'.card[data-claim-id="{other["id"]}"] .card-number')).to_have_text(f"#{number}")

            # Keyboard: next and previous claim, open evidence, filter by verdict.
            order = await page.locator(".card").evaluate_all("els => els.map(e => e.dataset.claimId)")
            at = order.index(other["id"])
            await page.keyboard.press("j")
            await expect(page.locator(f'.mark[data-claim-id="{order[at + 1]}"]')).to_have_class(SELECTED)
            await page.keyboard.press("k")
            await page.keyboard.press("k")
            await expect(page.locator(f'.card[data-claim-id="{order[at - 1]}"]')).to_have_class(SELECTED)
            await page.keyboard.press("2")
            await expect(page.locator(".mark:visible")).to_have_count(verdicts["contradicted"])
            await expect(page.locator(".card:visible")).to_have_count(verdicts["contradicted"])
            await page.keyboard.press("j")
            await page.keyboard.press("o")
            await expect(dialog).to_be_visible()
            await page.keyboard.press("Escape")
            await page.keyboard.press("0")
            await expect(page.locator(".mark:visible")).to_have_count(len(run["claims"]))

            # The page fits a 1280 px screen: nothing scrolls sideways.
            assert await page.evaluate("document.documentElement.scrollWidth") <= 1280
            await page.locator(".pane--deck").evaluate("el => el.scrollTo(0, 0)")
            await page.screenshot(path=str(artifacts / "4-deck-view-finished.png"), animations="disabled")

            # The tickmarked PDF, downloaded from the page, against the run's JSON.
            async with page.expect_download() as download:
                await page.get_by_role("link", name="Export tickmarked PDF").click()
            got = await download.value
            assert got.suggested_filename == f"tickmark-run-{run_id}.pdf"
            exported = tmp_path / "tickmarked.pdf"
            await got.save_as(str(exported))
            pdf = exported.read_bytes()
            _check_export(pdf, run, layout)
            with pymupdf.open(stream=pdf, filetype="pdf") as doc:
                doc[0].get_pixmap(dpi=144).save(str(artifacts / "5-tickmarked-pdf-page-1.png"))
                doc[len(layout["pages"])].get_pixmap(dpi=110).save(str(artifacts / "6-tickmarked-pdf-claim-list.png"))

            # ---- the PPTX deck: its slides drawn from their text boxes, marked the same way
            pptx_run = await _upload(page, base, pptx_path)
            await _slides_loaded(page, 2)
            await expect(page.locator(".progress-text")).to_contain_text("Finished", timeout=90_000)
            pptx = httpx.get(f"{base}/api/runs/{pptx_run}", timeout=10).json()
            pptx_layout = httpx.get(f"{base}/api/runs/{pptx_run}/deck", timeout=30).json()
            assert pptx_layout["rendered"] and pptx_layout["format"] == "pptx"
            assert all(m["box"] for m in pptx_layout["marks"])
            await expect(page.locator(".mark")).to_have_count(len(pptx["claims"]))
            await expect(page.locator('.mark[data-verdict="pending"]')).to_have_count(0)
            await expect(page.locator(".discard")).to_have_count(len(pptx["discarded"]))
            await page.screenshot(path=str(artifacts / "7-pptx-deck-view.png"), animations="disabled")
            pptx_pdf = httpx.get(f"{base}/api/runs/{pptx_run}/export.pdf", timeout=60)
            assert pptx_pdf.headers["content-type"].startswith("application/pdf")
            _check_export(pptx_pdf.content, pptx, pptx_layout)

            # ---- history: a changed filing flips a verdict, and the PDF deck's card says so
            await page.goto(f"{base}/#/runs/{run_id}")
            await expect(page.locator(".progress-text")).to_contain_text("Finished")
            operating = next(c for c in run["claims"] if c["printed"] == "$900M" and c["page"] == 1)
            filing = server.room_dir / "acme-10-K-2024.html"
            filing.write_text(filing.read_text().replace("<td>812</td>", "<td>900</td>"))
            entries = page.locator(f'.card[data-claim-id="{operating["id"]}"] .history-entry')
            await expect(entries).to_have_count(2, timeout=90_000)
            await expect(entries.nth(0)).to_contain_text("Contradicted")
            await expect(entries.nth(0)).to_contain_text("this run")
            await expect(entries.nth(1)).to_contain_text("Supported (was Contradicted)")
            await expect(entries.nth(1)).to_contain_text("after acme-10-K-2024.html changed")
            history = httpx.get(f"{base}/api/runs/{run_id}/claims/{operating['id']}/history", timeout=10).json()
            assert [(h["verdict"], h["before"]) for h in history] == [("contradicted", None),
                                                                      ("supported", "contradicted")]
            assert history[1]["cause_document"] == "acme-10-K-2024.html"
            await page.locator(f'.card[data-claim-id="{operating["id"]}"]').scroll_into_view_if_needed()
            await page.screenshot(path=str(artifacts / "8-claim-history.png"), animations="disabled")
            assert not errors, errors
        except AssertionError as exc:
            # What the page itself reported is usually why a check on it failed.
            raise AssertionError(f"{exc}\npage errors: {errors}") from exc
        finally:
            await browser.close()
