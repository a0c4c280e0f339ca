"""Every checkable figure on a deck's slides as a typed claim; everything else that looks like one,
with the reason it is not (projection, superlative, team, page number, footnote, date, address, phone).

The extractor is deterministic. A model may *propose* claims (``validate_proposals``), but a
proposal survives only when its number is printed on its page.
"""

from __future__ import annotations

import calendar
import re

import msgspec

from parsers.decks import is_figure_cell, is_period_cell, repeated_lines, section_covers
from parsers.metrics import (
    basis_from_text,
    by_id,
    find_metric,
    find_metric_span,
    label_metric,
    LOSS_METRICS,
    names_a_loss,
    normalise_label,
    states_gaap,
)
from parsers.model import BBox, Claim, Deck, Discard, ParsedDeck, Resolution, Slide, TextBlock
from parsers.figures import bound_of as _bound
from parsers.figures import is_qualifier as _is_qualifier
from parsers.figures import normalise_text as _norm
from parsers.figures import ranges as _ranges
from parsers.numbers import ARROW_DOWN, ARROW_UP, Printed, parse_printed
from parsers.periods import COMPOUND_RATE, MONTHS, bare_part, full_year, period_from_text
from parsers.quantities import is_label

__all__ = [
    "Proposal",
    "ProposalCheck",
    "deck_entities",
    "extract_claims",
    "prior_period",
    "quoted",
    "validate_proposals",
]

# ---------------------------------------------------------------- vocabularies

# "EV / EBITDA", "P/E", "Market cap": a share price's multiple, which no filing prints.
_VALUATION = re.compile(r"\bEV\s*/|\bP\s*/\s*E\b|\bprice[- ]to[- ]|\bmarket cap|\bdividend yield\b|\benterprise value\b", re.I)
# "Median", "Peer average": a column the author computes across the companies in the rows' table.
# "Street", "Cons.", "Consensus op. income", "Beat/(Miss)": what analysts expected, which no filing prints.
_CONSENSUS_CELL = re.compile(r"\b(?:consensus|cons\.|street|sell[- ]side|beat|miss|surprise)(?!\w)", re.I)
_AGGREGATE_HEAD = re.compile(r"\b(?:median|mean|average|avg\.?)\b", re.I)
# "FY25E", "2026E", "Q3 FY26E": a column of the author's own estimates.
_ESTIMATE_HEAD = re.compile(r"\d[E]$|\d[E]\b(?!\w)", re.I)
_PROJECTION = re.compile(
    r"\b(expects?|expected|expecting|outlook|targets?|targeting|guidance|guide[sd]?|forecasts?|forecasted|"
    r"projects?|projected|projections?|plans? to|plans|planned|aims?|intends?|anticipates?|anticipated|"
    r"will|should|could|may|sees|estimates?d?|est\.(?!\w)|goal|aspir\w+|ambition|by 20\d\d|next year|going forward|"
    r"long[- ]term model)\b|\best\.(?!\w)",
    re.I,
)
_SUPERLATIVE = re.compile(
    r"\b(most|best|leading|leader|largest|biggest|greatest|strongest|fastest|first|only|unmatched|unrivaled|"
    r"unparalleled|premier|world[’'‘]s|industry[- ]leading|best[- ]in[- ]class|#\s?1|number one|no\. ?1|"
    r"world[- ]class|iconic|admired|innovative|record[- ]breaking)\b",
    re.I,
)
_TEAM = re.compile(
    r"\b(ceo|cfo|coo|cto|co-?ceos?|chief \w+ officer|founders?|co-?founder|founder-led|chair(?:man|woman)?|"
    r"board of directors|directors?|president|management teams?|leadership|executive team|has led|joined|"
    r"previously (?:served|worked)|served as|serves as|years of experience|decades of|veteran|alumn\w+|"
    r"prior to joining|mba|ph\.?d)\b",
    re.I,
)
# "Priya Raman, Analyst: covered 36 companies": a person's name and role lead a biography.
_PERSON_TITLE = re.compile(r"^[A-Z][a-z]+(?:\s[A-Z]\.)?\s[A-Z][a-zA-Z'’-]+,\s*(?:[A-Z][\w&-]*\s?){1,5}[:\-–—]")
_TEAM_TITLE = re.compile(r"\b(leadership|management|team|board|executives?|founders?)\b", re.I)
_NON_GAAP_WORD = re.compile(r"\bnon[- ]?gaap\b", re.I)
_RECONCILIATION = re.compile(r"\breconcil|\bgaap\s+(?:to|and|vs\.?|versus)\s+non", re.I)
_GUIDANCE_TITLE = re.compile(r"\b(guidance|outlook|targets?|forecast|long[- ]term model|projections?)\b", re.I)
_TOPICS = re.compile(r"\s+(?:and|&|\+)\s+", re.I)
_IMPROVED = re.compile(r"\b(?:improv(?:ed|es|ing|ement)|better)\b", re.I)
_LOWER_IS_BETTER = re.compile(r"\b(?:operating|expense|cost|efficiency|combined|loss)\s+ratio\b|\bleverage\b|\bchurn\b",
                              re.I)
_PERCENT_ROW = re.compile(r"\(\s*%\s*\)|\bin\s+%|,\s*%\s*$|\(\s*percent\s*\)", re.I)


def _guidance_title(title: str) -> bool:
    """A title that is all outlook ("Q1 2024 Guidance", "Outlook & targets"); "Capital return and outlook"
    also reports the quarter's results, whose figures are no projection."""
    parts = [p for p in _TOPICS.split(title) if p.strip()]
    return bool(parts) and all(_GUIDANCE_TITLE.search(p) for p in parts)
_PHONE = re.compile(r"(?:\+\d{1,3}[\s.-]?)?\(?\b\d{3}\)?[\s.-]\d{3}[\s.-]\d{4}\b")
_ADDRESS = re.compile(
    r"\b\d{1,6}\s+(?:[A-Z][\w.]*\s+){1,4}(?:street|st|avenue|ave|road|rd|boulevard|blvd|drive|dr|lane|ln|way|"
    r"parkway|pkwy|place|pl|court|ct|suite|plaza|square|sq)\b\.?|\b[A-Z]{2}\s+\d{5}(?:-\d{4})?\b|\bP\.?O\.? Box\b",
    re.I,
)
_NOTE = re.compile(r"^\s*(?:notes?|sources?|definitions?|footnotes?)\s*[:.]|^\s*source\b", re.I)
_FOOTNOTE = re.compile(r"^\s*(?:\*+|†|‡|\(\d{1,2}\)|\[\d{1,2}\]|\d{1,2}[.)]?(?=\s+[A-Z])|[¹²³⁴⁵⁶⁷⁸⁹])\s*\S")
# What a numbered footnote says of the figures above it, not a figure of its own: "(1) Excludes ...",
# "2 Represents ...", "3. Calculated as ...", "* Includes ...".
_FOOTNOTE_WORDS = re.compile(
    r"^\W*\S{1,4}\s+(?:\w+\s+){0,3}(?:represents?|excludes?|excluding|includes?|including|reflects?|calculated|"
    r"computed|defined|definition|refers?|see|based on|adjusted|comprises?|consists?|presented|prior[- ]period|"
    r"amounts?|totals?|figures?|percentages?|results?\s+(?:may|do)|certain|as of|on a|non-gaap|reconcil\w+)\b",
    re.I,
)
_BOILERPLATE = re.compile(
    r"\b(forward[- ]looking|safe harbor|we define|is defined as|are defined as|we calculate|we believe|"
    r"reconciliation of|not (?:be )?considered (?:a )?substitutes?|in accordance with gaap)\b",
    re.I,
)
_COPYRIGHT = re.compile(r"©|\(c\)\s*\d{4}|copyright|all rights reserved|confidential|for discussion purposes", re.I)

_MONTH_NAMES = "|".join(sorted(MONTHS, key=len, reverse=True))
_MASKS = [
    re.compile(rf"\b(?:{_MONTH_NAMES})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}\b", re.I),
    re.compile(rf"\b(?:{_MONTH_NAMES})\.?\s+\d{{4}}\b", re.I),
    # "to Aug-24", "Dec-2024": a month and its year, as column heads and terse notes print them.
    re.compile(rf"\b(?:{_MONTH_NAMES})[-/]\d{{2}}(?:\d{{2}})?\b(?![,.]\d)", re.I),
    re.compile(rf"\b\d{{1,2}}\s+(?:{_MONTH_NAMES})\.?,?\s+\d{{4}}\b", re.I),
    re.compile(r"\b\d{1,2}/\d{1,2}/\d{2,4}\b"),
    # "Fiscal years end January 31": a day of a month, not a figure (capitalised: "may 5%" is a verb).
    re.compile(rf"\b(?:{'|'.join(m.title() for m in sorted(MONTHS, key=len, reverse=True))})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?\b"
               r"(?![\d,.]*\s*(?:%|million|billion|bn\b|[KMB]\b))"),
    re.compile(r"\b(?:Q[1-4]|[1-4]Q|H[12]|[12]H|FY|CY|9M|6M)\s*['’]?\s*\d{2,4}\b", re.I),
    re.compile(r"\bFY\s*['’]?\d{2}\b|\bF\d{2}\b", re.I),
    # "Q4FY25", "1H FY25": a part of a fiscal year written as one token.
    re.compile(r"\b(?:Q[1-4]|[1-4]Q|H[12]|[12]H|9M|6M)\s*(?:FY|CY)\s*['’]?\d{2,4}\b", re.I),
    re.compile(r"['’]\d{2}\b"),
    re.compile(r"\b\d{1,2}[\s-]+(?:weeks?|months?)\s+(?:ended|ending|to|through|thru)\b", re.I),
    re.compile(r"\b(?:the|first|last|past)\s+\d{1,2}[\s-]+(?:weeks?|months?)\b", re.I),
    re.compile(r"\b(?:ttm|ltm|trailing)\s+\d{1,2}\b", re.I),
    re.compile(r"\b(?:form\s+)?(?:10-[KQ]|8-K|S-1|20-F|40-F)\b", re.I),
    re.compile(r"\btop\s+\d{1,3}\b|#\s?\d+\b|\bno\.\s?\d+\b|\b24/7\b|\b\d+/\d+\b", re.I),
    re.compile(r"\b(?:slides?|pages?|p\.|item|note|section|appendix)\s+\d{1,3}\b", re.I),
    re.compile(r"(?<![\d$€£¥.,~])\b(?:19|20)\d{2}\b(?![\d,.]*\s*(?:%|\+|[KMB]\b|bn\b|million|billion))"),
    # Footnote markers glued to a word or figure: "Revenue(1)", "$2.1B(2)", "margin¹".
    re.compile(r"(?<=[A-Za-z%)\]])\(\d{1,2}\)|[¹²³⁴⁵⁶⁷⁸⁹⁰]+"),
]
_ARROW_UP, _ARROW_DOWN = ARROW_UP, ARROW_DOWN
_GROWTH = re.compile(
    r"\b(up|down|grew|grow|growth|growing|increase[sd]?|decrease[sd]?|declined?|declines|rose|fell|"
    r"jumped|jumps|surged|soared|climbed|dropped|slipped|plunged|widened|narrowed|contracted|"
    r"y/y|yoy|y-o-y|year[- ]over[- ]year|year[- ]on[- ]year|q/q|qoq|quarter[- ]over[- ]quarter|sequential(?:ly)?|"
    r"change|cagr|expanded|improved|(?:more|higher|lower|less) than (?:a|the prior|the previous) year(?: earlier| ago)?|"
    r"vs\.?\s+(?:PY|LY|PYQ|prior[- ]year|last year|a year ago))\b"
    f"|[{_ARROW_UP}{_ARROW_DOWN}]",
    re.I,
)
# A column header says "change" more tersely than a sentence does: "chg", "% var", "Δ".
_GROWTH_HEAD = re.compile(_GROWTH.pattern + r"|\bchg\b|\bvar\b|\u0394", re.I)
_DOWN = re.compile(r"\b(down|decrease[sd]?|declined?|declines|fell|contract(?:ed|ion))\b" + f"|[{_ARROW_DOWN}]", re.I)
_SEQUENTIAL = re.compile(r"\b(q/q|qoq|quarter[- ]over[- ]quarter|sequential(?:ly)?)\b", re.I)
_SHARE_AFTER = re.compile(r"^\s*(?:of|as a (?:percent(?:age)?|share) of)\s+(.{2,60})", re.I)
_SHARE_ANY = re.compile(r"(?:\b(?:as a )?(?:percent(?:age)?|share)\b|%)\s*of\s+(.{2,60})", re.I)
_FRACTION = re.compile(r"\bfraction\b|\bas a decimal\b", re.I)
_SHARE_HEADER = re.compile(r"%\s*of|percent(?:age)? of|as a % of|share of|mix", re.I)
_MARGIN_WORD = re.compile(r"\bmargins?\b|\brate\b", re.I)
_RATIO_SPLIT = re.compile(r"\s+(?:to|over|divided by)\s+|\s*/\s*(?=[A-Za-z])", re.I)
_RATIO_WORD = re.compile(r"\bratio\b|\bcover(?:ed|s|age)?\b|\bmultiple\b", re.I)
_TABLE_SCALE = re.compile(
    r"(?:\$|us\$|usd|€|£|in)\s*(thousands|millions|billions)|\((thousands|millions|billions)\b"
    # "($M)", "(US$ bn)", "($000s)" as table corners print them.
    r"|\(\s*(?:\$|us\$|usd)\s*(k|000s|m|mm|mn|b|bn)\s*\)"
    # "FY2024, $mm", "$ millions", "$bn" as a corner cell prints them.
    r"|(?:\$|us\$|usd)\s*(k|000s|mm|mn|bn|millions|billions|thousands|m|b)\b",
    re.I,
)
_CURRENCY_WORD = re.compile(r"\$|\busd\b", re.I)
_COUNT_SCALE = re.compile(r"\(\s*(k|000s|thousands|m|mm|mn|millions)\s*\)", re.I)
_SCALE_OF = {"thousands": 3, "k": 3, "000s": 3, "millions": 6, "m": 6, "mm": 6, "mn": 6, "billions": 9, "b": 9, "bn": 9}
_PER_SHARE = re.compile(r"per share|\beps\b|per diluted share", re.I)
_SHARES = re.compile(r"\bshares\b", re.I)
_COUNT_ROW = re.compile(r"\b(employees|customers|headcount|accounts|users|subscribers|members|units|stores)\b", re.I)


# Words around a metric name that do not make it a segment or product line.
_GENERIC = set(
    """total net gross the our its their a an of in on for from to and & with at as by is was were are be been
    quarterly quarter annual annualized annualised full year fy yearly full-year reported gaap non-gaap nongaap
    adjusted adj organic constant currency cc company consolidated record strong solid robust healthy
    grew growth grow growing up down increase increased decrease decreased decline declined rose fell change
    y/y yoy y-o-y year-over-year over q/q qoq sequential sequentially reached reach reaching surpassed exceeded
    covered recognized recognised delivered generated achieved delivering generating hit of totaling totalled
    totaled approximately approx about nearly almost over more than above under below ~ + * ** *** cagr
    ttm trailing twelve months month ltm period periods margin percent percentage % share mix rate
    q1 q2 q3 q4 h1 h2 1h 2h 9m investment investments expense expenses spend spending
    now new all-time high highs low lows level levels basis bps pts points""".split()
)
_FILLER = set("y/y yoy year-over-year year-on-year year over q/q qoq sequential sequentially growth up down change "
               "increase decrease cc total".split())
_STOP_LABEL = set(
    """of the a an our its to at by is was were are be been has have had for in on from and over more than
    above under below nearly almost approximately approx about around roughly up to least ~ surpassed exceeded
    exceeds surpasses reached reaches hit topped covered recognized recognised delivered generated achieved
    totaled totalled totaling now ran stood came landed amounted posted earned recorded booked""".split()
)


class Proposal(msgspec.Struct):
    """A claim a model proposed: where it saw the figure and what it says it is."""

    page: int
    text: str
    value: str
    metric: str = ""
    period: str = ""


class ProposalCheck(msgspec.Struct):
    """What became of a model's proposals: claims kept, and how many were dropped and why."""

    claims: list[Claim]
    dropped: int = 0
    duplicates: int = 0
    reasons: list[str] = []


# ---------------------------------------------------------------- entities


_LEGAL = re.compile(
    r"([A-Z][A-Za-z0-9&.'’\- ]{1,40}?(?:,?\s+(?i:Inc|Incorporated|Corp|Corporation|Co|Ltd|Limited|PLC|N\.V|"
    r"S\.A|AG|LLC|Holdings|Group|B\.V)\b\.?))",
)


def _tidy_name(name: str) -> str:
    name = name.strip(" ,.|:-")
    if name.isupper() and len(name) > 4:
        words = []
        for w in name.split():
            words.append(w if w in ("N.V.", "PLC", "LLC", "AG", "S.A.", "B.V.") else w.capitalize())
        name = " ".join(words)
    if re.search(r"\b(?:Inc|Corp|Co|Ltd|N\.V|S\.A|B\.V)$", name):
        name += "."
    return name


def _split_names(text: str) -> list[str]:
    parts = re.split(r"\s*(?:,|&|\band\b|\||/|\+)\s*", text)
    return [p.strip() for p in parts if p.strip()]


def deck_entities(deck: Deck) -> list[str]:
    """The companies a deck covers, from its legal name in footers, its running header or its cover.

    A single-company deck gives one name; a portfolio deck ("Apple & Netflix: ...") gives each.
    """
    titles = [s.title for s in deck.slides]
    repeated = repeated_lines(deck)
    for line in repeated:
        if _COPYRIGHT.search(line) and (m := _LEGAL.search(re.sub(r"(?i)©\s*\d{4}|copyright|\(c\)\s*\d{4}", "", line))):
            return [_tidy_name(m.group(1))]
    cover = deck.slides[0].title if deck.slides else ""
    candidates: list[list[str]] = []
    for line in repeated:
        if len(line) <= 60 and not any(c.isdigit() for c in line) and re.search(r",|&|\band\b", line):
            candidates.append(_split_names(line))
    for piece in re.split(r":|\s[-–—|]\s", cover):
        names = _split_names(piece)
        if 2 <= len(names) <= 6 and all(1 <= len(n.split()) <= 3 for n in names):
            candidates.append(names)
    lower_titles = " \n ".join(titles[1:]).lower()
    for names in candidates:
        hits = [n for n in names if n.lower() in lower_titles]
        if len(hits) >= 2 or (len(names) == 1 and hits):
            return [_case_from(n, deck) for n in names]
    # A deck names its company possessively ("Elastic's Growth Vectors", "Twilio's ...").
    text = " ".join([*titles, *(b.text for s in deck.slides for b in s.blocks)])
    for m in _LEGAL.finditer(cover):
        return [_tidy_name(m.group(1))]
    counts: dict[str, int] = {}
    for m in re.finditer(r"\b([A-Z][a-zA-Z]{2,})[’ʼ']s\b", text):
        w = m.group(1)
        if w.lower() not in {"today", "company", "industry", "world", "customer", "it", "that", "what", "here",
                             "there", "sec", "nation", "america", "europe", "let", "year", "quarter", "earth"}:
            counts[w] = counts.get(w, 0) + 1
    if counts:
        best = max(counts, key=lambda w: counts[w])
        if counts[best] >= 2:
            return [best]
    return []


def _case_from(name: str, deck: Deck) -> str:
    """A header's "BEST BUY" as the slides print it: "Best Buy"."""
    if not name.isupper():
        return name
    for s in deck.slides:
        if m := re.search(re.escape(name), s.title, re.I):
            return m.group(0)
    return _tidy_name(name)


def _entity_in(text: str, companies: list[str]) -> str | None:
    found = [c for c in companies if re.search(r"(?<![A-Za-z])" + re.escape(c.split(",")[0].rstrip(".")) + r"(?![a-z])", text, re.I)]
    # A longer name wins over a word inside it ("Best Buy" vs "Buy").
    found.sort(key=lambda c: text.lower().find(c.lower()) if c.lower() in text.lower() else 999)
    return found[0] if len(found) >= 1 else None


# ---------------------------------------------------------------- periods


def _period(text: str) -> str | None:
    t = _norm(text)
    p = period_from_text(t)
    if p and re.search(r"\bquarter\b", t, re.I) and p.startswith("FY"):
        # "Quarter ended June 30, 2025", "This quarter Jun 30, 2025": period_from_text reads any "ended
        # <date>" as a year.
        from datetime import date, timedelta

        from parsers.periods import label_for_span

        m = re.search(r"\bquarter\b.*?(?:(?:ended|ending)\s+)?\b([A-Za-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4})", t, re.I)
        if m and m.group(1).lower() in MONTHS:
            end = date(int(m.group(3)), MONTHS[m.group(1).lower()], int(m.group(2)))
            return label_for_span(end - timedelta(days=90), end, None)
    return p


def prior_period(period: str | None, sequential: bool = False) -> str | None:
    """The period a growth rate compares against: the prior year's same period, or the prior quarter."""
    if not period:
        return None
    m = re.fullmatch(r"(?:(Q[1-4]|H[12]|9M|6M|TTM Q[1-4]|YTD) )?FY(\d{4})", period)
    if not m:
        return None
    part, year = m.group(1), int(m.group(2))
    if sequential and part and part.startswith("Q"):
        q = int(part[1])
        return f"Q{q - 1} FY{year}" if q > 1 else f"Q4 FY{year - 1}"
    return f"{part} FY{year - 1}" if part else f"FY{year - 1}"


# "'22-'24 CAGR", "FY21-FY24 CAGR", "2021 to 2024", "FY2021-25": the years a compound rate runs over.
_CAGR_SPAN = re.compile(r"(?:FY|CY)?\s?['’]?((?:19|20)?\d{2})\s*(?:-|–|—|to|through|/)\s*(?:FY|CY)?\s?['’]?((?:19|20)?\d{2})\b",
                        re.I)
_YEARS_LONG = re.compile(r"\b(\d|two|three|four|five)[\s-]*(?:yr|year)s?\b", re.I)
_NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5}


def _compounding(text: str, period: str | None) -> tuple[str | None, str | None, int] | None:
    """A compound rate's (end period, start period, years) from its words, or None when ``text`` is no
    CAGR; (None, None, 0) for one whose years it does not say."""
    if not COMPOUND_RATE.search(text):
        return None
    for m in _CAGR_SPAN.finditer(text):
        start, end = full_year(m.group(1)), full_year(m.group(2))
        marked = len(m.group(1)) == len(m.group(2)) == 4 or re.search(r"['\u2019]|FY|CY", m.group(0), re.I)
        if marked and 0 < end - start <= 20:
            return f"FY{end}", f"FY{start}", end - start
    year = _year_of(period)
    if (m := _YEARS_LONG.search(text)) and year is not None and re.fullmatch(r"FY\d{4}", period or ""):
        n = int(_NUMBER_WORDS.get(m.group(1).lower(), m.group(1)))
        if n > 0:
            return period, f"FY{year - n}", n
    return None, None, 0


def _year_of(period: str | None) -> int | None:
    m = re.search(r"FY(\d{4})", period or "")
    return int(m.group(1)) if m else None


# ---------------------------------------------------------------- figures


def _mask(text: str) -> str:
    """Dates, period labels, years, form names and ranks blanked out, positions kept."""
    chars = list(text)
    for rx in _MASKS:
        for m in rx.finditer(text):
            for i in range(m.start(), m.end()):
                chars[i] = " "
    return "".join(chars)


def _figures(text: str) -> list[Printed]:
    masked = _mask(_norm(text))
    out = []
    for p in parse_printed(masked):
        # The masked text keeps positions; re-read the printed form from the original.
        out.append(msgspec.structs.replace(p, text=text[p.start:p.end].strip()))
    return out


# ---------------------------------------------------------------- metric, kind, basis


class _Subject(msgspec.Struct):
    metric: str | None
    label: str
    segment: str | None


def _label_words(text: str) -> str:
    t = normalise_label(text)
    words = [w for w in re.split(r"\s+", t) if w and w not in _STOP_LABEL
             and not re.fullmatch(r"[\d$.,%+~()-]+(?:bps?|pp|pts?)?\)?", w)]
    return " ".join(words)


# Nouns that, right after a quantity's name, make the phrase another quantity that is counted.
_COUNTED_NOUNS = frozenset("carloads passengers passenger miles units volumes tonnes tons barrels transactions "
                           "accounts locations stores days hours trips shipments orders".split())
# The part of a balance due within a year, or after it: "current RPO" is not the whole RPO.
_PORTION = frozenset({"current", "noncurrent", "non-current", "long-term", "short-term"})
# "Subscription revenue less monthly cloud", "Capex, net of proceeds and incentives": what is left once
# a part is taken out is another quantity.
_LESS = re.compile(r"\s*,?\s*(?:less|minus|net of)\s+(?!than\b)[a-z]")
_WEAK = {"basic", "diluted", "products", "services", "subscription", "profit", "sales", "cash", "eps"}


# Verbs a sentence puts between its subject and the quantity: "North America segment earned an
# operating margin", "Beauty recorded net sales".
_VERBS = frozenset("posted earned booked produced recorded logged registered drove contributed brought returned "
                   "saw had has have made came grew rose fell climbed jumped increased decreased declined reached "
                   "delivered generated achieved totaled totalled was were is are reports ran stood landed "
                   "amounted".split())
# Words that say when or how big, not which part: "Third-quarter net sales", "the largest segment".
_NOT_PART = frozenset("first second third fourth half quarter quarters fiscal year years months six nine three "
                      "twelve ytd year-to-date largest biggest smallest fastest fastest-growing highest lowest "
                      "best strongest most through via shareholders stockholders investors".split())


# A quantity's name ends where the sentence goes on about it: "while Greater China sales rose 8%",
# "Switched transactions grew 11%", "NI to Amcor $805mm after Russia exit charges".
_LEAD_CONJUNCTIONS = frozenset("while but and also whereas though although as so yet".split())
_NAME_ENDS = _VERBS | frozenset("rise rises fall falls grow grows grown slipped slid dropped surged soared improved "
                                "worsened widened narrowed expanded contracted kept held lost gained doubled tripled "
                                "halved after despite excluding including before driven led helped".split())


def _core_label(label: str) -> str:
    """The words of a label that name its quantity, without a leading conjunction or what the sentence
    says about it after its verb; the whole label when that would leave nothing."""
    words = label.split()
    while words and words[0] in _LEAD_CONJUNCTIONS:
        words = words[1:]
    cut = next((i for i, w in enumerate(words) if i > 0 and w in _NAME_ENDS), len(words))
    return " ".join(words[:cut]) or label


def _qualifier(before: list[str], companies: list[str]) -> list[str]:
    """The words before a quantity's name that say which part of the company it is ("AWS", "North
    America"), or none: from the verb's object if it has such words, else from the sentence's subject."""
    company_words = {w.lower() for c in companies for w in re.split(r"[\s,.]+", c) if w}

    def part(w: str) -> bool:
        w = re.sub(r"'s$", "", w)
        return bool(w) and w not in _GENERIC and w not in company_words and w not in _STOP_LABEL \
            and w not in _NOT_PART and not all(piece in _NOT_PART for piece in w.split("-")) \
            and not re.fullmatch(r"[\d$.,%+~()/-]+[kmb]?|(?:fy|cy|q[1-4]|h[12])?'?\d{2,4}", w)

    verb = max((i for i, w in enumerate(before) if w in _VERBS), default=None)
    if verb is not None:
        obj = [w for w in before[verb + 1:] if part(w)]
        before = before[verb + 1:] if obj else before[:verb]
    return [re.sub(r"'s$", "", w) for w in before if part(w)]


_AND_INVESTMENTS = re.compile(r"\s*,?\s*(?:(?:and|&)\s+)?(?:cash equivalents,?\s+)?(?:and|&|plus)\s+(?:short-term\s+|"
                              r"marketable\s+)?(?:investments|securities|marketable securities|restricted cash)\b", re.I)
_STEP = re.compile(r"^\s*(?:less|add|plus|minus|deduct)\s*:\s*", re.I)
# "Adjusted EPS (US¢)", "Revenue (US$m)": the currency a row is printed in, not part of its name.
_CURRENCY_NOTE = re.compile(r"\((?:US|USD|US\$|\$|¢|€|£|EUR|GBP)[^)]{0,6}\)", re.I)


def _subject(text: str, companies: list[str]) -> _Subject:
    """The quantity a phrase names: a registry id, the label words, and a segment qualifier if any."""
    # "Less: Purchases of property and equipment", "Add: Interest paid": a reconciliation's step names
    # the line it takes out or adds back, which is that line, not what is left.
    text = _mask(_norm(_STEP.sub("", _CURRENCY_NOTE.sub(" ", text), count=1)))
    label = _core_label(_label_words(text))
    found = find_metric_span(text)
    if not found:
        return _Subject(metric=None, label=label, segment=None)
    metric, start, end = found
    t = normalise_label(text)
    m = by_id(metric)
    name = t[start:end]
    before = [w for w in re.split(r"[\s()]+", t[:start]) if w]
    after = t[end:]
    qual = _qualifier(before, companies)
    if qual and qual[-1] == "segment" and len(qual) > 1:
        qual = qual[:-1]  # "AWS segment sales": the AWS segment's revenue
    elif name in _WEAK and (qual or len(label.split()) > 2) and not (name == "sales" and re.match(r"\s*(growth|grew|up|down)\b", after)):
        return _Subject(metric=None, label=label, segment=None)
    if name == "sales" and re.match(r"\s*(?:&|and)\s+marketing", after):
        return _Subject(metric=None, label=label, segment=None)
    if _LESS.match(after) or {"less", "minus"} & set(before) or (
            m is not None and m.instant and _PORTION & set(before)):
        # "Subscription revenue less monthly cloud": what is left once a part is taken out is another
        # quantity, as is a balance's current portion; the room prints either (if at all) under its
        # own label.
        return _Subject(metric=None, label=label, segment=None)
    if metric == "cash" and _AND_INVESTMENTS.match(after):
        # "Cash, cash equivalents and investments", "cash and marketable securities": cash with more in it.
        return _Subject(metric=None, label=label, segment=None)
    if re.match(r"\s*per\s+(?!share\b)[a-z]", after):
        # "Revenue per paying membership", "sales per square foot": an average, another quantity.
        return _Subject(metric=None, label=label, segment=None)
    follower = re.match(r"\s*([a-z][a-z-]{3,})\b", after)
    if follower and follower.group(1) in _COUNTED_NOUNS:
        # "Revenue carloads", "revenue passenger miles", "sales units": the name qualifies another quantity.
        return _Subject(metric=None, label=label, segment=None)
    if m is not None and m.unit == "count" and re.match(r"\s*(with|building|using|who|that|paying|spending|over|above|>)\b", after):
        return _Subject(metric=None, label=label, segment=None)
    if qual == ["professional"] and metric == "services_revenue":
        qual = []  # "Professional services revenue" is a software company's services line, not a slice of it
    segment = " ".join(qual) if qual else None
    return _Subject(metric=metric, label=label, segment=segment)


_MARGIN_OF = {"gross_profit": "gross_margin", "operating_income": "operating_margin", "net_income": "net_margin"}


def _kind(clause: str, after: str, p: Printed, subject: _Subject, header: str = "") -> tuple[str, str | None]:
    """(kind, denominator metric) for a figure in its clause; header is a table column's words."""
    if p.unit == "multiple" or (_RATIO_WORD.search(clause) and p.unit == "count" and p.decimals > 0):
        # "Operating cash flow covered capex 1.3x": the second quantity named is the denominator.
        t = normalise_label(_mask(_norm(clause)))
        first = find_metric_span(t)
        return "ratio", (find_metric(t[first[2]:]) if first else None)
    if p.unit not in ("percent", "pp", "bp"):
        return "value", None
    reg = by_id(subject.metric) if subject.metric else None
    if reg is not None and reg.unit == "percent" and p.unit == "percent" and not reg.ratio_of:
        # "Comparable sales up 4.8%": the quantity is itself a rate; "up" says which way it went.
        return "value", None
    at = clause.find(p.text)
    # "Operating margin expanded to 27.6%": the verb says which way it went, "to" that the figure is the level.
    reached = at > 0 and re.search(r"\bto\s+(?:a\s+(?:record\s+)?)?$", clause[:at], re.I) is not None
    if not reached and (_GROWTH.search(clause) or _GROWTH_HEAD.search(header)):
        return "growth", None
    share = _SHARE_AFTER.match(after) or _SHARE_ANY.search(clause)
    if share or _SHARE_HEADER.search(header):
        denom = find_metric(share.group(1)) if share else "revenue"
        if subject.metric in _MARGIN_OF or subject.metric in ("gross_margin", "operating_margin", "net_margin") \
                or _MARGIN_WORD.search(subject.label):
            return "margin", None
        return "share", denom or "revenue"
    if subject.metric in ("gross_margin", "operating_margin", "net_margin") or _MARGIN_WORD.search(subject.label):
        return "margin", None
    return "value", None


def _basis(text: str, subject: _Subject, unit: str, inherited: str | None = None) -> tuple[str, bool]:
    """The claim's basis and whether the claim's own words state it; ``inherited`` is its slide's."""
    stated = basis_from_text(text)
    if subject.segment and (stated is None or (stated == "non-GAAP" and _names_segment_first(text, subject.segment))):
        # "Non-GAAP professional services gross margin": a segment's figure, on whatever basis, is no
        # figure of the whole company's.
        return f"segment:{subject.segment}", True
    if stated:
        return stated, True
    m = by_id(subject.metric) if subject.metric else None
    if m is not None and m.basis != "GAAP":
        return m.basis, False
    if inherited:
        # "GAAP operating loss" on a non-GAAP slide says its own basis.
        return ("GAAP", True) if states_gaap(text) else (inherited, False)
    if subject.metric is None and unit == "count":
        return "operating metric", False
    return "GAAP", False


def _names_segment_first(text: str, segment: str) -> bool:
    """Whether the segment's words stand right before the quantity's name ("professional services gross
    margin"), not somewhere else in the sentence."""
    found = find_metric_span(text)
    return found is not None and normalise_label(text)[: found[1]].rstrip().endswith(segment)


def _unit(p: Printed, subject: _Subject, text: str) -> str:
    if p.unit in ("USD", "currency"):
        if subject.metric in ("eps_basic", "eps_diluted") or _PER_SHARE.search(text):
            return "USD/share" if p.unit == "USD" else "currency"
        return p.unit
    if p.unit == "count" and _SHARES.search(text) and not _COUNT_ROW.search(text):
        return "shares"
    if p.unit == "count" and subject.metric in ("eps_basic", "eps_diluted") and p.decimals == 2:
        return "USD/share"  # "Diluted EPS: 6.51" prints its dollars without the sign
    return p.unit


# ---------------------------------------------------------------- slides


class _Stated(msgspec.Struct, frozen=True):
    """A period and where the deck stated it."""

    period: str
    where: str
    text: str


class _Ctx(msgspec.Struct):
    companies: list[str]
    default_entity: str | None
    repeated: set[str]
    deck_period: _Stated | None
    body_size: float | None


def quoted(text: str, limit: int = 60) -> str:
    """Text as a provenance line quotes it: one line, in quotes, cut at ``limit``."""
    t = " ".join(text.split())
    return f"'{t if len(t) <= limit else t[: limit - 3] + '...'}'"


# "up 12% from 2023", "vs. FY23": the year a change is measured against is not the claim's period.
_AGAINST = re.compile(r"\b(?:from|vs\.?|versus|compared (?:to|with)|over|than|against|prior[- ]year)\s+(?:the\s+)?"
                      r"(?:(?:(?:first|second)\s+half|(?:first|second|third|fourth)\s+quarter|six\s+months|nine\s+months"
                      r"|[1-4]Q|Q[1-4]|[12]H|H[12])\s*(?:of\s+)?)?(?:fiscal\s+|FY\s*)?['\u2019]?\d{2,4}\b", re.I)
_DATE_PHRASE = re.compile("|".join(rx.pattern for rx in _MASKS[:4]), re.I)


# "..., compared to $2.74 in 2Q24": across a whole bullet or slide, a comparison clause's period
# belongs to that clause's figure only.
_COMPARED = re.compile(r"\b(?:compared (?:to|with)|vs\.?|versus|against|from)\b[^;,]*", re.I)


def _own_period(text: str) -> str | None:
    return _period(_AGAINST.sub(" ", text))


def _stated(where: str, text: str, read: str | None = None, *, whole: bool = False) -> _Stated | None:
    """The period ``text`` (or its masked form ``read``) states; ``whole`` for a bullet or slide read as one."""
    read = text if read is None else read
    p = _period(_COMPARED.sub(" ", read)) if whole else _own_period(read)
    return _Stated(p, f"{where} {quoted(text)}", text) if p else None


_WEEKS = re.compile(r"\b(26|39)[\s-]+weeks?\b", re.I)
_TO_DATE = re.compile(r"\byear[\s-]+to[\s-]+date\b|\bytd\b", re.I)
_TO_DATE_PART = {2: "H1", 3: "9M"}


def _part_named(text: str, masked: str, *periods: str | None) -> str | None:
    """The part of a year a sentence names without its year: "the fiscal third quarter", "the six
    months", a retailer's "39 weeks" (nine months), or "year-to-date" through the quarter its period
    or its slide's names."""
    if part := bare_part(masked):
        return part
    if m := _WEEKS.search(text):
        return "H1" if m.group(1) == "26" else "9M"
    quarter = next((q for p in periods if (q := re.match(r"Q([1-4]) FY\d{4}$", p or ""))), None)
    if quarter and _TO_DATE.search(text):
        return _TO_DATE_PART.get(int(quarter.group(1)))
    return None


def _period_order(period: str) -> tuple[int, str]:
    """Later periods sort last: by fiscal year, then by label within it ("Q4" after "Q1")."""
    return _year_of(period) or 0, period


def _fiscal_year_of(period: str) -> str | None:
    """The fiscal year of a stated period, which a part of a year a sentence names ("Q3", "the six
    months") takes: "second-quarter revenue" on a first-half slide is that year's second quarter."""
    m = re.search(r"\bFY\d{4}$", period)
    return m.group(0) if m else None


_YEAR_SPAN = re.compile(r"\b(?:FY\s?|fiscal\s+(?:years?\s+)?)?'?((?:19|20)\d{2})\s*(?:-|–|—|to|through)\s*"
                        r"(?:FY\s?|fiscal\s+)?'?((?:19|20)?\d{2})\b", re.I)


def _span_end(where: str, text: str) -> _Stated | None:
    """A title over several years ("Walmart: fiscal 2024-2025 trend", "2022-2024") is as recent as its
    last year: its columns date its cells, and a figure in its last year is no projection."""
    m = _YEAR_SPAN.search(text)
    if not m:
        return None
    first, last = int(m.group(1)), int(m.group(2)) if len(m.group(2)) == 4 else 2000 + int(m.group(2))
    return _Stated(f"FY{last}", f"{where} {quoted(text)}", text) if first < last <= first + 10 else None


def _slide_period(slide: Slide) -> _Stated | None:
    """The period a slide states for all its figures: in its title, a subtitle, or once in its text."""
    if s := _span_end("slide title", slide.title) or _stated("slide title", slide.title):
        return s
    for b in slide.blocks[:4]:
        if not _figures(b.text) and (s := _span_end("slide subtitle", b.text) or _stated("slide subtitle", b.text)):
            return s
    own = [s for b in slide.blocks if (s := _stated(f"the one period slide {slide.page} states, in", b.text,
                                                      _mask_figures(b.text, _figures(b.text)), whole=True))]
    # "Net revenue of $28.2 billion in 2024" gives the slide's other bullets their year too.
    if own and len({s.period for s in own}) == 1:
        return own[0]
    # "FY2024, $mm" in a table's corner: the one period the slide's table is in is its prose's too, when
    # the prose names none or several ("losses to increase in 2025" is an outlook, not the slide's year).
    corners = [s for grid in slide.tables if grid and grid[0]
               and (s := _stated("the corner of the slide's table", _norm(grid[0][0])))]
    return corners[0] if corners and len({s.period for s in corners}) == 1 else None


def _lent_period(slide: Slide, deck_period: _Stated | None) -> _Stated | None:
    """The slide's period, unless it is only a year its text compares with ("vs. $2.74 in 2Q24") on a
    deck whose cover states another period."""
    stated = _slide_period(slide)
    if stated is not None and deck_period is not None and stated.where.startswith("the one period") \
            and stated.period != deck_period.period:
        return None
    return stated


def _clause(text: str, p: Printed) -> tuple[str, int]:
    """The part of a sentence a figure belongs to (split at ", " / "; " / " and "), with its offset."""
    cuts = [0]
    # Not at the comma of a name that lists its parts ("Wearables, Home and Accessories").
    # Nor at the comma of a lowercase list that names one quantity ("Cash, cash equivalents and investments").
    for m in re.finditer(r";\s+(?=\D|[1-4][QH]\b|[1-4][QH]\s*'?\d)|,\s+(?=\D)(?![A-Z][\w-]*\s+(?:and|&)\s+[A-Z])"
                         r"(?![a-z][\w-]*(?:\s+[a-z][\w-]*){0,3}\s+(?:and|&)\s+[a-z][\w-]*(?:\s+[a-z][\w-]*){0,3}\s*(?:$|[$(]|at\b|of\b))"
                         r"|\s+(?:and|while|with|vs\.?|versus|compared (?:to|with)|against)\s+(?=[\d$~(])", text):
        cuts.append(m.end())
    for m in re.finditer(r"(?<=[\d%a-z])\s+\((?=[+\-\u2212" + _ARROW_UP + _ARROW_DOWN + r"]?\s?\$?\d)", text):
        # "Revenue $46.7bn (+56% y/y, +6% q/q)": after a named figure, the parenthesis holds its changes;
        # "19% (18% in CC) Total Revenue Growth" names its quantity after, and stays one clause.
        close = text.find(")", m.end())
        inner = text[m.end():close if close >= 0 else len(text)]
        # "$11,980 million (2023)" dates its figure: a year in parentheses is no change.
        if re.search(r"[A-Za-z]{2}", text[max(c for c in cuts if c <= m.start()):m.start()]) and _figures(inner):
            cuts.append(m.end())
    for m in re.finditer(r"\s+and\s+(?=[A-Za-z])", text):
        # "iPhone net sales were $44.6 billion and Services net sales reached $27.4 billion": with a
        # figure on each side, the capital after "and" starts another quantity's clause; so does a
        # quantity's name in lower case ("operating income of $1.2B and net income of $0.9B"), but
        # not a verb of the same one ("revenue of $5B and grew 20%").
        if not any(ch.isdigit() for ch in text[max(c for c in cuts if c <= m.start()):m.start()]):
            continue
        after = _figures(text[m.end():])
        if after and (text[m.end()].isupper() or find_metric(text[m.end():m.end() + after[0].start])):
            cuts.append(m.end())
    cuts.sort()
    cuts.append(len(text) + 1)
    for a, b in zip(cuts, cuts[1:]):
        if a <= p.start < b:
            return text[a:b], a
    return text, 0


_SHARE_VERB = re.compile(r"\b(?:accounted\s+for|accounts\s+for|made\s+up|makes\s+up|represented|represents|comprised|"
                         r"contributed|was|were|is|are|reached|at|of|with|generated|about|approximately|nearly|over|~)\s*$",
                         re.I)
_SHARE_TAIL = re.compile(r"^\s*(.{2,60}?)\s+(?:share|portion|percent(?:age)?)\s+of\b", re.I)


_APPOSITIVE = re.compile(r",\s+(?:the|a|an|its|our|their)\b[^,]*,?\s*$", re.I)


def _with_subject(before: str, clause: str) -> str:
    """A clause that starts with its verb ("posted net sales of $29.6 billion") with the sentence's
    subject put back before it ("Fabric & Home Care, the largest segment, posted ..."), less any
    appositive between them; any other clause as it is."""
    first = re.match(r"\s*([A-Za-z]+)", clause)
    if not before.strip() or not first or first.group(1).lower() not in _VERBS:
        return clause
    subject = before
    while (m := _APPOSITIVE.search(subject)) is not None:
        subject = subject[:m.start()]
    return f"{subject.strip(' ,;')} {clause}"


def _share_part(clause: str, p: Printed) -> str:
    """The part a share names: the words before its figure ("Services accounted for"), else the words
    between the figure and "share of" ("16% Greater China share of net sales")."""
    at = clause.find(p.text)
    if at >= 0:
        head = _mask_figures(clause[:at], [p]).strip(" :-–,")
    elif named := _SHARE_HEADER.search(clause):
        head = clause[: named.start()].strip(" :-–,")  # a table row: "Subscription % of Total Revenue"
    else:
        head = ""
    while (m := _SHARE_VERB.search(head)) and m.start() < len(head):
        head = head[: m.start()].rstrip(" :-–,")
    words = [w for w in _label_words(_mask(head)).split() if w not in _GENERIC and not w.endswith(("'s", "’s"))]
    if words:
        return " ".join(words)
    tail = _SHARE_TAIL.match(clause[clause.find(p.text) + len(p.text):]) if p.text in clause else None
    return " ".join(w for w in _label_words(_mask(tail.group(1))).split() if w not in _GENERIC) if tail else ""


def _make_claim(*, page: int, n: int, text: str, p: Printed, bound: str, printed: str, clause: str, after: str,
                subject: _Subject, stated: _Stated | None, entity: str | None, bbox: BBox | None,
                header: str = "", scale: int | None = None, unit: str | None = None, row: str = "",
                column: str = "", slide_basis: str | None = None, basis_text: str | None = None,
                span_hint: str = "") -> Claim:
    period = stated.period if stated else None
    kind, denom = _kind(clause, after, p, subject, header)
    if kind == "ratio" and (parts := _RATIO_SPLIT.split(_mask_figures(clause, [p]), maxsplit=1))[1:]:
        # "Adjusted debt to adjusted EBITDA of 2.8x": the quantity before "to" is divided by the one after;
        # a numerator the registry does not know is its own label, never the denominator's name.
        numerator, named = _subject(parts[0], []), find_metric(parts[1])
        denom = named or denom
        subject = numerator if numerator.metric != denom else _Subject(metric=None, label=numerator.label, segment=None)
    if kind == "share" and subject.metric in (None, denom) and (part := _share_part(clause, p)):
        # "Services accounted for 55.5% of revenue", "16% Greater China share of net sales": the part is
        # what the sentence names beside the figure, the whole what follows "of". A quantity the phrase
        # already names ("Net cash provided by operating activities (as a percentage of total revenue)")
        # is the part itself.
        name = (by_id(denom).names[0] if denom and by_id(denom) else "")
        whole = _subject(f"{part} {name}", [])
        subject = whole if whole.metric not in (None, denom) else _Subject(metric=None, label=part, segment=None)
    metric = subject.metric
    if kind == "margin" and metric in _MARGIN_OF:
        metric = _MARGIN_OF[metric]
    value = p.value
    if kind == "growth" and value > 0 and (_DOWN.search(clause) or (
            _IMPROVED.search(clause) and _LOWER_IS_BETTER.search(f"{subject.label} {clause}"))):
        # "Operating ratio improved 100 bps": a ratio that is better lower improves by falling.
        value = -value
    if kind == "value" and value > 0 and subject.metric in LOSS_METRICS and names_a_loss(subject.label):
        # "Operating loss of $17.73 billion" is operating income of -$17.73 billion, as the room prints it.
        value = -value
    decimals = p.decimals
    if p.unit == "count" and abs(value) < 2 and _FRACTION.search(f"{clause} {header}") \
            and (kind == "margin" or (subject.metric or "").endswith("_margin") or "margin" in subject.label):
        # "Net margin (fraction of revenue) was 0.177": 17.7%, to one decimal fewer places.
        value, decimals, unit = value * 100, max(p.decimals - 2, 0), "percent"
        kind = "margin"
    u = unit or _unit(p, subject, clause)
    basis, basis_stated = _basis(f"{basis_text or clause} {header}", subject, u, slide_basis)
    comparison = None
    compounded = 0
    if kind == "growth":
        comparison = prior_period(period, sequential=bool(_SEQUENTIAL.search(f"{clause} {header}")))
        if (span := _compounding(f"{column} {header} {clause} {span_hint}", period)) is not None:
            # "'23-'25 CAGR 5.5%" compounds over two years: not FY2025 over FY2024.
            end, comparison, compounded = span
            period = end or period
    return Claim(
        id=f"p{page}-c{n}", page=page, text=text, value=value, printed=printed, decimals=decimals,
        unit=u, scale=p.scale if scale is None else scale, kind=kind, bound=bound, entity=entity,
        metric=metric if metric else (label_metric(subject.label) if subject.label else None),
        label=subject.label, currency=p.currency if p.currency else None, period=period,
        comparison_period=comparison, compounded_years=compounded, basis=basis, basis_stated=basis_stated,
        bbox=bbox, denominator=denom,
        row=row, column=column,
        resolution=Resolution(period=stated.where, period_text=stated.text) if stated else Resolution(),
    )


def _why_not(block: TextBlock, slide: Slide, ctx: _Ctx, slide_period: str | None, figs: list[Printed]) -> str | None:
    """Why a block carries no claim, or None when its figures are claims."""
    text = block.text
    t = text.strip()
    if re.fullmatch(r"\d{1,3}", t) and (int(t) == slide.page or (block.size and ctx.body_size and block.size < ctx.body_size)):
        return "page number"
    if t in ctx.repeated or _COPYRIGHT.search(t):
        if not figs and any(c.isdigit() for c in t) and (_period(t) or re.search(_MONTH_NAMES, t, re.I)):
            return "date or period"
        return "header or footer"
    if _PHONE.search(t):
        return "phone number"
    if _ADDRESS.search(t):
        return "address"
    if _NOTE.search(t):
        return "footnote or source note"
    if _FOOTNOTE.search(t) and ((block.size and ctx.body_size and block.size <= ctx.body_size * 0.85)
                                or _FOOTNOTE_WORDS.search(t) or len(t.split()) > 25):
        return "footnote"
    if _BOILERPLATE.search(t):
        return "disclaimer or definition"
    if _TEAM_TITLE.search(slide.title) and not figs and _TEAM.search(t):
        return "team biography"
    if _TEAM.search(t) or _PERSON_TITLE.match(t):
        return "team biography"
    if _guidance_title(slide.title) or _PROJECTION.search(t):
        return "projection or guidance"
    if figs and (_SUPERLATIVE.search(t) or re.search(r"(?:^|\s)(?:#|no\.\s?)1\b", t, re.I)) and all(p.unit == "count" and p.scale == 0 for p in figs) \
            and find_metric(_mask_figures(t, figs)) is None:
        # "The #1 platform, trusted by 14 of the Fortune 100": a boast that counts, not a reported figure.
        return "superlative"
    own = _period(_mask_figures(t, figs)) if figs else None
    if own and slide_period and own.startswith("FY") and (_year_of(own) or 0) > (_year_of(slide_period) or 9999):
        # "Revenue of $50B in FY2026" on an FY2024 slide is a target; a later quarter beside a full year
        # ("2Q25" on "full-year 2024 at a glance") is the latest result, not one.
        return "projection or guidance (future period)"
    if not figs:
        if _SUPERLATIVE.search(t):
            return "superlative"
        if any(c.isdigit() for c in t):
            return "date or period" if (_period(t) or re.search(_MONTH_NAMES, t, re.I)) else "no checkable figure"
        return None
    words = [w for w in _label_words(_mask(_mask_figures(_norm(t), figs))).split() if w not in _FILLER]
    if sum(len(w) >= 3 and w.isalpha() for w in words) == 0 and not find_metric(" ".join(words)):
        return "figure without a label"  # but "GM 46.5%" names its quantity in two letters
    if all(p.unit == "count" and p.scale == 0 and p.value < 10 and p.decimals == 0 for p in figs):
        return "no checkable figure"
    return None


def _mask_figures(text: str, figs: list[Printed]) -> str:
    chars = list(text)
    for p in figs:
        for i in range(p.start, min(p.end, len(chars))):
            chars[i] = " "
    return "".join(chars)


# A sentence ends at ". " before a capital, a quote or a bracket; "U.S. comparable sales" and
# "$94.0 billion" do not end one.
# A sentence starts with a capital, or with a brand's lower-case letter before one ("iPhone", "eBay").
_SENTENCE = re.compile(r"(?<=[a-z0-9%)\]][.!?])\s+(?=[A-Z\"“(]|[a-z][A-Z])")


# A sentence that speaks of the one before it: "That was 10% more than a year earlier."
_ANAPHOR = re.compile(r"^\s*(?:that|this|it)\s+(?:was|is|were|represented|represents|marked|reflected)\b", re.I)


def _sentences(text: str) -> list[str]:
    return [s for s in _SENTENCE.split(text) if s.strip()]


_OF_WHICH = re.compile(r"^\W*of which\s+", re.I)


def _of_which(text: str, above: Claim | None) -> _Subject | None:
    """"Data Center $41.1bn" then "of which networking $7.3bn": networking's part of the same quantity."""
    m = _OF_WHICH.match(text)
    if m is None or above is None or not above.metric or is_label(above.metric):
        return None
    rest = text[m.end():]
    words = " ".join(w for w in _label_words(_mask(_mask_figures(rest, _figures(rest)))).split() if w not in _GENERIC)
    if not words:
        return None
    return _Subject(metric=above.metric, label=f"{words} {by_id(above.metric).names[0]}", segment=words)


def _block_claims(block: TextBlock, slide: Slide, ctx: _Ctx, slide_period: _Stated | None, slide_entity: str | None,
                  start: int, above: Claim | None = None) -> tuple[list[Claim], list[Discard]]:
    """A bullet's or a paragraph's claims, sentence by sentence: each figure takes its sentence's subject,
    and the paragraph lends its company and period to sentences that name none ("Its operating margin...").
    ``above`` is the claim printed just before the block, which an "of which ..." line is part of."""
    sentences = _sentences(block.text)
    if len(sentences) <= 1:
        return _text_claims(block.text, block, slide, ctx, slide_period, slide_entity, None, start, None,
                            _of_which(block.text, above))
    paragraph_entity = _entity_in(block.text, ctx.companies) or slide_entity
    # A period a sentence states holds for the sentences after it, never for those before: in
    # "Third-quarter net sales were $19.8 billion. First-quarter fiscal 2026 net sales were ...", the
    # first quarter is the slide's year's.
    paragraph_period: _Stated | None = None
    claims: list[Claim] = []
    discards: list[Discard] = []
    lent_part = None
    antecedent: _Subject | None = None
    for sentence in sentences:
        got, why = _text_claims(sentence, block, slide, ctx, slide_period, paragraph_entity, paragraph_period,
                                start + len(claims), lent_part, antecedent if _ANAPHOR.match(sentence) else None)
        claims += got
        discards += why
        if figs := _figures(sentence):
            clause, off = _clause(sentence, figs[0])
            named = _subject(_mask_figures(clause, [msgspec.structs.replace(
                figs[0], start=figs[0].start - off, end=figs[0].end - off)]), ctx.companies)
            antecedent = named if named.metric is not None else antecedent
        # "In its fiscal third quarter, net sales were $94.0 billion. iPhone net sales were $44.6
        # billion.": the quarter a sentence names holds for the sentences after it that name none.
        masked = _mask_figures(sentence, _figures(sentence))
        said = _stated("an earlier sentence of its paragraph", sentence, masked, whole=True)
        paragraph_period = said or paragraph_period
        if own := bare_part(_mask(masked)):
            lent_part = own
        elif said:
            lent_part = None
    return claims, discards


def _names_year(text: str, year: int) -> bool:
    """Whether a period's text names ``year`` too ("Net income, FY2023 vs FY2024"): a later column it names
    is one of its years, not a projection beyond them."""
    t = text.upper().replace(" ", "")
    return str(year) in t or f"FY{year % 100:02d}" in t or f"FY'{year % 100:02d}" in t


def _period_above(boxes: list[list[BBox | None]], lent: list[tuple[float, _Stated]]) -> _Stated | None:
    """The period lent by the nearest block above a table (a section heading over it), if any."""
    top = min((b[1] for row in boxes for b in row if b is not None), default=None)
    if top is None:
        return None
    return max(((bottom, s) for bottom, s in lent if bottom <= top + 1), key=lambda x: x[0], default=(0.0, None))[1]


_BESIDE = re.compile(r"^[\s(\[,;:–—-]*$")


def _share_of_figure_before(claims: list[Claim]) -> list[Claim]:
    """"Data Center $41.1bn (88% of rev)": a share that names no part, printed right after another
    figure of its sentence, is the share of that figure's quantity (its segment, or its own metric)."""
    out: list[Claim] = []
    for claim in claims:
        prev = out[-1] if out else None
        if (prev is None or prev.text != claim.text or prev.kind != "value" or claim.kind != "share"
                or claim.denominator is None or claim.metric not in (None, claim.denominator)
                or claim.basis.startswith("segment:")):
            out.append(claim)
            continue
        at = claim.text.find(prev.printed)
        there = claim.text.find(claim.printed, at + len(prev.printed)) if at >= 0 else -1
        if there < 0 or not _BESIDE.match(claim.text[at + len(prev.printed): there]):
            out.append(claim)
            continue
        if prev.metric == claim.denominator and prev.basis.startswith("segment:"):
            claim = msgspec.structs.replace(claim, basis=prev.basis, label=prev.label)
        elif prev.metric and prev.metric != claim.denominator and prev.unit == "USD":
            claim = msgspec.structs.replace(claim, metric=prev.metric, label=prev.label)
        out.append(claim)
    return out


def _share_of_tile_above(claim: Claim, earlier: list[Claim], above: Claim | None) -> Claim:
    """"44% of Total Revenue" printed under the tile "29% Elastic Cloud Revenue Growth": a share that
    names no part of its own is the share of the quantity the figure stacked above it names.

    Stacked means above it and overlapping it across the slide when both have boxes (tiles in a row
    are read left to right, so the claim read just before may be the next tile's); without boxes, the
    claim printed just before it."""
    if claim.kind != "share" or claim.denominator is None or claim.metric not in (None, claim.denominator):
        return claim
    if claim.bbox is not None:
        x0, y0, x1, _ = claim.bbox
        stacked = [c for c in earlier if c.bbox is not None and c.bbox[3] <= y0 + 2 and
                   min(x1, c.bbox[2]) - max(x0, c.bbox[0]) > 0.3 * min(x1 - x0, c.bbox[2] - c.bbox[0])]
        source = max(stacked, key=lambda c: c.bbox[3], default=None)  # type: ignore[index]
    else:
        source = above
    if source is None or not source.metric or is_label(source.metric):
        return claim
    reg = by_id(source.metric)
    if reg is None or reg.unit != "USD" or source.metric == claim.denominator:
        return claim
    return msgspec.structs.replace(claim, metric=source.metric, label=reg.names[0])


def _text_claims(text: str, block: TextBlock, slide: Slide, ctx: _Ctx, slide_period: _Stated | None,
                 outer_entity: str | None, outer_period: _Stated | None, start: int,
                 lent_part: str | None = None, antecedent: _Subject | None = None) -> tuple[list[Claim], list[Discard]]:
    figs = _figures(text)
    # Only a period the slide states as its own (its title or subtitle) makes a later year a projection;
    # a year lent by the bullet above is not the slide's horizon.
    horizon = slide_period.period if slide_period and slide_period.where.startswith("slide ") else None
    why = _why_not(msgspec.structs.replace(block, text=text), slide, ctx, horizon, figs)
    if why is not None:
        return [], [Discard(page=slide.page, text=text, why=why)]
    if not figs:
        return [], []
    entity = _entity_in(text, ctx.companies) or outer_entity
    slide_scale = _slide_scale(slide)
    ranged = _ranges(text, figs)
    claims = []
    qualifiers = {i for i, p in enumerate(figs) if _is_qualifier(text, p, len(figs) - 1)}
    unreported = {i: why for i, p in enumerate(figs) if i not in qualifiers and (why := _not_reported(text, p))}
    main = [p for i, p in enumerate(figs) if i not in qualifiers and i not in unreported]
    whole = _subject(_mask_figures(text, main), ctx.companies)
    respective = {figs.index(p): name for p, name in zip(main, _respective(text, main))}
    if antecedent is not None and whole.metric is None:
        whole = antecedent  # "That was 10% more than a year earlier." speaks of the sentence before's quantity
    block_period = _stated("its bullet", text, _mask_figures(text, figs), whole=True) or outer_period
    discards: list[Discard] = []
    for i, p in enumerate(figs):
        if i in qualifiers:
            continue
        if i in unreported:
            discards.append(Discard(page=slide.page, text=text, why=f"{p.text.strip()} is {unreported[i]}"))
            continue
        if _compared_without_period(text, p):
            discards.append(Discard(page=slide.page, text=text, why=f"{p.text} is the figure compared with, "
                                                                      "and its period is not stated"))
            continue
        clause, off = _clause(text, p)
        local = [q for q in main if off <= q.start < off + len(clause)]
        masked_clause = _mask_figures(clause, [msgspec.structs.replace(q, start=q.start - off, end=q.end - off) for q in local])
        subject = _subject(_with_subject(text[:off], masked_clause), ctx.companies)
        basis_text = clause
        own_clause = clause
        if i in respective:
            # Its own name and figure are the clause: "EPS" further along the list is not its unit.
            subject = _subject(respective[i], ctx.companies)
            basis_text = own_clause = f"{respective[i]} {p.text.strip()}"
        elif (subject.metric is None and whole.metric is not None and find_metric_span(subject.label) is None) \
                or not subject.label:
            # "Adjusted diluted EPS $14.60 (▲ 19% Y/Y)": a change in parentheses is its named figure's, on
            # the basis that name states; a clause naming a quantity of its own ("while Greater China sales
            # rose 8%") keeps it.
            subject, basis_text = whole, f"{text[:off]} {clause}"
        bound, printed = _bound(text, p)
        if i in ranged:
            bound = ranged[i]
        at = p.start - off
        # "FY23 (Jan-23) rev $46.3bn and the Q2 FY24 print...": of two periods a clause names, the one
        # before its figure is the figure's own.
        stated = (_stated("the claim's words", clause, masked_clause[:at]) if 0 < at < len(clause)
                  and _own_period(masked_clause[at:]) not in (None, _own_period(masked_clause[:at])) else None) \
            or _stated("the claim's words", clause, masked_clause) or block_period or slide_period or ctx.deck_period
        own_part = _part_named(text, _mask(_mask_figures(text, figs)), stated.period if stated else None,
                               slide_period.period if slide_period else None)
        if stated is not None and (part := own_part or lent_part) and (year := _fiscal_year_of(stated.period)):
            # "In its fiscal third quarter, ... $94.0 billion" on a fiscal-2025 slide is Q3 FY2025; "the
            # six months" on a second-quarter slide are the half that quarter closes.
            named = "its sentence" if own_part else "an earlier sentence of its paragraph"
            # The sentence, not the slide's date, is the period's text: re-read in the company's calendar,
            # the date alone would undo the part.
            stated = _Stated(f"{part} {year}", f"{stated.where}, with the {part} {named} names", text)
        scale = unit = None
        reg = by_id(subject.metric) if subject.metric else None
        if slide_scale is not None and _bare_amount(p, clause) and (reg is None or reg.unit == "USD") \
                and not (p.unit == "count" and reg is None and p.value < 100):
            scale, unit = slide_scale, "USD" if p.unit == "count" else None
        claims.append(_make_claim(
            page=slide.page, n=start + len(claims) + 1, text=text, p=p, bound=bound, printed=printed,
            clause=own_clause, after=text[p.end:], subject=subject, stated=stated, entity=entity, bbox=block.bbox,
            scale=scale, unit=unit, basis_text=basis_text,
        ))
    return claims, discards


_LIST_VERB = re.compile(r"\s+(?:were|was|are|is|of|came\s+in\s+at|totall?ed|reached|stood\s+at|at)\s*[~(]?\s*$"
                        r"|\s*:\s*$", re.I)
_LIST_JOIN = re.compile(r"\s*(?:,\s*(?:and\b\s*)?|(?:and\b|&)\s*)", re.I)  # a figure's span may hold its spaces
_LIST_SEP = re.compile(r"\s*,\s*(?:and\s+)?|\s+(?:and|&)\s+", re.I)
_LIST_BASIS = re.compile(r"^\s*(?:non[- ]?gaap|adjusted|core)\s+", re.I)
_NO_OTHER_BASIS = frozenset({"revenue", "product_revenue", "services_revenue", "subscription_revenue", "cloud_revenue",
                             "arr", "rpo", "crpo", "deferred_revenue", "cash", "total_assets", "customers", "employees"})


def _respective(text: str, main: list[Printed]) -> list[str]:
    """The quantity each figure names in a list sentence ("Revenue, operating income and EPS were $5.1B,
    $1.2B and $2.10", "... respectively"): the i-th name is the i-th figure's; none when the sentence is
    no such list. A leading "Non-GAAP" or "Adjusted" qualifies every name that has another basis."""
    if len(main) < 2:
        return []
    verb = _LIST_VERB.search(text[:main[0].start])
    if verb is None:
        return []
    listed = 1  # the figures joined into one list from the first ("$5.1B, $1.2B and $2.10"); any after are not
    while listed < len(main) and _LIST_JOIN.fullmatch(text[main[listed - 1].end:main[listed].start]):
        listed += 1
    parts = [part for part in _LIST_SEP.split(text[:verb.start()]) if part.strip()]
    if listed < 2 or len(parts) < listed:
        return []
    lead, names = parts[:-listed], parts[-listed:]
    metrics = [find_metric(n) for n in names]
    if not all(metrics) or any(find_metric(part) for part in lead):
        return []
    shared = _LIST_BASIS.match(names[0])
    if shared:
        names = [names[0]] + [n if _LIST_BASIS.match(n) or m in _NO_OTHER_BASIS else shared.group(0) + n
                              for n, m in zip(names[1:], metrics[1:])]
    prefix = " ".join(part.strip() for part in lead)
    return [f"{prefix} {n.strip()}".strip() for n in names]


_CONSENSUS = re.compile(r"\b(?:consensus|street|(?:our|the|their)\s+(?:estimates?|est\.?|model|forecast)|"
                        r"we\s+(?:had|expected|modell?ed|model)|expectations?)"
                        r"(?:\s+(?:of|at|was|were|is|for|by|near))?\s*:?\s*(?:about|~|approximately|roughly|around)?\s*$",
                        re.I)
_STOCK_MOVE = re.compile(r"\b(?:shares|stock|share\s+price|ADRs?)(?:\s+(?:were|was|is|are|closed|traded|ended|fell|rose|"
                         r"jumped|dropped|up|down))?\s*[+\-\u2212]?\s*$", re.I)  # a span may start at its space or sign
_PRICE_TARGET = re.compile(r"\b(?:PT|TP|price\s+target|target\s+price)\b", re.I)
_ESTIMATE_YEAR = re.compile(r"(?<![A-Za-z0-9])(?:[1-4]Q\s?|Q[1-4]\s?)?(?:FY|CY)?'?(?:20)?\d{2}E\b")


def _not_reported(text: str, p: Printed) -> str | None:
    """Why a figure in a sentence is no figure of the company's filings: a consensus or the writer's own
    estimate ("vs. consensus of $2.91", "our FY26E EPS of $6.95"), a move in its share price, or a price
    target; None when it may be one."""
    before = text[max(0, p.start - 48):p.start]
    if _CONSENSUS.search(before):
        return "a consensus or analyst estimate, not a reported figure"
    if p.unit == "percent" and _STOCK_MOVE.search(before):
        return "a move in the share price"
    clause, at = _clause(text, p)
    if _ESTIMATE_YEAR.search(clause):
        return "an estimate (its period is marked E)"
    if _PRICE_TARGET.search(clause[:p.start - at]):
        return "a price target"
    return None


_FROM_BEFORE = re.compile(r"\bfrom\s+(?:about\s+|approximately\s+|nearly\s+|~)?$", re.I)
_TO_FIGURE_BEFORE = re.compile(r"\bto\s+(?:a\s+(?:record\s+)?)?[$€£~]?\d[^,;]*$", re.I)


def _compared_without_period(text: str, p: Printed) -> bool:
    """ "Rose to $17.8 billion from $16.2 billion", "from $16.2 billion to ...": the figure after "from"
    is an earlier period's, which the sentence does not name, so it is no claim about the slide's."""
    before, after = text[:p.start], text[p.end:]
    if (since := _FROM_BEFORE.search(before)) is None:
        return False
    if not (re.match(r"\s+to\b", after) or _TO_FIGURE_BEFORE.search(before[: since.start()])):
        return False
    phrase = re.split(r"[,;]|\s+to\b", after, maxsplit=1)[0]
    return _period(phrase) is None and not re.search(r"\b(?:a\s+year\s+(?:ago|earlier)|prior|previous|last)\b", phrase, re.I)


def _slide_scale(slide: Slide, corner: str = "") -> int | None:
    """The scale a slide states for its bare figures: "$ in millions" heading a table, titling the slide or
    standing alone above its figures."""
    notes = " ".join(b.text for b in slide.blocks if len(b.text) <= 40)
    m = _TABLE_SCALE.search(f"{corner} {slide.title} {notes}")
    return _SCALE_OF[next(g for g in m.groups() if g).lower()] if m else None


def _bare_amount(p: Printed, label: str) -> bool:
    """A figure printed without a scale or a currency where the slide states them: "Net sales: 84,284"."""
    return p.scale == 0 and p.unit in ("USD", "currency", "count") and not _PER_SHARE.search(label) \
        and not _COUNT_ROW.search(label) and not _SHARES.search(label)


# Headings that divide a table into statements, not into a company's parts.
_SECTION_HEADING = re.compile(r"\b(?:statements?|summary|highlights|metrics|kpis?|overview|balance sheet|cash flows?|"
                              r"per[- ]share|other|memo|items?|ratios)\b", re.I)


def _table_claims(grid: list[list[str]], boxes: list[list[BBox | None]], slide: Slide, ctx: _Ctx,
                  slide_period: _Stated | None, slide_entity: str | None, start: int) -> tuple[list[Claim], list[Discard]]:
    # A PDF table finder often reads the rule above a table as a row of empty cells: the header is
    # the first row that prints something.
    while grid and not any(cell.strip() for cell in grid[0]):
        grid, boxes = grid[1:], boxes[1:]
    if len(grid) < 2:
        return [], []
    if len(grid) >= 3 and _spans_the_next_row(grid[0], grid[1]):
        # "| | Fiscal 2022 | | |" over "| Company | OCF | Net margin | Diluted EPS |": a spanning header row
        # dates the names under it.
        merged = [" ".join(f"{grid[0][0]} {grid[1][0]}".split())] + \
            [" ".join(f"{span} {name}".split()) for span, name in zip(_filled_forward(grid[0][1:]), grid[1][1:])]
        grid, boxes = [merged, *grid[2:]], [boxes[1] if len(boxes) > 1 else [], *boxes[2:]]
    if (lead := _label_columns(grid)) > 1:
        # "AAPL | Services rev (F3Q25) | $27.24bn": the row's name runs over its first columns, the
        # company in one and the quantity in the next.
        grid = [[" ".join(" ".join(row[:lead]).split()), *row[lead:]] for row in grid]
        boxes = [[brow[0] if brow else None, *brow[lead:]] for brow in boxes]
    header = [_norm(h) for h in grid[0]]
    corner = header[0] if header else ""
    # "$ in millions" may head the table, title the slide or stand alone above the table.
    table_scale = _slide_scale(slide, corner)
    periods: list[str | None] = []
    last = None
    unread: set[int] = set()
    since_change: list[str] = []
    named = False
    dated = [_dated_span(h, slide) or _dated_header(h) for h in header]
    for c, h in enumerate(header):
        p = _period(dated[c]) if dated[c] else (None if _SPAN_YEAR.match(h) else _period(h))
        if p is None and h and (_GROWTH_HEAD.search(h) or _SHARE_HEADER.search(h)):
            # "Q1'23 | Q1'22 | Y/Y": a change after two periods is the later one's over the other;
            # "FY24 | Y/Y | FY23 | Y/Y": a change after one period is that period's.
            p = max(since_change, key=_period_order) if len(since_change) > 1 else last
            since_change = []
        elif p is None and c > 0 and any(ch.isalnum() for ch in h):
            unread.add(c)
        elif p is not None and c > 0:
            since_change.append(p)
            named = True
        periods.append(p)
        last = p or last
    if not named and len({header[c] for c in unread if any(ch.isdigit() for ch in header[c])}) < 2:
        # No column names a period: the corner's ("FY2022, $ in billions"), the slide's or the deck's
        # speaks for them all. Two columns that print different dates we cannot read are two periods,
        # and the slide's one would be wrong for at least one of them.
        unread = set()
        periods = [periods[0]] * len(periods) if periods and periods[0] else [None] * len(periods)
    metric_heads = [h if find_metric(_label_words(_mask(h))) else None for h in header]
    # "Segment | Net sales | Op. income | Op. margin": a quantity per column, a segment or company per row.
    by_column = sum(1 for h in metric_heads[1:] if h) >= 2
    guidance = _guidance_title(slide.title)
    # "Non-GAAP Income Statement Highlights": a row that states no basis is on the slide's; a
    # reconciliation prints both bases, and each of its rows says which.
    slide_basis = "non-GAAP" if _NON_GAAP_WORD.search(f"{slide.title} {corner}") and \
        not _RECONCILIATION.search(slide.title) else None
    claims: list[Claim] = []
    discards: list[Discard] = []
    previous = ""
    per_share_rows = [r for r, row in enumerate(grid[1:], start=1) if row and _PER_SHARE.search(row[0])]
    # "Flexibles | Rigid Packaging | Total net sales": rows above a total that names a sales quantity are
    # its segments, not lines of their own that another table of the room may print under that name.
    total_at, total_metric = next(((r, m) for r, row in enumerate(grid[1:], start=1) if row and
                                   _norm(row[0]).lower().startswith("total") and
                                   (m := _subject(_norm(row[0])[5:], ctx.companies).metric) == "revenue"), (0, None))
    group = ""
    for r, row in enumerate(grid[1:], start=1):
        if not row:
            continue
        label = _norm(row[0])
        if label and len(row) > 1 and not any(cell.strip() for cell in row[1:]):
            # "Compute & Networking" over "Segment revenue | 41,331": a row that prints only its label heads
            # the rows under it, which are that group's ("Revenue by region" over "UCAN": UCAN's revenue).
            # A heading that is itself a quantity ("Deferred revenue" over its parts) is no group of the company's.
            named = find_metric(_label_words(_mask(label)))
            group = "" if _SECTION_HEADING.search(label) or (named and " by " not in label) else label
            continue
        # A "Y/Y" row under "Non-GAAP sales & marketing expenses" is that row's growth.
        if _label_words(_mask(label)) and all(w in _GENERIC for w in _label_words(_mask(label)).split()) and previous \
                and not by_column and not find_metric(_label_words(_mask(label))):
            # Not "Total" under segment rows (the company's), nor "Gross margin" under "Revenue" (its own).
            label = f"{previous} {label}"
        else:
            if group:
                quantity, _, by = group.partition(" by ")
                label = f"{label} {quantity}" if by else f"{group} {label}"
            previous = label
        # "NVDA | F2Q26 (Jul-25) | 46.7": a row of companies in their own calendars prints each one's period.
        row_period = next((_Stated(q, f"its row's period {quoted(cell)}", cell) for cell in row[1:]
                           if cell and not is_figure_cell(cell) and (q := _period(cell))), None)
        for c, cell in enumerate(row[1:], start=1):
            if not cell or not is_figure_cell(cell):
                continue
            head = header[c] if c < len(header) else ""
            column_label = periods[c] if c < len(periods) else None
            future = bool(column_label and column_label.startswith("FY")) and (_year_of(column_label) or 0) > \
                (_year_of(slide_period.period if slide_period else None) or 9999) \
                and not _names_year(slide_period.text if slide_period else "", _year_of(column_label) or 0)
            if _VALUATION.search(head) or _VALUATION.search(label):
                discards.append(Discard(page=slide.page, text=f"{head}: {cell}", why="a market valuation, not a filing's figure"))
                continue
            if _CONSENSUS_CELL.search(head) or _CONSENSUS_CELL.search(label):
                discards.append(Discard(page=slide.page, text=f"{label}: {cell}", why="an analysts' consensus, not a filing's figure"))
                continue
            if _AGGREGATE_HEAD.search(head):
                discards.append(Discard(page=slide.page, text=f"{head}: {cell}", why="the author's own figure across the table"))
                continue
            if guidance or future or _PROJECTION.search(label) or _ESTIMATE_HEAD.search(head) \
                    or (_ESTIMATE_HEAD.search(label) and _period(label)):
                # A period row marked E ("2025E", "Fiscal 2026E") in a table of periods as rows.
                discards.append(Discard(page=slide.page, text=f"{label}: {cell}", why="projection or guidance"))
                continue
            figs = _figures(cell)
            if not figs:
                continue
            p = figs[0]
            subject = _subject(label, ctx.companies)
            named = _column_quantity(metric_heads, c, head)
            if by_column and named:
                # The column names the quantity ("Gross margin %" beside "Products" is the Products margin);
                # a change column is the change of the quantity to its left.
                subject = _subject(f"{label} {_label_words(_mask(named))}", ctx.companies)
            elif subject.metric is None and not (_GROWTH_HEAD.search(head) or _SHARE_HEADER.search(head)):
                head_words = _label_words(_mask(head))
                if head_words and find_metric(head_words):
                    subject = _subject(f"{label} {head_words}", ctx.companies)
            elif subject.metric is None and named:
                # A company per row, a quantity per column: "Revenue | Y/Y growth" is revenue's growth.
                subject = _subject(f"{label} {_label_words(_mask(named))}", ctx.companies)
            if not subject.label:
                continue
            if total_metric and r < total_at and subject.metric is None and not by_column and \
                    (words := _label_words(_mask(label))):
                subject = _Subject(metric=total_metric, label=f"{words} {by_id(total_metric).names[0]}", segment=words)
            scale = None
            unit = None
            reg = by_id(subject.metric) if subject.metric else None
            if reg is not None and reg.unit == "percent" and reg.ratio_of and table_scale is not None \
                    and p.unit == "count" and p.scale == 0 and (abs(p.value) >= 100 or "," in cell):
                # "Gross margin | 43,718" in a table in millions (Apple's and Best Buy's statements): a
                # margin printed in dollars is the profit itself, not its ratio to revenue.
                subject = _Subject(metric=reg.ratio_of[0], label=subject.label, segment=subject.segment)
                reg = by_id(subject.metric)
            # "Total revenues (US$ bn)" heads a column of a table whose rows are periods or companies.
            row_scale = _TABLE_SCALE.search(label) or (_TABLE_SCALE.search(head) if by_column else None)
            if p.decimals == 2 and p.scale == 0 and p.unit in ("count", "USD") and not _PER_SHARE.search(label) \
                    and any(k < r for k in per_share_rows) and any(k > r for k in per_share_rows):
                # A reconciliation's steps between "GAAP net loss per share" and "Non-GAAP EPS" ("Stock-based
                # compensation 0.64") are per-share amounts, not the $ millions the table's other rows print.
                unit = "USD/share"
            elif p.unit == "count" and p.scale == 0 and _PERCENT_ROW.search(label):
                unit = "percent"  # "Operating ratio (%) 59.0" under a "US$ m" units box: the row's own unit
            elif row_scale and _bare_amount(p, label) and not (reg is not None and reg.unit != "USD"):
                # "Revenue ($bn)" in a row of companies: the row's own unit.
                scale = _SCALE_OF[next(g for g in row_scale.groups() if g).lower()]
                if p.unit == "count":
                    unit = "USD"
            elif p.unit == "count" and p.scale == 0 and (count_scale := _COUNT_SCALE.search(label)) and (
                    _COUNT_ROW.search(label) or (reg is not None and reg.unit == "count")):
                scale = _SCALE_OF[count_scale.group(1).lower()]  # "Headcount (k) 76.5" is 76,500 people
            elif p.unit == "count" and p.scale > 0 and _CURRENCY_WORD.search(corner) and not _COUNT_ROW.search(label) \
                    and not (reg is not None and reg.unit != "USD"):
                unit = "USD"  # "44,062m" under a "USD m" corner: the corner names the currency its cells omit
            elif table_scale is not None and _bare_amount(p, label) and not (reg is not None and reg.unit != "USD") \
                    and not _PER_SHARE.search(head):
                # "$ in billions except per share" scales a row's amounts, never its EPS column.
                scale = table_scale
                if p.unit == "count":
                    unit = "USD"
            bound, printed = _bound(cell, p)
            column_period = periods[c] if c < len(periods) else None
            if c in unread:
                # Its neighbours name periods and this header names one we cannot read ("LTM", "Run-rate"):
                # the slide's period is not this column's.
                stated = _stated("row label", label)
            else:
                stated = (_Stated(column_period, f"column header {quoted(head)}", dated[c] or head)
                          if column_period else None) \
                    or row_period or _stated("row label", label) or slide_period or ctx.deck_period
            box = boxes[r][c] if r < len(boxes) and c < len(boxes[r]) else None
            span_hint = ""
            if COMPOUND_RATE.search(head) and not _CAGR_SPAN.search(grid[0][c] if c < len(grid[0]) else head):
                # "FY2022 | FY2023 | FY2024 | CAGR": the rate runs from the first year column to the last.
                years = [q for q in periods[1:c] if q and re.fullmatch(r"FY\d{4}", q)]
                span_hint = f"{years[0]}-{years[-1]}" if len(years) >= 2 else ""
            claims.append(_make_claim(
                page=slide.page, n=start + len(claims) + 1, text=cell, p=p, bound=bound, printed=printed,
                clause=label, after="", subject=subject, stated=stated, entity=slide_entity, bbox=box,
                header=head if not _period(head) else _mask(head), scale=scale, unit=unit, row=row[0], column=grid[0][c]
                if c < len(grid[0]) else "", slide_basis=slide_basis, span_hint=span_hint,
            ))
    return claims, discards


# "3 mo. 2025", "Six months 2024": a part of a year that says how long it runs but not when it ends.
_SPAN_YEAR = re.compile(r"^\s*(3|6|9|three|six|nine)[\s-]*(?:mo\.?|mos\.?|months?)\s+(?:(?:ended|ending)\s+)?"
                        r"(?:fy\s*)?'?((?:19|20)?\d{2})\s*$", re.I)
_ENDED_ON = re.compile(r"\b(?:ended|ending|through|to)\s+(" + _MONTH_NAMES + r")\.?\s+(\d{1,2}),?\s+(?:19|20)\d{2}\b", re.I)


_MONTH_YEAR = re.compile(r"^\s*(" + _MONTH_NAMES + r")\.?[-\s'/]+((?:19|20)?\d{2})"
                         r"(?:\s+(?:qtr|quarter))?\s*$", re.I)
_NUMERIC_DATE = re.compile(r"^\s*(\d{1,2})/(\d{1,2})/((?:19|20)?\d{2})\s*$")
_WRITTEN_DATE = re.compile(r"^\s*(?:as\s+(?:of|at)\s+)?(" + _MONTH_NAMES + r")\.?\s+(\d{1,2}),?\s+((?:19|20)\d{2})\s*$", re.I)


def _dated_header(head: str) -> str | None:
    """A column headed by a date ("Dec-24", "6/30/25", "Jan 31, 2025") as the words a filing prints for a
    balance at it ("as of December 31, 2024"), for the company's calendar to place; a month alone is its
    last day."""
    t = _norm(head)
    if m := _WRITTEN_DATE.match(t):
        month, day, year = MONTHS[m.group(1).lower()], int(m.group(2)), int(m.group(3))
    elif m := _NUMERIC_DATE.match(t):
        month, day, year = int(m.group(1)), int(m.group(2)), int(m.group(3)) % 100 + 2000
    elif m := _MONTH_YEAR.match(t):
        month, year = MONTHS[m.group(1).lower()], int(m.group(2)) % 100 + 2000
        day = calendar.monthrange(year, month)[1]
    else:
        return None
    if not 1 <= month <= 12 or not 1 <= day <= calendar.monthrange(year, month)[1]:
        return None
    return f"as of {calendar.month_name[month]} {day}, {year}"


def _dated_span(head: str, slide: Slide) -> str | None:
    """A span column dated by the day its slide says the periods end ("Three and six months ended June
    30, 2025" over "3 mo. 2025 | 6 mo. 2025"), as the words a filing would print; None if either is missing."""
    m = _SPAN_YEAR.match(_norm(head))
    if not m:
        return None
    ended = next((e for text in (slide.title, *(b.text for b in slide.blocks)) if (e := _ENDED_ON.search(text))), None)
    if ended is None:
        return None
    year = m.group(2) if len(m.group(2)) == 4 else f"20{m.group(2)}"
    return f"{m.group(1)} months ended {ended.group(1)} {ended.group(2)}, {year}"


def _label_columns(grid: list[list[str]]) -> int:
    """How many leading columns name each row: the first, and after it every column that prints words in
    every row, neither a figure nor only a period ("Ticker | Metric | Print": two)."""
    lead = 1
    width = min(len(row) for row in grid)
    while lead < width - 1 and not _period(grid[0][lead]) and all(
            any(ch.isalpha() for ch in row[lead]) and not is_figure_cell(row[lead]) and not is_period_cell(row[lead])
            for row in grid[1:]):
        lead += 1
    return lead


def _spans_the_next_row(top: list[str], below: list[str]) -> bool:
    """Whether a table's first row only spans the columns of the header row under it: a few cells, a blank
    under each span's continuation, no figures in either (a year is a header, not a figure), and a
    period in the spans or in a span read with the name under it ("Q3" over "FY25 | FY24", "Three months
    ended June 30" over "2025 | 2024", "Fiscal year" over "2024 | 2023")."""
    filled = [c for c in top[1:] if c.strip()]
    names = [c for c in below[1:] if c.strip()]
    if not (0 < len(filled) < len(top) - 1 and len(names) >= 2 and len(top) == len(below)) \
            or any(is_figure_cell(c) and not _period(c) for c in [*filled, *names]):
        return False
    return any(_period(c) for c in filled) or any(
        span and name.strip() and _period(f"{span} {name}") for span, name in zip(_filled_forward(top[1:]), below[1:]))


def _filled_forward(cells: list[str]) -> list[str]:
    """Each cell, or when blank the last one before it that printed something: a span over its columns."""
    out, last = [], ""
    for cell in cells:
        last = cell.strip() or last
        out.append(last)
    return out


def _column_quantity(metric_heads: list[str | None], c: int, head: str) -> str | None:
    """The header naming column ``c``'s quantity: its own, or for a change or share column the nearest
    one to its left ("Revenue | Y/Y growth")."""
    if c < len(metric_heads) and metric_heads[c]:
        return metric_heads[c]
    if _GROWTH_HEAD.search(head) or _SHARE_HEADER.search(head):
        return next((h for h in reversed(metric_heads[1:c]) if h), None)
    return None


def _body_size(deck: Deck) -> float | None:
    sizes = sorted(b.size for s in deck.slides for b in s.blocks if b.size)
    return sizes[len(sizes) // 2] if sizes else None


def extract_claims(deck: Deck) -> ParsedDeck:
    """Every checkable figure in the deck as a claim, and every figure-like non-claim with its reason."""
    companies = deck_entities(deck)
    covers = section_covers(deck)
    cover_periods: dict[int, _Stated | None] = {}
    for cover in {id(c): c for c in covers.values()}.values():
        # A cover's date ("March 2025") says when the deck was written, not which period it reports.
        where = "the cover" if cover is deck.slides[0] else f"the section cover on slide {cover.page}"
        cover_periods[cover.page] = next((s for t in (cover.title, *(b.text for b in cover.blocks[:3]))
                                          if (s := _stated(where, t, _DATE_PHRASE.sub(" ", t)))), None)
    deck_period = cover_periods.get(deck.slides[0].page) if deck.slides else None
    ctx = _Ctx(companies=companies, default_entity=companies[0] if len(companies) == 1 else None,
               repeated=set(repeated_lines(deck)), deck_period=deck_period, body_size=_body_size(deck))
    claims: list[Claim] = []
    discards: list[Discard] = []
    for slide in deck.slides:
        # A section's own cover restates the period its pages report; one that states none keeps the deck's.
        ctx.deck_period = cover_periods.get(covers[slide.page].page) or deck_period
        slide_period = _lent_period(slide, ctx.deck_period)
        slide_entity = _entity_in(slide.title, companies) or ctx.default_entity
        page_claims: list[Claim] = []
        running = slide_period
        lent: list[tuple[float, _Stated]] = []  # (bottom edge, period) of each block that lent its period
        for block in slide.blocks:
            above = next((c for c in reversed(page_claims) if not _OF_WHICH.match(c.text)), None)
            got, why = _block_claims(block, slide, ctx, running, slide_entity, len(page_claims), above)
            got = [_share_of_tile_above(c, page_claims, above) for c in _share_of_figure_before(got)]
            page_claims += got
            discards += why
            # A heading inside the page ("2. Best Buy -- Q2 FY24") or a line introducing a list ("ORCL,
            # trailing four quarters to Aug-24:") dates what follows even under a slide or cover period;
            # a bullet lends its period only where the slide states none.
            heads = (block.heading or block.text.rstrip().endswith(":")) and not got
            if ((slide_period is None and got) or heads) and (own := _stated(
                    f"the period stated above it on slide {slide.page}, in", block.text,
                    _mask_figures(block.text, _figures(block.text)), whole=True)):
                # "Net revenue of $28.2 billion in 2024" heads a list of that year's figures, and the
                # heading "2. Best Buy -- Q2 FY24" its section: what follows reads in that period until
                # something states its own.
                running = own
                if block.bbox is not None:
                    lent.append((block.bbox[3], own))
        for k, grid in enumerate(slide.tables):
            boxes = slide.table_boxes[k] if k < len(slide.table_boxes) else []
            table_period = _period_above(boxes, lent) or slide_period
            got, why = _table_claims(grid, boxes, slide, ctx, table_period, slide_entity, len(page_claims))
            page_claims += got
            discards += why
        claims += page_claims
    entity = companies[0] if len(companies) == 1 else None
    return ParsedDeck(deck=deck, entity=entity, claims=claims, discarded=discards)


# ---------------------------------------------------------------- model proposals


def _page_numbers(slide: Slide) -> set[str]:
    texts = [slide.title, *(b.text for b in slide.blocks), *(c for t in slide.tables for row in t for c in row)]
    out = set()
    for t in texts:
        for m in re.finditer(r"\d[\d,]*(?:\.\d+)?", t):
            out.add(m.group(0).replace(",", "").rstrip("."))
    return out


def validate_proposals(deck: Deck, proposals: list[Proposal], existing: list[Claim]) -> ProposalCheck:
    """Claims from a model's proposals that the page itself supports; the rest are dropped and counted.

    A proposal survives only when its value is a numeric token printed on its page and no
    deterministic claim on that page already carries the same number.
    """
    pages = {s.page: s for s in deck.slides}
    kept: list[Claim] = []
    dropped = dup = 0
    reasons: list[str] = []
    counters: dict[int, int] = {}
    for c in existing:
        counters[c.page] = max(counters.get(c.page, 0), int(c.id.rsplit("c", 1)[-1]))
    companies = deck_entities(deck)
    for prop in proposals:
        slide = pages.get(prop.page)
        number = re.sub(r"[^\d.]", "", prop.value.replace(",", "")).rstrip(".")
        if slide is None or not number or number not in _page_numbers(slide):
            dropped += 1
            reasons.append(f"p{prop.page}: {prop.value!r} is not printed on the page")
            continue
        if any(c.page == prop.page and number in {str(c.value).lstrip("-"), *re.findall(r"\d[\d,]*(?:\.\d+)?", c.text.replace(",", ""))}
               for c in existing + kept):
            dup += 1
            continue
        source = next((b for b in slide.blocks if number in b.text.replace(",", "")), None)
        text = source.text if source else prop.text
        figs = [f for f in _figures(text) if str(abs(f.value)) == number or f.text.replace(",", "").lstrip("$~(").startswith(number)]
        if not figs:
            dropped += 1
            reasons.append(f"p{prop.page}: {prop.value!r} is printed only as a date, year or label")
            continue
        p = figs[0]
        subject = _subject(prop.metric or _mask_figures(text, [p]), companies)
        counters[prop.page] = counters.get(prop.page, 0) + 1
        bound, printed = _bound(text, p)
        stated = (_stated("the model's reading", prop.period) if prop.period else None) \
            or _stated("the claim's words", text, _mask_figures(text, [p])) or _slide_period(slide)
        kept.append(_make_claim(
            page=prop.page, n=counters[prop.page], text=text, p=p, bound=bound, printed=printed, clause=text,
            after=text[p.end:], subject=subject, stated=stated,
            entity=_entity_in(text, companies) or _entity_in(slide.title, companies) or (companies[0] if len(companies) == 1 else None),
            bbox=source.bbox if source else None,
        ))
    return ProposalCheck(claims=kept, dropped=dropped, duplicates=dup, reasons=reasons)
