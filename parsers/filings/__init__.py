"""Filings into sections, clean table grids, typed facts with cell-level provenance, and passages.

``parse_filing`` sniffs the bytes (not the name) and never raises: a file it cannot read comes back
as a ``ParseFailure`` whose reason a person can act on.
"""

from __future__ import annotations

import re

import msgspec

from parsers.filings.facts import Agreement, ixbrl_agreement, part_subtotals
from parsers.model import ParsedDocument, ParseFailure

__all__ = ["Agreement", "ixbrl_agreement", "parse_filing", "sniff"]

MAX_BYTES = 100 * 1024 * 1024

_MHTML = re.compile(rb"^(?:From:|MIME-Version:|Content-Type:\s*multipart/related|Snapshot-Content-Location:)", re.I | re.M)
_HTML = re.compile(rb"<(?:!doctype\s+html|html|body|div|table|p|font|document)\b", re.I)
_IXHEADER = re.compile(rb"<ix:header\b", re.I)
_XBRL = re.compile(rb"<(?:xbrli:)?xbrl\b", re.I)
_MD = re.compile(rb"^(?:#{1,6}\s|\|.*\|\s*$)", re.M)


def sniff(data: bytes, name: str = "") -> str:
    """The format of the bytes: ``pdf``, ``mhtml``, ``ixbrl``, ``html``, ``xbrl``, ``md``, ``txt`` or ``unknown``."""
    head = data[:4096]
    stripped = head.lstrip()
    if stripped.startswith(b"%PDF"):
        return "pdf"
    if _MHTML.match(stripped) and b"text/html" in data[:20000]:
        return "mhtml"
    window = data[:200_000]
    if _HTML.search(head) or (stripped.startswith(b"<?xml") and b"<html" in window[:10000]):
        return "ixbrl" if _IXHEADER.search(window) else "html"
    if stripped.startswith(b"<") and _XBRL.search(head):
        return "xbrl"
    if b"\x00" in head:
        return "unknown"
    if _MD.search(head) or name.lower().endswith((".md", ".markdown")):
        return "md"
    try:
        head.decode("utf-8")
    except UnicodeDecodeError:
        return "unknown"
    return "txt"


def _utf8(data: bytes) -> bytes:
    """UTF-16/32 files (a byte-order mark says so) re-encoded as UTF-8, which every sniff expects."""
    for bom, codec in ((b"\xff\xfe\x00\x00", "utf-32"), (b"\x00\x00\xfe\xff", "utf-32"),
                       (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16")):
        if data.startswith(bom):
            try:
                return data.decode(codec).encode("utf-8")
            except UnicodeDecodeError:
                return data
    return data


def parse_filing(data: bytes, name: str = "", *, max_bytes: int = MAX_BYTES) -> ParsedDocument | ParseFailure:
    """Parse a filing or release of any supported format; failures are values, never exceptions."""
    if not data or not data.strip():
        return ParseFailure("empty", f"{name or 'the file'} is empty")
    if len(data) > max_bytes:
        return ParseFailure("too-large", f"{name or 'the file'} is {len(data) / 1e6:.1f} MB; the limit is {max_bytes / 1e6:.0f} MB")
    data = _utf8(data)
    kind = sniff(data, name)
    doc = _parse(data, name, kind)
    if isinstance(doc, ParsedDocument) and doc.tables:
        # Once every fact is read: a "total" the income statement shows to be a part is that part's.
        try:
            doc = msgspec.structs.replace(doc, facts=part_subtotals(doc.facts, doc.tables))
        except Exception as e:  # noqa: BLE001 - as in _parse: a parser bug must not take the service down
            return ParseFailure("corrupt", f"{name or 'the file'} could not be read as {kind}: {type(e).__name__}: {e}"[:500])
    return doc


def _parse(data: bytes, name: str, kind: str) -> ParsedDocument | ParseFailure:
    try:
        if kind == "pdf":
            from parsers.filings.pdf import parse_pdf

            return parse_pdf(data, name)
        if kind in ("ixbrl", "html", "mhtml"):
            from parsers.filings.html import decode_mhtml, parse_html

            if kind == "mhtml":
                data = decode_mhtml(data)
                kind = "ixbrl" if _IXHEADER.search(data[:200_000]) else "html"
            return parse_html(data, ixbrl=kind == "ixbrl")
        if kind == "xbrl":
            from parsers.filings.xbrl import parse_xbrl

            return parse_xbrl(data)
        if kind in ("md", "txt"):
            from parsers.filings.markdown import parse_markdown

            return parse_markdown(data.decode("utf-8", errors="replace"), fmt=kind)
    except RecursionError:
        return ParseFailure("hostile", f"{name or 'the file'} nests too deeply to parse safely")
    except MemoryError:
        return ParseFailure("too-large", f"{name or 'the file'} needs more memory than allowed to parse")
    except Exception as e:  # noqa: BLE001 - a parser bug must not take the service down
        return ParseFailure("corrupt", f"{name or 'the file'} could not be read as {kind}: {type(e).__name__}: {e}"[:500])
    if kind == "unknown":
        return ParseFailure("corrupt", f"{name or 'the file'} is binary data that is not a PDF, HTML, XBRL or Markdown filing")
    return ParseFailure("unsupported", f"{name or 'the file'} is not a filing format we read (PDF, HTML, XBRL, Markdown)")
