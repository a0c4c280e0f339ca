"""The independent reading of the filings: Arelle's inline XBRL loader, never ``parsers/``.

Arelle (``arelle-release``) opens an inline filing offline without its taxonomies: it warns that
each concept lacks a schema definition, but still resolves every ``ix:nonFraction`` through its
``format``, ``scale`` and ``sign`` into a normalised value, and reads contexts (period, explicit
dimensions) and units. That is all the labels need, so the gold never passes through our parser.
Each filing is read once and its facts cached as JSON by sha256.

Some copies in ../shared/data (re-serialised by the tool that collected them) use prefixes
(``ixt:``, ``dei:``, ``srt:``, ``iso4217:``, the company's own) without declaring them, so Arelle
can resolve neither their transforms nor their cover facts; the reader declares the missing
prefixes on the root element (nothing else changes) and records that it did.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
import re
import tempfile
from decimal import Decimal, InvalidOperation
from pathlib import Path

import msgspec

__all__ = ["Fact", "Filing", "inline_filings", "is_inline", "load_filings", "read_filing"]

_READER_VERSION = 4


class Fact(msgspec.Struct, frozen=True, array_like=True):
    concept: str
    value: str
    """Decimal string after scale and sign."""
    unit: str
    start: str | None
    end: str
    """Inclusive period end (or the instant)."""
    dims: tuple[tuple[str, str], ...]
    decimals: int | None
    printed: str
    context: str


class Filing(msgspec.Struct):
    path: str
    sha256: str
    ticker: str
    registrant: str
    form: str
    period_end: str
    fiscal_year: str
    fiscal_period: str
    fiscal_year_end: str
    facts: list[Fact]
    repaired: bool = False
    unreadable: int = 0
    """Numeric facts Arelle could not transform without the SEC's transformation registry."""
    version: int = _READER_VERSION


def is_inline(path: Path) -> bool:
    if path.suffix.lower() not in (".htm", ".html"):
        return False
    with path.open("rb") as fh:
        head = fh.read(400_000)
    return b"ix:header" in head or b"ix:nonFraction" in head


_KNOWN = {
    b"ixt": b"http://www.xbrl.org/inlineXBRL/transformation/2020-02-12",
    b"ixt-sec": b"http://www.sec.gov/inlineXBRL/transformation/2015-08-31",
    b"dei": b"http://xbrl.sec.gov/dei/2024",
    b"srt": b"http://fasb.org/srt/2024",
    b"ecd": b"http://xbrl.sec.gov/ecd/2024",
    b"iso4217": b"http://www.xbrl.org/2003/iso4217",
}
_USED = re.compile(rb'(?:name|dimension|format)="([A-Za-z][\w.-]*):|>\s*([A-Za-z][\w.-]*):[A-Za-z]\w*\s*<')


def _declare_prefixes(data: bytes) -> bytes:
    """``data`` with every QName prefix it uses but never declares declared on <html>."""
    root = re.search(rb"<html\b[^>]*>", data)
    if root is None:
        return data
    declared = set(re.findall(rb"xmlns:([\w.-]+)=", data))
    used = {a or b for a, b in _USED.findall(data)}
    missing = sorted(used - declared - {b"xml", b"http", b"https"})
    if not missing:
        return data
    # A company prefix needs only a namespace of its own for its concepts to be told apart.
    decl = b"".join(b" xmlns:" + p + b'="' + _KNOWN.get(p, b"urn:dealroom:undeclared:" + p) + b'"' for p in missing)
    return data[: root.start()] + root.group(0)[:5] + decl + root.group(0)[5:] + data[root.end():]


def _unit(unit) -> str:  # type: ignore[no-untyped-def]
    if unit is None:
        return ""
    num, den = unit.measures
    def name(qs) -> str:  # type: ignore[no-untyped-def]
        return "*".join(q.localName for q in qs)
    return name(num) + ("/" + name(den) if den else "")


def _day(value: dt.datetime) -> str:
    # Arelle stores a date-only end or instant as midnight of the following day.
    if value.hour == 0 and value.minute == 0:
        value -= dt.timedelta(days=1)
    return value.date().isoformat()


def read_filing(path: Path, rel: str) -> Filing:
    from arelle import Cntlr

    data = path.read_bytes()
    fixed = _declare_prefixes(data)
    with tempfile.TemporaryDirectory(prefix="dealroom-reader-") as tmp:
        source = path
        if fixed is not data:
            source = Path(tmp) / path.name
            source.write_bytes(fixed)
        return _read(source, rel, data, repaired=fixed is not data)


def _read(path: Path, rel: str, data: bytes, *, repaired: bool) -> Filing:
    from arelle import Cntlr

    cntlr = Cntlr.Cntlr(logFileName=None)
    cntlr.startLogging(logHandler=logging.NullHandler())
    logging.getLogger("arelle").propagate = False
    cntlr.webCache.workOffline = True
    model = cntlr.modelManager.load(str(path))
    try:
        facts: set[Fact] = set()
        cover: dict[str, str] = {}
        unreadable = 0
        for f in model.facts:
            q = f.qname
            if q is None:
                continue
            if q.prefix == "dei" and f.context is not None and not f.context.qnameDims:
                cover.setdefault(q.localName, (f.value or "").strip())
            if f.localName == "nonFraction" or f.elementQname.localName == "nonFraction":
                if f.isNil or f.context is None:
                    continue
                try:
                    value = Decimal(f.value)
                except (InvalidOperation, TypeError):
                    unreadable += 1
                    continue
                c = f.context
                if c.isStartEndPeriod:
                    start, end = _day(c.startDatetime + dt.timedelta(days=1)), _day(c.endDatetime)
                elif c.isInstantPeriod:
                    start, end = None, _day(c.instantDatetime)
                else:
                    continue
                dims = tuple(sorted((str(d.dimensionQname), str(d.memberQname)) for d in c.qnameDims.values()
                                    if d.isExplicit))
                if any(not d.isExplicit for d in c.qnameDims.values()):
                    continue
                dec = f.get("decimals")
                decimals = None if dec in (None, "INF") else int(dec)
                facts.add(Fact(str(q), str(value), _unit(f.unit), start, end, dims, decimals,
                               " ".join((f.textValue or "").split()), f.contextID))
    finally:
        cntlr.modelManager.close()
        cntlr.close()
    # A cover with several classes of stock tags each symbol under a dimension; the folder names it.
    ticker = cover.get("TradingSymbol", "").upper() or Path(rel).parts[1]
    return Filing(path=rel, sha256=hashlib.sha256(data).hexdigest(), ticker=ticker, repaired=repaired,
                  registrant=cover.get("EntityRegistrantName", ""), form=cover.get("DocumentType", ""),
                  period_end=cover.get("DocumentPeriodEndDate", ""), fiscal_year=cover.get("DocumentFiscalYearFocus", ""),
                  fiscal_period=cover.get("DocumentFiscalPeriodFocus", ""),
                  fiscal_year_end=cover.get("CurrentFiscalYearEndDate", ""),
                  facts=sorted(facts, key=lambda x: (x.concept, x.end, x.start or "", x.dims)), unreadable=unreadable)


_enc = msgspec.json.Encoder()
_dec = msgspec.json.Decoder(Filing)


def inline_filings(data: Path) -> dict[str, list[Path]]:
    """Every inline filing under ``data/filings``, by the ticker its folder names."""
    out: dict[str, list[Path]] = {}
    for path in sorted((data / "filings").rglob("*")):
        if path.is_file() and is_inline(path):
            out.setdefault(path.relative_to(data / "filings").parts[0], []).append(path)
    return out


def load_filings(data: Path, cache: Path, paths: list[Path] | None = None) -> list[Filing]:
    """The inline filings (``paths``, else all under ``data/filings``), each read once and cached by content."""
    cache.mkdir(parents=True, exist_ok=True)
    out: list[Filing] = []
    if paths is None:
        paths = [p for ps in inline_filings(data).values() for p in ps]
    for path in paths:
        sha = hashlib.sha256(path.read_bytes()).hexdigest()
        hit = cache / f"{sha}.v{_READER_VERSION}.json"
        if hit.is_file():
            try:
                out.append(_dec.decode(hit.read_bytes()))
                continue
            except msgspec.ValidationError:
                pass
        filing = read_filing(path, str(path.relative_to(data)))
        hit.write_bytes(_enc.encode(filing))
        out.append(filing)
    return out
