"""Assembles sections, tables, facts and passages from a reading-order stream, for every format."""

from __future__ import annotations

import re
from collections import Counter

from parsers.filings.facts import make_table, table_facts, text_facts
from parsers.filings.ixbrl import Context, XbrlFact, fact_from
from parsers.filings.sections import SectionTree, chunk_passages, heading_level, short_hash
from parsers.filings.tables import Grid
from parsers.model import DocumentInfo, Fact, ParsedDocument, Passage, Table
from parsers.numbers import scale_from_caption
from parsers.periods import FiscalYearEnd, dates_in

__all__ = ["Assembler", "form_from", "guess_entity", "infer_fye", "main_periods"]

_NOT_HEADING = re.compile(
    r"^\(|\bin (?:millions|thousands|billions)\b|and subsidiaries$|^table of contents$|\(continued\)$", re.I
)
_NOTES_HEADER = re.compile(r"^notes to (?:the )?(?:condensed )?consolidated financial statements", re.I)
_DIGIT = re.compile(r"\d")
_FINANCIAL = re.compile(r"^item\s+[278]\b|/ item\s+[278]\b|\bnote\s+\d|consolidated|financial statements", re.I)
_PAGE_FOOTER = re.compile(r"\|\s*\d{1,3}$|^page \d+$|^\d{1,3}\s*\|", re.I)
_IN_SCALE = re.compile(r"in (?:millions|thousands|billions)", re.I)
_TOC_LINE = re.compile(r"^(?:table of contents|index|back to contents|\d{1,3})$", re.I)



class Assembler:
    """Turns a stream of text lines and table grids, in reading order, into a ParsedDocument."""

    def __init__(self) -> None:
        self.tree = SectionTree()
        self.page: int | None = None
        self.passages: list[Passage] = []
        self.lines: list[tuple[str | None, str, int | None]] = []  # (section, text, page) for text facts
        self.recent: list[tuple[str, bool]] = []
        self.section_scale: dict[str | None, tuple[int, str]] = {}
        self.table_seen: Counter[tuple[str | None, str]] = Counter()
        self.para = 0
        self.first_lines: list[str] = []
        self.pending_tables: list = []
        self.notes_seen = False

    # ------------------------------------------------------------ text
    def line(self, text: str, bold: bool) -> None:
        if not text or _TOC_LINE.match(text):
            return
        if len(self.first_lines) < 40:
            self.first_lines.append(text)
        level = None if _NOT_HEADING.search(text) else heading_level(text, bold)
        if level == 3 and _NOTES_HEADER.match(text):
            # Running page header: a section the first time, noise after that.
            if self.notes_seen:
                return
            self.notes_seen = True
        if level is not None:
            self.tree.open(text, level, self.page)
            self.recent = [(text, True)]
            s = scale_from_caption(text)
            if s is not None:
                self.section_scale[self.tree.current] = (s, text)
            return
        if _PAGE_FOOTER.search(text):
            return
        if len(text) < 200 or (text.endswith(":") and _IN_SCALE.search(text[-40:])):
            self.recent.append((text, bold))
            if len(self.recent) > 6:
                del self.recent[0]
            if len(text) < 80 and scale_from_caption(text) is not None:
                self.section_scale[self.tree.current] = (scale_from_caption(text), text)
        if len(text) >= 25:
            self.passages.extend(chunk_passages(text, self.tree.current, self.para, self.page))
            self.para += 1
            if _DIGIT.search(text):
                self.lines.append((self.tree.current, text, self.page))

    # ------------------------------------------------------------ tables
    def emit_table(self, grid: Grid, bbox_page: int | None = None) -> None:
        section = self.tree.current
        title = ""
        for text, bold in reversed(self.recent):
            if (bold or heading_level(text, True) == 3) and not _NOT_HEADING.search(text):
                title = text
                break
        if not title and self.tree.level_of_current() == 3:
            title = self.tree.current_title
        if not title:
            title = next((t for t, _ in reversed(self.recent) if len(t) < 120 and not _NOT_HEADING.search(t)), "")
        if not title:
            title = self.tree.current_title
        scale, source = None, "default"
        for cap in grid.captions:
            s = scale_from_caption(cap)
            if s is not None:
                scale, source = s, cap
                break
        if scale is None:
            for text, _ in reversed(self.recent):
                s = scale_from_caption(text)
                if s is not None:
                    scale, source = s, text
                    break
        if scale is None and section in self.section_scale:
            scale, cap = self.section_scale[section]
            source = cap if cap.startswith("running header: ") else f"running header: {cap}"
        elif scale is not None and (source.startswith("(") or len(source) < 60):
            # Later tables in this section that state nothing are printed like this one; a lead-in
            # sentence ("...were as follows (in billions):") speaks only for its own table.
            self.section_scale[section] = (scale, source)
        n = self.table_seen[(section, title)]
        self.table_seen[(section, title)] += 1
        tid = short_hash(section, title, n)
        if scale is None and _FINANCIAL.search(" / ".join(self.tree.titles())):
            scale = -1  # filled with the document's convention once every table is seen
        self.pending_tables.append((grid, tid, section, title, scale or 0, source, self.page))
        self.recent = []

    def finish(
        self,
        fmt: str,
        entity: str,
        fye: FiscalYearEnd | None,
        form: str | None,
        *,
        xfacts: list[XbrlFact] = (),
        contexts: dict[str, Context] | None = None,
        ticker: str | None = None,
        pages: int | None = None,
    ) -> ParsedDocument:
        """Resolve periods and scales now that every table is seen, and derive the facts."""
        if fye is None:
            fye = infer_fye([" ".join(h) for g, *_ in self.pending_tables for h in g.headers])
        stated = Counter(p[4] for p in self.pending_tables if p[5] != "default")
        convention = stated.most_common(1)[0][0] if stated else 0
        tag_units = {(x.concept, x.context): x.unit for x in xfacts if x.unit}
        tables: list[Table] = []
        facts: list[Fact] = []
        for grid, tid, section, ttitle, scale, source, page in self.pending_tables:
            if scale == -1:
                # SEC statements often state "in millions" once for the whole financial section.
                scale, source = convention, f"document convention: most tables say {convention}" if convention else "default"
            t = make_table(grid, tid, section, ttitle, scale, source, fye, page)
            tables.append(t)
            facts.extend(table_facts(t, entity, contexts, tag_units=tag_units))
        for x in xfacts:
            ctx = (contexts or {}).get(x.context)
            if ctx is not None:
                f = fact_from(x, ctx, entity, fye)
                if f is not None:
                    facts.append(f)
        default_period = _main_period(facts)
        titles = {s.id: s.title for s in self.tree.sections}
        for sid, text, page in self.lines:
            facts.extend(text_facts(text, entity, fye, default_period, sid, titles.get(sid, ""), page))
        info = DocumentInfo(
            format=fmt,
            entity=entity or None,
            form=form,
            fiscal_year_end=f"--{fye[0]:02d}-{fye[1]:02d}" if fye else None,
            periods=main_periods(facts),
            pages=pages,
            ticker=ticker,
        )
        return ParsedDocument(document=info, sections=self.tree.finish(), tables=tables, facts=facts,
                              passages=self.passages)


_ENDED_DATE = re.compile(r"(?:year|twelve months|fiscal year|52 weeks|53 weeks)s?\s+ended", re.I)


def infer_fye(header_texts: list[str]) -> FiscalYearEnd | None:
    """The fiscal year end column headers name: "Year Ended <date>" counts most, bare dates a little."""
    votes: Counter[tuple[int, int]] = Counter()
    for t in header_texts:
        weight = 3 if _ENDED_DATE.search(t) else (0 if _SHORT_SPAN.search(t) else 1)
        if weight:
            for d in dates_in(t):
                votes[(d.month, d.day)] += weight
    if not votes:
        return None
    (month, day), _ = votes.most_common(1)[0]
    return month, day


_SHORT_SPAN = re.compile(r"\b(?:three|six|nine|3|6|9|12|13|16|24|26|28|36|39|40)\s+(?:months|weeks)\b|quarter", re.I)


_ENTITY = re.compile(
    r"\b((?:[A-Z][\w.&'’-]*\s?){1,5}(?:Inc\.?|Incorporated|Corporation|Corp\.?|Company|Co\.|Ltd\.?|N\.V\.|plc|PLC|"
    r"Platforms, Inc\.|S\.A\.|AG|Group))"
)


def guess_entity(title: str, lines: list[str]) -> str | None:
    """A company name from a page title ("NVIDIA Corporation - ...") or the first lines."""
    head = title.split(" - ")[0].split(" | ")[0].strip() if title else ""
    if head and len(head) < 60 and head.lower() not in ("document", "untitled") and " " in head or head[:1].isupper():
        m = _ENTITY.search(head)
        if m:
            return m.group(1).strip()
    for line in lines[:40]:
        m = _ENTITY.search(line)
        if m and len(m.group(1)) < 60:
            return m.group(1).strip().rstrip(",")
    if head and len(head) < 40 and head.lower() not in ("document", "untitled"):
        return head
    return None


_FORM = re.compile(r"\bForm\s+(10-K|10-Q|8-K|20-F|6-K|40-F)\b", re.I)


def form_from(lines: list[str], title: str) -> str | None:
    for t in [title, *lines[:30]]:
        m = _FORM.search(t)
        if m:
            return m.group(1).upper()
    if re.search(r"results|reports", title, re.I):
        return "press release"
    return None


def _main_period(facts: list[Fact]) -> str | None:
    """The latest fiscal period the document's tables report: the default for unlabelled sentences."""
    best = None
    for f in facts:
        if f.source.kind == "table" and f.period_end is not None and f.period_start is not None:
            if best is None or (f.period_end, -(f.period_end - f.period_start).days) > best[0]:
                best = ((f.period_end, -(f.period_end - f.period_start).days), f.period)
    return best[1] if best else None


def main_periods(facts: list[Fact]) -> list[str]:
    """Distinct fiscal labels of the document's statement facts, most reported first."""
    counts: Counter[str] = Counter(
        f.period for f in facts
        if f.source.kind != "text" and not f.dimensions and not f.period.startswith(("6M", "20", "19"))
    )
    if not counts:
        return []
    top = counts.most_common(1)[0][1]
    return [p for p, n in counts.most_common() if n >= max(3, top // 20)]
