"""Parse speed over ../shared/data: ms per document and MB/s by format, and the ratio to a bare lxml parse."""

from __future__ import annotations

import json
import sys
import time
from collections import defaultdict
from pathlib import Path

from lxml import html as lxml_html

from parsers.filings import parse_filing, sniff

__all__ = ["main"]

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def main() -> int:
    if not DATA.is_dir():
        print(json.dumps({"skipped": f"{DATA} is absent"}))
        return 0
    files = [p for sub in ("filings", "filings_pdf", "press_releases") for p in sorted((DATA / sub).rglob("*")) if p.is_file()]
    by_format: dict[str, dict[str, float]] = defaultdict(lambda: {"docs": 0, "bytes": 0, "seconds": 0.0, "lxml_seconds": 0.0})
    slowest = []
    for p in files:
        data = p.read_bytes()
        fmt = sniff(data, p.name)
        t0 = time.perf_counter()
        result = parse_filing(data, p.name)
        dt = time.perf_counter() - t0
        row = by_format[fmt]
        row["docs"] += 1
        row["bytes"] += len(data)
        row["seconds"] += dt
        if fmt in ("ixbrl", "html"):
            t0 = time.perf_counter()
            lxml_html.fromstring(data)
            row["lxml_seconds"] += time.perf_counter() - t0
        slowest.append((dt, str(p.relative_to(DATA)), len(data), getattr(result, "reason", "ok")))
    out = {}
    for fmt, r in sorted(by_format.items()):
        entry = {
            "docs": int(r["docs"]),
            "ms_per_doc": round(1000 * r["seconds"] / r["docs"], 1),
            "mb_per_s": round(r["bytes"] / 1e6 / r["seconds"], 2) if r["seconds"] else None,
        }
        if r["lxml_seconds"]:
            entry["ratio_to_bare_lxml"] = round(r["seconds"] / r["lxml_seconds"], 1)
        out[fmt] = entry
    slowest.sort(reverse=True)
    out["slowest"] = [{"file": f, "ms": round(1000 * dt), "mb": round(n / 1e6, 2), "status": s} for dt, f, n, s in slowest[:5]]
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
