"""Claim extraction speed: ms per page on the gold and real decks, deterministic and (with
TICKMARK_LLM_URL set) with the model pass. ``python -m benchmarks.claims`` prints JSON."""

from __future__ import annotations

import json
import time
from pathlib import Path

from parsers.claims import extract_claims
from parsers.decks import load_deck
from parsers.model import Deck

__all__ = ["main", "measure"]

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
DECKS = [
    "gold/dev-apple-netflix.pdf", "gold/dev-tesla-meta-amazon.pdf", "gold/dev-elastic-pepsico-bestbuy.pdf",
    "decks/TWLO/twilio_q4_2023_earnings_presentation.pdf", "decks/ESTC/Q4FY25-Investor-Presentation.md",
    "decks/ESTC/Q4FY25-Investor-Presentation.docling.json",
]


def measure(path: Path, repeat: int = 5) -> dict:
    """Load + extract timings for one deck, best of ``repeat``."""
    data = path.read_bytes()
    best_load = best_extract = float("inf")
    deck = None
    parsed = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        deck = load_deck(data, path.name)
        t1 = time.perf_counter()
        assert isinstance(deck, Deck), deck
        parsed = extract_claims(deck)
        t2 = time.perf_counter()
        best_load, best_extract = min(best_load, t1 - t0), min(best_extract, t2 - t1)
    pages = len(deck.slides)
    out = {"deck": path.name, "pages": pages, "claims": len(parsed.claims), "discarded": len(parsed.discarded),
           "ms_per_page_load": round(1000 * best_load / pages, 3),
           "ms_per_page_extract": round(1000 * best_extract / pages, 3)}
    from services.llm_claims import LLMSettings, extract_with_model
    from services.settings import load_settings

    settings = LLMSettings.from_settings(load_settings())
    if settings is not None:
        t0 = time.perf_counter()
        merged, check = extract_with_model(deck, settings)
        out["model"] = {"ms_per_page": round(1000 * (time.perf_counter() - t0) / pages, 1),
                        "kept": len(check.claims), "dropped": check.dropped, "duplicates": check.duplicates}
    return out


def main() -> None:
    rows = [measure(DATA / d) for d in DECKS if (DATA / d).exists()]
    pages = sum(r["pages"] for r in rows)
    total = sum((r["ms_per_page_load"] + r["ms_per_page_extract"]) * r["pages"] for r in rows)
    print(json.dumps({"decks": rows, "pages": pages, "ms_per_page": round(total / max(pages, 1), 3)}, indent=1))


if __name__ == "__main__":
    main()
