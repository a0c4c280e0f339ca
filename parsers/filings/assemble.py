"""Assembles sections, tables, facts and passages from a reading-order stream, for every format."""

from __future__ import annotations

import re
from collections import Counter
from datetime import date, timedelta

import msgspec

from parsers.entities import printed_names
from parsers.filings.facts import growth_facts, make_table, table_facts, text_facts
from parsers.filings.ixbrl import Context, XbrlFact, fact_from
from parsers.filings.sections import SectionTree, chunk_passages, heading_level, short_hash
from parsers.filings.tables import Grid, split_stacked
from parsers.model import DocumentInfo, Fact, ParsedDocument, Passage, Table
from parsers.numbers import scale_from_caption
from parsers.periods import FiscalYearEnd, StartYearNamed, dates_in, fiscal_year_of, fye_text

__all__ = ["Assembler", "form_from", "fye_hint", "guess_entity", "headline_quarter_hint", "infer_fye", "main_periods",
           "start_year_named", "year_names"]

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
        self.cues: dict[str, str] = {}
        """Lines that name the company, by kind: ``registrant``, ``symbol``, ``headline``, ``copyright``."""
        self._last_named = ""
        self._cover_symbols: list[str] | None = None
        self.fye_hints: list[tuple[int, int]] = []
        self.year_names: list[tuple[int, date]] = []
        """(fiscal year as printed, end of a period in it) where a sentence pairs the two."""
        self.figures: dict[tuple[str, str, str], tuple[set[int], set[date]]] = {}
        """One measure and amount, stated for a named fiscal period and for a dated one (``_figures``)."""

    def _name_cues(self, text: str) -> None:
        # The cue patterns backtrack over every line; their fixed words, looked for first, rule
        # out nearly all lines. Case-insensitive matching of non-ASCII text is subtler than
        # lower(), so such lines go to the patterns unfiltered.
        low = text.lower() if text.isascii() else None
        if "registrant" not in self.cues and (low is None or "exact name of" in low) and \
                (m := _REGISTRANT.search(text)):
            name = text[:m.start()].strip(" ,") or self._last_named
            if name:
                self.cues["registrant"] = name
        for kind, pat in _NAME_CUES:
            if kind not in self.cues and (low is None or _CUE_WORDS[kind](low)) and (m := pat.search(text)):
                self.cues[kind] = m.group(0) if kind == "symbol" else text
        if _WORDY.search(text):
            self._last_named = text
        if "ticker" not in self.cues:
            if self._cover_symbols is not None:
                self._cover_symbols.append(text)
                m = _COVER_TICKER.search(" ".join(self._cover_symbols))
                if m or len(self._cover_symbols) > 12:
                    self.cues["ticker"] = m.group(1) if m else ""
            elif low is not None and "trading symbol" in low:
                # The 10-K cover's "Trading Symbol(s)" table: the first class of stock listed, its
                # symbol, its exchange ("... par value per share BBY New York Stock Exchange").
                self._cover_symbols = [text]
                if m := _COVER_TICKER.search(text):
                    self.cues["ticker"] = m.group(1)

    def _printed_ticker(self) -> str | None:
        """The trading symbol a filing without tags prints: its 10-K cover's, or a release's
        "(NYSE: MGM)" beside the issuer's name."""
        if self.cues.get("ticker"):
            return self.cues["ticker"]
        m = _SYMBOL_TICKER.search(self.cues.get("symbol", ""))
        return m.group(1) if m else None

    # ------------------------------------------------------------ text
    def line(self, text: str, bold: bool) -> None:
        if not text or _TOC_LINE.match(text):
            return
        # A release's first paragraph names its issuer beside the ticker ("- Johnson & Johnson (NYSE:
        # JNJ) today announced ..."), however long the paragraph runs.
        self._name_cues(text[:400])
        if len(self.fye_hints) < 5 and "ended" in text and (hint := fye_hint(text)):
            self.fye_hints.append(hint)
        if len(self.year_names) < 20 and "end" in text:
            self.year_names.extend(year_names(text))
        if "$" in text and len(self.figures) < 200 and _PERIOD_WORD.search(text):
            _figures(text, self.figures)
        if len(self.first_lines) < 40 and _WORDY.search(text):
            self.first_lines.append(text)
        # heading_level turns long lines away by their length; only a candidate pays for the pattern.
        level = heading_level(text, bold)
        if level is not None and _NOT_HEADING.search(text):
            level = None
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
        if ("|" in text or not text[:4].isascii() or text[:4].lower() == "page") and _PAGE_FOOTER.search(text):
            return
        if len(text) < 200 or (text.endswith(":") and _IN_SCALE.search(text[-40:])):
            self.recent.append((text, bold))
            if len(self.recent) > 12:
                del self.recent[0]
            if len(text) < 80 and (s := scale_from_caption(text)) is not None:
                self.section_scale[self.tree.current] = (s, text)
        if len(text) >= 25:
            self.passages.extend(chunk_passages(text, self.tree.current, self.para, self.page))
            self.para += 1
            if _DIGIT.search(text):
                self.lines.append((self.tree.current, text, self.page))

    # ------------------------------------------------------------ tables
    def take_back(self, texts: list[str]) -> None:
        """Header rows already streamed as lines are not captions: drop them from the recent lines, so
        a table with a tall header still sees the title printed above it."""
        for text in reversed(texts):
            if self.recent and self.recent[-1][0] == text:
                self.recent.pop()

    def emit_table(self, grid: Grid) -> None:
        section = self.tree.current
        title = ""
        # Six lines before the table are its caption; more are kept so that header rows a reader
        # streams as lines before it knows they head a table can be taken back (``take_back``).
        recent = self.recent[-6:]
        for text, bold in reversed(recent):
            if (bold or heading_level(text, True) == 3) and not _NOT_HEADING.search(text):
                title = text
                break
        if not title and self.tree.level_of_current() == 3:
            title = self.tree.current_title
        if not title:
            title = next((t for t, _ in reversed(recent) if len(t) < 120 and not _NOT_HEADING.search(t)
                          and _WORDY.search(t) and not t.rstrip("”\"’ ").endswith((".", ";"))), "")
        if not title:
            title = self.tree.current_title
        scale, source = None, "default"
        for cap in grid.captions:
            s = scale_from_caption(cap)
            if s is not None:
                scale, source = s, cap
                break
        if scale is None:
            for text, _ in reversed(recent):
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
        if self.pending_tables and not any(grid.headers) and (previous := self.pending_tables[-1])[2] == section \
                and len(previous[0].headers) == len(grid.headers) and all(previous[0].headers):
            # A table printed in two parts ("Gross margin" by year, then "Gross margin percentage" with no
            # header row of its own): the second part's columns are the first's.
            grid = msgspec.structs.replace(grid, headers=previous[0].headers)
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
            headers = [" ".join(h) for g, *_ in self.pending_tables for h in g.headers]
            named = None if self.fye_hints else headline_quarter_hint(self.first_lines)
            # A quarterly release whose headline names its quarter prints quarter ends and prior year ends
            # as bare dates; unless a column says "Year Ended", the quarter it names places the year end.
            fye = named if named and not any(_ENDED_DATE.search(h) for h in headers) else \
                infer_fye(headers, self.fye_hints or ([named] if named else []))
        if fye is not None and start_year_named(self._year_names(), fye):
            fye = StartYearNamed(fye)
        stated = Counter(p[4] for p in self.pending_tables if p[5] != "default")
        convention = stated.most_common(1)[0][0] if stated else 0
        tag_units = {(x.concept, x.context): x.unit for x in xfacts if x.unit}
        tables: list[Table] = []
        facts: list[Fact] = []
        for grid, tid, section, ttitle, scale, source, page in self.pending_tables:
            if scale == -1:
                # SEC statements often state "in millions" once for the whole financial section.
                scale, source = convention, f"document convention: most tables say {convention}" if convention else "default"
            for i, block in enumerate(split_stacked(grid)):
                t = make_table(block, tid if i == 0 else f"{tid}.{i}", section, ttitle, scale, source, fye, page)
                tables.append(t)
                facts.extend(table_facts(t, entity, contexts, tag_units=tag_units, fye=fye))
        # The period the document's statements report most, with its dates: a schedule's later years
        # (debt maturities) are not the document's period.
        top = main_periods(facts)[:1]
        main = next((f for f in facts if top and f.period == top[0] and f.period_start and f.period_end), None)
        fallback = (main.period, main.period_start, main.period_end) if main is not None else None
        for t in tables:
            # An undated change column ("Organic % Change") speaks for the document's main period.
            facts.extend(growth_facts(t, entity, fye, fallback if not _dated(t) else None))
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
        ticker = ticker or self._printed_ticker()
        info = DocumentInfo(
            format=fmt,
            entity=entity or None,
            form=form,
            fiscal_year_end=fye_text(fye),
            periods=main_periods(facts),
            pages=pages,
            ticker=ticker,
            names=printed_names(entity, " ".join(p.text for p in self.passages), ticker) if entity else [],
        )
        return ParsedDocument(document=info, sections=self.tree.finish(), tables=tables, facts=facts,
                              passages=self.passages)

    def _year_names(self) -> list[tuple[int, date]]:
        """Every place the document pairs a fiscal year's printed name with a date in that year: its
        sentences, its release headline with the lead that dates it, one figure stated both ways,
        and column headers that print both ("Fiscal 2022" over "January 28, 2023")."""
        pairs = list(self.year_names)
        pairs += _headline_names(self.first_lines)
        for named, dated in self.figures.values():
            if len(named) == 1 and len(dated) == 1:
                pairs.append((next(iter(named)), next(iter(dated))))
        for g, *_ in self.pending_tables:
            for h in g.headers:
                text = " ".join(h)
                years = {_year4(m.group("y")) for m in _NAMED_YEAR.finditer(text)}
                if len(years) == 1 and (ends := dates_in(text)):
                    pairs.append((years.pop(), max(ends)))
        return pairs


_ENDED_DATE = re.compile(r"(?:year|twelve months|fiscal year|52 weeks|53 weeks)s?\s+ended", re.I)
_NEAR_DAYS = 7


def _near(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Two (month, day) pairs within a week of each other: 52/53-week years drift by a day or two."""
    da, db = date(2001, *a), date(2001, *b)
    gap = abs((da - db).days)
    return min(gap, 365 - gap) <= _NEAR_DAYS


def infer_fye(header_texts: list[str], text_hints: list[tuple[int, int]] = ()) -> FiscalYearEnd | None:
    """The fiscal year end column headers name: "Year Ended <date>" counts most, bare dates a little.

    A bare date that also ends a quarter column ("Three Months Ended July 29, 2023") is a quarter end,
    not the year end: a quarterly balance sheet sets the quarter end beside the prior year end, and only
    the latter votes. Year ends a sentence implies (``text_hints``) count like a "Year Ended" header.
    """
    votes: Counter[tuple[int, int]] = Counter()
    quarter_ends: set[tuple[int, int]] = set()
    for t in header_texts:
        if _SHORT_SPAN.search(t) and not _ENDED_DATE.search(t):
            quarter_ends.update((d.month, d.day) for d in dates_in(t))
    for t in header_texts:
        weight = 3 if _ENDED_DATE.search(t) else (0 if _SHORT_SPAN.search(t) else 1)
        if weight:
            for d in dates_in(t):
                md = (d.month, d.day)
                if weight == 1 and any(_near(md, q) for q in quarter_ends):
                    continue
                votes[md] += weight
    for md in text_hints:
        votes[md] += 3
    if not votes:
        return None
    (month, day), _ = votes.most_common(1)[0]
    return month, day


_QUARTER_OF_YEAR = re.compile(
    r"\b(?:fiscal\s+(?:year\s+)?(?P<y1>\d{4})\s+(?P<q1>first|second|third|fourth)\s+quarter|"
    r"(?P<q2>first|second|third|fourth)\s+quarter\s+(?:of\s+)?fiscal\s+(?:year\s+)?(?P<y2>\d{4}))"
    r"(?:\s+and\s+(?:full\s+)?fiscal\s+year)?\s+ended\s+(?P<date>[A-Z][a-z]{2,8}\.?\s+\d{1,2},?\s+\d{4})",
    re.I,
)
_FISCAL_YEAR_ENDED = re.compile(r"\bfiscal\s+year\s+ended\s+([A-Z][a-z]{2,8}\.?\s+\d{1,2},?\s+\d{4})", re.I)


def _year_end_after(quarter: str, end: date) -> tuple[int, int]:
    """The year end 3 months per remaining quarter after ``end``, the last day of the ``quarter``
    ("first" .. "fourth") it closes."""
    q = ("first", "second", "third", "fourth").index(quarter.lower()) + 1
    month = (end.month + 3 * (4 - q) - 1) % 12 + 1
    # A quarter that ends on its month's last day puts the year end on that month's last day too.
    last = (date(2001 + (month == 12), month % 12 + 1, 1) - timedelta(days=1)).day
    month_last = (date(end.year + (end.month == 12), end.month % 12 + 1, 1) - timedelta(days=1)).day
    return month, last if end.day == month_last else min(end.day, last)


def fye_hint(text: str) -> tuple[int, int] | None:
    """The year end a sentence implies: "fiscal year ended April 30, 2025" names it; "its fiscal 2024
    fourth quarter ended September 28, 2024" or "second quarter of fiscal 2025 ended October 31, 2024"
    place it 3 months per remaining quarter after that date."""
    m = _QUARTER_OF_YEAR.search(text)
    if m:
        ends = dates_in(m.group("date"))
        if ends:
            return _year_end_after(m.group("q1") or m.group("q2"), ends[0])
    m = _FISCAL_YEAR_ENDED.search(text)
    if m:
        ends = dates_in(m.group(1))
        if ends:
            return ends[0].month, ends[0].day
    return None


_HEADLINE_QUARTER = re.compile(r"\b(first|second|third|fourth)[- ]quarter\b(?:\s+(?:of\s+)?(?:fiscal\s+)?\d{4})?"
                               r"(?:\s+\w+){0,3}\s+results\b", re.I)
_QUARTER_ENDED = re.compile(r"\b(?:quarter|three months)\s+ended\s+([A-Z][a-z]{2,8}\.?\s+\d{1,2},?\s+\d{4})", re.I)


def headline_quarter_hint(lines: list[str]) -> tuple[int, int] | None:
    """The year end a release implies when its headline names the quarter ("eBay Inc. Reports First
    Quarter 2023 Results") and its text dates it ("for the quarter ended March 31, 2023") apart: a
    quarterly release's columns print the quarter's end, never the year's."""
    named = next((m for line in lines[:12] if (m := _HEADLINE_QUARTER.search(line))), None)
    dated = _QUARTER_ENDED.search(" ".join(" ".join(lines).split()))  # a PDF breaks the phrase across lines
    ends = dates_in(dated.group(1)) if dated else []
    return _year_end_after(named.group(1), ends[0]) if named and ends else None


_SHORT_SPAN = re.compile(r"\b(?:three|six|nine|3|6|9|12|13|16|24|26|28|36|39|40)\s+(?:months|weeks)\b|quarter", re.I)


# ------------------------------------------------------------ how the document names its fiscal years
#
# Most companies name a fiscal year for the calendar year it ends in, some retailers for the year it
# starts in (Ulta's "fiscal 2022" ended January 28, 2023; Best Buy's "FY23" ended the same day), and
# nothing in the dates tells the two apart. Only the document can: wherever it prints a fiscal year's
# name beside a date in that year, the name either agrees with the label the dates give or is one
# year less. The choice is made here, once per document, and carried by its year end
# (``StartYearNamed``), because every label and every date span is computed from that year end: the
# tables, iXBRL contexts, sentences and the document's stored coverage then agree without any of them
# knowing. A document that pairs no name with a date keeps the end-year naming.

_NAMED_YEAR = re.compile(r"\b(?:fiscal\s+(?:year\s+)?|FY\s?'?)(?P<y>\d{4}|\d{2})\b", re.I)
_QWORD = r"(?:first|second|third|fourth|1st|2nd|3rd|4th)\s+quarter"
_DATE_TEXT = r"(?P<date>[A-Z][a-z]{2,8}\.?\s+\d{1,2},?\s+\d{4})"
_WEEKS = r"(?:\d{1,2}|thirteen|twenty-six|thirty-nine|fifty-two|fifty-three)[\s-]+weeks?"
_YEAR_NAME_PATTERNS = (
    # "fiscal 2022 ended January 28, 2023", "the fourth quarter of fiscal 2022, which ended on ...",
    # "fiscal 2024 third quarter ended November 2, 2024", "fiscal year 2022 (the 52 weeks ended ...)".
    re.compile(r"\b(?:fiscal\s+(?:year\s+)?|FY\s?'?)(?P<y>\d{4}|\d{2})(?:\s+" + _QWORD + r")?[\s,(]*"
               r"(?:(?:which|that)\s+)?(?:(?:was|is)\s+)?(?:the\s+)?(?:" + _WEEKS + r"\s+(?:fiscal\s+)?(?:period|year|quarter)\s+)?"
               r"(?:ended|ending|ends)\s+(?:on\s+)?" + _DATE_TEXT, re.I),
    # "the fourth quarter ended January 28, 2023 (“Q4 FY23”)", "the year ended February 1, 2025 (fiscal 2024)".
    re.compile(r"\b(?:ended|ending)\s+" + _DATE_TEXT + r"\s*\(\s*[\"“‘']?\s*(?:the\s+)?(?:" + _QWORD +
               r"\s+(?:of\s+)?|Q[1-4]\s*)?(?:fiscal\s+(?:year\s+)?|FY\s?'?)(?P<y>\d{4}|\d{2})\s*[\"”’']?\s*\)", re.I),
    # "References to “fiscal 2022” refer to the 52-week period ended January 28, 2023".
    re.compile(r"\b(?:fiscal\s+(?:year\s+)?|FY\s?'?)(?P<y>\d{4}|\d{2})\s*[\"”’']?\s+(?:refers?|relates?|means|represents)\s+"
               r"to\s+(?:the\s+|our\s+)?(?:[\w-]+\s+){0,4}?(?:ended|ending)\s+" + _DATE_TEXT, re.I),
)


def _year4(text: str) -> int:
    return int(text) + 2000 if len(text) == 2 else int(text)


def year_names(text: str) -> list[tuple[int, date]]:
    """(printed fiscal year, a date that ends a period of it) for each phrase of ``text`` that dates a
    named fiscal period: "fourth quarter of fiscal 2022 ended January 28, 2023" gives (2022, that day)."""
    out = []
    for pat in _YEAR_NAME_PATTERNS:
        for m in pat.finditer(text):
            if ends := dates_in(m.group("date")):
                out.append((_year4(m.group("y")), ends[0]))
    return out


_ANNOUNCES = re.compile(r"\b(?:announc|report)\w*\b", re.I)
_NOT_REPORTED = re.compile(r"\b(?:outlook|guidance|expects?|forecasts?|targets?|reaffirms?|raises|updates)\b", re.I)


def _headline_names(first_lines: list[str]) -> list[tuple[int, date]]:
    """A release's headline names the period it reports ("Announces Fourth Quarter Fiscal 2022 Results")
    and its lead dates it ("... today announced financial results for the thirteen-week period ended
    January 28, 2023"). The lead is the first "ended <date>" shortly after an announcing verb; the
    headline is everything above that verb, less lines about guidance, and must name one year."""
    lines = first_lines[:15]
    head = " ".join(lines)
    for m in _ENDED_DATE_TEXT.finditer(head):
        verbs = list(_ANNOUNCES.finditer(head, max(0, m.start() - 240), m.start()))
        if not verbs:
            continue
        cut, at, years = verbs[-1].start(), 0, set()
        for line in lines:
            if at >= cut:
                break
            part = line[: cut - at]
            if not _NOT_REPORTED.search(part):
                years.update(_year4(n.group("y")) for n in _NAMED_YEAR.finditer(part))
            at += len(line) + 1
        ends = dates_in(m.group("date"))
        return [(years.pop(), ends[0])] if len(years) == 1 and ends else []
    return []


_FIGURE = re.compile(
    r"\b(?P<measure>[a-z][\w-]*\s+[a-z][\w-]*)\s+(?:for|in)\s+the\s+(?P<period>[^$;]{4,90}?),?\s+"
    r"(?:was|were|totaled|totalled|amounted\s+to)\s+(?P<amount>\$\s?\d[\d,]*(?:\.\d+)?(?:\s+(?:thousand|million|billion))?)",
    re.I,
)
_PERIOD_KINDS = (
    ("9M", re.compile(r"\b(?:39|thirty-nine)[\s-]+weeks?\b|\bnine[\s-]+months\b", re.I)),
    ("H1", re.compile(r"\b(?:26|twenty-six)[\s-]+weeks?\b|\bsix[\s-]+months\b|\bfirst\s+half\b", re.I)),
    ("Q", re.compile(r"\bquarter\b|\b(?:13|thirteen)[\s-]+weeks?\b|\bthree[\s-]+months\b", re.I)),
)
_ENDED_DATE_TEXT = re.compile(r"\b(?:ended|ending)\s+" + _DATE_TEXT, re.I)
_PERIOD_WORD = re.compile(r"ended|ending|fiscal|FY", re.I)  # a figure's period can be neither named nor dated without one


def _figures(text: str, into: dict[tuple[str, str, str], tuple[set[int], set[date]]]) -> None:
    """Record each "<measure> for the <period> was <amount>" by measure, amount and kind of period,
    with the period's printed fiscal year or its end date. Buckle states net income of "$44.2 million"
    for "the fiscal quarter ended November 2, 2024" and for "the third quarter of fiscal 2024": the
    document says those are one quarter."""
    for m in _FIGURE.finditer(text):
        period = m.group("period")
        kind = next((k for k, pat in _PERIOD_KINDS if pat.search(period)), "FY")
        named = {_year4(n.group("y")) for n in _NAMED_YEAR.finditer(period)}
        dated = _ENDED_DATE_TEXT.search(period)
        if bool(named) == bool(dated) or len(named) > 1:
            continue
        key = (m.group("measure").lower(), re.sub(r"\s+", " ", m.group("amount")).replace("$ ", "$"), kind)
        names, ends = into.setdefault(key, (set(), set()))
        if named:
            names.update(named)
        elif found := dates_in(dated.group("date")):
            ends.add(found[0])


def start_year_named(pairs: list[tuple[int, date]], fye: FiscalYearEnd) -> bool:
    """Whether the document names its fiscal years for the calendar year they start in: more of its
    pairings of a printed year with a date print one year less than the date's end-year label."""
    votes = Counter(year - fiscal_year_of(end, fye) for year, end in pairs)
    return votes[-1] > votes[0]


_SUFFIXES = (r"(?:Inc\.?|INC\.?|Incorporated|Corporation|CORPORATION|Corp\.?|CORP\.?|Company|COMPANY|Co\.|CO\.|"
             r"Ltd\.?|N\.V\.|plc|PLC|S\.A\.|SE|AG|Group|Holdings)")
# A name word starts with a capital, or with a lower-case prefix before one ("eBay", "iRobot").
_NAME_WORD = r"(?:[A-Z][\w.&'’-]*|[a-z]{1,2}[A-Z][\w.&'’-]*|&)"
_ENTITY = re.compile(
    r"(?<![\w.])((?:" + _NAME_WORD + r",?\s){1,5}(?:" + _SUFFIXES + r"(?:,?\s(?:Inc\.?|INC\.?))?|Platforms, Inc\.))(?!\w)"
)
_REGISTRANT = re.compile(r"\(?\s*exact name of (?:the )?registrants?\s+as specified in (?:its|their) charters?\s*\)?", re.I)
_WORDY = re.compile(r"[A-Za-z]{2}")
_EXCHANGE = r"(?:NYSE(?: American| Arca)?|NASDAQ(?:\s?GS|\s?GM|\s?CM)?|Nasdaq(?:\s?GS|\s?GM|\s?CM)?|TSX|LSE|AMEX)"
_SYMBOL_TICKER = re.compile(r":\s*([A-Z][A-Z.]{0,5})\s*\)")
_COVER_TICKER = re.compile(r"(?:per share|par value[^A-Z]{0,30}|[Ss]tock|[Ss]hares)\s+([A-Z]{1,5})\s+(?:New York Stock Exchange|"
                           r"The Nasdaq|Nasdaq|NYSE)")
# Words each cue pattern cannot match without (tested on lower-cased ASCII text).
_CUE_WORDS = {
    "symbol": lambda low: "(" in low and ":" in low,
    "headline": lambda low: "reports" in low or "announces" in low or "posts" in low,
    "copyright": lambda low: "all rights reserved" in low,
}
_NAME_CUES = (
    # "PepsiCo, Inc. (NASDAQ: PEP)", "Elastic (NYSE: ESTC)": a release names its issuer beside the ticker.
    ("symbol", re.compile(r"(?:" + _NAME_WORD + r",?\s+){0,5}" + _NAME_WORD + r"\s*\(\s*" + _EXCHANGE
                          + r"\s*:\s*[A-Z][A-Z.]{0,5}\s*\)")),
    # "Apple reports fourth quarter results", "PepsiCo Reports First-Quarter 2023 Results".
    ("headline", re.compile(r"^(?:" + _NAME_WORD + r",?\s+){1,5}(?:reports|announces|posts)\b.{0,80}\b(?:results|earnings)\b",
                            re.I)),
    ("copyright", re.compile(r"(?:©|\(c\)|copyright)\s*(?:\d{4}(?:\s*[-–]\s*\d{4})?,?\s+)(.{2,80}?)\s+all rights reserved",
                             re.I)),
)
# Words that describe a company without naming it: "The Company", "Smaller Reporting Company".
_GENERIC_NAME = frozenset(
    "the a an our this company corporation registrant smaller reporting emerging growth accelerated large non filer "
    "holding holdings group parent issuer inc co corp".split()
)
_LEAD_WORDS = re.compile(r"^(?:(?:today|also|and|the|by|from|on|in|for|at|of|with|to|that|as)\b[,\s]*)+", re.I)
_NOT_NAME_TAIL = re.compile(r"\s*\(.*$")


def _tidy_name(text: str) -> str | None:
    """A company name as printed, or None for a description ("The Company") or a non-name."""
    name = _NOT_NAME_TAIL.sub("", re.sub(r"\s+", " ", text)).strip(" ,;:-–—\u00a0")
    name = _LEAD_WORDS.sub("", name).strip(" ,")
    if not name or len(name) > 80 or not name[:1].isalnum():
        return None
    words = re.findall(r"[a-z]+", name.lower())
    if not words or all(w in _GENERIC_NAME for w in words):
        return None
    return name


def _cue_name(kind: str, text: str) -> str | None:
    if kind == "registrant":
        return _tidy_name(text)
    if kind == "symbol":
        return _tidy_name(text[: text.index("(")])
    if kind == "headline":
        m = re.search(r"\s(?:reports|announces|posts)\b", text, re.I)
        return _tidy_name(text[: m.start()]) if m else None
    m = _NAME_CUES[2][1].search(text)
    if not m:
        return None
    name = m.group(1)
    if name.endswith(".") and not re.search(r"\b(?:Inc|Co|Corp|Ltd|N\.V|S\.A)\.$", name):
        name = name[:-1]
    return _tidy_name(name)


# Where a contact line or a footer breaks: "Investor Relations, NVIDIA Corporation" is two things.
_CLAUSE_BREAK = re.compile(r"[;:!?]\s+|(?<=[a-z])\.\s+(?=[A-Z])|,\s+(?!(?:Inc|Ltd|LLC|L\.P|Corp|Co|N\.V|S\.A|plc|PLC)\b)|\n")


def guess_entity(title: str, lines: list[str], cues: dict[str, str] | None = None, body: str = "") -> str | None:
    """The company a document is about, from the strongest cue it prints.

    In order: the cover page's "(Exact name of registrant as specified in its charter)" line, a page
    title led by a legal name ("NVIDIA Corporation - ..."), the name beside a ticker ("PepsiCo, Inc.
    (NASDAQ: PEP)"), a "<Company> Reports ... Results" headline, a copyright footer, then any legal
    name in the first lines. Descriptions such as "The Company" are never names.
    """
    cues = cues or {}
    if "registrant" in cues and (name := _cue_name("registrant", cues["registrant"])):
        return name
    head = title.split(" - ")[0].split(" | ")[0].strip() if title else ""
    if head and len(head) < 60 and head.lower() not in ("document", "untitled"):
        m = _ENTITY.search(head)
        if m and (name := _tidy_name(m.group(1))):
            return name
    headline = next((t for t in (title, *lines[:10]) if t and _NAME_CUES[1][1].search(t)), None)
    for kind, text in (("symbol", cues.get("symbol")), ("headline", headline or cues.get("headline")),
                       ("copyright", cues.get("copyright"))):
        if text and (name := _cue_name(kind, text)):
            return name
    for line in lines[:40]:
        for m in _ENTITY.finditer(line):
            if re.search(r"\bthe\s+$", line[: m.start()], re.I):
                continue  # "the Search AI Company": a description
            name = _tidy_name(m.group(1))
            if name and len(name) < 60:
                return name.rstrip(",")
    if head and len(head) < 40 and head.lower() not in ("document", "untitled") and _tidy_name(head) \
            and not re.search(r"\d", head):
        return head
    # A CFO commentary names its company only in its contacts and trademark lines: the legal name the
    # whole text prints most, if it prints one more than once.
    counts = Counter(n for piece in _CLAUSE_BREAK.split(body) for m in _ENTITY.finditer(piece)
                     if (n := _tidy_name(m.group(1))) and len(n) < 60)
    best = counts.most_common(1)
    return best[0][0].rstrip(",") if best and best[0][1] >= 2 else None


_FORM = re.compile(r"\bForm\s+(10-K|10-Q|8-K|20-F|6-K|40-F)\b", re.I)


_RELEASE = re.compile(r"\bexhibit\s+99\b|\b(?:reports|announces)\b.{0,80}\b(?:results|earnings)\b", re.I)


def form_from(lines: list[str], title: str) -> str | None:
    """The SEC form a document is, or ``press release`` for an earnings release.

    A release's headline comes first: releases mention "our Annual Report on Form 10-K" in passing.
    """
    if any(_RELEASE.search(t) for t in [title, *lines[:6]] if t):
        return "press release"
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


def _dated(table: Table) -> bool:
    return any(c.period is not None for c in table.columns)


def main_periods(facts: list[Fact]) -> list[str]:
    """Distinct fiscal labels of the document's statement facts, most reported first; of its sentences'
    facts for a document that prints its figures in sentences alone (a newsroom release)."""
    def counted(kinds: tuple[str, ...]) -> Counter[str]:
        return Counter(f.period for f in facts if f.source.kind in kinds and not f.dimensions
                       and not f.period.startswith(("6M", "20", "19")))

    counts, least = counted(("table", "ixbrl", "xbrl")), 3
    if not counts and not any(f.source.kind != "text" for f in facts):
        counts, least = counted(("text",)), 1
    if not counts:
        return []
    top = counts.most_common(1)[0][1]
    return [p for p, n in counts.most_common() if n >= max(least, top // 20)]
