"""Fiscal periods of the independent facts, and how a deck prints them."""

from __future__ import annotations

import datetime as dt
import random

import msgspec

__all__ = ["Period", "classify", "phrase", "fiscal_year_end"]

_ORD = {1: "first", 2: "second", 3: "third", 4: "fourth"}


class Period(msgspec.Struct, frozen=True):
    kind: str
    """FY, Q (three months), H1 or 9M (year to date)."""
    fy: int
    q: int
    """The fiscal quarter the period ends in (4 for a fiscal year)."""
    start: str
    end: str

    @property
    def key(self) -> str:
        return f"FY{self.fy}" if self.kind == "FY" else (f"Q{self.q}FY{self.fy}" if self.kind == "Q" else f"{self.kind}FY{self.fy}")

    def shifted(self, years: int) -> tuple[int, str]:
        """(fiscal year, kind) of the same period ``years`` earlier or later."""
        return self.fy + years, self.kind


def fiscal_year_end(value: str) -> tuple[int, int]:
    """``--01-26`` (as dei writes it) to (month, day)."""
    parts = value.strip("-").split("-")
    return int(parts[0]), int(parts[1])


def _fiscal_year(end: dt.date, fye: tuple[int, int]) -> int:
    anchor = dt.date(end.year, *fye)
    if abs((end - anchor).days) <= 10:
        return end.year
    return end.year + 1 if (end.month, end.day) > fye else end.year


def classify(start: str | None, end: str, fye: tuple[int, int]) -> Period | None:
    """A duration fact's fiscal period, or None for instants and odd lengths."""
    if start is None:
        return None
    s, e = dt.date.fromisoformat(start), dt.date.fromisoformat(end)
    days = (e - s).days + 1
    fy = _fiscal_year(e, fye)
    prev_end = dt.date(fy - 1, *fye)
    q = max(1, min(4, round((e - prev_end).days / 91.3)))
    if 357 <= days <= 372:
        return Period("FY", fy, 4, start, end)
    if 84 <= days <= 98:
        return Period("Q", fy, q, start, end)
    if 175 <= days <= 189 and q == 2:
        return Period("H1", fy, 2, start, end)
    if 266 <= days <= 280 and q == 3:
        return Period("9M", fy, 3, start, end)
    return None


def phrase(kind: str, fy: int, q: int, fiscal: bool, rng: random.Random, *, end: str = "") -> str:
    """How a deck prints a period; ``fiscal`` companies always say which fiscal year."""
    yy = f"{fy % 100:02d}"
    if kind == "FY":
        if fiscal:
            options = [f"fiscal {fy}", f"FY{fy}", f"FY{yy}", f"fiscal year {fy}"]
            if end:
                d = dt.date.fromisoformat(end)
                options.append(f"the fiscal year ended {d:%B} {d.day}, {d.year}")
            return rng.choice(options)
        return rng.choice([f"{fy}", f"FY{fy}", f"full-year {fy}", f"fiscal {fy}"])
    if kind == "Q":
        if fiscal:
            return rng.choice([f"Q{q} FY{fy}", f"the {_ORD[q]} quarter of fiscal {fy}", f"Q{q} FY{yy}", f"Q{q} fiscal {fy}"])
        return rng.choice([f"Q{q} {fy}", f"the {_ORD[q]} quarter of {fy}", f"{q}Q{yy}", f"Q{q} FY{fy}"])
    label = f"fiscal {fy}" if fiscal else f"{fy}"
    if kind == "H1":
        return rng.choice([f"the first half of {label}", f"H1 {'FY' if fiscal else ''}{fy}", f"the first six months of {label}"])
    return rng.choice([f"the first nine months of {label}", f"9M {'FY' if fiscal else ''}{fy}",
                       f"the nine months to Q3 {'FY' if fiscal else ''}{fy}"])
