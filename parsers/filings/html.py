"""Inline-XBRL and plain HTML filings and releases: one pass over the tree for sections, tables, passages."""

from __future__ import annotations

import email
import email.policy
import re

from lxml import etree

from parsers.filings.assemble import Assembler, form_from, guess_entity
from parsers.filings.ixbrl import Context, XbrlFact, contexts_from, ix_number, units_from
from parsers.filings.tables import RawCell, build_grid, clean_text
from parsers.model import ParsedDocument
from parsers.periods import dates_in, parse_fye

__all__ = ["decode_mhtml", "parse_html"]

_BLOCK = frozenset({
    "div", "p", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "center", "blockquote", "section",
    "article", "body", "main", "header", "footer", "dl", "dt", "dd", "pre", "form", "figure", "tr", "tbody",
    "nav", "aside", "br", "hr",
})
_SKIP = frozenset({"script", "style", "head", "noscript", "ix:header", "title", "svg", "button", "select", "iframe"})
_BOLD = re.compile(r"font-weight:\s*(?:bold|[6-9]00)", re.I)
_HIDDEN = re.compile(r"display:\s*none", re.I)

_CHARSET = re.compile(rb"charset\s*=|encoding\s*=", re.I)
# What lxml.html's ``text_content()`` computes, on plain elements: lxml.html's parser calls back
# into Python to pick a class for every element it hands out, a cost paid on each of the
# hundreds of thousands of elements in a 10-K.
_text_of = etree.XPath("string()", smart_strings=False)


def decode_mhtml(data: bytes) -> bytes:
    """The HTML part of a saved web page (MHTML, quoted-printable), as bytes."""
    msg = email.message_from_bytes(data, policy=email.policy.compat32)
    for part in msg.walk():
        if part.get_content_type() == "text/html":
            payload = part.get_payload(decode=True)
            if payload:
                return payload
    return data


class _HtmlWalker(Assembler):
    """The single pass over an HTML body."""

    def __init__(self, td_tags: dict, blocky: set | None = None) -> None:
        super().__init__()
        self.td_tags = td_tags
        self.blocky = blocky

    def table(self, el) -> None:
        rows: list[list[RawCell]] = []
        td_tags = self.td_tags
        for tr in el.iter("tr"):
            slot = 0
            cells: list[RawCell] = []
            for td in tr:
                tag = td.tag
                if tag != "td" and tag != "th":
                    continue
                try:
                    span = int(td.get("colspan") or 1)
                except ValueError:
                    span = 1
                text = clean_text(_text_of(td)) if len(td) or td.text else ""
                tagged = td_tags.get(td)
                if text or tagged:
                    cells.append(RawCell(slot, slot + span, text, *(tagged or (None, None))))
                slot += span
            if cells:
                rows.append(cells)
        if not rows:
            return
        grid = build_grid(rows)
        if grid is None:
            # Layout tables: Item headings and bold captions often live in one-row tables.
            if len(rows) <= 3:
                for r in rows:
                    self.line(" ".join(c.text for c in r if c.text), bold=False)
            return
        self.emit_table(grid)

    # ------------------------------------------------------------ walk
    def walk(self, el) -> None:
        buf: list[str] = []
        text = el.text
        if text and text.strip():
            buf.append(text)
        for child in el:
            tag = child.tag
            if not isinstance(tag, str):
                if child.tail and child.tail.strip():
                    buf.append(child.tail)
                continue
            if tag in _SKIP:
                pass
            elif tag == "table":
                self.flush(buf, el)
                buf = []
                self.table(child)
            elif tag in _BLOCK:
                self.flush(buf, el)
                buf = []
                style = child.get("style")
                if style and _HIDDEN.search(style):
                    pass
                elif self.has_block(child):
                    self.walk(child)
                else:
                    self.leaf(child)
            else:
                if self.has_block(child):
                    self.flush(buf, el)
                    buf = []
                    self.walk(child)
                else:
                    buf.append(_text_of(child))
            tail = child.tail
            if tail and tail.strip():
                buf.append(tail)
        self.flush(buf, el)

    def has_block(self, el) -> bool:
        return el in self.blocky if self.blocky is not None else _has_block(el)

    def flush(self, buf: list[str], el) -> None:
        if buf:
            text = clean_text(" ".join(buf))
            if text:
                self.line(text, bold=False)

    def leaf(self, el) -> None:
        text = clean_text(_text_of(el))
        if not text:
            return
        self.line(text, _is_bold(el) if len(text) < 200 else False)


def _has_block(el) -> bool:
    for c in el:
        t = c.tag
        if t == "table" or (t in _BLOCK and t != "br" and t != "hr"):
            return True
    return False


def _block_holders(root) -> set:
    """Every element with a block or table somewhere below it, in one pass.

    Web pages wrap whole articles in inline elements (``<span id="ContentPane">``); a check of the
    direct children alone would flatten such an article, tables included, into one line of text.
    """
    out: set = set()
    for el in root.iter():
        t = el.tag
        if not isinstance(t, str) or not (t == "table" or (t in _BLOCK and t != "br" and t != "hr")):
            continue
        p = el.getparent()
        while p is not None and p not in out:
            out.add(p)
            p = p.getparent()
    return out


def _is_bold(el, inherited: bool = False) -> bool:
    """True when every piece of text in ``el`` is set bold (by style, <b> or <strong>)."""
    tag = el.tag if isinstance(el.tag, str) else ""
    style = el.get("style") or ""
    bold = inherited or tag in ("b", "strong", "h1", "h2", "h3", "h4") or bool(_BOLD.search(style))
    if "font-weight:400" in style.replace(" ", "") or "font-weight:normal" in style.replace(" ", ""):
        bold = False
    if el.text and el.text.strip() and not bold:
        return False
    for c in el:
        if isinstance(c.tag, str) and not _is_bold(c, bold):
            return False
        if c.tail and c.tail.strip() and not bold:
            return False
    return True


def _ix_index(root) -> tuple[dict[str, Context], list[XbrlFact], dict, dict[str, str]]:
    contexts = contexts_from(root.iter("xbrli:context"))
    units = units_from(root.iter("xbrli:unit"))
    facts: list[XbrlFact] = []
    td_tags: dict = {}
    for el in root.iter("ix:nonfraction"):
        name = el.get("name")
        ctx = el.get("contextref")
        if not name or not ctx:
            continue
        printed = _text_of(el).strip()
        value = ix_number(printed, el.get("format"))
        if value is None:
            if el.get("xsi:nil") == "true":
                continue
            continue
        try:
            scale = int(el.get("scale") or 0)
        except ValueError:
            scale = 0
        if scale:
            value = value.scaleb(scale)
        if el.get("sign") == "-":
            value = -value
        facts.append(XbrlFact(name, ctx, units.get(el.get("unitref") or ""), value, scale, el.get("decimals"),
                              printed, el.get("id")))
        p = el.getparent()
        for _ in range(6):
            if p is None:
                break
            if p.tag == "td" or p.tag == "th":
                td_tags.setdefault(p, (name, ctx))
                break
            p = p.getparent()
    dei: dict[str, str] = {}
    for el in root.iter("ix:nonnumeric"):
        name = el.get("name") or ""
        if name.startswith("dei:") and name not in dei:
            dei[name] = clean_text(_text_of(el))
    return contexts, facts, td_tags, dei


def _fye_from_dei(dei: dict[str, str]) -> tuple[int, int] | None:
    """dei:CurrentFiscalYearEndDate, else the period end of an annual report (Apple omits the former)."""
    fye = parse_fye(dei.get("dei:CurrentFiscalYearEndDate"))
    if fye is None and dei.get("dei:DocumentType", "").upper().startswith(("10-K", "20-F", "40-F")):
        ends = dates_in(dei.get("dei:DocumentPeriodEndDate", ""))
        if ends:
            return ends[0].month, ends[0].day
    return fye


def parse_html(data: bytes, *, ixbrl: bool) -> ParsedDocument:
    """Parse an HTML or inline-XBRL filing already decoded to HTML bytes."""
    encoding = None
    if not _CHARSET.search(data[:4096]):
        # Without a declared charset libxml2 assumes Latin-1, which garbles UTF-8 dashes into text.
        try:
            data.decode("utf-8")
            encoding = "utf-8"
        except UnicodeDecodeError:
            encoding = "windows-1252"
    parser = etree.HTMLParser(no_network=True, remove_comments=True, remove_pis=True, huge_tree=False,
                                  encoding=encoding)
    root = etree.fromstring(data, parser)
    if root is None:
        raise ValueError("no HTML content")
    for br in root.iter("br"):
        # "Three months ended<br/>June 30,": a line break inside a cell is a space between its words.
        br.tail = " " + br.tail if br.tail else " "
    contexts: dict[str, Context] = {}
    xfacts: list[XbrlFact] = []
    td_tags: dict = {}
    dei: dict[str, str] = {}
    if ixbrl:
        contexts, xfacts, td_tags, dei = _ix_index(root)
    body = root.find("body")
    start = body if body is not None else root
    w = _HtmlWalker(td_tags, _block_holders(start))
    w.walk(start)
    title_el = root.find(".//title")
    title = clean_text(_text_of(title_el)) if title_el is not None else ""
    entity = dei.get("dei:EntityRegistrantName") or guess_entity(title, w.first_lines, w.cues) or ""
    return w.finish(
        "ixbrl" if ixbrl else "html", entity, _fye_from_dei(dei),
        dei.get("dei:DocumentType") or form_from(w.first_lines, title),
        xfacts=xfacts, contexts=contexts, ticker=dei.get("dei:TradingSymbol"),
    )
