"""Parse speed over ../shared/data, by format, against what this process measures for the same bytes.

- iXBRL and HTML: the ratio to a bare lxml parse and walk (every element visited, its text read);
- PDF: the ratio to PyMuPDF's own ``get_text("dict")`` over the same pages;
- Markdown: milliseconds per MB, and the ratio of that to the HTML path's, per MB of file and per MB
  of text read (passages): a Markdown 10-K is mostly text, an HTML one mostly markup; and, the
  like-for-like figure, the ratio to the HTML path parsing the same document rendered to HTML
  (markdown-it, tables on: same words, same tables).

Times are CPU seconds of this process (a shared machine's other work does not count), one parse of
each file after a first file has warmed the process up, as in a parser worker.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

from lxml import etree
from lxml import html as lxml_html

from parsers.filings import parse_filing, sniff

__all__ = ["main"]

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def _fastest(fn, repeats: int) -> float:  # type: ignore[no-untyped-def]
    best = float("inf")
    for _ in range(repeats):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best


def _lxml_walk(data: bytes) -> None:
    root = etree.fromstring(data, lxml_html.HTMLParser(remove_comments=True, remove_pis=True))
    for el in root.iter():
        el.text  # noqa: B018 - the walk reads each element's text, as any parser must


def _as_html(data: bytes) -> bytes:
    """A Markdown filing rendered to HTML, for the HTML path to parse the same document."""
    from markdown_it import MarkdownIt

    body = MarkdownIt("commonmark").enable("table").render(data.decode("utf-8", "replace"))
    return f"<html><body>{body}</body></html>".encode()


def _pymupdf_dict(data: bytes) -> None:
    import pymupdf

    with pymupdf.open(stream=data, filetype="pdf") as doc:
        for page in doc:
            page.get_text("dict")


def main() -> int:
    if not DATA.is_dir():
        print(json.dumps({"skipped": f"{DATA} is absent"}))
        return 0
    repeats = int(os.environ.get("BENCH_REPEATS", "1"))
    files = [p for sub in ("filings", "filings_pdf", "press_releases") for p in sorted((DATA / sub).rglob("*"))
             if p.is_file()]
    for fmt_ends in ((".html", ".htm"), (".pdf",), (".md",)):
        # Warm-up, as a parser worker is warm: imports and compiled patterns are not parse time.
        small = min((p for p in files if p.name.endswith(fmt_ends)), key=lambda p: p.stat().st_size, default=None)
        if small is not None:
            parse_filing(small.read_bytes(), small.name)
    by_format: dict[str, dict[str, float]] = defaultdict(lambda: {"docs": 0, "bytes": 0, "seconds": 0.0,
                                                                   "baseline_seconds": 0.0, "text_bytes": 0})
    slowest = []
    for p in files:
        data = p.read_bytes()
        fmt = sniff(data, p.name)
        t0 = time.process_time()
        result = parse_filing(data, p.name)
        dt = time.process_time() - t0
        row = by_format[fmt]
        row["docs"] += 1
        row["bytes"] += len(data)
        row["seconds"] += dt
        row["text_bytes"] += sum(len(p.text.encode()) for p in getattr(result, "passages", ()))
        if fmt in ("ixbrl", "html"):
            row["baseline_seconds"] += _fastest(lambda: _lxml_walk(data), repeats)
        elif fmt == "pdf":
            row["baseline_seconds"] += _fastest(lambda: _pymupdf_dict(data), repeats)
        elif fmt == "md":
            rendered = _as_html(data)
            t0 = time.process_time()
            parse_filing(rendered, p.with_suffix(".html").name)
            row["baseline_seconds"] += time.process_time() - t0
        slowest.append((dt, str(p.relative_to(DATA)), len(data), getattr(result, "reason", "ok")))
    out: dict[str, object] = {"baseline_repeats": repeats, "clock": "process CPU time"}
    for fmt, r in sorted(by_format.items()):
        entry: dict[str, object] = {
            "docs": int(r["docs"]),
            "ms_per_doc": round(1000 * r["seconds"] / r["docs"], 1),
            "ms_per_mb": round(1000 * r["seconds"] / (r["bytes"] / 1e6), 1),
            "mb_per_s": round(r["bytes"] / 1e6 / r["seconds"], 2) if r["seconds"] else None,
        }
        if r["baseline_seconds"]:
            key = {"pdf": "ratio_to_pymupdf_get_text_dict", "md": "ratio_to_html_path_same_document"}.get(
                fmt, "ratio_to_bare_lxml_walk")
            entry[key] = round(r["seconds"] / r["baseline_seconds"], 1)
        out[fmt] = entry
    html = [r for f, r in by_format.items() if f in ("ixbrl", "html")]
    if "md" in by_format and html:
        md = by_format["md"]
        html_rate = sum(r["seconds"] for r in html) / sum(r["bytes"] for r in html)
        out["md"]["ratio_to_html_path_ms_per_mb"] = round((md["seconds"] / md["bytes"]) / html_rate, 2)  # type: ignore[index]
        html_text_rate = sum(r["seconds"] for r in html) / max(1, sum(r["text_bytes"] for r in html))
        out["md"]["ratio_to_html_path_ms_per_text_mb"] = round(  # type: ignore[index]
            (md["seconds"] / max(1, md["text_bytes"])) / html_text_rate, 2)
    slowest.sort(reverse=True)
    out["slowest"] = [{"file": f, "ms": round(1000 * dt), "mb": round(n / 1e6, 2), "status": s}
                      for dt, f, n, s in slowest[:5]]
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
