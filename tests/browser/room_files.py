"""A tiny deal room written by the test itself: an HTML filing, a PDF filing and a Markdown deck."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import httpx
import pymupdf

__all__ = ["DECK_NAME", "wait_for_room", "write_deck", "write_room"]

DECK_NAME = "acme-q4-deck.md"

_FILING_HTML = """<html><head><title>Acme Corporation - Annual Report FY2024</title></head><body>
<div><span style="font-weight:700">Acme Corporation</span></div>
<div><span style="font-weight:700">CONSOLIDATED STATEMENTS OF OPERATIONS</span></div>
<div>(In millions, except per share data)</div>
<table>
<tr><td colspan="3"></td><td colspan="7">Years ended</td></tr>
<tr><td colspan="3"></td><td colspan="3">December 31, 2024</td><td></td><td colspan="3">December 31, 2023</td></tr>
<tr><td colspan="3">Total revenue</td><td>$</td><td>5,012</td><td></td><td></td><td>$</td><td>4,410</td><td></td></tr>
<tr><td colspan="3">Cost of revenue</td><td></td><td>2,700</td><td></td><td></td><td></td><td>2,450</td><td></td></tr>
<tr><td colspan="3">Gross profit</td><td></td><td>2,312</td><td></td><td></td><td></td><td>1,960</td><td></td></tr>
<tr><td colspan="3">Operating income</td><td></td><td>812</td><td></td><td></td><td></td><td>640</td><td></td></tr>
<tr><td colspan="3">Net income</td><td>$</td><td>604</td><td></td><td></td><td>$</td><td>498</td><td></td></tr>
<tr><td colspan="3">Diluted</td><td>$</td><td>2.41</td><td></td><td></td><td>$</td><td>1.98</td><td></td></tr>
</table>
</body></html>
"""

_DECK_MD = """# Acme Corporation FY2024 Results

## FY2024 Highlights

- Acme Corporation revenue of $5.0B in FY2024
- Net income of $604M in FY2024
- Operating income of $900M in FY2024
- Gross margin of 46.1% in FY2024
- Non-GAAP operating income of $812M in FY2024
- Net revenue retention of 118% in FY2024

## Customers

- Over 12,000 customers as of December 31, 2024
"""


def _key_metrics_pdf() -> bytes:
    """A one-page borderless table, so the evidence view has a PDF page to crop."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    y = 72.0

    def line(x: float, text: str, size: float = 10, bold: bool = False) -> None:
        page.insert_text((x, y), text, fontsize=size, fontname="hebo" if bold else "helv")

    line(72, "Acme Corporation", 14, True)
    y += 20
    line(72, "Supplemental Key Metrics", 12, True)
    y += 42
    line(300, "December 31, 2024", 9, True)
    line(430, "December 31, 2023", 9, True)
    y += 18
    for label, current, prior in [("Total customers", "12,150", "10,900"), ("Employees", "6,200", "5,800")]:
        line(72, label)
        line(330, current)
        line(460, prior)
        y += 16
    return doc.tobytes()


def write_room(room_dir: Path) -> None:
    """Filings only; the deck is uploaded through the page."""
    room_dir.mkdir(parents=True, exist_ok=True)
    (room_dir / "acme-10-K-2024.html").write_text(_FILING_HTML)
    (room_dir / "acme-key-metrics-2024.pdf").write_bytes(_key_metrics_pdf())


def write_deck(path: Path) -> Path:
    path.write_text(_DECK_MD)
    return path


def wait_for_room(base: str, room: str, proc: subprocess.Popen, log: Path) -> None:  # type: ignore[type-arg]
    """Up, and both filings parsed by the watcher, so the deck has something to be checked against."""
    deadline = time.time() + 90
    while time.time() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"tickmark serve exited {proc.returncode}:\n{log.read_text()[-3000:]}")
        try:
            docs = httpx.get(f"{base}/api/rooms/{room}/documents", timeout=2)
            if docs.status_code == 200 and sum(d["status"] == "parsed" for d in docs.json()) == 2:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.3)
    raise AssertionError(f"the room's filings were not parsed in time:\n{log.read_text()[-3000:]}")
