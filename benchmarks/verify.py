"""Verification speed: ``python -m benchmarks.verify``.

A ~50-claim deck (the three gold development decks joined into one) against a 10-filing room
from ../shared/data, on a fresh embedded database: cold (every filing parsed) and warm (parse
cache hit), with the time from deck submission to the first verdict on the bus. Prints JSON.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

import pymupdf

from events.bus import EventFilter
from services.bootstrap import open_core
from services.rooms import ingest_room
from services.settings import load_settings

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
ROOM = [
    "filings/AAPL/aapl-10-K-FY2024_2024-11-01.html",
    "press_releases/AAPL/aapl_q4_fy2024_earnings_release.html",
    "filings/AAPL/aapl-10-Q-Q2FY2025_2025-03-29.htm",
    "filings/NFLX/nflx-10-K-FY2024.html",
    "filings/NFLX/nflx-10-Q-Q2-2025.html",
    "filings/META/meta-10-K-FY2024.html",
    "filings/TSLA/tsla-10-K-FY2024.html",
    "filings/TSLA/tsla-10-Q-Q2-2025.html",
    "filings/TSLA/xbrl/tsla-10-Q-Q2-2024_htm.xml",
    "filings/AMZN/amzn-10-K-FY2024.html",
]
DECKS = ["dev-apple-netflix.pdf", "dev-tesla-meta-amazon.pdf", "dev-elastic-pepsico-bestbuy.pdf"]


def build(work: Path) -> tuple[Path, Path]:
    room = work / "room"
    for rel in ROOM:
        dst = room / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(DATA / rel, dst)
    deck = pymupdf.open()
    for name in DECKS:
        with pymupdf.open(DATA / "gold" / name) as part:
            deck.insert_pdf(part)
    deck_path = work / "deck.pdf"
    deck.save(deck_path)
    return room, deck_path


async def one_run(core, room_dir: Path, deck: Path) -> dict[str, float]:  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    outcomes = await ingest_room(core.documents, "bench", room_dir)
    ingested = time.perf_counter()
    run_id = await core.verifier.start_run("bench", deck.name, trigger="cli")
    first: list[float] = []

    async def watch() -> None:
        async for stored in core.bus.subscribe(0, EventFilter(run_id=run_id, types=frozenset({"verdict.reached"}))):
            first.append(time.perf_counter())
            return

    watcher = asyncio.create_task(watch())
    submitted = time.perf_counter()
    result = await core.verifier.run(run_id, "bench", deck.name, deck.read_bytes())
    done = time.perf_counter()
    await asyncio.wait_for(watcher, 10)
    return {
        "total_ms": round((done - started) * 1000, 1),
        "ingest_ms": round((ingested - started) * 1000, 1),
        "verify_ms": round((done - submitted) * 1000, 1),
        "first_verdict_ms": round((first[0] - submitted) * 1000, 1),
        "claims": len(result["claims"]),
        "documents": len(outcomes),
        "parsed_now": sum(1 for o in outcomes if not o.cached),
    }


async def main() -> dict[str, object]:
    if not DATA.is_dir():
        sys.exit(f"benchmarks.verify needs {DATA}")
    work = Path(tempfile.mkdtemp(prefix="tickmark-bench-verify-"))
    room, deck = build(work)
    settings = load_settings({"TICKMARK_HOME": str(work / "home")})
    async with open_core(settings) as core:
        cold = await one_run(core, room, deck)
        warm = await one_run(core, room, deck)
    shutil.rmtree(work, ignore_errors=True)
    return {"benchmark": "verify", "cold": cold, "warm": warm}


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main()), indent=1))
