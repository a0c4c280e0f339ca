"""Numbers as printed in filings and decks: signs, dashes, scale words, precision."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

import msgspec

__all__ = [
    "ARROW_DOWN",
    "ARROW_UP",
    "Printed",
    "SCALE_WORDS",
    "parse_cell_number",
    "parse_printed",
    "scale_from_caption",
    "scale_name",
]

# "▲ 12% Y/Y", "▼ 40 bps": the arrows a KPI callout prints to say which way its figure moved.
ARROW_UP, ARROW_DOWN = "\u25b2\u25b3\u2191\u2b06", "\u25bc\u25bd\u2193\u2b07"

SCALE_WORDS: dict[str, int] = {
    "thousand": 3, "thousands": 3, "k": 3, "000s": 3,
    "million": 6, "millions": 6, "m": 6, "mm": 6, "mn": 6, "mil": 6,
    "billion": 9, "billions": 9, "b": 9, "bn": 9, "bil": 9,
    "trillion": 12, "trillions": 12, "t": 12, "tn": 12,
}
_SCALE_NAMES = {0: "units", 3: "thousands", 6: "millions", 9: "billions", 12: "trillions"}

_DASHES = {"-", "—", "–", "‒", "―", "−−", "--"}
_CELL = re.compile(
    r"^\(?\s*[-−–]?\s*[$€£¥]?\s*\(?\s*[-−–]?\s*(\d[\d,]*(?:\.\d+)?|\.\d+)\s*\)?\s*%?\s*\)?$"
)
_CAPTION_SCALE = re.compile(
    r"\b(?:in|amounts? in|dollars? in|\$ in|expressed in)\s+(thousands|millions|billions)\b"
    r"|\(\s*(thousands|millions|billions)\b"
    r"|^\s*(?:\$\s*|dollars\s+)?(thousands|millions|billions)\b(?=[\s,;]|$)"
    # A currency sign and a scale word with no figure between: "($ million, except per share amounts)",
    # "US$ million", "2022 $ million" over a column, "(€m)". "$14,694 million" is a figure, not a caption.
    r"|(?:^|(?<=[\s(]))(?:[A-Z]{0,2}\$|€|£|¥|(?:USD|EUR|GBP)(?=\s))\s?(thousands?|millions?|billions?|mm|mn|bn|m|k)\b(?![$\d])",
    re.I,
)


def scale_name(scale: int) -> str:
    return _SCALE_NAMES.get(scale, f"1e{scale}")


def parse_cell_number(text: str) -> Decimal | None:
    """A table cell's number with its sign: ``(1,234)`` is -1234, a lone dash is zero.

    Returns None for text that is not a single number (labels, dates, ranges).
    """
    t = text.strip().replace("\u00a0", " ").replace("\u2009", "")
    if not t:
        return None
    if t in _DASHES or t in {"$—", "$ —", "$-", "$ -", "— %", "—%"}:
        return Decimal(0)
    m = _CELL.match(t)
    if not m:
        return None
    digits = m.group(1).replace(",", "")
    try:
        value = Decimal(digits)
    except InvalidOperation:
        return None
    negative = ("(" in t and ")" in t) or bool(re.match(r"^\(?\s*[$€£¥]?\s*\(?\s*[-−–]", t))
    return -value if negative else value


def scale_from_caption(text: str) -> int | None:
    """Scale stated by a caption such as "(in millions, except per share data)"."""
    m = _CAPTION_SCALE.search(text)
    if not m:
        return None
    return SCALE_WORDS[(m.group(1) or m.group(2) or m.group(3) or m.group(4)).lower()]


class Printed(msgspec.Struct, frozen=True):
    """A figure as a deck prints it, with the precision the printing implies."""

    value: Decimal
    decimals: int
    scale: int
    unit: str
    """``USD``, ``currency``, ``percent``, ``pp``, ``bp``, ``multiple`` or ``count``."""
    currency: str | None
    approx: bool
    start: int
    end: int
    text: str


_CURRENCY = {"$": "USD", "US$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "USD": "USD", "EUR": "EUR", "GBP": "GBP",
             "JPY": "JPY"}
_PRINTED = re.compile(
    r"(?P<approx>~|≈|approx(?:imately)?\.?\s+|about\s+|nearly\s+|almost\s+|roughly\s+)?"
    # "$(16,120)": a currency sign may stand before the parenthesis of a negative.
    r"(?P<cur0>US\$|[$€£¥])?(?P<neg>[-−–](?=\s*[$€£¥]?\s*\d)|\()?"
    # "USD 10.98bn", as terminals and notes print a currency: its code before the figure.
    r"(?P<cur>US\$|[$€£¥]|\b(?-i:USD|EUR|GBP|JPY)(?=\s?\d))?\s?"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
    r"(?P<close>\))?"
    r"(?:\s?(?P<unit>%|pp\b|ppts?\b|percentage points?|bps?\b|basis points?|pts?\b\.?|points?\b|x\b|×|cents?\b|¢)"
    r"|\s?(?P<scale>thousand|million|billion|trillion|bn\b|mm\b|mn\b|[KMBT]\b))?"
    r"(?P<close2>(?<=[%MBKTmbkt])\))?",
    re.I,
)


def parse_printed(text: str) -> list[Printed]:
    """Every figure in a line of deck text, left to right.

    "$2.8B" is 2.8 with scale 9 and one decimal; "(10.6)%" is -10.6 percent; "~1.79M" is
    approximate. Years and other bare integers come back as ``count`` for the caller to judge.
    """
    out: list[Printed] = []
    for m in _PRINTED.finditer(text):
        num = m.group("num")
        # The regex can start inside a longer token ("A1", "FY2024"): skip those.
        if m.start("num") > 0 and (text[m.start("num") - 1].isalnum() or text[m.start("num") - 1] in "_") \
                and not (m.group("cur") and m.end("cur") == m.start("num")):
            continue
        after = text[m.end():m.end() + 1]
        if after.isalpha() and not m.group("unit") and not m.group("scale"):
            continue
        value = Decimal(num.replace(",", ""))
        decimals = len(num.split(".")[1]) if "." in num else 0
        scale = 0
        unit = "count"
        currency = _CURRENCY.get((m.group("cur") or m.group("cur0") or "").upper(), None)
        if currency:
            unit = "USD" if currency == "USD" else "currency"
        if s := m.group("scale"):
            scale = SCALE_WORDS[s.lower()]
        if u := m.group("unit"):
            u = u.lower()
            if u == "%":
                unit = "percent"
            elif u.startswith("p"):
                unit = "pp"
            elif u.startswith("b"):
                unit = "bp"
                if decimals == 0 and value and value % 10 == 0:
                    # "Up 190 bps", "(30) bps": basis points are printed to the nearest ten.
                    decimals = -1
            elif u.startswith("c") or u == "¢":
                # "1,916 cents" per share is $19.16: cents are dollars printed two places to the right.
                unit, currency, scale = "USD", "USD", -2
            else:
                unit = "multiple"
        neg = m.group("neg")
        start, printed = m.start(), m.group(0)
        if neg and neg != "(" and m.start() > 0 and (text[m.start() - 1].isalnum() or text[m.start() - 1] in "%)"):
            # "40%-45%", "$43B-$44B": a dash between two figures joins a range; it is not a minus sign.
            neg, start, printed = None, m.start() + 1, printed[1:]
        # "(24.2%)" and "($18M)" close their parenthesis after the unit or scale.
        negative = bool(neg) and (neg != "(" or bool(m.group("close")) or bool(m.group("close2")))
        if negative:
            value = -value
        elif neg == "(" and not m.group("cur0"):
            start, printed = start + 1, printed[1:]  # "(88% of rev)": the parenthesis opens a phrase
        out.append(
            Printed(
                value=value,
                decimals=decimals,
                scale=scale,
                unit=unit,
                currency=currency,
                approx=bool(m.group("approx")),
                start=start,
                end=m.end(),
                text=printed.strip(),
            )
        )
    return out
