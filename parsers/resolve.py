"""Claims as printed, resolved against the room they are checked in: which company, which period
in that company's own fiscal calendar, and which basis, each with where it came from.

Extraction (``parsers.claims``) says what a slide prints; this step says what it refers to. The
room is a closed world (``parsers.catalogue``): a company is one the room's filings are about,
found in the claim's own words, then its slide's title and body, then the deck's cover and
running footer, and a room about one company makes it the default. A cover that names its author
(a research shop, a bank) names nobody the room holds, so it decides nothing.
"""

from __future__ import annotations

import re

import msgspec

from parsers.catalogue import Catalogue, NamedEntity, RoomEntity
from parsers.claims import prior_period, quoted
from parsers.decks import repeated_lines, section_covers
from parsers.model import Claim, ParsedDeck, Slide
from parsers.metrics import by_id, find_metric
from parsers.periods import PART_TO_MONTH, TRAILING, period_from_text
from parsers.quantities import is_label, label_text

__all__ = ["resolve_claims"]

# Words whose period only the company's own calendar places: a date, or the trailing year to one.
_DATED = re.compile(r"\b(?:ended|ending|as of|TTM|LTM|trailing|last twelve)\b", re.I)
_FIGURE = re.compile(r"\d")


def _one(named: list[NamedEntity]) -> RoomEntity | None:
    entities = {n.entity.name: n.entity for n in named}
    return next(iter(entities.values())) if len(entities) == 1 else None


def _nearest_before(named: list[NamedEntity], at: int) -> NamedEntity:
    before = [n for n in named if n.start <= at]
    return before[-1] if before else named[0]


def _subtitle(slide: Slide) -> str:
    first = slide.blocks[0].text if slide.blocks else ""
    return first if first and len(first) <= 120 and not _FIGURE.search(first) else ""


# A heading states no quantity: "4. MGM Resorts (MGM) -- 4Q22 and FY22" may carry dates, never "$" or "%".
_QUANTITY = re.compile(r"[$€£¥%]|\d,\d{3}|\d\.\d")
_HEADING_WORDS = 14


def _heading_above(claim: Claim, slide: Slide, catalogue: Catalogue) -> tuple[RoomEntity, str] | None:
    """The company of the nearest section heading above the claim that names exactly one (a loader marks
    headings where the format shows them: underlined in a text memo): on a page of several
    companies, each under its own heading ("3. Johnson & Johnson (JNJ)", then "4. MGM Resorts"), a
    figure belongs to the section it sits in. A heading in another column (one that starts right of
    the claim) heads something else; one overlapping the claim across the page beats one that does not."""
    if claim.bbox is None:
        return None
    x0, y0, x1, _ = claim.bbox
    found = []
    for b in slide.blocks:
        if b.bbox is None or b.bbox[3] > y0 + 1 or b.bbox[0] > x1 or \
                len(b.text.split()) > _HEADING_WORDS or _QUANTITY.search(b.text):
            continue
        named = catalogue.named_in(b.text)
        if not b.heading and not _name_band(b.text, named):
            continue
        if (e := _one(named)) is not None:
            overlaps = min(x1, b.bbox[2]) > max(x0, b.bbox[0])
            found.append(((overlaps, b.bbox[3]), e, b.text))
    if not found:
        return None
    _, entity, text = max(found, key=lambda f: f[0])
    return entity, text


def _name_band(text: str, named: list[NamedEntity]) -> bool:
    """A block that prints a company's name and nothing else ("NVIDIA" in a band over one half of a
    slide) heads what is under it, as a marked heading does."""
    if len({n.entity.name for n in named}) != 1:
        return False
    rest = text
    for n in named:
        rest = rest.replace(n.name, " ")
    return not any(ch.isdigit() for ch in rest) and len(re.findall(r"[A-Za-z]{2,}", rest)) <= 1


_SIDE = re.compile(r"\(\s*(left|right)\s*\)", re.I)


def _side_named(claim: Claim, slide: Slide, catalogue: Catalogue) -> tuple[RoomEntity, str] | None:
    """"Walmart (left) and Union Pacific (right)": a title that says which half of the slide is which
    company's gives a figure the company of the half it sits in."""
    sides = list(_SIDE.finditer(slide.title))
    if claim.bbox is None or len(sides) != 2 or {m.group(1).lower() for m in sides} != {"left", "right"}:
        return None
    named = catalogue.named_in(slide.title)
    owners = {}
    for m in sides:
        before = [n for n in named if n.start < m.start()]
        if not before:
            return None
        owners[m.group(1).lower()] = before[-1]
    if owners["left"].entity.name == owners["right"].entity.name:
        return None
    edges = [b.bbox for b in slide.blocks if b.bbox] + [b for t in slide.table_boxes for row in t for b in row if b]
    mid = (min(b[0] for b in edges) + max(b[2] for b in edges)) / 2 if edges else None
    if mid is None or claim.bbox[0] < mid < claim.bbox[2]:
        return None  # a figure across the middle is on neither side
    side = "left" if claim.bbox[2] <= mid else "right"
    return owners[side].entity, f"the slide title's {side} half, {quoted(owners[side].name)}"


def _lead_in_above(claim: Claim, slide: Slide, catalogue: Catalogue) -> tuple[RoomEntity, str] | None:
    """"ORCL, trailing four quarters to Aug-24:" over "net income USD 10.98bn" and "free cash flow
    $19.1bn": a line ending in a colon introduces the lines under it, which are that company's until a
    line names a company of its own."""
    at = next((i for i, b in enumerate(slide.blocks) if claim.text in b.text), None)
    for b in reversed(slide.blocks[:at] if at is not None else []):
        named = catalogue.named_in(b.text)
        if named:
            e = _one(named)
            return (e, b.text) if e is not None and b.text.rstrip().endswith(":") else None
    return None


class _DeckPlaces(msgspec.Struct):
    cover: str
    footer: str
    sections: dict[int, str] = {}
    """Each page's section cover's text, where the deck opens sections with covers of their own."""


def _corner_of(claim: Claim, slide: Slide) -> str:
    """The corner cell of the slide table the claim was read from, if it was read from one."""
    if not claim.row:
        return ""
    for table in slide.tables:
        if not table or not table[0] or claim.column not in table[0][1:]:
            continue
        c = table[0].index(claim.column)
        # Two tables may share a row and a column name ("Net income", "y/y"): the cell must hold the figure.
        if any(r and r[0] == claim.row and c < len(r) and claim.printed in r[c] for r in table[1:]):
            return table[0][0]
    return ""


def _entity_for(claim: Claim, slide: Slide | None, places: _DeckPlaces, catalogue: Catalogue) -> tuple[RoomEntity | None, str]:
    """The claim's company and where it was found, or None and what was looked at."""
    own = " ".join(x for x in (claim.text, claim.row, claim.column) if x)
    named = catalogue.named_in(own)
    if named:
        figure_at = claim.text.find(claim.printed.split()[-1]) if claim.printed else 0
        hit = _nearest_before(named, max(figure_at, 0)) if len({n.entity.name for n in named}) > 1 else named[0]
        return hit.entity, f"the claim's words name {hit.name!r}"
    looked = ["the claim's words"]
    if slide is not None:
        paragraph = next((b.text for b in slide.blocks if claim.text in b.text and b.text != claim.text), "")
        if paragraph and (hit := next(iter(catalogue.named_in(paragraph[: paragraph.find(claim.text)])[-1:]), None)):
            # "Netflix grew revenue to $11.08 billion. Its operating margin reached 34.1%."
            return hit.entity, f"its paragraph, which names {hit.name!r} before it"
        if lead := _lead_in_above(claim, slide, catalogue):
            return lead[0], f"the line introducing its list, {quoted(lead[1])}"
        corner = _corner_of(claim, slide)
        if corner and (e := _one(catalogue.named_in(corner))):
            # "IBM, USD m | 2Q24 | 2Q25": a table's corner names whose figures its rows are.
            return e, f"its table's corner {quoted(corner)}"
        if side := _side_named(claim, slide, catalogue):
            return side
        if heading := _heading_above(claim, slide, catalogue):
            # Before the slide's title: a page's sections ("3. Johnson & Johnson", "4. MGM Resorts") are
            # nearer the figure than a title naming them both, or a memo's masthead naming neither.
            return heading[0], f"the heading above it, {quoted(heading[1])}"
        for where, text in (("slide title", slide.title), ("slide subtitle", _subtitle(slide))):
            if text and (e := _one(catalogue.named_in(text))):
                return e, f"{where} {quoted(text)}"
        body = " ".join(b.text for b in slide.blocks)
        if e := _one(catalogue.named_in(body)):
            return e, f"the only company slide {slide.page} names"
        looked.append(f"slide {slide.page}'s title {quoted(slide.title)} and text" if slide.title else f"slide {slide.page}'s text")
    section = places.sections.get(slide.page, "") if slide is not None else ""
    for where, text in (("section cover", section), ("cover", places.cover), ("running header or footer", places.footer)):
        if text and (e := _one(catalogue.named_in(text))):
            return e, f"the deck's {where}"
    looked.append("the cover and running footers")
    if len(catalogue.entities) == 1:
        only = catalogue.entities[0]
        if claim.entity and not catalogue.named_in(claim.entity):
            # "Acme Corporation Investor Day" over a room of Globex filings: the room's one company
            # is someone else's, and its figures would "support" Acme's.
            return None, (f"the deck names {claim.entity!r}, and the room's one company, {only.name}, "
                          f"is not it")
        return only, "the room holds one company"
    return None, "looked in " + ", ".join(looked) + " for " + catalogue.searched()


_FOR_NAMED = re.compile(r"\bfor\s+(?P<names>[^;]+)$", re.I)


def _dated_for(slide: Slide, catalogue: Catalogue) -> dict[str, tuple[str, str]]:
    """Periods a slide's note states for named companies, in the "<period> for <companies>" form peer
    benchmarks footnote mixed fiscal calendars with: each company's period read in its own calendar."""
    out: dict[str, tuple[str, str]] = {}
    for block in slide.blocks:
        if _QUANTITY.search(block.text):
            continue
        for clause in re.split(r";\s*", block.text):
            if not (m := _FOR_NAMED.search(clause)):
                continue
            for named in catalogue.named_in(m.group("names")):
                e = named.entity
                if e.name not in out and (label := period_from_text(clause[: m.start()], e.fye)):
                    out[e.name] = (label, clause)
    return out


def _company_row_metric(claim: Claim, slide: Slide, entity: RoomEntity) -> str | None:
    """A table whose rows are companies and whose corner or column names the quantity ("Net income, FY2023
    vs FY2024 ($bn)" over Meta | Amazon | ...): a row's figure is that quantity, not one named for the
    company."""
    if not claim.row or not claim.metric or not is_label(claim.metric):
        return None
    words = re.findall(r"[a-z0-9&]+", label_text(claim.metric))
    names = set(re.findall(r"[a-z0-9&]+", " ".join(entity.names).lower()))
    rest = [w for w in words if w not in names]
    if not words or len(rest) == len(words):
        return None
    if rest:
        # "NVDA | ... | EPS": the row's ticker and the column's quantity, once the ticker is known to be the company.
        return find_metric(" ".join(rest))
    for text in (claim.column, _corner_of(claim, slide)):
        if text and (metric := find_metric(text)):
            return metric
    return None


_LATEST = re.compile(r"\b(?:latest|most recent|last reported)\b", re.I)
_YEAR_WORDS = re.compile(r"\b(?:fiscal years?|FY|annual|10-K|full[- ]year)\b", re.I)
_QUARTER_LABEL = re.compile(r"Q([1-4]) FY(\d{4})")


def _latest_period(claim: Claim, slide: Slide | None, entity: RoomEntity) -> tuple[str, str] | None:
    """A figure dated only "latest" ("LTM to latest 10-Q", "latest fiscal year") is in that company's
    latest period the room covers: a summary across companies of different calendars says no more."""
    places = [claim.column, _corner_of(claim, slide) if slide else "", claim.text]
    if slide is not None:
        places += [slide.title, _subtitle(slide)]
    said = next((t for t in places if t and _LATEST.search(t)), None)
    if said is None:
        return None
    quarters = [(int(m.group(2)), int(m.group(1))) for p in entity.periods if (m := _QUARTER_LABEL.fullmatch(p))]
    if "10-Q" in said.upper():
        quarters = [q for q in quarters if q[1] < 4]  # a 10-Q never reports a fourth quarter
    years = [int(p[2:]) for p in entity.periods if re.fullmatch(r"FY\d{4}", p)]
    trailing = bool(TRAILING.search(said))
    if _YEAR_WORDS.search(said) and not trailing:
        if not years:
            return None
        label = f"FY{max(years)}"
    else:
        if years and "10-Q" not in said.upper():
            quarters.append((max(years), 4))
        if not quarters:
            return None
        year, q = max(quarters)
        label = (f"FY{year}" if q == 4 else f"TTM Q{q} FY{year}") if trailing else f"Q{q} FY{year}"
    return label, f"{quoted(said)}, {entity.name}'s latest period in the room"


_PART_MONTHS = {"Q1": 3, "H1": 6, "9M": 9}


def _year_to_date_part(entity: RoomEntity) -> str | None:
    """How far "year to date" reaches for a company: the longest part of a year its latest 10-Q
    reports ("9M" from a third-quarter 10-Q), which its prior-year column repeats."""
    parts = [(int(m.group(2)), _PART_MONTHS[m.group(1)], m.group(1)) for p in entity.periods
             if (m := re.fullmatch(r"(Q1|H1|9M) FY(\d{4})", p))]
    return max(parts)[2] if parts else None


def _without_entity(basis: str, entity: RoomEntity) -> str:
    """A segment basis with the company's own name taken out: "Netflix revenue" is no segment, and
    "Amazon's North America revenue" is the North America segment."""
    if not basis.startswith("segment:"):
        return basis
    own = {w for n in entity.names for w in re.findall(r"[a-z0-9&]+", n.lower())}
    words = [w for w in re.findall(r"[a-z0-9&]+", basis[len("segment:"):].lower()) if w not in own]
    if words and words[0] == "s":
        words = words[1:]  # the possessive of a name just removed ("Amazon’s")
    return f"segment:{' '.join(words)}" if words else "GAAP"


def resolve_claims(parsed: ParsedDeck, catalogue: Catalogue) -> ParsedDeck:
    """Every claim with its company, fiscal period and basis read against the room.

    A room with no parsed filing resolves nothing: the claims keep what extraction read.
    """
    if not catalogue.entities:
        return parsed
    slides = {s.page: s for s in parsed.deck.slides}
    cover_slide = parsed.deck.slides[0] if parsed.deck.slides else None
    cover = " ".join([cover_slide.title, *(b.text for b in cover_slide.blocks[:4])]) if cover_slide else ""
    sections = {page: " ".join([c.title, *(b.text for b in c.blocks)])
                for page, c in section_covers(parsed.deck).items() if c is not cover_slide}
    places = _DeckPlaces(cover=cover, footer=" ".join(repeated_lines(parsed.deck)), sections=sections)
    out: list[Claim] = []
    notes: dict[int, dict[str, tuple[str, str]]] = {}
    for claim in parsed.claims:
        entity, entity_why = _entity_for(claim, slides.get(claim.page), places, catalogue)
        period, period_why = claim.period, claim.resolution.period
        comparison = claim.comparison_period
        basis, stated = claim.basis, claim.basis_stated
        if entity is not None:
            if (said := claim.resolution.period_text) and (_DATED.search(said) or PART_TO_MONTH.search(said)) and entity.fye:
                # "Three months ended June 28, 2025" is Apple's Q3 but a calendar company's Q2.
                again = period_from_text(claim.resolution.period_text, entity.fye)
                if again and again != period:
                    period, period_why = again, f"{period_why}, in {entity.name}'s fiscal calendar"
                    if claim.compounded_years and (year := re.fullmatch(r"FY(\d{4})", period)):
                        comparison = f"FY{int(year.group(1)) - claim.compounded_years}"
                    elif claim.comparison_period:
                        sequential = claim.comparison_period == prior_period(claim.period, sequential=True) != \
                            prior_period(claim.period)
                        comparison = prior_period(period, sequential=sequential)
            slide = slides.get(claim.page)
            in_column = slide is not None and claim.resolution.period.startswith("column header")
            if in_column and slide.page not in notes:
                notes[slide.page] = _dated_for(slide, catalogue)  # once a slide, not once a cell
            if in_column and (note := notes[slide.page].get(entity.name)) and note[0] != period:
                # "FY2024 revenue ($bn)" over six companies, noted "fiscal 2025 (year ended January 31, 2025)
                # for Walmart and Salesforce": those two bars are fiscal 2025's.
                period, period_why = note[0], f"the slide's note {quoted(note[1])}"
            lent = claim.resolution.period_text if claim.resolution.period.startswith(
                ("slide subtitle", "slide title", "the period stated above it")) else ""
            if period is not None and lent and (named := {n.entity.name for n in catalogue.named_in(lent)}) \
                    and entity.name not in named:
                # "fiscal 2025 (year ended January 31, 2025) for Walmart and Salesforce" dates those two, not
                # Meta's bar on the same chart.
                period = None
            if period and period.startswith("YTD ") and (part := _year_to_date_part(entity)):
                period, period_why = f"{part} {period[4:]}", f"{period_why}, {entity.name}'s year to date in the room"
                if comparison and comparison.startswith("YTD "):
                    comparison = f"{part} {comparison[4:]}"
            if period is None and (latest := _latest_period(claim, slide, entity)):
                period, period_why = latest
            if slide is not None and (metric := _company_row_metric(claim, slide, entity)):
                reg = by_id(metric)
                # A bare "1.08" read before its quantity was known is in that quantity's unit ($ a share).
                unit = reg.unit if reg is not None and claim.unit == "count" and reg.unit == "USD/share" else claim.unit
                claim = msgspec.structs.replace(claim, metric=metric, unit=unit)
            basis = _without_entity(basis, entity)
            stated = stated and basis != "GAAP"
        resolution = msgspec.structs.replace(claim.resolution, entity=entity_why, period=period_why)
        out.append(msgspec.structs.replace(
            claim, entity=entity.name if entity else None, period=period, comparison_period=comparison,
            basis=basis, basis_stated=stated,
            resolution=resolution,
        ))
    entities = {c.entity for c in out if c.entity}
    return msgspec.structs.replace(parsed, claims=out, entity=next(iter(entities)) if len(entities) == 1 else None)
