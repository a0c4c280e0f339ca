"""Fiscal periods: labels from dates and a company's fiscal year end, and from printed text.

A fiscal year is named for the calendar year in which it ends (NVIDIA's year ended
January 26, 2025 is FY2025; Apple's ended September 28, 2024 is FY2024). 52/53-week years end
on a weekday near a month end, so a period end within a week after the nominal year-end date
still closes that fiscal year. Some retailers name a year for the calendar year it starts in
(Ulta's "fiscal 2022" ended January 28, 2023); a ``StartYearNamed`` year end labels their periods
so, where a document says it does (see ``parsers.filings.assemble.start_year_named``).
"""

from __future__ import annotations

import calendar
import re
from datetime import date, timedelta
from functools import lru_cache

__all__ = [
    "ACTUAL_MARK",
    "COMPOUND_RATE",
    "PART_TO_MONTH",
    "TRAILING",
    "FiscalYearEnd",
    "StartYearNamed",
    "full_year",
    "fye_text",
    "span_of_label",
    "bare_part",
    "bare_quarter",
    "fiscal_year_of",
    "label_for_span",
    "parse_fye",
    "period_from_text",
    "MONTHS",
]

MONTHS = {
    m: i
    for i, names in enumerate(
        [
            ("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"),
            ("may",), ("june", "jun"), ("july", "jul"), ("august", "aug"),
            ("september", "sep", "sept"), ("october", "oct"), ("november", "nov"), ("december", "dec"),
        ],
        start=1,
    )
    for m in names
}

FiscalYearEnd = tuple[int, int]
"""(month, day) of the nominal fiscal year end."""

_SLACK = 7


class StartYearNamed(tuple):
    """A fiscal year end, (month, day), whose years are named for the calendar year they start in.

    Why a marked pair rather than a new argument: the year end already travels to every place
    that turns dates into labels and back (tables, iXBRL contexts, sentences, a room's entities,
    the verifier's passages, through ``fiscal_year_end`` and ``parse_fye``), so marking it changes
    the naming everywhere at once and nowhere else. It is unequal to the plain pair, so cached
    labels under the two namings never mix.
    """

    __slots__ = ()

    def __new__(cls, fye: FiscalYearEnd) -> StartYearNamed:
        return super().__new__(cls, (int(fye[0]), int(fye[1])))

    def __eq__(self, other: object) -> bool:
        return type(other) is StartYearNamed and tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash(("start-year", *self))

    def __repr__(self) -> str:
        return f"StartYearNamed({tuple(self)!r})"


_START_MARK = " (named by start year)"


def _shift(fye: FiscalYearEnd | None) -> int:
    """Years between a fiscal year's name and the calendar year it ends in."""
    return 1 if isinstance(fye, StartYearNamed) else 0


def fye_text(fye: FiscalYearEnd | None) -> str | None:
    """``--01-28`` as XBRL writes a year end; a start-year naming is said after it, so that
    ``parse_fye`` gives the same year end back."""
    if not fye:
        return None
    return f"--{fye[0]:02d}-{fye[1]:02d}" + (_START_MARK if _shift(fye) else "")


def parse_fye(text: str | None) -> FiscalYearEnd | None:
    """``--09-28`` (dei:CurrentFiscalYearEndDate) or ``09-28`` into (9, 28); ``--01-28 (named by
    start year)``, as ``fye_text`` writes it, into ``StartYearNamed((1, 28))``."""
    if not text:
        return None
    if text.endswith(_START_MARK):
        fye = parse_fye(text[: -len(_START_MARK)])
        return StartYearNamed(fye) if fye else None
    m = re.search(r"(\d{1,2})-(\d{1,2})\s*$", text.strip())
    if not m:
        # ixt:date-monthname-day-en prints it as words: "September 28".
        w = re.search(r"([A-Za-z]{3,9})\.?\s+(\d{1,2})\b", text.replace("\u00a0", " "))
        if w and w.group(1).lower() in MONTHS:
            return MONTHS[w.group(1).lower()], int(w.group(2))
        return None
    month, day = int(m.group(1)), int(m.group(2))
    return (month, day) if 1 <= month <= 12 and 1 <= day <= 31 else None


def _fye_date(year: int, fye: FiscalYearEnd) -> date:
    month, day = fye
    while True:
        try:
            return date(year, month, day)
        except ValueError:
            day -= 1


def _close(fy: int, fye: FiscalYearEnd | None) -> date:
    """The nominal last day of the fiscal year named ``fy``."""
    return _fye_date(fy + _shift(fye), fye or (12, 31))


def fiscal_year_of(end: date, fye: FiscalYearEnd | None) -> int:
    """The fiscal year that contains the day ``end``."""
    close = _fye_date(end.year, fye or (12, 31))
    return (end.year if end <= close + timedelta(days=_SLACK) else end.year + 1) - _shift(fye)


@lru_cache(maxsize=1 << 14)  # pure, and a filing asks it for the same few column spans thousands of times
def label_for_span(start: date | None, end: date, fye: FiscalYearEnd | None) -> str:
    """``FY2024``, ``Q3 FY2024``, ``H1 FY2024`` or ``9M FY2024`` for a duration; an instant
    (``start is None``) takes the label of the fiscal period it closes."""
    fy = fiscal_year_of(end, fye)
    fy_start = _close(fy - 1, fye) + timedelta(days=1)
    into = (end - fy_start).days + 1
    quarter = min(4, max(1, round(into / 91.3)))
    if start is None:
        return f"FY{fy}" if quarter == 4 and into > 350 else f"Q{quarter} FY{fy}"
    days = (end - start).days + 1
    if days > 340:
        # Twelve months that end a quarter short of the year end are the trailing twelve months to that
        # quarter (Oracle's "Trailing 4-Quarters Ended August 31, 2024"), never a fiscal year; without a
        # known year end a calendar year is assumed, which cannot tell them apart.
        return f"TTM Q{quarter} FY{fy}" if fye is not None and quarter != 4 else f"FY{fy}"
    if days > 250:
        return f"9M FY{fy}"
    if days > 160:
        return f"H1 FY{fy}" if quarter == 2 else f"6M Q{quarter} FY{fy}"
    if days > 70:
        return f"Q{quarter} FY{fy}"
    return f"{start.isoformat()}..{end.isoformat()}"


def full_year(text: str) -> int:
    """"25" is 2025, "2025" is 2025."""
    y = int(text)
    return y + 2000 if y < 100 else y



_FY = re.compile(r"\b(?:FY|F|fiscal(?:\s+year)?\s*)\s*'?(\d{4}|\d{2})\b", re.I)
_Q = re.compile(
    r"\b(?:Q([1-4])|([1-4])Q|(first|second|third|fourth)\s+quarter(?:\s+(?:of\s+)?)?)"
    r"\s*(?:of\s+)?(?:(?:FY|F|fiscal(?:\s+year)?)\s*'?(\d{4}|\d{2})|'(\d{2})|(\d{4})|(?<=[Qq])(\d{2})\b)?",
    re.I,
)
# "'22-'24 CAGR", "compound annual growth rate": a rate that compounds over several years.
COMPOUND_RATE = re.compile(r"\bCAGR\b|\bcompound(?:ed)? annual(?: growth)?(?: rate)?\b|\bcompounded\b", re.I)
# "9M to Jun-25", "H1 through Mar-25": a part of a year by the month it ends in.
PART_TO_MONTH = re.compile(r"\b(9M|6M|3M|H1|1H)\s+(?:to|through|thru|ended|ending)\s+(" + "|".join(sorted(MONTHS, key=len, reverse=True))
                            + r")\.?[\s\-'\u2019]*((?:19|20)?\d{2})\b", re.I)
# "F2Q26", "F3Q25": a fiscal quarter as desks write it, the F for fiscal before the quarter.
_F_QUARTER = re.compile(r"\bF([1-4])Q\s?['\u2019]?(\d{4}|\d{2})\b", re.I)
_QUARTER_WORDS = {"first": 1, "second": 2, "third": 3, "fourth": 4}
_TO_DATE = re.compile(r"\b(?:(?:six|nine|6|9)[\s-]+months?|year[\s-]+to[\s-]+date|ytd)\s*(?:to|through|thru|ended|ending|of|in)?"
                      r"\s*(?:the\s+)?(?:end\s+of\s+)?$", re.I)
# Half years and nine months as results decks print them: "1H25", "H1 2025", "first half of fiscal 2025", "9M24".
_HALF = re.compile(
    r"\b(?:H([12])|([12])H|(first|second)\s+half|(9)M|9\s+months)\s*(?:of\s+)?(?:(?:FY|F|fiscal(?:\s+year)?)\s*)?'?(\d{4}|\d{2})\b",
    re.I,
)
# "its fiscal 2024 fourth quarter": the year comes before the quarter.
_FISCAL_Q = re.compile(r"\bfiscal\s+(?:year\s+)?'?(\d{4}|\d{2})\s+(first|second|third|fourth)\s+quarter\b", re.I)
_ENDED = re.compile(
    r"(three|six|nine|twelve|thirteen|twenty-six|thirty-nine|fifty-two|fifty-three|3|6|9|12|13|26|39|52|53)?"
    r"[\s-]*(?:months?|years?|(weeks?)|(quarters?))?\s*"
    # "the 39-week fiscal period ended November 2, 2024", "the 13-week fiscal quarter ended ...".
    r"(?:fiscal\s+)?(?:(quarter)|period|year)?\s*(?:ended|ending)\s+"
    r"([A-Za-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4})",
    re.I,
)
_WEEKS_MONTHS = {"13": 3, "26": 6, "39": 9, "52": 12, "53": 12,
                 "thirteen": 3, "twenty-six": 6, "thirty-nine": 9, "fifty-two": 12, "fifty-three": 12}
_AS_OF = re.compile(r"\b(?:as\s+(?:of|at)|at)\s+([A-Za-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4})\b", re.I)
_ENDING = re.compile(r"end(?:ed|ing)", re.I)
_YEAR = re.compile(r"(?<![\d$.,])(20\d{2}|19\d{2})(?!\d|[.,]\d|%)")  # "In 2024, we..." is a year


def _ended(text: str) -> re.Match[str] | None:
    # _ENDED's words before "ended" are all optional, so it is tried at every offset of a long
    # paragraph; it can only start shortly before the word itself.
    k = _ENDING.search(text)
    return _ENDED.search(text, max(0, k.start() - 64)) if k else None


_CALENDAR_YEAR = re.compile(r"\bCY\s?'?(\d{4}|\d{2})\b", re.I)
# The year to a quarter's end: "TTM", "LTM", "trailing twelve months", "trailing 4-Quarters", "last
# twelve months". "Twelve months ended" alone is how a release heads its fiscal year, so it is not here.
TRAILING = re.compile(r"\b(?:TTM|LTM|(?:trailing|last)[\s-]+(?:twelve|12)[\s-]+months?|trailing[\s-]+(?:four|4)[\s-]+quarters?)\b",
                       re.I)
# An actual period marked as such, "FY24A", "3Q25A": the period itself (an "E" marks an estimate, kept).
ACTUAL_MARK = re.compile(r"(?i)\b((?:FY|CY|[1-4]Q|Q[1-4]|[12]H|H[12])\s*'?\d{2}(?:\d{2})?)A\b")
_MONTH_YY = re.compile(r"\b([A-Za-z]{3,9})\.?[-\s'/]+((?:19|20)?\d{2})\b")


def _trailing_label(rest: str, fye: FiscalYearEnd | None) -> str | None:
    """The trailing twelve months the words after "TTM" end at: a date ("ended August 31, 2024"), a
    month ("to Aug-24") or a quarter ("Q1 FY25"); the fiscal year when they end at its close."""
    rest = rest[:60]
    end = next(iter(dates_in(rest)), None)
    if end is None and (m := _MONTH_YY.search(rest)) and m.group(1).lower() in MONTHS:
        year = full_year(m.group(2))
        month = MONTHS[m.group(1).lower()]
        end = (date(year + (month == 12), month % 12 + 1, 1) - timedelta(days=1))
    if end is not None:
        label = label_for_span(end - timedelta(days=364), end, fye or (12, 31))
        return label if label.startswith(("TTM", "FY")) else None
    inner = period_from_text(rest, fye) if not TRAILING.search(rest) else None
    if inner and (q := re.fullmatch(r"Q([1-4]) (FY\d{4})", inner)):
        return q.group(2) if q.group(1) == "4" else f"TTM {inner}"
    return inner if inner and inner.startswith("FY") else None


def _months_to(end: date, months: int, fye: FiscalYearEnd | None) -> str:
    """The label of the ``months`` ending on ``end``, in the calendar ``fye`` sets."""
    return label_for_span(end - timedelta(days=int(months * 30.44) - 1), end, fye)


def period_from_text(text: str, fye: FiscalYearEnd | None = None) -> str | None:
    """The fiscal period a heading, column header or bullet names, if it names one.

    "FY2024 Highlights" -> FY2024; "Q4 FY24" -> Q4 FY2024; "Q2 2025" -> Q2 FY2025;
    "Year Ended January 26, 2025" -> FY2025 given NVIDIA's year end; "2024" -> FY2024;
    "fiscal 2024 fourth quarter" -> Q4 FY2024; "the quarter ended September 28, 2024" a quarter.
    """
    text = ACTUAL_MARK.sub(r"\1", text)  # "FY24A" is FY24, reported
    if (t := TRAILING.search(text)) and (label := _trailing_label(text[t.end():], fye)):
        return label
    if m := PART_TO_MONTH.search(text):
        # "9M to Jun-25", "H1 to Jun-25": a part of a year by the month it ends in, in the company's calendar.
        year = full_year(m.group(3))
        month = MONTHS[m.group(2).lower()]
        end = date(year, month, calendar.monthrange(year, month)[1])
        months = {"9M": 9, "6M": 6, "3M": 3, "H1": 6, "1H": 6}[m.group(1).upper()]
        return _months_to(end, months, fye)
    if "CY" in text or "cy" in text:
        # "Q2 CY25", "CY2024": a calendar year printed as such reads as the year itself.
        text = _CALENDAR_YEAR.sub(lambda y: y.group(1) if len(y.group(1)) == 4 else f"20{y.group(1)}", text)
    m = _FISCAL_Q.search(text)
    if m:
        return f"Q{_QUARTER_WORDS[m.group(2).lower()]} FY{full_year(m.group(1))}"
    m = _F_QUARTER.search(text)
    if m:
        return f"Q{m.group(1)} FY{full_year(m.group(2))}"
    m = _Q.search(text)
    if m:
        q = int(m.group(1) or m.group(2) or _QUARTER_WORDS[m.group(3).lower()])
        to_date = _TO_DATE.search(text[: m.start()])
        if to_date and (year := m.group(4) or m.group(5) or m.group(6) or m.group(7)) and q in (2, 3):
            # "the nine months to Q3 FY2025", "year to date through Q2": the year so far, not the quarter.
            return f"{'H1' if q == 2 else '9M'} FY{full_year(year)}"
        # "4Q24", as banks print quarter columns, glues a two-digit year to the quarter.
        year = m.group(4) or m.group(5) or m.group(6) or m.group(7)
        if year:
            return f"Q{q} FY{full_year(year)}"
    m = _HALF.search(text)
    if m:
        year = full_year(m.group(5))
        if m.group(4) or (m.group(0).lower().startswith("9")):
            return f"9M FY{year}"
        half = int(m.group(1) or m.group(2) or (1 if (m.group(3) or "").lower() == "first" else 2))
        return f"H{half} FY{year}"
    m = _ended(text)
    if m and m.group(5).lower() in MONTHS:
        end = date(int(m.group(7)), MONTHS[m.group(5).lower()], int(m.group(6)))
        span = (m.group(1) or "").lower()
        if m.group(2) and span in _WEEKS_MONTHS:
            months = _WEEKS_MONTHS[span]  # a retailer's 39 weeks are nine months
        else:
            months = {"three": 3, "3": 3, "six": 6, "6": 6, "nine": 9, "9": 9}.get(
                span, 3 if m.group(3) or m.group(4) else 12)
        if months == 12:
            if fye is not None and span in ("twelve", "12"):
                # "Twelve months ended June 30, 2025" of a calendar-year company is a trailing year.
                return label_for_span(end - timedelta(days=364), end, fye)
            return f"FY{fiscal_year_of(end, fye)}"
        return _months_to(end, months, fye)
    m = _AS_OF.search(text)
    if m and m.group(1).lower() in MONTHS:
        # "as of June 30, 2025": a balance at a quarter's end is that quarter's, at the year's end the year's.
        try:
            end = date(int(m.group(3)), MONTHS[m.group(1).lower()], int(m.group(2)))
        except ValueError:
            end = None
        if end is not None:
            label = label_for_span(end - timedelta(days=90), end, fye)
            if label.startswith(("Q1 ", "Q2 ", "Q3 ")):
                return label
            return f"FY{fiscal_year_of(end, fye)}"
    m = _FY.search(text)
    years = _YEAR.findall(text)
    year = full_year(m.group(1)) if m else (int(years[0]) if len(set(years)) == 1 else None)
    if year is not None and _YEAR_TO_DATE.search(text):
        # "YTD FY25", "year to date 2025": the year so far, as far as the company's latest 10-Q reaches;
        # which part that is (six months, nine) the room says, when the claim is resolved.
        return f"YTD FY{year}"
    return f"FY{year}" if year is not None else None


_YEAR_TO_DATE = re.compile(r"\b(?:YTD|year[\s-]+to[\s-]+date)\b", re.I)


_BARE_QUARTER = re.compile(r"\b(?:Q([1-4])|(first|second|third|fourth)[\s-]+quarter)\b(?!\s*(?:of\s+)?(?:fiscal\s+)?(?:last|prior|previous))",
                           re.I)


_BARE_PART = re.compile(r"(?<![\d.,$€£])\b(?:(first|second)[\s-]+half|([12])H|H([12])|(six|nine)[\s-]+months|(9)M)\b(?!\s*'?\d)",
                        re.I)


def bare_part(text: str) -> str | None:
    """The part of a year a sentence names without the year: "Q3" for "its fiscal third quarter", "H1" for
    "the first half" or "the six months", "9M" for "the first nine months"."""
    if (q := bare_quarter(text)) is not None:
        return f"Q{q}"
    found = set()
    for m in _BARE_PART.finditer(text):
        if m.group(4) or m.group(5):
            found.add("H1" if (m.group(4) or "").lower() == "six" else "9M")
        else:
            found.add(f"H{1 if (m.group(1) or '').lower() == 'first' else int(m.group(2) or m.group(3) or 2)}")
    return found.pop() if len(found) == 1 else None


def bare_quarter(text: str) -> int | None:
    """The quarter a sentence names without a year ("Q4 revenue of $388 million"), if it names one."""
    found = {int(m.group(1)) if m.group(1) else _QUARTER_WORDS[m.group(2).lower()] for m in _BARE_QUARTER.finditer(text)}
    return found.pop() if len(found) == 1 else None


def span_of_label(label: str, fye: FiscalYearEnd | None) -> tuple[date, date] | None:
    """First and last day of a fiscal ``FY2024`` or ``Q4 FY2024`` under the year end ``fye``."""
    m = re.fullmatch(r"(?:Q([1-4]) )?FY(\d{4})", label)
    if not m:
        return None
    fy = int(m.group(2))
    year_start = _close(fy - 1, fye) + timedelta(days=1)
    close = _close(fy, fye)
    if m.group(1) is None:
        return year_start, close
    q = int(m.group(1))
    end = close if q == 4 else close - timedelta(days=round((4 - q) * 91.3))
    return end - timedelta(days=90), end


_SPAN_WORDS = {
    "three": 3, "3": 3, "six": 6, "6": 6, "nine": 9, "9": 9, "twelve": 12, "12": 12,
    "thirteen": 3, "13": 3, "twenty-six": 6, "26": 6, "thirty-nine": 9, "39": 9,
    "fifty-two": 12, "52": 12, "fifty-three": 12, "53": 12,
    "sixteen": 4, "16": 4, "twenty-four": 6, "24": 6, "twenty-eight": 6, "28": 6, "thirty-six": 9, "36": 9,
    "forty": 9, "40": 9,
}
_DATE_WORDS = re.compile(r"\b([A-Za-z]{3,9})\.?\s+(\d{1,2})(?:,\s*|\s+)(\d{4})\b")  # "June 30,2025" too
_DATE_NUM = re.compile(r"\b(\d{1,2})/(\d{1,2})/(\d{4}|\d{2})\b")
_SPAN_LEAD = re.compile(
    r"\b(three|six|nine|twelve|thirteen|twenty-six|thirty-nine|fifty-two|fifty-three|sixteen|twenty-four|"
    r"twenty-eight|thirty-six|forty|\d{1,2})[\s-]+(months?|weeks?)\b",
    re.I,
)
_YEAR_WORD = re.compile(r"\b(?:years?|fiscal|annual)\b", re.I)
_QUARTER_WORD = re.compile(r"\bquarters?\b", re.I)
_NOT_A_PERIOD = re.compile(r"\bchange\b|\bvs\.?\b|\bversus\b|%|\bvariance\b|\bgrowth\b|\bincrease\b|\bdecrease\b", re.I)


def dates_in(text: str) -> list[date]:
    """Every calendar date printed in ``text``: "January 26, 2025", "Jan 26, 2025", "3/25/2023"."""
    out: list[date] = []
    for m in _DATE_WORDS.finditer(text):
        month = MONTHS.get(m.group(1).lower())
        if month:
            try:
                out.append(date(int(m.group(3)), month, int(m.group(2))))
            except ValueError:
                pass
    for m in _DATE_NUM.finditer(text):
        try:
            out.append(date(full_year(m.group(3)), int(m.group(1)), int(m.group(2))))
        except ValueError:
            pass
    return out


def _names_part_of_year(text: str) -> bool:
    """Whether a header names a span shorter than a year ("three months", "13 weeks", "quarter")."""
    m = _SPAN_LEAD.search(text)
    if m:
        n = _SPAN_WORDS.get(m.group(1).lower(), 0)
        return 0 < n < 12
    return bool(_QUARTER_WORD.search(text))


def column_period(
    text: str, fye: FiscalYearEnd | None
) -> tuple[str, date | None, date | None] | None:
    """The period a column's joined header path denotes: (label, start, end), start None for an instant.

    "Year Ended January 26, 2025" is FY2025 for NVIDIA; "Three Months Ended June 30, 2025" a quarter;
    "12 Weeks Ended 3/25/2023" PepsiCo's Q1; "December 31, 2024" alone an instant; "2024" a fiscal year.
    Change and percentage columns denote no period.
    """
    if not text or _NOT_A_PERIOD.search(text):
        return None
    dates = dates_in(text)
    if dates:
        end = dates[-1] if len(dates) == 1 else max(dates)
        if TRAILING.search(text):
            start = end - timedelta(days=364)
            return label_for_span(start, end, fye or (12, 31)), start, end
        m = _SPAN_LEAD.search(text)
        if m:
            n = _SPAN_WORDS.get(m.group(1).lower(), 0)
            weeks = m.group(2).lower().startswith("week")
            if weeks:
                wk = int(m.group(1)) if m.group(1).isdigit() else {3: 13, 6: 26, 9: 39, 12: 52, 4: 16}.get(n, 13)
                days = wk * 7
            else:
                days = int(n * 30.44)
            if days <= 0:
                return None
            if weeks and days < 70:
                # 12-week first quarters (PepsiCo) and 16-week ones are still fiscal quarters.
                days = 84
            start = end - timedelta(days=days - 1)
            if days >= 340:
                return label_for_span(start, end, fye), start, end
            return label_for_span(start if days >= 70 else end - timedelta(days=90), end, fye), start, end
        if _YEAR_WORD.search(text) and not _QUARTER_WORD.search(text):
            return f"FY{fiscal_year_of(end, fye)}", end - timedelta(days=363), end
        if _QUARTER_WORD.search(text):
            start = end - timedelta(days=90)
            return label_for_span(start, end, fye), start, end
        return label_for_span(None, end, fye), None, end
    label = period_from_text(text, fye)
    if label is None:
        return None
    if label.startswith("FY") and _names_part_of_year(text):
        return None  # "Three Months Ended 2024": a quarter, but not which; never the year
    m = re.fullmatch(r"(?:(Q[1-4]|H1|9M) )?FY(\d{4})", label)
    if not m:
        return label, None, None
    fy = int(m.group(2))
    close = _close(fy, fye)
    if m.group(1) is None:
        return label, _close(fy - 1, fye) + timedelta(days=1), close
    return label, None, None
