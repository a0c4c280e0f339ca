"""What a room holds, as one value: the companies its filings are about (with every name they print),
each company's fiscal calendar and the periods its documents cover.

Claims are resolved against this closed world (``parsers.resolve``): a deck's "Mastercard" is the
room's "Mastercard Incorporated" because the filing prints that short name, and a research shop's
name on the cover is nobody, because no room document is about it. The services build the value
from stored documents and pass it in; nothing here does I/O.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cached_property

import msgspec

from parsers.entities import same_entity, short_forms
from parsers.periods import FiscalYearEnd, parse_fye

__all__ = ["Catalogue", "NamedEntity", "RoomDocument", "RoomEntity", "build_catalogue"]


class RoomDocument(msgspec.Struct, frozen=True):
    """One current filing as the catalogue needs it."""

    path: str
    entity: str | None
    fiscal_year_end: str | None = None
    periods: tuple[str, ...] = ()
    names: tuple[str, ...] = ()


class RoomEntity(msgspec.Struct, frozen=True):
    """A company the room's filings are about."""

    name: str
    """The registrant's name as its filings print it: "Mastercard Incorporated"."""
    names: tuple[str, ...]
    """Every name a deck may use for it, longest first: legal name, short forms, ticker."""
    fiscal_year_end: str | None
    periods: tuple[str, ...]

    @property
    def fye(self) -> FiscalYearEnd | None:
        return parse_fye(self.fiscal_year_end)

    def shown(self) -> str:
        others = [n for n in self.names if n != self.name][:3]
        return f"{self.name} ({', '.join(others)})" if others else self.name


class NamedEntity(msgspec.Struct, frozen=True):
    """Where a text names a room entity."""

    entity: RoomEntity
    name: str
    """The name as the text printed it."""
    start: int


class Catalogue(msgspec.Struct, frozen=True, dict=True):
    entities: tuple[RoomEntity, ...] = ()

    @cached_property
    def _patterns(self) -> list[tuple[re.Pattern[str], RoomEntity]]:
        pats: list[tuple[int, re.Pattern[str], RoomEntity]] = []
        for e in self.entities:
            for n in e.names:
                # Tickers and initials ("MA", "P&G", "IBM") only in capitals: "ma" and "pg" are words too.
                flags = 0 if (n.isupper() or "&" in n) and len(n) <= 5 else re.I
                pats.append((len(n), re.compile(r"(?<![A-Za-z0-9&])" + re.escape(n) + r"(?![A-Za-z0-9&])", flags), e))
        pats.sort(key=lambda p: -p[0])
        return [(p, e) for _, p, e in pats]

    def named_in(self, text: str) -> list[NamedEntity]:
        """The room entities ``text`` names, in the order it names them, each once."""
        taken: list[tuple[int, int]] = []
        found: dict[str, NamedEntity] = {}
        for pat, e in self._patterns:
            for m in pat.finditer(text):
                if any(a < m.end() and m.start() < b for a, b in taken):
                    continue  # "Union Pacific" already claimed these characters; "Pacific" is not another name
                taken.append((m.start(), m.end()))
                if e.name not in found or m.start() < found[e.name].start:
                    found[e.name] = NamedEntity(entity=e, name=m.group(0), start=m.start())
        return sorted(found.values(), key=lambda n: n.start)

    def searched(self) -> str:
        return "; ".join(e.shown() for e in self.entities) or "no company (the room has no parsed filing)"


def build_catalogue(documents: Iterable[RoomDocument]) -> Catalogue:
    """Group a room's filings by the company they are about; one entry per company."""
    groups: list[list[RoomDocument]] = []
    for d in documents:
        if not d.entity:
            continue
        for g in groups:
            if same_entity(g[0].entity, d.entity):
                g.append(d)
                break
        else:
            groups.append([d])
    entities = []
    for g in groups:
        # The longest legal name is the registrant's own ("Apple Inc." over a release's "Apple").
        name = max((d.entity for d in g if d.entity), key=len)
        printed = [n for d in g for n in d.names]
        # A name its ticker spells ("Ulta" for ULTA) is as sure as the ticker; other one-word cuts of a
        # legal name ("Union", "Best") are ordinary words.
        tickers = {n for n in printed if n.isalpha() and n.isupper() and len(n) <= 5}
        spelled = [s.title() if s.isupper() else s for s in short_forms(name)[1:] if s.upper() in tickers]
        names: list[str] = []
        for n in [name, *short_forms(name)[:1], *spelled, *printed]:
            if n and n not in names:
                names.append(n)
        fye = next((d.fiscal_year_end for d in g if d.fiscal_year_end), None)
        periods = sorted({p for d in g for p in d.periods})
        entities.append(RoomEntity(name=name, names=tuple(sorted(names, key=len, reverse=True)), fiscal_year_end=fye,
                                   periods=tuple(periods)))
    return Catalogue(entities=tuple(entities))
