"""The verdict rules, in the order they run: scope, locate, unit, period, scale, compute, band, basis.

A claim and the evidence the services gathered go in; one ``RuleOutcome`` per rule streams out as it
completes, then exactly one ``Verdict``. Pure: no I/O, every comparison in ``Decimal``.

What a claim asks is a ``parsers.question.Question``; metric ids (``growth:``, ``share:``, ``ratio:``,
``label:``) are written and read only in ``parsers.quantities``. Evidence is ranked before it decides:
a tagged iXBRL cell, then a table cell, then a sentence; a figure of another magnitude than the claim is
another quantity (no-evidence), and a sentence alone may support a claim but never contradict it. When
two documents disagree on one slot, the one covering the later period wins (no filing date is read
from the room's files) and the other is cited as ``superseded``.

Tolerance (the band) comes from the claim as printed: the room's figure must round to the claim at
the claim's last digit, i.e. half a unit either side ("$2.8B" is +/-0.05B, "36%" +/-0.5pt), with a
tie rounding away from zero as filings do (35.5% is "36%", 36.5% is not). An approximate figure
("~$20B") gets one full unit of its last digit or 1% of the value, whichever is larger; a bound
("over 1,000") holds when the room's figure is on its side (>= 1,000). When the room prints its
figure more coarsely than the claim, the band widens to the room's own half unit: the room cannot
say more than it printed, and the reason says so.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal

import msgspec

from parsers.entities import same_entity
from parsers.metrics import alternates, basis_from_text, by_id, label_metric
from parsers.model import Claim, Fact, FactSource
from parsers.numbers import Printed, parse_printed, scale_name
from parsers.periods import COMPOUND_RATE, MONTHS, bare_quarter, label_for_span, parse_fye, period_from_text
from parsers.quantities import growth_metric, is_label, label_text, quantity
from parsers.question import Question, question
from verdicts.model import Citation, Coverage, Evidence, RuleOutcome, Verdict

__all__ = [
    "RULES",
    "evaluate",
    "needed_metrics",
    "tolerance",
    "verify",
]

RULES = ("scope", "locate", "unit", "period", "scale", "compute", "band", "basis")
_ZERO = Decimal(0)
_HUNDRED = Decimal(100)


def needed_metrics(claim: Claim) -> set[str]:
    """Every metric id whose facts the rules may read for this claim."""
    return question(claim).needed()


# ---------------------------------------------------------------- metrics, units, periods, bases

# Compared after _words strips a plural "s": "sales" is "sale", "revenues" is "revenue".
# "Add: Interest paid on long-term debt" is the interest paid, as a reconciliation step or a line.
_STOP = frozenset("the of and a an in on for to by with from at as its our total net add less plus".split())
_GENERIC = frozenset("revenue sale".split())


# A slide's short forms of a filing's row words: "Other non-op. income", "Int. expense", "Oper. income".
_ABBREVIATIONS = {"op": "operating", "oper": "operating", "opex": "operating expense", "exp": "expense",
                  "int": "interest", "rev": "revenue", "mktg": "marketing", "admin": "administrative"}


def _words(text: str) -> list[str]:
    t = text.lower().replace("&", " and ")
    words = [w for raw in re.findall(r"\b[a-z][a-z0-9]*", t) for w in _ABBREVIATIONS.get(raw, raw).split()]
    return [w[:-1] if len(w) > 3 and w.endswith("s") else w for w in words]


@lru_cache(maxsize=8192)
def _label_key(metric: str) -> frozenset[str]:
    # "Energy generation & storage revenue" and the row "Energy generation and storage" are one label.
    words = {w for w in _words(label_text(metric)) if w not in _STOP}
    return frozenset(words - _GENERIC) or frozenset(words)


# The words a filing heads a table of rates with: "Year-over-year Percentage Growth, excluding the effect
# of foreign exchange rates" over "International" is International's growth, on the basis it names.
_RATE_HEADING = re.compile(r"year[- ]over[- ]year|percentage|percent|growth|change|increase|y/y|yoy|"
                           r"excluding (?:the )?(?:effects? of )?(?:changes in )?foreign (?:currency )?exchange(?: rates?)?|"
                           r"constant[- ]currency|organic", re.I)


@lru_cache(maxsize=16384)
def _rate_row_of(metric: str, want: str) -> bool:
    """Whether a room's label row is a printed growth rate of the claim's label quantity: its words less a
    rate heading's are the claim's."""
    text = label_text(metric)
    if not _RATE_HEADING.search(text):
        return False
    return (key := _label_key(label_metric(_RATE_HEADING.sub(" ", text)))) != frozenset() and key == _label_key(want)


@lru_cache(maxsize=65536)
def _same_metric(have: str, want: str) -> bool:
    if have == want:
        return True
    h, w = quantity(have), quantity(want)
    if h.kind != w.kind or not (is_label(h.base) and is_label(w.base)):
        return False
    hk, wk = _label_key(h.base), _label_key(w.base)
    return bool(hk) and hk == wk


_DIMENSION = {
    "USD": "money", "currency": "money", "percent": "percent", "pp": "points", "bp": "points",
    "count": "count", "shares": "count", "USD/share": "per-share", "multiple": "multiple", "other": "other",
}


def _dimension(unit: str) -> str:
    return _DIMENSION.get(unit, "other")


def _claim_dimension(claim: Claim, q: Question) -> str:
    dim = _dimension(claim.unit)
    reg = by_id(q.metric)
    # "$1.64" prints like money; for an EPS claim it is dollars per share.
    return "per-share" if dim == "money" and reg is not None and reg.unit == "USD/share" else dim


def _in_points(value: Decimal, unit: str) -> Decimal:
    # Basis points and percentage points are one dimension; percent (a level) is another.
    return value / _HUNDRED if unit == "bp" else value


_SPACES = re.compile(r"\s+")
_PERIOD_FORMS = (
    (re.compile(r"^(Q[1-4]|H[12]|[369]M)\s*(?:FY|F)?\s*'?(\d{4}|\d{2})$"), "{0} FY{1}"),
    (re.compile(r"^(?:FY|F)\s*'?(\d{4}|\d{2})$"), "FY{0}"),
    (re.compile(r"^(\d{4})$"), "FY{0}"),
)


@lru_cache(maxsize=8192)
def _norm_period(label: str | None) -> str:
    t = _SPACES.sub(" ", (label or "").strip().upper())
    for pat, form in _PERIOD_FORMS:
        if m := pat.match(t):
            parts = [g if not g.isdigit() or len(g) == 4 else str(2000 + int(g)) for g in m.groups()]
            return form.format(*parts)
    return t


@lru_cache(maxsize=8192)
def _fiscal_year(label: str) -> int | None:
    m = _FY.search(label)
    return int(m.group(1)) if m else None


_FY = re.compile(r"FY(\d{4})$")


def _prior(label: str) -> str | None:
    fy = _fiscal_year(label)
    return None if fy is None else label[: -4] + str(fy - 1)


def _same_period(claimed: str, fact: Fact) -> bool:
    have = _norm_period(fact.period)
    if have == claimed:
        return True
    # An instant takes the label of the period it closes: the year-end balance answers "Q4 FY2025" too.
    if fact.period_start is None:
        fy = _fiscal_year(claimed)
        return fy is not None and {have, claimed} == {f"FY{fy}", f"Q4 FY{fy}"}
    return False


@lru_cache(maxsize=8192)
def _period_order(label: str) -> tuple[int, int]:
    fy = _fiscal_year(label) or 0
    m = _PERIOD_KIND.match(label)
    if label.startswith("FY"):
        return fy, 4
    if m and m.group(1) == "Q":
        return fy, int(m.group(2))
    if m and m.group(1) == "H":
        return fy, 2 * int(m.group(2))
    return fy, 3


_PERIOD_KIND = re.compile(r"(Q|H|)(\d)?M?")
_BASIS_DROP = frozenset("segment member total and the of reportable operating axis".split())


@lru_cache(maxsize=8192)
def _member_words(member: str) -> tuple[str, ...]:
    # "WearablesHomeandAccessoriesMember", "SubscriptionandSupportMember": an "and" glued to the word before.
    member = re.sub(r"([A-Z][a-z]{2,}?)and(?=[A-Z])", r"\1 and ", member)
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", " ", member)
    return tuple(w for w in re.findall(r"[a-z0-9]+", spaced.lower().replace("&", " and ")) if w not in _BASIS_DROP)


def _basis_key(basis: str, metric: str, dimensions: dict[str, str] | None = None) -> str:
    """The basis family a figure belongs to; two figures are comparable when their keys match."""
    return _basis_key_of(basis, metric, tuple(dimensions.values()) if dimensions else ())


@lru_cache(maxsize=16384)
def _basis_key_of(basis: str, metric: str, dimensions: tuple[str, ...]) -> str:
    low = (basis or "").strip().lower()
    if low.startswith("segment"):
        member = basis.rsplit(":", 1)[1] if ":" in basis else ""
        return "segment:" + " ".join(_member_words(member))
    if dimensions and low in ("", "gaap", "reported", "operating metric"):
        # A dimensioned fact is a slice (a segment, a product line), never the company total.
        return "segment:" + " ".join(_member_words(" ".join(v.rsplit(":", 1)[-1] for v in dimensions)))
    if "constant" in low:
        return "constant-currency"
    if "organic" in low:
        return "organic"
    reg = by_id(quantity(metric).base)
    if reg is not None and reg.basis != "GAAP":
        # Free cash flow is non-GAAP by definition and deliveries an operating metric: the
        # company's own measure is the same basis whatever the qualifier says.
        return "own"
    return "non-GAAP" if ("non" in low and "gaap" in low) or "adjusted" in low else "reported"


@lru_cache(maxsize=16384)
def _same_basis(a: str, b: str) -> bool:
    if a == b:
        return True
    if not (a.startswith("segment:") and b.startswith("segment:")):
        return False
    wa, wb = a[len("segment:"):].split(), b[len("segment:"):].split()
    if not wa or not wb:
        return False
    ja, jb = "".join(wa), "".join(wb)
    if ja == jb or "".join(w[0] for w in wa) == jb or "".join(w[0] for w in wb) == ja:
        return True
    # "ServiceMember" and "services", "ProductMember" and "products": one slice, in the singular or plural.
    return [w.removesuffix("s") for w in wa] == [w.removesuffix("s") for w in wb]


def _basis_name(key: str, name: str) -> str:
    """ "reported (GAAP) revenue", "non-GAAP diluted EPS", "aws segment operating margin"."""
    if key.startswith("segment:"):
        return f"{key[len('segment:'):] or 'a'} segment {name}"
    if key == "own":
        return name
    return f"{ {'reported': 'reported (GAAP)'}.get(key, key)} {name}"


def _metric_name(metric: str) -> str:
    q = quantity(metric)
    if q.kind == "growth":
        return _metric_name(q.base) + " growth"
    if q.kind == "share":
        return _metric_name(q.base) + " share of revenue"
    if q.kind == "ratio":
        return f"{_metric_name(q.base)} to {_metric_name(q.denominator or '')}"
    if is_label(metric):
        return label_text(metric)
    reg = by_id(metric)
    return reg.names[0] if reg else metric.replace("_", " ")


# ---------------------------------------------------------------- numbers


def _claimed(claim: Claim) -> Decimal:
    return _in_points(claim.value.scaleb(claim.scale), claim.unit)


def tolerance(claim: Claim) -> Decimal:
    """The band the claim's own printing allows, in base units (see the module docstring)."""
    half = _in_points(Decimal(5).scaleb(claim.scale - claim.decimals - 1), claim.unit)
    if claim.bound == "approx":
        return max(half * 2, abs(_claimed(claim)) / _HUNDRED)
    return half


_PRINTED_NUMBER = re.compile(r"\d[\d,]*(?:\.(\d+))?")


def _half_unit(fact: Fact) -> Decimal:
    """Half the unit of the last digit the fact prints: how far its printed figure may be from the truth."""
    return _half_unit_of(fact.as_printed or "", fact.scale, fact.unit)


@lru_cache(maxsize=32768)
def _half_unit_of(as_printed: str, scale: int, unit: str) -> Decimal:
    m = _PRINTED_NUMBER.search(as_printed)
    if not m:
        return _ZERO
    return _in_points(Decimal(5).scaleb(scale - len(m.group(1) or "") - 1), unit)


def _trim(value: Decimal) -> str:
    text = format(value, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def _fmt(value: Decimal, dim: str) -> str:
    if dim == "percent":
        return f"{_trim(value.quantize(Decimal('0.01')))}%"
    if dim == "points":
        return f"{value.quantize(Decimal('0.01'))}pp"
    if dim == "multiple":
        return f"{value.quantize(Decimal('0.01'))}x"
    if dim == "per-share":
        return f"${value.quantize(Decimal('0.01'))}"
    sign, mag = ("-" if value < 0 else ""), abs(value)
    unit = "$" if dim == "money" else ""
    for power, suffix in ((12, "T"), (9, "B"), (6, "M")):
        if mag >= Decimal(10) ** power:
            scaled = format(mag.scaleb(-power).quantize(Decimal("0.001")).normalize(), "f")
            return f"{sign}{unit}{scaled}{suffix}"
    return f"{sign}{unit}{mag.normalize():,f}"


# ---------------------------------------------------------------- candidates


@dataclass(frozen=True, slots=True)
class _Candidate:
    """One figure the claim may be compared with: printed in the room or computed from it."""

    value: Decimal
    metric: str
    basis: str
    period: str
    how: str
    """``printed`` or ``computed``."""
    inputs: tuple[tuple[Fact, str], ...]
    """The cited facts with their citation roles."""
    half: Decimal
    recency: tuple[int, int]
    alternate: bool = False
    arithmetic: str = ""


@dataclass(slots=True)
class _Decision:
    verdict: str
    reason: str
    found: Decimal | None = None
    band: Decimal | None = None
    cited: list[tuple[Fact, str]] = field(default_factory=list)


@dataclass(slots=True)
class _Run:
    claim: Claim
    evidence: Evidence
    q: Question
    entity: str = ""
    period: str = ""
    dim: str = ""
    claimed: Decimal = _ZERO
    tol: Decimal = _ZERO
    docs: list[Coverage] = field(default_factory=list)
    facts: list[tuple[Fact, str]] = field(default_factory=list)
    """(fact, use): use is ``printed``, ``alternate``, ``num``, ``den`` or ``base``."""
    candidates: list[_Candidate] = field(default_factory=list)
    basis_fallback: str | None = None
    """The basis the claim is judged on when the one it took from its slide is not in the room."""
    scale_shift: int = 0
    outflow: bool = False
    """An expense or cash outflow, which filings and decks print with either sign."""
    decision: _Decision | None = None
    decided_by: str = ""
    _recency: dict[str, tuple[int, int]] | None = None
    _bases: dict[int, str] = field(default_factory=dict)
    derived: dict[int, tuple[Fact, Fact]] = field(default_factory=dict)
    """Inputs no document prints for a quarter, computed as the year to date less its other part: each
    keyed by identity to the two printed figures it came from, which are what a verdict cites."""

    def recency(self, fact: Fact) -> tuple[int, int]:
        """How late the latest period of the fact's document is (the first document by that path counts)."""
        if self._recency is None:
            self._recency = {}
            for c in self.evidence.coverage:
                self._recency.setdefault(
                    c.document, max((_period_order(_norm_period(p)) for p in c.periods), default=(0, 0)))
        return self._recency.get(fact.document or "", (0, 0))

    def basis(self, fact: Fact) -> str:
        # Keyed by identity: the run's facts live as long as the run, and a fact's basis is asked often.
        key = id(fact)
        if key not in self._bases:
            self._bases[key] = _basis_key(fact.basis, fact.metric, fact.dimensions)
        return self._bases[key]

    @property
    def claim_basis(self) -> str:
        return self.basis_fallback or _basis_key(self.claim.basis, self.q.metric)

    def label(self) -> str:
        return f"{self.entity} {self.period}".strip()


# ---------------------------------------------------------------- rule 1: scope


def _scope(run: _Run) -> RuleOutcome:
    claim, coverage = run.claim, run.evidence.coverage
    # The company is resolution's to decide (parsers.resolve), which already takes a one-company
    # room's company for a deck that names none; a claim it left without one names another company.
    run.entity = claim.entity or ""
    run.period = _norm_period(claim.period)
    if not run.entity:
        looked = f" ({claim.resolution.entity})" if claim.resolution.entity else ""
        return _decide(run, "scope", "no-evidence",
                       f"The claim names no company the room holds{looked}, so there is nothing to look up.")
    if not claim.period:
        return _decide(run, "scope", "no-evidence",
                       "The claim names no period (looked in its words, its table column, its slide's title and "
                       "text, and the cover), so there is nothing to look up.")
    run.docs = [c for c in coverage if same_entity(c.entity, run.entity)]
    fy = _fiscal_year(run.period)
    covering = [
        c for c in run.docs
        if any(_norm_period(p) == run.period or (fy is not None and _fiscal_year(_norm_period(p)) == fy) for p in c.periods)
    ]
    if not covering:
        held = sorted({_norm_period(p) for c in run.docs for p in c.periods}, key=_period_order)
        instead = f" (the room's {run.entity} documents cover {', '.join(held)})" if held else ""
        return _decide(
            run, "scope", "no-evidence",
            f"No document covers {run.label()}; {len(coverage)} documents searched{instead}.",
        )
    return RuleOutcome("scope", "pass", f"{len(covering)} of {len(coverage)} documents cover {run.label()}: "
                       + ", ".join(c.document for c in covering))


# ---------------------------------------------------------------- rule 2: locate


@lru_cache(maxsize=16384)
def _uses(q: Question, metric: str) -> tuple[str, ...]:
    uses = []
    if any(_same_metric(metric, p) for p in q.printed):
        uses.append("printed")
    if q.kind == "value" and any(_same_metric(metric, a) for a in q.alternates):
        uses.append("alternate")
    if q.kind == "growth" and is_label(q.metric) and is_label(metric) and _rate_row_of(metric, q.metric):
        uses.append("printed")
    if q.kind == "growth":
        if any(_same_metric(metric, growth_metric(a)) for a in q.alternates) or metric in q.rates:
            # "Net sales up 15.6%" that matches comparable sales is the comparable figure, not the reported one.
            uses.append("alternate")
        if any(_same_metric(metric, b) for b in (q.metric, *q.alternates)):
            uses.append("base")
    if q.kind == "change" and _same_metric(metric, q.metric):
        uses.append("base")
    elif q.num and (_same_metric(metric, q.num) or metric == q.metric):
        uses.append("num")
    if q.den and _same_metric(metric, q.den):
        uses.append("den")
    return tuple(uses)


def _locate(run: _Run) -> RuleOutcome:
    q = run.q
    if q.kind == "share" and q.num == q.den and not q.part:
        # "44% of total revenue" whose part was not read: revenue is all of revenue, which checks nothing.
        return _decide(run, "locate", "no-evidence",
                       f"The claim gives a share of {_metric_name(q.den or '')} without naming the part it measures.")
    for fact in run.evidence.facts:
        if same_entity(fact.entity, run.entity):
            uses = _uses(q, fact.metric)
            if not uses and is_label(fact.metric) and fact.label and _tier(fact) == 0:
                # A tagged cell's id is its concept's words ("nonoperating income expense"), its row the
                # words a deck copies ("Other income/(expense), net"). Other ids keep the group their row
                # sits under, which tells apart the same line in two reconciliations.
                uses = _uses(q, label_metric(fact.label))
                if uses:
                    fact = msgspec.structs.replace(fact, metric=label_metric(fact.label))
            run.facts.extend((fact, use) for use in uses)
    source = "facts"
    if not run.facts and is_label(q.metric):
        run.facts = [(f, "printed") for f in _passage_facts(run)]
        source = "passages"
    name = _metric_name(q.metric)
    if not run.facts:
        searched = f"{len(run.docs)} {run.entity} documents searched"
        passages = f" and {len(run.evidence.passages)} passages" if run.evidence.passages else ""
        return _decide(run, "locate", "no-evidence", f"Nothing in the room states {name} for {run.entity}; {searched}{passages}.")
    docs = sorted({f.document for f, _ in run.facts})
    return RuleOutcome("locate", "pass", f"{len({id(f) for f, _ in run.facts})} {source} for {run.entity} {name} in "
                       + ", ".join(docs))


_DATE_LIST = re.compile(
    r"\b(" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?\s+(\d{1,2}),?\s+(\d{4})((?:\s*,?\s*(?:and\s+)?\d{4}\b)*)",
    re.I,
)
_QUALIFIER = re.compile(r"\b(over|more than|approximately|about|nearly|almost|at least)\s*$", re.I)
_SPAN_BEFORE = re.compile(r"(three|six|nine|twelve)[\s-]+months?|(years?|fiscal)\b", re.I)


def _passage_periods(text: str, fye: tuple[int, int] | None) -> tuple[list[tuple[str, date | None, date]], str]:
    """Periods a sentence names, in order, and the sentence with its dates blanked out."""
    out: list[tuple[str, date | None, date]] = []
    blanked = text
    for m in _DATE_LIST.finditer(text):
        month, day = MONTHS[m.group(1).lower()], int(m.group(2))
        years = [int(m.group(3)), *map(int, re.findall(r"\d{4}", m.group(4) or ""))]
        span = None
        for s in _SPAN_BEFORE.finditer(text[max(0, m.start() - 40): m.start()]):
            span = s
        months = 0
        if span is not None:
            months = {"three": 3, "six": 6, "nine": 9, "twelve": 12}.get((span.group(1) or "").lower(), 12)
        for y in years:
            try:
                end = date(y, month, day)
            except ValueError:
                continue
            start = end - timedelta(days=int(months * Decimal("30.44")) - 1) if months else None
            out.append((label_for_span(start, end, fye), start, end))
        blanked = blanked[: m.start()] + " " * (m.end() - m.start()) + blanked[m.end():]
    if not out and (label := period_from_text(text, fye)):
        out.append((_norm_period(label), None, date.min))
        blanked = re.sub(r"\b(?:19|20)\d{2}\b", "    ", blanked)
    return out, blanked


_COMPARED_AFTER = re.compile(r"^\W*(?:compared (?:to|with)|as compared|versus|vs\.?|up from|down from|from)\b", re.I)


def _own_periods(text: str, figures: list[Printed], cov: Coverage) -> list[tuple[Printed, tuple[str, None, date]]] | None:
    """Each figure of an undated sentence with the period named between it and the next figure; a first
    figure that names none but is compared with the others is the document's own period. None unless
    every figure gets one."""
    fye = parse_fye(cov.fiscal_year_end)
    out = []
    for i, fig in enumerate(figures):
        after = text[fig.end: figures[i + 1].start if i + 1 < len(figures) else len(text)]
        label = period_from_text(after, fye)
        if label is None and i == 0 and _COMPARED_AFTER.search(after) and cov.periods:
            label = cov.periods[0]
        if label is None:
            return None
        out.append((fig, (_norm_period(label), None, date.min)))
    return out if len({label for _, (label, _, _) in out}) == len(out) else None


def _passage_facts(run: _Run) -> list[Fact]:
    """Figures read from BM25 passages for a label claim, as a text-fact parser would read them."""
    wanted = _label_key(run.claim.label or run.q.metric)
    docs = {c.document: c for c in run.docs}
    out: list[Fact] = []
    for hit in run.evidence.passages:
        cov = docs.get(hit.document)
        if cov is None or not wanted or not wanted <= set(_words(hit.text)):
            continue
        periods, blanked = _passage_periods(hit.text, parse_fye(cov.fiscal_year_end))
        figures = [p for p in parse_printed(blanked) if _dimension(p.unit) == run.dim]
        if not periods or not figures:
            continue
        dated = any(start is not None or end != date.min for _, start, end in periods)
        if not dated and len(figures) > 1 and (own := _own_periods(hit.text, figures, cov)):
            # "over 1,460 compared to over 1,420 in Q2 FY25, and over 1,270 in Q3 FY24": each figure
            # has the period stated after it, the first the document's own.
            paired = own
        elif len(periods) == 1:
            paired = [(f, periods[0]) for f in figures]
        elif len(periods) == len(figures):
            # "over 1,510 and over 1,330 as of April 30, 2025 and 2024": respectively, in order.
            paired = list(zip(figures, periods))
        else:
            continue
        prev_end = 0
        for fig, (label, start, end) in paired:
            before = blanked[prev_end: fig.start]
            basis = basis_from_text(before) or "GAAP"
            prev_end = fig.end
            qualifier = _QUALIFIER.search(before)
            as_printed = f"{qualifier.group(1)} {fig.text}" if qualifier else fig.text
            snippet = hit.text if len(hit.text) <= 160 else hit.text[:157] + "..."
            out.append(Fact(
                entity=run.entity, metric=run.q.metric, label=hit.text, basis=basis, period=label,
                period_start=start, period_end=end if end != date.min else None,
                value=_in_points(fig.value.scaleb(fig.scale), fig.unit), unit=fig.unit, scale=fig.scale,
                currency=fig.currency, as_printed=as_printed,
                source=FactSource(kind="text", section=hit.section, page=hit.page,
                                  locator=f"{hit.section or 'text'}: \u201c{snippet}\u201d"),
                document=hit.document,
            ))
    return out


# ---------------------------------------------------------------- rule 3: unit


def _unit_fits(run: _Run, fact: Fact, use: str) -> bool:
    dim = _dimension(fact.unit)
    if run.claim.currency and fact.currency and run.claim.currency != fact.currency:
        return False
    if use in ("printed", "alternate"):
        return dim == run.dim
    if use == "base" and run.q.kind == "change":
        return dim == "percent"
    return dim in ("money", "count", "per-share")


def _unitless_cell_scale(run: _Run) -> int | None:
    """The scale a table cell printed with no unit anywhere ("24,250" under "LTM 2Q25 | FY24") is read in:
    the one power of a thousand at which it is, digit for digit, the room's dollar figure for the slot.
    Without such a match the cell stays a bare count, which nothing in dollars can contradict."""
    reg = by_id(quantity(run.q.metric).base)
    if run.dim != "count" or run.claim.scale != 0 or not run.claim.row or run.q.kind != "value" or not run.claimed \
            or (reg is not None and reg.unit != "USD") or not run.facts \
            or any(_dimension(f.unit) != "money" for f, _ in run.facts):
        return None
    fits = {s for s in (3, 6, 9) for f, u in run.facts if u == "printed" and _same_period(run.period, f)
            and abs(f.value - run.claimed.scaleb(s)) <= max(run.tol.scaleb(s), _half_unit(f))}
    return fits.pop() if len(fits) == 1 else None


def _unit(run: _Run) -> RuleOutcome:
    read_in = ""
    if (scale := _unitless_cell_scale(run)) is not None:
        run.claim = msgspec.structs.replace(run.claim, unit="USD", scale=scale)
        run.dim = "money"
        run.claimed, run.tol = _claimed(run.claim), tolerance(run.claim)
        read_in = f"; the table prints no unit, and the cell is the room's figure in {scale_name(scale)}"
    kept = [(f, u) for f, u in run.facts if _unit_fits(run, f, u)]
    kept_ids = {id(f) for f, _ in kept}
    dropped = list({id(f): f for f, _ in run.facts if id(f) not in kept_ids}.values())
    run.facts = kept
    note = "; set aside " + ", ".join(f"{f.as_printed} ({f.unit})" for f in dropped[:3]) if dropped else ""
    if not kept:
        units = sorted({f.unit for f in dropped})
        return _decide(run, "unit", "no-evidence",
                       f"The room states {_metric_name(run.q.metric)} for {run.entity} only in {', '.join(units)}, "
                       f"which cannot be compared with the claim's {run.claim.unit}.")
    return RuleOutcome("unit", "fail" if dropped else "pass", f"claim in {run.claim.unit} ({run.dim}){note}{read_in}")


# ---------------------------------------------------------------- rule 4: period


def _comparison(run: _Run) -> str | None:
    return _norm_period(run.claim.comparison_period) if run.claim.comparison_period else _prior(run.period)


def _derive_quarter_inputs(run: _Run) -> None:
    """A margin's or a growth's inputs for quarters no document prints, from the year to date less its
    other part (Q1 = H1 - Q2, Q4 = FY - 9M), as a value claim's own quarter is computed."""
    wanted = {run.period, _comparison(run) or ""} - {""}
    have = {(f.metric, _norm_period(f.period), run.basis(f), u) for f, u in run.facts}
    added: list[tuple[Fact, str]] = []
    for period in wanted:
        if (parts := _year_to_date_of(period)) is None:
            continue
        whole_p, part_p = parts
        by: dict[tuple[str, str, str, str], list[Fact]] = {}
        for f, u in run.facts:
            reg = by_id(f.metric)
            if u in ("num", "den", "base") and reg is not None and not reg.instant and reg.unit in ("USD", "count") \
                    and _norm_period(f.period) in (whole_p, part_p):
                by.setdefault((f.metric, _norm_period(f.period), run.basis(f), u), []).append(f)
        for (metric, p, basis, use), facts in by.items():
            if p != whole_p or (metric, period, basis, use) in have or (metric, part_p, basis, use) not in by:
                continue
            whole, part = _best(run, facts), _best(run, by[(metric, part_p, basis, use)])
            quarter = msgspec.structs.replace(whole, value=whole.value - part.value, period=period,
                                              as_printed=f"({whole.as_printed} - {part.as_printed})")
            run.derived[id(quarter)] = (whole, part)
            added.append((quarter, use))
            have.add((metric, period, basis, use))
    run.facts.extend(added)


def _cited(run: _Run, fact: Fact, role: str) -> tuple[tuple[Fact, str], ...]:
    """A computed input's citations: the printed figures a derived quarter came from."""
    if (parts := run.derived.get(id(fact))) is not None:
        return (parts[0], role), (parts[1], "other-period")
    return ((fact, role),)


def _period(run: _Run) -> RuleOutcome:
    if run.q.kind == "growth" and not run.claim.compounded_years and COMPOUND_RATE.search(f"{run.claim.column} {run.claim.text}"):
        return _decide(run, "period", "no-evidence",
                       "The claim is a compound annual growth rate over years the deck does not state, so there "
                       "is no pair of years to compound between.")
    _derive_quarter_inputs(run)
    if run.q.kind == "growth" and _comparison(run) != _prior(run.period):
        # A printed growth rate is year over year; a sequential or multi-year claim must be computed.
        run.facts = [(f, u) for f, u in run.facts if u == "base"]
    here = [(f, u) for f, u in run.facts if _same_period(run.period, f)]
    printed = [f for f, u in here if u in ("printed", "alternate")]
    computable = False
    if run.q.kind in ("margin", "share", "ratio"):
        computable = (any(u == "num" for _, u in here) or bool(run.q.part)) and any(u == "den" for _, u in here)
    elif run.q.kind == "change":
        prior = _comparison(run)
        computable = prior is not None and all(
            any(u == "base" and _same_period(p, f) for f, u in run.facts)
            or (any(u == "num" and _same_period(p, f) for f, u in run.facts)
                and any(u == "den" and _same_period(p, f) for f, u in run.facts))
            for p in (run.period, prior))
    elif run.q.kind == "growth":
        prior = _comparison(run)
        computable = any(u == "base" for _, u in here) and prior is not None and any(
            u == "base" and _same_period(prior, f) for f, u in run.facts)
    elif run.q.kind == "value" and not printed:
        computable = bool(_quarter_parts(run)) or bool(_trailing_parts(run))
    if not printed and not computable:
        other = sorted({_norm_period(f.period) for f, _ in run.facts}, key=_period_order)
        what = _metric_name(run.q.metric)
        if run.q.kind == "growth" and any(u == "base" for _, u in here):
            return _decide(run, "period", "no-evidence",
                           f"The room has {what} for {run.label()} but not for {_comparison(run)}, "
                           f"so the growth cannot be computed, and it prints no growth rate.")
        if here:
            # Some inputs are in the claim's period (revenue, say), not all: that is no period mismatch.
            held = sorted({_metric_name(f.metric) for f, _ in here})
            return _decide(run, "period", "no-evidence",
                           f"The room has {', '.join(held)} for {run.label()}, but neither prints {what} nor holds "
                           f"every figure needed to compute it.")
        return _decide(run, "period", "no-evidence",
                       f"The room has {what} for {run.entity} only for {', '.join(other)}, not for {run.period}; "
                       f"a figure from another period is not evidence for this one.")
    others = len({id(f) for f, _ in run.facts}) - len({id(f) for f, _ in here})
    return RuleOutcome("period", "pass", f"{len({id(f) for f, _ in here})} facts for {run.period}"
                       + (f"; {others} from other periods kept only to explain a mismatch" if others else ""))


# ---------------------------------------------------------------- rule 5: scale


def _scale(run: _Run) -> RuleOutcome:
    detail = f"claim {run.claim.printed} = {_fmt(run.claimed, run.dim)} in base units"
    same = [f for f, u in run.facts if u == "printed" and _same_period(run.period, f)
            and _same_basis(run.basis(f), run.claim_basis)]
    if not same or run.q.kind != "value":
        return RuleOutcome("scale", "pass", detail)
    fact = max(same, key=run.recency)
    detail += f"; room {fact.as_printed} in {scale_name(fact.scale)} = {_fmt(fact.value, run.dim)}"
    if run.claimed and abs(fact.value - run.claimed) > max(run.tol, _half_unit(fact)):
        if shift := _scale_shift(run, fact.value):
            run.scale_shift = shift
            return RuleOutcome("scale", "fail", detail + f"; the claim is off by a factor of {10 ** abs(shift):,}")
    return RuleOutcome("scale", "pass", detail)


def _scale_shift(run: _Run, found: Decimal) -> int:
    """The power of ten (a thousand, a million, a billion; a hundred for points printed as basis points)
    by which the claim misstates ``found``, or 0."""
    shifts = (2, -2) if run.dim == "points" or run.claim.scale == -2 else (3, 6, 9, -3, -6, -9)
    for shift in shifts:
        if run.claimed and abs(found - run.claimed.scaleb(shift)) <= run.tol.scaleb(shift):
            return shift
    return 0


# ---------------------------------------------------------------- rule 6: compute


def _in_period(run: _Run, c: _Candidate) -> bool:
    return c.period == run.period or (c.how == "printed" and _same_period(run.period, c.inputs[0][0]))


def _printed_candidate(run: _Run, fact: Fact, use: str) -> _Candidate:
    value = fact.value
    if run.outflow and run.q.kind == "value" and value and run.claimed and (value < 0) != (run.claimed < 0):
        value = -value  # "Interest expense (182,649)" on the slide, 182,649 tagged: one outflow
    return _Candidate(
        value=value, metric=fact.metric, basis=run.basis(fact), period=_norm_period(fact.period),
        how="printed", inputs=((fact, "evidence"),), half=_half_unit(fact), recency=run.recency(fact),
        alternate=use == "alternate",
    )


def _tier(fact: Fact) -> int:
    """How directly a figure was read: a tagged iXBRL cell, then a table cell, then a sentence."""
    if fact.source.kind == "ixbrl" or fact.source.concept:
        return 0
    return 1 if fact.source.kind == "table" else 2


def _best(run: _Run, facts: list[Fact]) -> Fact:
    return max(facts, key=lambda f: (-_tier(f), run.recency(f), -_half_unit(f)))


def _readings(run: _Run, facts: list[Fact], limit: int = 3) -> list[Fact]:
    """The distinct values the most direct, most recent facts give one slot, best first."""
    best = _best(run, facts)
    rank = (_tier(best), run.recency(best))
    out: list[Fact] = []
    for f in sorted(facts, key=_half_unit):
        if (_tier(f), run.recency(f)) == rank and all(f.value != o.value for o in out):
            out.append(f)
    out.sort(key=lambda f: f is not best)
    return out[:limit]


def _groups(run: _Run, use: str) -> dict[tuple[str, str, str], list[Fact]]:
    out: dict[tuple[str, str, str], list[Fact]] = {}
    for f, u in run.facts:
        if u == use:
            out.setdefault((f.metric, _norm_period(f.period), run.basis(f)), []).append(f)
    return out


def _computed(run: _Run) -> list[_Candidate]:
    q, out = run.q, []
    if q.kind == "share" and q.part:
        out.extend(_slice_share(run))
    if q.kind in ("margin", "share", "ratio"):
        nums, dens = _groups(run, "num"), _groups(run, "den")
        for (_, period, basis), nfacts in nums.items():
            # A segment's margin divides by that segment's revenue; a non-GAAP margin by reported revenue.
            options = [fs for (_, p, b), fs in dens.items() if p == period and _same_basis(b, basis)]
            if not options and not basis.startswith("segment:"):
                options = [fs for (_, p, b), fs in dens.items() if p == period and b in ("reported", "own")]
            if not options:
                continue
            # A total the room prints two ways ("Net sales" 674,538 and "Total revenues" 680,985; "Automotive
            # sales" and "Total automotive revenues") is one reading each: every one is computed and shown.
            for n, d in ((n, d) for n in _readings(run, nfacts) for d in _readings(run, options[0])):
                if d.value == 0 or _dimension(n.unit) != _dimension(d.unit):
                    continue
                # Outflows such as capex are printed in parentheses: a coverage ratio divides by their size.
                value = n.value / abs(d.value)
                if q.kind != "ratio":
                    value *= _HUNDRED
                out.append(_Candidate(
                    value=value, metric=q.metric, basis=basis, period=period, how="computed",
                    inputs=(*_cited(run, n, "numerator"), *_cited(run, d, "denominator")), half=_ZERO,
                    recency=max(run.recency(n), run.recency(d)),
                    arithmetic=f"{n.as_printed} / {d.as_printed} = "
                               f"{_fmt(value, 'multiple' if q.kind == 'ratio' else 'percent')}",
                ))
    elif q.kind == "change":
        out.extend(_margin_change(run))
    elif q.kind == "growth":
        bases = _groups(run, "base")
        for (metric, period, basis), cfacts in bases.items():
            prior = _comparison(run) if period == run.period else _prior(period)
            pfacts = [fs for (m, p, b), fs in bases.items() if m == metric and p == prior and _same_basis(b, basis)]
            if not pfacts:
                continue
            # A total the room prints two ways ("Net sales" and "Total revenues") grows two ways, each
            # line over its own prior year: every reading is computed and shown, as for margins.
            priors = _readings(run, pfacts[0])
            for c in _readings(run, cfacts):
                p = next((f for f in priors if _line(f) == _line(c)), priors[0])
                if p.value == 0:
                    continue
                years = run.claim.compounded_years if period == run.period else 0
                if years > 1 and (ratio := c.value / p.value) > 0:
                    # A compound annual rate: the year-on-year growth that, repeated, goes from one to the other.
                    value = (ratio ** (Decimal(1) / years) - 1) * _HUNDRED
                    how = f"({c.as_printed} / {p.as_printed})^(1/{years}) - 1"
                else:
                    value = (c.value - p.value) / abs(p.value) * _HUNDRED
                    how = f"{c.as_printed} / {p.as_printed} - 1"
                if run.outflow and c.value < 0 and p.value < 0:
                    value = -value  # an outflow printed in parentheses grows as it gets bigger: (335) on (319) is +5%
                out.append(_Candidate(
                    value=value, metric=growth_metric(metric), basis=basis, period=period, how="computed",
                    inputs=(*_cited(run, c, "current"), *_cited(run, p, "prior")), half=_ZERO,
                    recency=max(run.recency(c), run.recency(p)), alternate=not _same_metric(metric, q.metric),
                    arithmetic=f"{how} = {_fmt(value, 'percent')}",
                ))
    return out


# A quarter no document prints is the year to date less the quarters before it: Q1 = H1 - Q2 from a
# second-quarter 10-Q, Q3 = 9M - H1, Q4 = FY - 9M.
_QUARTER_FROM = {"Q1": ("H1", "Q2"), "Q2": ("H1", "Q1"), "Q3": ("9M", "H1"), "Q4": ("", "9M")}


def _year_to_date_of(period: str) -> tuple[str, str] | None:
    """The (year to date, other part) periods whose difference is the quarter ``period``."""
    m = re.fullmatch(r"(Q[1-4]) FY(\d{4})", period)
    if m is None:
        return None
    whole, part = _QUARTER_FROM[m.group(1)]
    return f"{whole} FY{m.group(2)}".strip(), f"{part} FY{m.group(2)}"


def _quarter_parts(run: _Run) -> list[tuple[Fact, Fact]]:
    """(year-to-date, other part) pairs of printed figures that give the claim's quarter, one per basis."""
    want = _year_to_date_of(run.period)
    reg = by_id(quantity(run.q.metric).base)
    if want is None or reg is None or reg.instant or reg.unit not in ("USD", "count"):
        return []
    by: dict[tuple[str, str], list[Fact]] = {}
    for f, u in run.facts:
        if u == "printed" and _norm_period(f.period) in want:
            by.setdefault((_norm_period(f.period), run.basis(f)), []).append(f)
    out = []
    for (period, basis), facts in by.items():
        if period == want[0] and (want[1], basis) in by:
            out.append((_best(run, facts), _best(run, by[(want[1], basis)])))
    return out


# The twelve months to a quarter are the last fiscal year plus this year to date less last year's:
# TTM Q2 FY2025 = FY2024 + H1 FY2025 - H1 FY2024, all in a 10-K and the quarter's 10-Q.
_TO_DATE_OF = {"1": "Q1", "2": "H1", "3": "9M"}


def _trailing_parts(run: _Run) -> list[tuple[Fact, Fact, Fact]]:
    """(last fiscal year, this year to date, last year to date) printed figures that give the claim's
    trailing twelve months, one triple per basis."""
    m = re.fullmatch(r"TTM Q([1-3]) FY(\d{4})", run.period)
    reg = by_id(quantity(run.q.metric).base)
    if m is None or reg is None or reg.instant or reg.unit not in ("USD", "count"):
        return []
    year, part = int(m.group(2)), _TO_DATE_OF[m.group(1)]
    want = (f"FY{year - 1}", f"{part} FY{year}", f"{part} FY{year - 1}")
    by: dict[tuple[str, str], list[Fact]] = {}
    for f, u in run.facts:
        if u == "printed" and _norm_period(f.period) in want:
            by.setdefault((_norm_period(f.period), run.basis(f)), []).append(f)
    bases = {b for _, b in by}
    return [(_best(run, by[(want[0], b)]), _best(run, by[(want[1], b)]), _best(run, by[(want[2], b)]))
            for b in sorted(bases) if all((w, b) in by for w in want)]


def _derived_trailing(run: _Run) -> list[_Candidate]:
    out = []
    for year, now, then in _trailing_parts(run):
        value = year.value + now.value - then.value
        out.append(_Candidate(
            value=value, metric=run.q.metric, basis=run.basis(year), period=run.period, how="computed",
            inputs=((year, "evidence"), (now, "evidence"), (then, "other-period")),
            half=_half_unit(year) + _half_unit(now) + _half_unit(then),
            recency=max(run.recency(year), run.recency(now), run.recency(then)),
            arithmetic=f"{year.as_printed} ({_norm_period(year.period)}) + {now.as_printed} "
                       f"({_norm_period(now.period)}) - {then.as_printed} ({_norm_period(then.period)}) "
                       f"= {_fmt(value, run.dim)}",
        ))
    return out


def _derived_quarters(run: _Run) -> list[_Candidate]:
    out = []
    for whole, part in _quarter_parts(run):
        value = whole.value - part.value
        out.append(_Candidate(
            value=value, metric=run.q.metric, basis=run.basis(whole), period=run.period, how="computed",
            inputs=((whole, "evidence"), (part, "other-period")), half=_half_unit(whole) + _half_unit(part),
            recency=max(run.recency(whole), run.recency(part)),
            arithmetic=f"{whole.as_printed} ({_norm_period(whole.period)}) - {part.as_printed} "
                       f"({_norm_period(part.period)}) = {_fmt(value, run.dim)}",
        ))
    return out


def _slice_share(run: _Run) -> list[_Candidate]:
    """A named slice's share of the whole: the whole's figure on that slice's segment basis (a tagged
    "Data Center" revenue) over the whole's reported total."""
    q, out = run.q, []
    wanted = "segment:" + " ".join(_member_words(q.part or ""))
    totals = {p: fs for (_, p, b), fs in _groups(run, "den").items() if b in ("reported", "own")}
    for f, use in run.facts:
        if use != "den" or not _same_basis(run.basis(f), wanted):
            continue
        period = _norm_period(f.period)
        if period not in totals:
            continue
        for d in _readings(run, totals[period]):
            if d.value == 0 or _dimension(f.unit) != _dimension(d.unit):
                continue
            value = f.value / abs(d.value) * _HUNDRED
            out.append(_Candidate(
                value=value, metric=q.metric, basis=run.claim_basis, period=period, how="computed",
                inputs=((f, "numerator"), (d, "denominator")), half=_ZERO, recency=max(run.recency(f), run.recency(d)),
                arithmetic=f"{f.as_printed} / {d.as_printed} = {_fmt(value, 'percent')}",
            ))
    return out


def _margin_at(run: _Run, period: str) -> list[tuple[Decimal, Decimal, str, tuple[Fact, ...]]]:
    """A margin for ``period`` by basis, with how far its printing leaves it open: computed from its
    numerator and denominator (exact), else as printed ("55.8%" is +/-0.05 points)."""
    out: list[tuple[Decimal, Decimal, str, tuple[Fact, ...]]] = []
    nums, dens = _groups(run, "num"), _groups(run, "den")
    for (_, p, basis), nfacts in nums.items():
        options = [fs for (_, dp, b), fs in dens.items() if dp == period and _same_basis(b, basis)]
        if p != period or not options:
            continue
        # One margin per way the room prints its inputs ("Net sales" and "Total revenues"), as _computed.
        for n in _readings(run, nfacts):
            for d in _readings(run, options[0]):
                if d.value:
                    out.append((n.value / abs(d.value) * _HUNDRED, _ZERO, basis, (n, d)))
    for (_, p, basis), facts in _groups(run, "base").items():
        if p == period and not any(_same_basis(b, basis) for _, _, b, _ in out):
            f = _best(run, facts)
            out.append((f.value, _half_unit(f), basis, (f,)))
    return out


def _line(fact: Fact) -> str:
    """The room's line a figure is printed on ("net sale", "total revenue"), to pair years by."""
    return " ".join(_words(fact.label or ""))


def _denominator_line(inputs: tuple[Fact, ...]) -> str | None:
    return _line(inputs[1]) if len(inputs) == 2 else None


def _margin_change(run: _Run) -> list[_Candidate]:
    prior = _comparison(run)
    if prior is None:
        return []
    out = []
    thens = _margin_at(run, prior)
    for now, now_half, basis, now_in in _margin_at(run, run.period):
        same_basis = [t for t in thens if _same_basis(basis, t[2])]
        # A move is one margin less the same margin a year before: over the same line ("Net sales" both
        # years), never this year's net sales against last year's total revenues.
        same_line = [t for t in same_basis if _denominator_line(t[3]) == _denominator_line(now_in) is not None]
        for then, then_half, _, then_in in same_line or same_basis:
            value = now - then
            inputs = tuple((f, "current") for f in now_in) + tuple((f, "prior") for f in then_in)
            out.append(_Candidate(
                value=value, metric=growth_metric(run.q.metric), basis=basis, period=run.period, how="computed",
                inputs=inputs, half=now_half + then_half, recency=max(run.recency(f) for f, _ in inputs),
                arithmetic=f"{_fmt(now, 'percent')} - {_fmt(then, 'percent')} = {_fmt(value, 'points')}",
            ))
    return out


def _compute(run: _Run) -> RuleOutcome:
    if not run.claim.basis_stated and run.claim_basis == "non-GAAP" and not any(
            run.basis(f) == "non-GAAP" for f, u in run.facts if u != "alternate" and _same_period(run.period, f)):
        # Revenue on a "Non-GAAP Highlights" slide: the slide's basis was never the claim's own, and a
        # quantity the room has on no other basis is the reported one.
        run.basis_fallback = "reported"
    run.candidates = [_printed_candidate(run, f, u) for f, u in run.facts if u in ("printed", "alternate")]
    if run.q.kind == "value":
        derived = _derived_quarters(run) + _derived_trailing(run)
        run.candidates += derived
        if not derived:
            return RuleOutcome("compute", "skip", "a value claim: nothing to compute")
        return RuleOutcome("compute", "pass", "; ".join(c.arithmetic for c in derived[:3]))
    computed = _computed(run)
    run.candidates += computed
    if not any(_in_period(run, c) for c in run.candidates):
        return _decide(run, "compute", "no-evidence",
                       f"The room neither prints {_metric_name(run.q.printed[0])} for {run.label()} nor holds "
                       f"both figures needed to compute it.")
    shown = [c for c in computed if c.period == run.period][:3]
    detail = "; ".join(c.arithmetic for c in shown) or "nothing computed for the claimed period"
    printed = [c for c in run.candidates if c.how == "printed" and _in_period(run, c)]
    if printed:
        detail += f"; the room also prints {', '.join(c.inputs[0][0].as_printed for c in printed[:3])}"
    return RuleOutcome("compute", "pass", detail)


# ---------------------------------------------------------------- rule 7: band


def _band_of(run: _Run, c: _Candidate) -> Decimal:
    return max(run.tol, c.half)


def _within(run: _Run, c: _Candidate) -> bool:
    bound = run.claim.bound
    if bound in ("ge", "gt"):
        return c.value >= run.claimed
    if bound in ("le", "lt"):
        return c.value <= run.claimed
    if bound == "approx" or c.half > run.tol:
        return abs(c.value - run.claimed) <= _band_of(run, c)
    # Exactly half a unit off is a tie: it rounds away from zero, as filings round, so 36.5 is not "36%".
    unit = _in_points(Decimal(1).scaleb(run.claim.scale - run.claim.decimals), run.claim.unit)
    return c.value.quantize(unit, rounding=ROUND_HALF_UP) == run.claimed


def _same_slot(run: _Run, c: _Candidate) -> bool:
    if c.alternate:
        # "Advertising services revenue" against revenue tagged AdvertisingServicesMember, "Subscription
        # and support" against SubscriptionAndSupportMember: the line the claim names, as a member.
        return c.metric == "revenue" and c.basis.startswith("segment:") and run.claim.label != "" and \
            "revenue" in alternates(run.q.metric) and _member_is(run.claim.label, c.basis[len("segment:"):])
    if _same_basis(c.basis, run.claim_basis):
        return True
    # "Professional services revenue" against the room's own "Professional services" line: the slice
    # the claim names is the line the room prints, not a segment of it.
    claim = run.claim_basis
    return claim.startswith("segment:") and c.basis == "reported" and c.how == "printed" and \
        _names_slice(c.inputs[0][0].label or "", claim[len("segment:"):])


@lru_cache(maxsize=16384)
def _slice_words(text: str) -> frozenset[str]:
    return frozenset(w for w in _words(text) if w not in _BASIS_DROP)


def _member_is(label: str, member_words: str) -> bool:
    """A claim's line ("advertising services revenue") is the member with its words."""
    words = _slice_words(label) - {"revenue", "sale", "net"}
    return bool(words) and words == _slice_words(member_words)


def _names_slice(label: str, slice_words: str) -> bool:
    """The room's line ("Professional services") names every word of the claimed slice."""
    wanted = _slice_words(slice_words)
    return bool(wanted) and wanted <= set(_words(label))


def _decisive(run: _Run, pool: list[_Candidate]) -> list[_Candidate]:
    """The figures that decide a slot: printed at the claim's precision, else computed; latest filing."""
    printed = [c for c in pool if c.how == "printed"]
    if printed:
        # A sentence never outranks a table cell, nor a table cell a tagged one, for the same slot.
        top = min(_tier(c.inputs[0][0]) for c in printed)
        printed = [c for c in printed if _tier(c.inputs[0][0]) == top]
    fine = [c for c in printed if c.half <= run.tol]
    computed = [c for c in pool if c.how == "computed"]
    tagged = [c for c in computed if all(_tier(f) == 0 for f, _ in c.inputs)]
    if tagged and printed and _tier(printed[0].inputs[0][0]) > 0:
        # A margin computed from two tagged figures is a more direct reading than an untagged percentage,
        # which may be a segment's ("54%" Family of Apps margin printed beside Meta's 42%).
        chosen = tagged
    else:
        chosen = fine or computed or printed
    newest = max(c.recency for c in chosen)
    return sorted((c for c in chosen if c.recency == newest), key=lambda c: c.half)


def _band(run: _Run) -> RuleOutcome:
    same = [c for c in run.candidates if _in_period(run, c) and _same_slot(run, c)]
    bound = {"ge": ">=", "gt": ">=", "le": "<=", "lt": "<="}.get(run.claim.bound)
    want = f"{bound} {_fmt(run.claimed, run.dim)}" if bound else f"{_fmt(run.claimed, run.dim)} +/- {_fmt(run.tol, run.dim)}"
    if not same:
        return RuleOutcome("band", "skip", f"claim {want}; no same-basis figure for {run.period} to hold against it")
    decisive = _decisive(run, same)
    hit = next((c for c in decisive if _within(run, c)), None)
    c = hit or decisive[0]
    return RuleOutcome("band", "pass" if hit else "fail",
                       f"claim {want}; room {_fmt(c.value, run.dim)} ({c.how}) is {'within' if hit else 'outside'} the band")


# ---------------------------------------------------------------- rule 8: basis


def _where(c: _Candidate) -> str:
    fact = c.inputs[0][0]
    if c.how == "computed":
        return f"computed {c.arithmetic} from {fact.document}"
    return f"{fact.as_printed} in {fact.document}"


def _basis(run: _Run) -> RuleOutcome:
    here = [c for c in run.candidates if _in_period(run, c)]
    same = [c for c in here if _same_slot(run, c)]
    other = [c for c in here if not _same_slot(run, c)]
    claim_basis = run.claim_basis
    name = _metric_name(run.q.printed[0])
    subject = name if claim_basis in ("reported", "own") else _basis_name(claim_basis, name)
    printed = run.claim.printed or str(run.claim.value)

    if same:
        decisive = _decisive(run, same)
        hit = next((c for c in decisive if _within(run, c)), None)
        primary = hit or decisive[0]
        cited = list(primary.inputs)
        cited += [x for c in decisive if c is not primary for x in c.inputs][:2]
        conflict = _conflict_note(run, same, primary, cited)
        band = _band_of(run, primary)
        if hit:
            how = f"computed {primary.arithmetic}" if primary.how == "computed" else f"printed {primary.inputs[0][0].as_printed}"
            coarse = f", which the room prints only to +/-{_fmt(primary.half, run.dim)}" if primary.half > run.tol else ""
            return _decide(run, "basis", "supported",
                           f"{run.entity} {subject} for {run.period} is {_fmt(primary.value, run.dim)} ({how}, "
                           f"{primary.inputs[0][0].document}), matching {printed}{coarse}{conflict}.",
                           found=primary.value, band=band, cited=cited)
        match = _best_other(run, other)
        if match is not None:
            cited += [(f, "other-basis") for f, _ in match.inputs]
            what = _metric_name(match.metric) if match.alternate else _basis_name(match.basis, name)
            return _decide(run, "basis", "different-basis",
                           f"The {_basis_name(claim_basis, name)} for {run.label()} is {_fmt(primary.value, run.dim)}, not "
                           f"{printed}; {printed} matches the {what} ({_where(match)}){conflict}.",
                           found=primary.value, band=band, cited=cited)
        weaker = next((c for c in same if c.how == "printed" and c.recency == primary.recency and c.half <= run.tol
                       and _within(run, c) and _tier(c.inputs[0][0]) > _tier(primary.inputs[0][0])), None)
        if weaker is not None:
            # The most direct reading misses and a less direct one matches ("purchases of property and
            # equipment" against the company's own "capital expenditures ... were $39.23 billion"): the
            # room does not settle the slot, and saying contradicted would be a guess.
            return _decide(run, "basis", "no-evidence",
                           f"The room's figures for {run.entity} {subject} {run.period} disagree: "
                           f"{_fmt(primary.value, run.dim)} ({_where(primary)}) but {_fmt(weaker.value, run.dim)} "
                           f"({_where(weaker)}), which matches {printed}.",
                           cited=[*primary.inputs, *((f, "other-basis") for f, _ in weaker.inputs)])
        earlier = next((c for c in same if c.how == "printed" and c.recency < primary.recency and c.half <= run.tol
                        and _within(run, c) and _tier(c.inputs[0][0]) <= _tier(primary.inputs[0][0])), None)
        if earlier is not None and primary.how == "printed":
            # The claim is the figure as first reported, and a later filing prints another for the same
            # slot: J&J's 8-K recasts fiscal 2022 without Kenvue (79,990 against the 10-K's 94,943). A
            # restatement is another basis the room does not name, so the room does not settle the claim.
            return _decide(run, "basis", "no-evidence",
                           f"The room's figures for {run.entity} {subject} {run.period} disagree: "
                           f"{_fmt(earlier.value, run.dim)} ({_where(earlier)}) matches {printed}, but the later "
                           f"{primary.inputs[0][0].document} prints {_fmt(primary.value, run.dim)}, which may restate it.",
                           cited=[*primary.inputs, *((f, "superseded") for f, _ in earlier.inputs)])
        # A margin's move in points may be the difference of the two margins each rounded to a tenth
        # (P&G's "up 90 basis points" against 23.05% - 22.08% unrounded): up to a tenth either way.
        slack = max(2 * run.tol, _TENTH) if run.q.kind == "change" else 2 * run.tol
        if primary.how == "computed" and run.q.kind in ("growth", "margin", "share", "change") and not run.scale_shift \
                and run.claim.bound in ("eq", "approx") and abs(primary.value - run.claimed) <= slack:
            # "Up 1.3%" against 94,943 / 93,775 - 1 = 1.25%, "10% of revenue" against 10.50%: within one
            # printed unit, the company's own rounding (or its unrounded figures) may give the claim's
            # figure; the room prints no rate to say.
            return _decide(run, "basis", "no-evidence",
                           f"{run.entity} {subject} for {run.period} computes to {_fmt(primary.value, run.dim)} "
                           f"({primary.arithmetic}, {primary.inputs[0][0].document}), within one printed unit of "
                           f"{printed}; the room prints no rate that settles it.",
                           cited=list(primary.inputs))
        if primary.how == "printed" and _tier(primary.inputs[0][0]) == 2 and not run.scale_shift:
            # A sentence is read more loosely than a cell ("an increase of $56.1 million in sales and
            # marketing"): alone it may support a claim, but not contradict one.
            return _decide(run, "basis", "no-evidence",
                           f"The room states {_basis_name(claim_basis, name)} for {run.label()} only in a sentence "
                           f"({_where(primary)}), which does not match {printed}; a sentence alone does not "
                           f"settle a contradiction.",
                           cited=list(primary.inputs))
        shifted = _period_shift(run)
        if run.q.kind in ("value", "change") and not run.scale_shift:
            run.scale_shift = next((k for c in same if (k := _scale_shift(run, c.value))), 0)
        # A registry quantity's growth rate or margin is the same quantity at any size: 14.5% against
        # 0.54% is a wrong rate, -0.6% against 6.41% a wrong margin.
        rate = run.q.kind in ("growth", "margin") and not is_label(run.q.metric)
        if not run.scale_shift and shifted is None and not rate and _another_magnitude(run.claimed, primary.value):
            # "0.66" (a per-share line) against $6.959M, "7%" against -94.5%: a figure that far off is
            # another quantity read under this one's name, not a wrong figure for it.
            return _decide(run, "basis", "no-evidence",
                           f"The nearest {_basis_name(claim_basis, name)} the room has for {run.label()} is "
                           f"{_fmt(primary.value, run.dim)} ({_where(primary)}), of another magnitude than "
                           f"{printed}: not taken as the same quantity.",
                           cited=[(f, "other-basis") for f, _ in primary.inputs])
        if shifted is not None and not run.scale_shift and _heading_names(run.claim, shifted.period):
            # "Q4 and FY24 Results At a Glance": the figure's period was the heading's, which names
            # the quarter as well as the year, and the quarter's figure is the one printed.
            return _decide(run, "basis", "supported",
                           f"{run.entity} {subject} for {shifted.period} is {_fmt(shifted.value, run.dim)} "
                           f"({_where(shifted)}), matching {printed}; the claim takes its period from "
                           f"{run.claim.resolution.period}, which names {shifted.period} as well as {run.period}.",
                           found=shifted.value, band=_band_of(run, shifted), cited=list(shifted.inputs))
        later = _next_year_on_any_basis(run) or shifted
        if later is not None and not run.scale_shift and (early := _early_year_end(run, later)):
            # Salesforce's fiscal 2025 ran February 2024 to January 2025 (Amcor's to June 2023, half in 2022):
            # a table of several companies headed "FY2024" may mean the year that fell mostly or half in
            # 2024, so the later year's figure under that heading is not shown to be wrong.
            return _decide(run, "basis", "no-evidence",
                           f"{printed} is {run.entity}'s {later.period} figure ({_where(later)}), not its "
                           f"{run.period} one ({_fmt(primary.value, run.dim)}); its fiscal year ends in {early}, so "
                           f"much of {later.period} falls in the calendar year a heading shared with other companies "
                           f"may call {run.period}, and the room does not settle which year the deck means.",
                           cited=[*primary.inputs, *((f, "other-period") for f, _ in later.inputs)])
        reason = (f"{run.entity} {subject} for {run.period} is {_fmt(primary.value, run.dim)} ({_where(primary)}), "
                  f"not {printed}")
        if run.scale_shift:
            reason += f"; the claim is off by a factor of {10 ** abs(run.scale_shift):,} (a scale error)"
        if shifted is not None:
            cited += [(f, "other-period") for f, _ in shifted.inputs]
            reason += f"; {printed} is the {shifted.period} figure (a period shift)"
        return _decide(run, "basis", "contradicted", reason + conflict + ".", found=primary.value, band=band, cited=cited)

    match = _best_other(run, other)
    if match is not None and claim_basis in _AS_IF and match.basis == "reported" and not match.alternate:
        # "Professional services 18% Y/Y CC" against reported growth of 17.5% where the room prints no
        # constant-currency figure for it: the two rates are often the same, so the reported one
        # matching does not show that the deck stated another basis than the one it names.
        return _decide(run, "basis", "no-evidence",
                       f"The room has no {_basis_name(claim_basis, name)} for {run.label()}; {printed} matches the "
                       f"{_basis_name(match.basis, _metric_name(match.metric))} ({_where(match)}), which may "
                       f"equal it, so the room does not settle the {claim_basis} figure.",
                       cited=[(f, "other-basis") for f, _ in match.inputs])
    if match is not None:
        return _decide(run, "basis", "different-basis",
                       f"The room has no {_basis_name(claim_basis, name)} for {run.label()}; {printed} matches the "
                       f"{_basis_name(match.basis, _metric_name(match.metric))} ({_where(match)}).",
                       found=match.value, band=_band_of(run, match),
                       cited=[(f, "other-basis") for f, _ in match.inputs])
    seen = "; ".join(f"{_basis_name(c.basis, _metric_name(c.metric))} {_fmt(c.value, run.dim)}" for c in other[:3])
    return _decide(run, "basis", "no-evidence",
                   f"The room has no {_basis_name(claim_basis, name)} for {run.label()}, only figures on other bases "
                   f"that do not match ({seen}).",
                   cited=[(f, "other-basis") for c in other[:3] for f, _ in c.inputs])


def _heading_names(claim: Claim, period: str) -> bool:
    """Whether the slide title or subtitle the claim took its period from also names ``period``
    ("Q4 and FY24 Results" names Q4 FY2024 and FY2024); a period the claim's own words state is
    never widened."""
    where, text = claim.resolution.period or "", claim.resolution.period_text or ""
    if not where.startswith(("slide title", "slide subtitle")) or not text:
        return False
    year = _norm_period(period_from_text(text) or "")
    named = {year}
    if (q := bare_quarter(text)) and year.startswith("FY"):
        named.add(f"Q{q} {year}")
    return _norm_period(period) in named


_TENTH = Decimal("0.1")


def _next_year_on_any_basis(run: _Run) -> _Candidate | None:
    """A figure of the next fiscal year, on any basis, that the claim matches ("$7.08", Best Buy's adjusted
    EPS for the year after the heading's)."""
    now = _fiscal_year(run.period)
    return next((c for c in run.candidates if now and _fiscal_year(c.period) == now + 1 and _within(run, c)
                 and run.period[:-6] == c.period[:-6]), None)


def _early_year_end(run: _Run, shifted: _Candidate) -> str | None:
    """The month a company's fiscal year ends in, when that is January to June and the claim's period
    came from a heading rather than its own words, and the figure it matches is the next fiscal year's."""
    where = run.claim.resolution.period or ""
    if not where.startswith(("column header", "slide title", "slide subtitle", "table corner")):
        return None
    now, then = re.search(r"FY(\d{4})$", run.period), re.search(r"FY(\d{4})$", shifted.period)
    if not now or not then or int(then.group(1)) != int(now.group(1)) + 1 \
            or run.period[: now.start()] != shifted.period[: then.start()]:
        return None
    fye = next((c.fiscal_year_end for c in run.docs if c.fiscal_year_end), None)
    month = int(fye[2:4]) if fye and re.fullmatch(r"--\d{2}-\d{2}", fye) else 12
    return calendar.month_name[month] if month <= 6 else None


def _another_magnitude(claimed: Decimal, found: Decimal) -> bool:
    """True when two figures' sizes differ by more than a factor of ten (a sign alone is a real contradiction:
    "up 7%" against a 7.5% decline)."""
    if abs(claimed) == abs(found):
        return False
    if claimed == 0 or found == 0:
        return True
    ratio = abs(claimed / found)
    return ratio > 10 or ratio < Decimal("0.1")


def _another_slice(run: _Run, c: _Candidate) -> bool:
    """A figure for another segment than the one claimed is another quantity, not another basis."""
    claim = run.claim_basis
    return claim.startswith("segment:") and c.basis.startswith("segment:") and not _same_basis(c.basis, claim)


# Bases that restate the reported figure as if currencies or the company's shape had not moved.
_AS_IF = ("constant-currency", "organic")


def _best_other(run: _Run, other: list[_Candidate]) -> _Candidate | None:
    if run.claim.bound in ("gt", "ge", "lt", "le"):
        # "Slack revenue topped $400 million": any larger figure on another basis (the company's $8.2
        # billion) meets a one-sided bound, so meeting it says nothing about which basis the deck used.
        return None
    hits = [c for c in other if _within(run, c) and not _another_slice(run, c)]
    # Prefer the same quantity on another basis over another quantity, and a printed figure over a computed one.
    hits.sort(key=lambda c: (c.alternate, c.how != "printed", c.half))
    return hits[0] if hits else None


def _period_shift(run: _Run) -> _Candidate | None:
    # A figure for a year more than one after the claim's is a schedule's (debt maturing in 2028), not the
    # value a deck shifted by a period.
    horizon = (_fiscal_year(run.period) or 9998) + 1
    shifted = [c for c in run.candidates if not _in_period(run, c) and _same_slot(run, c) and _within(run, c)
               and (_fiscal_year(c.period) or 0) <= horizon]
    shifted.sort(key=lambda c: (c.how != "printed", _period_order(c.period)))
    return shifted[0] if shifted else None


def _conflict_note(run: _Run, same: list[_Candidate], primary: _Candidate, cited: list[tuple[Fact, str]]) -> str:
    # Only as direct a reading as the primary's can disagree with it: a sentence about one segment
    # ("$6.3 billion of cross-border revenue") is not a second opinion on a tagged total.
    tier = _tier(primary.inputs[0][0])
    clashes = [c for c in same if c.how == "printed" and c is not primary and _tier(c.inputs[0][0]) <= tier
               and abs(c.value - primary.value) > max(c.half, primary.half)]
    if not clashes:
        return ""
    for c in clashes[:2]:
        role = "superseded" if c.recency < primary.recency else "evidence"
        cited.extend((f, role) for f, _ in c.inputs)
    other = clashes[0]
    matches = " (the claim matches that one)" if _within(run, other) and not _within(run, primary) else ""
    if other.recency < primary.recency:
        return (f"; the room also has {other.inputs[0][0].as_printed} in {other.inputs[0][0].document}{matches}, "
                f"superseded by the later {primary.inputs[0][0].document}")
    return (f"; note the room also prints {other.inputs[0][0].as_printed} for this slot in "
            f"{other.inputs[0][0].document}{matches}")


# ---------------------------------------------------------------- the engine


def _decide(run: _Run, rule: str, verdict: str, reason: str, *, found: Decimal | None = None,
            band: Decimal | None = None, cited: list[tuple[Fact, str]] | None = None) -> RuleOutcome:
    run.decision = _Decision(verdict, reason, found, band, cited or [])
    run.decided_by = rule
    return RuleOutcome(rule, "decided", f"{verdict}: {reason}")  # type: ignore[arg-type]


def _provenance(claim: Claim) -> str:
    said = [f"company from {claim.resolution.entity}" if claim.resolution.entity else "",
            f"period from {claim.resolution.period}" if claim.resolution.period else ""]
    return f" ({'; '.join(x for x in said if x)})" if any(said) else ""


def _citation(fact: Fact, role: str) -> Citation:
    s = fact.source
    return Citation(
        document=fact.document, document_id=fact.document_id, locator=s.locator, as_printed=fact.as_printed, section=s.section, table=s.table,
        row=s.row, column=s.column, page=s.page, bbox=s.bbox, concept=s.concept, role=role,
    )


# A quantity outside the registry is an outflow when its name says so.
_OUTFLOW = re.compile(r"\b(?:expenses?|costs?|capex|capital expenditures?|purchases?|payments?|repurchases?|"
                      r"dividends? paid|outflows?)\b", re.I)


_STEPS: tuple[tuple[str, Callable[[_Run], RuleOutcome]], ...] = (
    ("scope", _scope), ("locate", _locate), ("unit", _unit), ("period", _period),
    ("scale", _scale), ("compute", _compute), ("band", _band), ("basis", _basis),
)


def evaluate(claim: Claim, evidence: Evidence) -> Iterator[RuleOutcome | Verdict]:
    """Run the rules in order, yielding each outcome as it completes and then the verdict."""
    run = _Run(claim, evidence, question(claim))
    run.dim = _claim_dimension(claim, run.q)
    run.claimed, run.tol = _claimed(claim), tolerance(claim)
    base = quantity(run.q.metric).base
    reg = by_id(base)
    run.outflow = (reg is not None and reg.outflow) or _OUTFLOW.search(f"{label_text(base)} {claim.label}") is not None
    trace: list[RuleOutcome] = []
    for name, step in _STEPS:
        outcome = step(run) if run.decision is None else RuleOutcome(name, "skip", f"decided by {run.decided_by}")  # type: ignore[arg-type]
        trace.append(outcome)
        yield outcome
    decision = run.decision or _Decision("no-evidence", "No rule reached a decision.")
    if decision.verdict == "no-evidence" and run.entity and claim.period:
        decision.reason += f" Resolved as {_metric_name(run.q.metric)} of {run.label()}{_provenance(claim)}."
    seen: set[tuple[str, str, str]] = set()
    citations = []
    for fact, role in decision.cited:
        key = (fact.document, fact.source.locator, fact.as_printed)
        if key not in seen:
            seen.add(key)
            citations.append(_citation(fact, role))
    yield Verdict(
        claim_id=claim.id, verdict=decision.verdict, reason=decision.reason,  # type: ignore[arg-type]
        claimed=run.claimed, found=decision.found, tolerance=decision.band if decision.band is not None else run.tol,
        citations=citations, trace=trace,
    )


def verify(claim: Claim, evidence: Evidence) -> Verdict:
    """The verdict alone, with its full trace."""
    for item in evaluate(claim, evidence):
        if isinstance(item, Verdict):
            return item
    raise AssertionError("evaluate() ends with a verdict")
