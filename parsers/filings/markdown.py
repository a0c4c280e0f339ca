"""Markdown filings (pipe tables, ``#`` headings) and plain text, through the shared assembler."""

from __future__ import annotations

import re

from parsers.filings.assemble import Assembler, form_from, guess_entity
from parsers.filings.tables import RawCell, build_grid, clean_text
from parsers.model import ParsedDocument

__all__ = ["parse_markdown"]

_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
_SEPARATOR = re.compile(r"^\|?[\s:|-]+\|?$")
_MD_MARKUP = re.compile(r"\\([_*\[\]()#|$-])|\*\*|__|(?<!\w)_(?!\w)|`")
_PIPE = re.compile(r"(?<!\\)\|")


def _unmarked(m: re.Match[str]) -> str:
    return m.group(1) or ""


def _unmark(text: str) -> str:
    # Every markup the pattern removes starts with one of these; most lines carry none.
    if "\\" in text or "*" in text or "_" in text or "`" in text:
        text = _MD_MARKUP.sub(_unmarked, text)
    return clean_text(text)


def _cells(line: str) -> list[str]:
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|"):
        body = body[:-1]
    return [_unmark(c) for c in (_PIPE.split(body) if "\\" in body else body.split("|"))]


def parse_markdown(text: str, fmt: str = "md") -> ParsedDocument:
    """Parse a Markdown (or plain-text) filing: headings open sections, pipe tables become grids."""
    a = Assembler()
    lines = text.splitlines()
    para: list[str] = []
    i, n = 0, len(lines)

    def flush() -> None:
        if para:
            a.line(_unmark(" ".join(para)), bold=False)
            para.clear()

    while i < n:
        raw = lines[i]
        stripped = raw.strip()
        if stripped.startswith("|"):
            flush()
            rows: list[list[RawCell]] = []
            while i < n and lines[i].strip().startswith("|"):
                row = lines[i].strip()
                if not _SEPARATOR.match(row):
                    cells = _cells(row)
                    rows.append([RawCell(j, j + 1, c) for j, c in enumerate(cells) if c])
                i += 1
            grid = build_grid([r for r in rows if r])
            if grid is not None:
                a.emit_table(grid)
            elif len(rows) <= 3:
                for r in rows:
                    a.line(" ".join(c.text for c in r), bold=False)
            continue
        m = _HEADING.match(stripped) if stripped.startswith("#") else None
        if m:
            flush()
            a.line(_unmark(m.group(2)), bold=True)
        elif not stripped:
            flush()
        elif stripped.startswith(("**", "__")) and stripped.endswith(("**", "__")) and len(stripped) < 150:
            flush()
            a.line(_unmark(stripped), bold=True)
        else:
            para.append(stripped)
        i += 1
    flush()
    entity = guess_entity("", a.first_lines, a.cues) or ""
    return a.finish(fmt, entity, None, form_from(a.first_lines, ""))
