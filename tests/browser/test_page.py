"""The analyst's page in real headless Chromium against a real ``tickmark serve``: upload a deck,
watch every card arrive, check the counts against the API, open citations and see the evidence."""

from __future__ import annotations

import os
import shutil
import sys
from collections import Counter
from pathlib import Path
from typing import NamedTuple

import httpx
import pytest

from tests.browser.room_files import DECK_NAME, wait_for_room, write_deck, write_room
from tests.e2e._e2e import serving

pytestmark = pytest.mark.slow

ARTIFACTS = Path()
"""Screenshots and serve's log, for a person to look at: set per test by ``artifacts``."""
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
ROOM = "acme-deal"
VERDICTS = ("supported", "contradicted", "different-basis", "no-evidence")

try:
    from playwright.async_api import Page, async_playwright, expect
except ImportError:  # pragma: no cover - depends on the environment
    async_playwright = None


def _require_browser() -> None:
    if async_playwright is None:
        pytest.skip("the playwright Python package is not installed (pip install -e '.[test]')")
    if not CHROMIUM.exists():
        pytest.skip(f"Debian's chromium is not at {CHROMIUM} (apt-get install -y chromium)")


@pytest.fixture(autouse=True)
def artifacts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Under ``TICKMARK_TEST_ARTIFACTS`` when set (a CI job that keeps them), else in the test's own
    temp folder: never in the repository."""
    keep = os.environ.get("TICKMARK_TEST_ARTIFACTS")
    where = Path(keep) / "browser" if keep else tmp_path / "artifacts"
    monkeypatch.setattr(sys.modules[__name__], "ARTIFACTS", where)
    return where


class Served(NamedTuple):
    base: str
    room_dir: Path


@pytest.fixture
def server(pg_dsn: str, tmp_path: Path):
    """``tickmark serve`` as a real process over a room of generated filings; yields its base URL."""
    _require_browser()
    write_room(tmp_path / "rooms" / ROOM)
    try:
        with serving(pg_dsn, tmp_path, TICKMARK_WATCH_POLLING="1") as served:
            wait_for_room(served.base, ROOM, served.proc, served.log)
            yield Served(served.base, served.rooms / ROOM)
    finally:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        if (tmp_path / "serve.log").exists():
            shutil.copy(tmp_path / "serve.log", ARTIFACTS / "serve.log")


async def _shot(page: Page, name: str, *, full_page: bool = True) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)


async def test_upload_a_deck_watch_every_verdict_and_open_the_evidence(server: Served, tmp_path: Path) -> None:
    base = server.base
    deck = write_deck(tmp_path / DECK_NAME)
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = await browser.new_page(viewport={"width": 1280, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        requested: list[str] = []
        page.on("request", lambda request: requested.append(request.url))
        try:
            # Rooms list, then the room with both filings parsed.
            await page.goto(f"{base}/")
            await expect(page.get_by_role("link", name=ROOM)).to_contain_text("2 filings")
            await _shot(page, "0-rooms", full_page=False)
            await page.get_by_role("link", name=ROOM).click()
            documents = page.locator("table.documents tbody tr")
            await expect(documents).to_have_count(2)
            await expect(page.locator("table.documents .status--parsed")).to_have_count(2)

            # Live through the room's stream: a file that cannot be parsed shows up failed, with why.
            (server.room_dir / "scan-of-board-minutes.pdf").write_bytes(b"%PDF-1.4 this is not a PDF")
            failed = page.locator('table.documents tr[data-status="failed"]')
            await expect(failed).to_have_count(1, timeout=30_000)
            await expect(failed.locator(".doc-error")).not_to_be_empty()
            await _shot(page, "1-room")

            # Upload through the file picker (the drop zone's button); the page moves to the run.
            await page.locator("#deck-file").set_input_files(str(deck))
            await page.wait_for_url("**/#/runs/*")
            run_id = int(page.url.rsplit("/", 1)[1])
            await expect(page.locator(".card").first).to_be_visible()
            await _shot(page, "2-run-streaming")
            await expect(page.locator(".progress-text")).to_contain_text("Finished", timeout=60_000)
            await expect(page.locator('.card[data-verdict="pending"]')).to_have_count(0)
            await _shot(page, "3-run-finished")

            # The upload answers before the work is done, so the cards came over the run's SSE stream.
            assert any(url.endswith(f"/api/runs/{run_id}/events") for url in requested), requested

            # Every claim the API knows has a card, and the page counts what the API counts.
            run = httpx.get(f"{base}/api/runs/{run_id}", timeout=10).json()
            assert run["status"] == "finished"
            expected = Counter(c["verdict"] for c in run["claims"])
            assert set(expected) == set(VERDICTS), f"the test deck should exercise every verdict: {expected}"
            await expect(page.locator(".card")).to_have_count(len(run["claims"]))
            for verdict in VERDICTS:
                await expect(page.locator(f'[data-counter="{verdict}"]')).to_have_text(str(expected[verdict]))
                await expect(page.locator(f'.card[data-verdict="{verdict}"]')).to_have_count(expected[verdict])
            assert await page.get_by_role("progressbar").get_attribute("aria-valuenow") == str(len(run["claims"]))

            # The filter shows only the chosen verdict.
            await page.get_by_role("button", name="Contradicted").click()
            await expect(page.locator(".card:visible")).to_have_count(expected["contradicted"])
            await expect(page.locator('.card:visible[data-verdict="contradicted"]')).to_have_count(expected["contradicted"])
            await page.get_by_role("button", name="All").click()

            # A table citation: the cited cell is highlighted, with its row and column header.
            revenue = next(c for c in run["claims"] if c["metric"] == "revenue")
            card = page.locator(f'.card[data-claim-id="{revenue["id"]}"]')
            opener = card.locator(".citation").first
            await opener.click()
            dialog = page.get_by_role("dialog")
            await expect(dialog).to_be_visible()
            cited = dialog.locator("td.cited")
            await expect(cited).to_have_count(1)
            await expect(cited).to_contain_text(revenue["citations"][0]["as_printed"])
            await expect(dialog.locator("tr.cited-row th[scope=row]")).to_have_text("Total revenue")
            await expect(dialog.locator("thead th.cited-axis").last).to_contain_text("December 31, 2024")
            await _shot(page, "4-evidence-table", full_page=False)
            # Keyboard: Escape closes the dialog and focus goes back to the citation that opened it.
            await page.keyboard.press("Escape")
            await expect(dialog).to_be_hidden()
            assert await opener.evaluate("el => el === document.activeElement")
            await _shot(page, "4b-focus-back-on-citation", full_page=False)

            # A PDF citation: the server renders the page region with the cell's box drawn.
            customers = next(c for c in run["claims"] if c["citations"] and c["citations"][0]["bbox"])
            await page.locator(f'.card[data-claim-id="{customers["id"]}"] .citation').first.click()
            crop = dialog.locator(".page-crop img")
            await expect(crop).to_be_visible()
            await page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=await crop.element_handle())
            await expect(dialog.locator("td.cited")).to_contain_text("12,150")
            await _shot(page, "5-evidence-pdf", full_page=False)
            await dialog.get_by_role("button", name="Close").click()

            # Exports are real downloads of the same run.
            for ext in ("csv", "xlsx"):
                async with page.expect_download() as download:
                    await page.get_by_role("link", name=f"Export {ext.upper()}").click()
                assert (await download.value).suggested_filename == f"tickmark-run-{run_id}.{ext}"

            # A changed filing re-verifies the deck; the flipped verdict raises a banner on this run.
            filing = server.room_dir / "acme-10-K-2024.html"
            filing.write_text(filing.read_text().replace("<td>812</td>", "<td>900</td>"))
            banner = page.locator(".banner--change")
            await expect(banner).to_be_visible(timeout=60_000)
            await expect(banner.get_by_text("Operating income of $900M in FY2024")).to_contain_text("Contradicted → Supported")
            await expect(page.locator(".banners")).to_have_attribute("aria-live", "polite")
            await _shot(page, "6-verdict-changed", full_page=False)
            await banner.get_by_role("link", name="Open run").click()
            await expect(page.locator(".subtitle")).to_contain_text(f"re-verification of run #{run_id}")
            await expect(page.locator('.card[data-verdict="pending"]')).to_have_count(0, timeout=30_000)
            await page.get_by_role("link", name=ROOM).click()
            await expect(page.locator(".runs li")).to_have_count(2)
            # The room page streams what happens from now on; past flips live on their runs.
            await expect(page.locator(".banner--change")).to_have_count(0)
            await _shot(page, "7-room-with-runs")

            # Drag and drop works as well as the picker: a dropped deck lands on its own run.
            await page.locator(".dropzone").evaluate(
                """(zone, text) => {
                    const data = new DataTransfer();
                    data.items.add(new File([text], "dropped-deck.md", { type: "text/markdown" }));
                    zone.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
                }""", deck.read_text())
            await page.wait_for_url(lambda url: "/#/runs/" in url and not url.endswith(f"/{run_id}")
                                    and not url.endswith(f"/{run_id + 1}"))
            await expect(page.locator(".progress-text")).to_contain_text("Finished", timeout=60_000)
            await expect(page.locator("h1")).to_have_text("dropped-deck.md")
            assert not errors, errors
        finally:
            await browser.close()
