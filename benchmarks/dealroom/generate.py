"""Decks, rooms and labels built from the independent facts; every label known by construction.

A label comes from the facts the claim was built from, recomputed with ``Decimal`` before it is
written: supported means the printed figure is the fact (or the growth, margin or share computed
from facts) at the deck's printed precision; a planted trap states something the room's facts
contradict, give on another basis, or do not cover. A case the facts cannot decide cleanly (another
fact prints the same figure, a figure on a rounding boundary, two filings disagreeing) is dropped
and counted under ``dropped``.
"""

from __future__ import annotations

import random
import re
from collections import Counter, defaultdict
from decimal import ROUND_HALF_UP, Decimal
from typing import Callable, NamedTuple

import msgspec

from benchmarks.dealroom.facts import Fact, Filing
from benchmarks.dealroom.model import Block, DeckSpec, LabelledClaim, NonClaim, Slide, Stratum
from benchmarks.dealroom.periods import Period, classify, fiscal_year_end, phrase
from benchmarks.dealroom.vocab import (AUTHORS, BIOS, COMPANIES, GUIDANCE, MARGINS, MARKETS, METRICS,
                                       MISSING_METRICS, PRODUCT_AXIS, SEGMENT_AXIS, SUPERLATIVES, Company)

__all__ = ["Generated", "TRAPS", "generate", "room_text"]

D = Decimal
BILLION, MILLION = D(10) ** 9, D(10) ** 6
TRAPS = ("header-scale", "suffix", "cents", "pct-units", "prior-period", "quarter-vs-ytd", "fiscal-calendar",
         "segment-as-total", "wrong-growth", "wrong-margin", "uncovered-period", "missing-metric")
_NUM = re.compile(r"\d[\d,]*\.?\d*")
_YEARISH = re.compile(r"(19|20)\d\d")
MEMBER_NAMES = {
    "AmericasSegmentMember": "Americas", "EuropeSegmentMember": "Europe", "GreaterChinaSegmentMember": "Greater China",
    "JapanSegmentMember": "Japan", "RestOfAsiaPacificSegmentMember": "Rest of Asia Pacific", "IPhoneMember": "iPhone",
    "IPadMember": "iPad", "MacMember": "Mac", "WearablesHomeandAccessoriesMember": "Wearables, Home and Accessories",
    "ServiceMember": "Services", "AmazonWebServicesSegmentMember": "AWS",
    "InternationalSegmentMember": "International", "NorthAmericaSegmentMember": "North America",
    "FamilyOfAppsMember": "Family of Apps", "RealityLabsMember": "Reality Labs", "DataCenterMember": "Data Center",
    "GamingMember": "Gaming", "ProfessionalVisualizationMember": "Professional Visualization",
    "AutomotiveSegmentMember": "Automotive", "EnergyGenerationAndStorageSegmentMember": "Energy generation and storage",
    "WalmartUSMember": "Walmart U.S.", "WalmartInternationalMember": "Walmart International",
    "SamsClubUSMember": "Sam's Club U.S.", "SubscriptionandSupportMember": "Subscription and support",
    "CloudServicesAndLicenseSupportMember": "Cloud services and license support",
    "TechnologyServiceMember": "Technology services",
}


class Fig(NamedTuple):
    printed: str
    number: str
    claimed: Decimal
    tol: Decimal


def number_of(printed: str) -> str:
    m = _NUM.search(printed)
    return m.group(0).replace(",", "").rstrip(".") if m else ""


def _q(v: Decimal, step: str) -> Decimal:
    return v.quantize(D(step), rounding=ROUND_HALF_UP)


def money(v: Decimal, style: str, rng: random.Random) -> Fig:
    """A dollar amount as a deck prints it; ``style`` B1, B2, M0 or bare (millions, scale elsewhere)."""
    if style in ("B1", "B2"):
        x = _q(v / BILLION, "0.1" if style == "B1" else "0.01")
        suffix = rng.choice(["B", " billion", "bn"])
        printed = f"${x:,}{suffix}"
        return Fig(printed, number_of(printed), x * BILLION, D("0.05" if style == "B1" else "0.005") * BILLION)
    x = _q(v / MILLION, "1")
    if style == "bare":
        printed = f"{x:,}"
    else:
        printed = f"${x:,}{rng.choice(['M', ' million'])}"
    return Fig(printed, number_of(printed), x * MILLION, D("0.5") * MILLION)


def money_style(v: Decimal, rng: random.Random) -> str:
    if abs(v) < BILLION:
        return "M0"
    return rng.choice(["B1", "B1", "B2", "M0"]) if abs(v) < 20 * BILLION else rng.choice(["B1", "B1", "M0"])


def pct(v: Decimal, dp: int, *, sign: bool = False) -> Fig:
    x = _q(v, "1" if dp == 0 else "0." + "0" * (dp - 1) + "1")
    printed = f"{'+' if sign and x > 0 else ''}{x}%"
    return Fig(printed, number_of(printed), x, D("0.5") * D(10) ** -dp)


def _ref(f: Fact, path: str) -> str:
    dims = ",".join(f"{a}={m}" for a, m in f.dims)
    return f"{path}#{f.concept}@{f.start or ''}..{f.end}[{dims}]={f.value}"


class Val(NamedTuple):
    value: Decimal
    refs: tuple[str, ...]


class RoomFacts:
    """What one room's filings state, by entity, metric, period and dimensions."""

    def __init__(self, filings: list[Filing]) -> None:
        self.filings = filings
        self.fye: dict[str, tuple[int, int]] = {}
        for f in sorted(filings, key=lambda f: f.period_end):
            if f.fiscal_year_end:
                self.fye[f.ticker] = fiscal_year_end(f.fiscal_year_end)
        concept_metric = {c: m.id for m in METRICS.values() for c in m.concepts}
        # (ticker, metric, concept, period key, dims) -> values and the facts that state them
        self._vals: dict[tuple[str, str, str, str, tuple], dict[Decimal, list[str]]] = defaultdict(lambda: defaultdict(list))
        self._decimals: dict[tuple[tuple, Decimal], int | None] = {}
        self.periods: dict[str, dict[str, Period]] = defaultdict(dict)
        self.covered: dict[str, set[int]] = defaultdict(set)
        for f in filings:
            fye = self.fye.get(f.ticker, (12, 31))
            for fact in f.facts:
                p = classify(fact.start, fact.end, fye)
                if p is None:
                    continue
                self.covered[f.ticker].add(p.fy)
                metric = concept_metric.get(fact.concept)
                if metric is None:
                    continue
                if not fact.dims:
                    self.periods[f.ticker].setdefault(p.key, p)
                slot = (f.ticker, metric, fact.concept, p.key, fact.dims)
                self._vals[slot][D(fact.value)].append(_ref(fact, f.path))
                self._decimals[(slot, D(fact.value))] = fact.decimals

    def preferred(self, ticker: str, metric: str) -> str | None:
        for c in METRICS[metric].concepts:
            if any(k[0] == ticker and k[2] == c and not k[4] for k in self._vals):
                return c
        return None

    def _settle(self, slot: tuple) -> Val | None:
        """The slot's most precise value, if every other value it is tagged with agrees at its own
        precision (a table's 9,265 and the text's $9.3 billion); None when absent or in conflict."""
        found = self._vals.get(slot)
        if not found:
            return None
        def dec(v: Decimal) -> int:
            d = self._decimals.get((slot, v))
            return 99 if d is None else d
        best = max(found, key=dec)
        for v in found:
            if v != best and abs(v - best) > D(5) * D(10) ** (-dec(v) - 1):
                return None
        return Val(best, tuple(found[best][:1]))

    def get(self, ticker: str, metric: str, key: str, dims: tuple = ()) -> Val | None:
        """The one value the room states for this slot, or None (absent, or filings disagree)."""
        return self._settle((ticker, metric, self.preferred(ticker, metric) or "", key, dims))

    def conflicting(self, ticker: str, metric: str, key: str) -> bool:
        slot = (ticker, metric, self.preferred(ticker, metric) or "", key, ())
        return bool(self._vals.get(slot)) and self._settle(slot) is None

    def everything(self, ticker: str, metric: str) -> list[tuple[str, tuple, Decimal]]:
        """Every (period key, dims, value) of the metric's whole concept family; a concept other than
        the preferred one counts as a dimension of its own (another basis)."""
        out = []
        preferred = self.preferred(ticker, metric)
        for (t, m, c, key, dims), vals in self._vals.items():
            if t == ticker and m == metric:
                basis = dims if c == preferred else dims + (("concept", c),)
                out.extend((key, basis, v) for v in vals)
        return out

    def members(self, ticker: str, metric: str, key: str) -> list[tuple[str, Val]]:
        out = []
        concept = self.preferred(ticker, metric)
        for (t, m, c, k, dims), vals in self._vals.items():
            if (t, m, k) == (ticker, metric, key) and len(dims) == 1 and dims[0][0] in (SEGMENT_AXIS, PRODUCT_AXIS) \
                    and dims[0][1].split(":")[1] in MEMBER_NAMES and c == concept:
                settled = self._settle((t, m, c, k, dims))
                if settled is not None:
                    out.append((MEMBER_NAMES[dims[0][1].split(":")[1]], settled))
        return sorted(out)


def room_text(raw: list[bytes]) -> str:
    """The room's filings as lowercase words, to tell whether a metric is named anywhere in them."""
    parts = []
    for data in raw:
        text = re.sub(rb"<[^>]+>", b" ", data).decode("utf-8", "replace")
        parts.append(" ".join(re.sub(r"&[a-z#0-9]+;", " ", text).lower().split()))
    return " " + " ".join(parts) + " "


class Item(msgspec.Struct):
    """A claim before it is placed on a slide."""
    entity: str
    metric: str
    label: str
    period: str
    period_key: str
    kind: str
    trap: str
    expected: str
    why: str
    fig: Fig
    recomputed: str
    evidence: list[str]
    verb: str = "value"
    """value, growth, margin, change, share: how a sentence states it."""
    subject: str = ""
    """For shares: the segment."""
    scale_note: str = ""
    """For header-scale items: the scale the slide header states."""


class Generated(msgspec.Struct):
    decks: list[DeckSpec]
    claims: list[LabelledClaim]
    non_claims: list[NonClaim]
    dropped: dict[str, int]


class _Maker:
    """Builds candidate items for one company in one room; every method returns a list."""

    def __init__(self, room: RoomFacts, ticker: str, text: str, rng: random.Random, dropped: Counter) -> None:
        self.room, self.t, self.text, self.rng, self.dropped = room, ticker, text, rng, dropped
        self.co: Company = COMPANIES[ticker]
        self.periods = room.periods.get(ticker, {})

    # ---------------------------------------------------------------- helpers
    def name(self) -> str:
        return self.co.names[0]

    def words(self, metric: str) -> str:
        return self.rng.choice(self.co.revenue_words if metric == "revenue" else METRICS[metric].words)

    def say(self, p: Period) -> str:
        return phrase(p.kind, p.fy, p.q, self.co.fiscal, self.rng, end=p.end if p.kind == "FY" else "")

    def prior(self, p: Period) -> Period | None:
        key = Period(p.kind, p.fy - 1, p.q, "", "").key
        return self.periods.get(key)

    def fy_periods(self) -> list[Period]:
        return sorted((p for p in self.periods.values() if p.kind == "FY"), key=lambda p: p.fy, reverse=True)

    def q_periods(self) -> list[Period]:
        return sorted((p for p in self.periods.values() if p.kind == "Q"), key=lambda p: p.end, reverse=True)

    def collides(self, metric: str, claimed: Decimal, tol: Decimal, *, key: str, other_periods: bool,
                 other_basis: bool) -> bool:
        """Does another fact of the metric print as ``claimed``, so the label would not be clean?

        ``other_periods``: a fact of another period counts; ``other_basis``: one of the same period
        on another basis (a dimension, another concept of the family) counts.
        """
        for k, dims, v in self.room.everything(self.t, metric):
            if abs(v - claimed) > tol:
                continue
            if k != key and other_periods:
                return True
            if k == key and dims and other_basis:
                return True
        return False

    def supported_value(self, metric: str, p: Period, fig_of, trap: str) -> Item | None:  # type: ignore[no-untyped-def]
        val = self.room.get(self.t, metric, p.key)
        if val is None or val.value <= 0:
            self.dropped["conflicting or missing fact"] += int(self.room.conflicting(self.t, metric, p.key))
            return None
        fig: Fig = fig_of(val.value)
        if abs(val.value - fig.claimed) > fig.tol * D("0.9"):
            self.dropped["on a rounding boundary"] += 1
            return None
        if self.collides(metric, fig.claimed, fig.tol, key=p.key, other_periods=True, other_basis=False):
            self.dropped["another period's fact prints the same figure"] += 1
            return None
        return Item(self.t, metric, self.words(metric), self.say(p), p.key, "value", trap, "supported",
                    f"{p.key} {metric} {val.value} printed at its precision", fig, str(val.value), list(val.refs))

    def contradicted_value(self, metric: str, p: Period, claimed_fig: Fig, truth: Val, trap: str, why: str,
                           *, allow_other_periods: bool) -> Item | None:
        if abs(claimed_fig.claimed - truth.value) <= 4 * claimed_fig.tol:
            self.dropped["planted error within the printed precision"] += 1
            return None
        if self.collides(metric, claimed_fig.claimed, claimed_fig.tol, key=p.key, other_periods=not allow_other_periods,
                         other_basis=True):
            self.dropped["the planted figure matches another fact"] += 1
            return None
        return Item(self.t, metric, self.words(metric), self.say(p), p.key, "value", trap, "contradicted", why,
                    claimed_fig, str(truth.value), list(truth.refs))

    # ---------------------------------------------------------------- plain claims
    def plain(self) -> list[Item]:
        out: list[Item] = []
        for p in self.fy_periods()[:2] + self.q_periods()[:1]:
            for metric in METRICS:
                if METRICS[metric].per_share:
                    item = self.supported_value(metric, p, lambda v: pct_free_eps(v), "none")
                else:
                    item = self.supported_value(metric, p, lambda v: money(v, money_style(v, self.rng), self.rng), "none")
                if item:
                    out.append(item)
            out += self.growth(p, wrong=False) + self.margin(p, wrong=False)
        return out

    def shares(self) -> list[Item]:
        return [i for p in self.fy_periods()[:2] + self.q_periods()[:1] for i in self.share(p)]

    def growth(self, p: Period, *, wrong: bool) -> list[Item]:
        out = []
        prior = self.prior(p)
        if prior is None:
            return out
        for metric in ("revenue", "net_income", "operating_income", "eps_diluted"):
            cur, old = self.room.get(self.t, metric, p.key), self.room.get(self.t, metric, prior.key)
            if not cur or not old or old.value <= 0 or cur.value <= 0:
                continue
            g = (cur.value / old.value - 1) * 100
            dp = self.rng.choice([0, 1, 1])
            fig = pct(g, dp)
            if abs(g - fig.claimed) > fig.tol * D("0.9"):
                self.dropped["on a rounding boundary"] += 1
                continue
            trap, expected, why = "none", "supported", f"({cur.value} / {old.value} - 1) x 100 = {g:.4f}"
            if wrong:
                off = D(self.rng.choice([-1, 1]) * self.rng.randint(4, 15))
                fig = pct(fig.claimed + off, dp)
                if fig.claimed <= -100:
                    continue
                trap, expected, why = "wrong-growth", "contradicted", f"true growth {g:.2f}%, printed {fig.claimed}%"
            word = "growth" if metric != "eps_diluted" else "EPS growth"
            label = self.words(metric) if metric != "eps_diluted" else "Diluted EPS"
            out.append(Item(self.t, f"growth:{metric}", label, self.say(p), p.key, "growth", trap, expected, why, fig,
                            f"{g:.6f}", list(cur.refs + old.refs), verb="growth", subject=word))
        return out

    def _margin_value(self, metric: str, p: Period) -> tuple[Decimal, Val, Val] | None:
        num_id = MARGINS[metric][0]
        num, rev = self.room.get(self.t, num_id, p.key), self.room.get(self.t, "revenue", p.key)
        if not num or not rev or rev.value <= 0:
            return None
        return num.value / rev.value * 100, num, rev

    def margin(self, p: Period, *, wrong: bool) -> list[Item]:
        out = []
        for metric, (_num, label) in MARGINS.items():
            got = self._margin_value(metric, p)
            if got is None:
                continue
            m, num, rev = got
            fig = pct(m, 1)
            if abs(m - fig.claimed) > fig.tol * D("0.9"):
                self.dropped["on a rounding boundary"] += 1
                continue
            trap, expected, why = "none", "supported", f"{num.value} / {rev.value} x 100 = {m:.4f}"
            if wrong:
                off = D(self.rng.choice([-1, 1]) * self.rng.randint(2, 8))
                fig = pct(fig.claimed + off, 1)
                trap, expected, why = "wrong-margin", "contradicted", f"true margin {m:.2f}%, printed {fig.claimed}%"
            out.append(Item(self.t, metric, label, self.say(p), p.key, "margin", trap, expected, why, fig, f"{m:.6f}",
                            list(num.refs + rev.refs), verb="margin"))
        return out

    def share(self, p: Period) -> list[Item]:
        out = []
        total = self.room.get(self.t, "revenue", p.key)
        if not total or total.value <= 0:
            return out
        for seg, val in self.room.members(self.t, "revenue", p.key):
            s = val.value / total.value * 100
            if s >= 99 or s <= 1:
                continue
            fig = pct(s, self.rng.choice([0, 1]))
            if abs(s - fig.claimed) > fig.tol * D("0.9"):
                self.dropped["on a rounding boundary"] += 1
                continue
            out.append(Item(self.t, "share:revenue", self.words("revenue"), self.say(p), p.key, "share", "none",
                            "supported", f"{val.value} / {total.value} x 100 = {s:.4f}", fig, f"{s:.6f}",
                            list(val.refs + total.refs), verb="share", subject=seg))
        return out

    # ---------------------------------------------------------------- traps
    def trap_header_scale(self) -> list[Item]:
        out = []
        for p in self.fy_periods()[:1] + self.q_periods()[:1]:
            for metric in ("revenue", "operating_income", "net_income", "operating_cash_flow", "gross_profit"):
                item = self.supported_value(metric, p, lambda v: money(v, "bare", self.rng), "header-scale")
                if item is None:
                    continue
                if self.rng.random() < 0.35:
                    # The header says thousands over figures that are in millions: the deck claims 1/1000th.
                    wrong = Fig(item.fig.printed, item.fig.number, item.fig.claimed / 1000, item.fig.tol / 1000)
                    truth = Val(D(item.recomputed), tuple(item.evidence))
                    bad = self.contradicted_value(metric, self.periods[p.key], wrong, truth, "header-scale",
                                                  f"header states thousands; {item.fig.printed} thousand vs {truth.value}",
                                                  allow_other_periods=False)
                    if bad:
                        bad.scale_note = "thousands"
                        bad.period = item.period
                        bad.label = item.label
                        out.append(bad)
                    continue
                item.scale_note = "millions"
                out.append(item)
        return out

    def trap_suffix(self) -> list[Item]:
        out = []
        for p in self.fy_periods()[:2] + self.q_periods()[:1]:
            for metric in ("revenue", "net_income", "operating_income", "operating_cash_flow", "research_and_development"):
                val = self.room.get(self.t, metric, p.key)
                if not val or val.value < BILLION:
                    continue
                if self.rng.random() < 0.5:
                    style = self.rng.choice(["M0", "B2"])
                    item = self.supported_value(metric, p, lambda v: money(v, style, self.rng), "suffix")
                    if item:
                        out.append(item)
                    continue
                # Billions printed with a millions suffix: off by 1000x.
                right = money(val.value, "B1", self.rng)
                x = right.claimed / BILLION
                printed = f"${x:,}{self.rng.choice(['M', ' million'])}"
                wrong = Fig(printed, number_of(printed), x * MILLION, D("0.05") * MILLION)
                bad = self.contradicted_value(metric, p, wrong, val, "suffix", f"{val.value} printed with a millions suffix",
                                              allow_other_periods=False)
                if bad:
                    out.append(bad)
        return out

    def trap_cents(self) -> list[Item]:
        out = []
        for p in self.fy_periods()[:3] + self.q_periods()[:2]:
            val = self.room.get(self.t, "eps_diluted", p.key)
            if not val or val.value <= 0:
                continue
            cents = _q(val.value * 100, "1")
            if self.rng.random() < 0.7:
                printed = f"{cents}{self.rng.choice(['¢', ' cents'])}"
                fig = Fig(printed, number_of(printed), cents / 100, D("0.005"))
                if self.collides("eps_diluted", fig.claimed, fig.tol, key=p.key, other_periods=True, other_basis=False):
                    self.dropped["another fact prints the same figure"] += 1
                    continue
                out.append(Item(self.t, "eps_diluted", self.words("eps_diluted"), self.say(p), p.key, "value", "cents",
                                "supported", f"{val.value} dollars = {cents} cents", fig, str(val.value), list(val.refs)))
            else:
                printed = f"{val.value}{self.rng.choice(['¢', ' cents'])}"
                fig = Fig(printed, number_of(printed), val.value / 100, D("0.00005"))
                bad = self.contradicted_value("eps_diluted", p, fig, val, "cents",
                                              f"{val.value} dollars printed as cents", allow_other_periods=False)
                if bad:
                    out.append(bad)
        return out

    def trap_pct_units(self) -> list[Item]:
        out = []
        for p in self.fy_periods()[:2] + self.q_periods()[:1]:
            prior = self.prior(p)
            for metric, (_n, label) in MARGINS.items():
                cur = self._margin_value(metric, p)
                if cur is None:
                    continue
                m, num, rev = cur
                refs = list(num.refs + rev.refs)
                mode = self.rng.choice(["fraction", "bps", "pp", "bps-wrong"] if prior else ["fraction"])
                if mode == "fraction":
                    x = _q(m / 100, "0.001")
                    fig = Fig(f"{x}", number_of(f"{x}"), x * 100, D("0.05"))
                    if abs(m - fig.claimed) > fig.tol * D("0.9"):
                        continue
                    out.append(Item(self.t, metric, label + " (fraction of revenue)", self.say(p), p.key, "margin",
                                    "pct-units", "supported", f"{m:.4f}% as a fraction", fig, f"{m:.6f}", refs,
                                    verb="margin"))
                    continue
                old = self._margin_value(metric, prior)  # type: ignore[arg-type]
                if old is None:
                    continue
                delta = m - old[0]
                refs += list(old[1].refs + old[2].refs)
                if abs(delta) < D("0.3"):
                    continue
                if mode == "pp":
                    x = _q(abs(delta), "0.1")
                    fig = Fig(f"{x} percentage points", number_of(f"{x}"), x if delta > 0 else -x, D("0.05"))
                    expected, why = "supported", f"margin change {delta:.4f} pts"
                elif mode == "bps":
                    x = _q(abs(delta) * 100, "1")
                    fig = Fig(f"{x} bps", str(x), (x if delta > 0 else -x) / 100, D("0.005"))
                    expected, why = "supported", f"margin change {delta:.4f} pts = {delta * 100:.2f} bps"
                else:
                    # Percentage points printed as basis points: 100x too small.
                    x = _q(abs(delta), "0.1")
                    fig = Fig(f"{x} bps", number_of(f"{x}"), (x if delta > 0 else -x) / 100, D("0.0005"))
                    expected, why = "contradicted", f"margin change {delta:.4f} pts printed as {x} bps"
                if abs(abs(delta) - abs(fig.claimed)) > fig.tol * D("0.9") and expected == "supported":
                    continue
                out.append(Item(self.t, f"change:{metric}", label, self.say(p), p.key, "margin", "pct-units", expected, why,
                                fig, f"{delta:.6f}", refs, verb="change"))
        return out

    def trap_prior_period(self) -> list[Item]:
        out = []
        for p in self.fy_periods()[:2] + self.q_periods()[:1]:
            prior = self.prior(p)
            if prior is None:
                continue
            for metric in ("revenue", "net_income", "operating_income", "operating_cash_flow", "eps_diluted", "gross_profit"):
                cur, old = self.room.get(self.t, metric, p.key), self.room.get(self.t, metric, prior.key)
                if not cur or not old or old.value <= 0:
                    continue
                fig = pct_free_eps(old.value) if METRICS[metric].per_share else money(old.value, money_style(old.value, self.rng), self.rng)
                bad = self.contradicted_value(metric, p, fig, cur, "prior-period",
                                              f"{prior.key} value {old.value} given for {p.key} ({cur.value})",
                                              allow_other_periods=True)
                if bad:
                    bad.evidence += list(old.refs)
                    out.append(bad)
        return out

    def trap_quarter_vs_ytd(self) -> list[Item]:
        out = []
        for q in self.q_periods()[:2]:
            ytd = next((p for p in self.periods.values() if p.kind in ("H1", "9M") and p.end == q.end), None)
            if ytd is None:
                continue
            for metric in ("revenue", "net_income", "operating_income", "eps_diluted", "gross_profit"):
                qv, yv = self.room.get(self.t, metric, q.key), self.room.get(self.t, metric, ytd.key)
                if not qv or not yv or qv.value <= 0 or yv.value <= 0:
                    continue
                fig_of = (lambda v: pct_free_eps(v)) if METRICS[metric].per_share else \
                    (lambda v: money(v, money_style(v, self.rng), self.rng))
                roll = self.rng.random()
                if roll < 0.25:
                    item = self.supported_value(metric, q, fig_of, "quarter-vs-ytd")
                elif roll < 0.5:
                    item = self.supported_value(metric, ytd, fig_of, "quarter-vs-ytd")
                elif roll < 0.8:
                    item = self.contradicted_value(metric, q, fig_of(yv.value), qv, "quarter-vs-ytd",
                                                   f"year-to-date {yv.value} given for the quarter ({qv.value})",
                                                   allow_other_periods=True)
                else:
                    item = self.contradicted_value(metric, ytd, fig_of(qv.value), yv, "quarter-vs-ytd",
                                                   f"quarter {qv.value} given for the year to date ({yv.value})",
                                                   allow_other_periods=True)
                if item:
                    out.append(item)
        return out

    def trap_fiscal_calendar(self) -> list[Item]:
        out: list[Item] = []
        if not self.co.fiscal:
            return out
        fye = self.room.fye.get(self.t, (12, 31))
        for p in self.fy_periods()[:3] + self.q_periods()[:2]:
            for metric in ("revenue", "net_income", "operating_income", "eps_diluted"):
                fig_of = (lambda v: pct_free_eps(v)) if METRICS[metric].per_share else \
                    (lambda v: money(v, money_style(v, self.rng), self.rng))
                earlier = self.periods.get(Period(p.kind, p.fy - 1, p.q, "", "").key)
                if fye[0] <= 2 and p.kind == "FY" and earlier is not None and self.rng.random() < 0.4:
                    # A January year end named by the calendar year it mostly covers: FY2025 called "fiscal 2024".
                    cur, old = self.room.get(self.t, metric, p.key), self.room.get(self.t, metric, earlier.key)
                    if not cur or not old or cur.value <= 0:
                        continue
                    bad = self.contradicted_value(metric, earlier, fig_of(cur.value), old, "fiscal-calendar",
                                                  f"{p.key} (ended {p.end}) value {cur.value} labelled {earlier.key}",
                                                  allow_other_periods=True)
                    if bad:
                        bad.evidence += list(cur.refs)
                        out.append(bad)
                    continue
                item = self.supported_value(metric, p, fig_of, "fiscal-calendar")
                if item:
                    out.append(item)
        return out

    def trap_segment_as_total(self) -> list[Item]:
        out = []
        for p in self.fy_periods()[:2] + self.q_periods()[:1]:
            total = self.room.get(self.t, "revenue", p.key)
            if not total:
                continue
            for seg, val in self.room.members(self.t, "revenue", p.key):
                if val.value < BILLION / 10:
                    continue
                fig = money(val.value, money_style(val.value, self.rng), self.rng)
                if abs(fig.claimed - total.value) <= 4 * fig.tol:
                    continue
                if any(k != p.key and not dims and abs(v - fig.claimed) <= fig.tol
                       for k, dims, v in self.room.everything(self.t, "revenue")):
                    self.dropped["another fact prints the same figure"] += 1
                    continue
                out.append(Item(self.t, "revenue", self.words("revenue"), self.say(p), p.key, "value", "segment-as-total",
                                "different-basis", f"{seg} revenue {val.value} given as total ({total.value})", fig,
                                str(total.value), list(val.refs + total.refs)))
        return out

    def trap_wrong_growth(self) -> list[Item]:
        return [i for p in self.fy_periods()[:2] + self.q_periods()[:1] for i in self.growth(p, wrong=True)]

    def trap_wrong_margin(self) -> list[Item]:
        return [i for p in self.fy_periods()[:2] + self.q_periods()[:1] for i in self.margin(p, wrong=True)]

    def trap_uncovered_period(self) -> list[Item]:
        out = []
        covered = self.room.covered.get(self.t, set())
        if not covered:
            return out
        recent = (self.fy_periods() or self.q_periods())[:1]
        if not recent:
            return out
        # A plausible size: a fraction of the latest figure (a quarter's times four for a 10-Q-only room).
        annualise = 1 if recent[0].kind == "FY" else 4
        for back in (3, 4, 5, 6):
            fy = min(covered) - back
            for metric in ("revenue", "net_income", "operating_income"):
                base = self.room.get(self.t, metric, recent[0].key)
                if not base or base.value <= 0:
                    continue
                kind, q = ("FY", 4) if self.rng.random() < 0.75 else ("Q", self.rng.randint(1, 4))
                v = base.value * annualise * D(self.rng.randint(35, 80)) / 100 / (4 if kind == "Q" else 1)
                fig = money(v, money_style(v, self.rng), self.rng)
                if self.collides(metric, fig.claimed, fig.tol, key="", other_periods=True, other_basis=True):
                    continue
                said = phrase(kind, fy, q, self.co.fiscal, self.rng)
                out.append(Item(self.t, metric, self.words(metric), said, Period(kind, fy, q, "", "").key, "value",
                                "uncovered-period", "no-evidence",
                                f"no room document covers fiscal {fy} (covered: {min(covered)}-{max(covered)})", fig,
                                "", []))
        return out

    def trap_missing_metric(self) -> list[Item]:
        out = []
        fys = self.fy_periods() or self.q_periods()
        if not fys:
            return out
        for mm in MISSING_METRICS:
            if any(a in self.text for a in mm.absent) or mm.label.lower() in self.text:
                self.dropped["metric named somewhere in the room"] += 1
                continue
            p = self.rng.choice(fys[:2])
            n = D(self.rng.randint(mm.low, mm.high))
            if mm.unit == "pct":
                n = n + D(self.rng.randint(0, 9)) / 10
                fig = Fig(f"{n}%", number_of(f"{n}%"), n, D("0.05"))
            elif mm.unit == "musd":
                fig = money(n * MILLION, money_style(n * MILLION, self.rng), self.rng)
            elif mm.unit == "mcount":
                fig = Fig(f"{n} million", str(n), n * MILLION, MILLION / 2)
            else:
                fig = Fig(f"{n}", str(n), n, D("0.5"))
            out.append(Item(self.t, f"missing:{mm.label}", mm.label, self.say(p), p.key, "value", "missing-metric",
                            "no-evidence", f"no filing in the room names {mm.label.lower()}", fig, "", []))
        return out


def pct_free_eps(v: Decimal) -> Fig:
    x = _q(v, "0.01")
    printed = f"${x}"
    return Fig(printed, number_of(printed), x, D("0.005"))


# ---------------------------------------------------------------------------- rendering


def render(item: Item, layout: str, rng: random.Random, *, with_name: bool) -> tuple[str, str]:
    """(line, "kpi figure|caption") of an item on a slide of this layout."""
    name = COMPANIES[item.entity].names[0]
    fig, lab, per = item.fig.printed, item.label, item.period
    low = lab if lab[:2].isupper() or lab.startswith("R&D") else lab[0].lower() + lab[1:]
    up = item.fig.claimed >= 0
    bare = fig.lstrip("+-")
    sign = "+" if up else "-"
    if item.verb == "growth":
        bullets = [f"{lab} {'grew' if up else 'declined'} {bare} year over year in {per}", f"{lab} {'up' if up else 'down'} {bare} y/y in {per}"]
        sentences = [f"{name}'s {low} {'grew' if up else 'declined'} {bare} year over year in {per}."]
        kpi, caption = sign + bare, f"{lab} growth y/y, {per}"
    elif item.verb == "change":
        bullets = [f"{lab} {'expanded' if up else 'contracted'} {bare} year over year in {per}", f"{lab} {'up' if up else 'down'} {bare} y/y ({per})"]
        sentences = [f"{name}'s {low} {'expanded' if up else 'contracted'} by {bare} year over year in {per}."]
        kpi, caption = sign + bare, f"{lab} change y/y, {per}"
    elif item.verb == "share":
        bullets = [f"{item.subject} accounted for {fig} of {low} in {per}", f"{item.subject}: {fig} of {low} ({per})"]
        sentences = [f"{item.subject} accounted for {fig} of {name}'s {low} in {per}."]
        kpi, caption = fig, f"{item.subject} share of {low}, {per}"
    else:
        bullets = [f"{lab} of {fig} in {per}", f"{lab}: {fig} ({per})", f"{lab} was {fig} for {per}"]
        sentences = [f"{name}'s {low} was {fig} in {per}.", f"{name} reported {low} of {fig} for {per}."]
        kpi, caption = fig, f"{lab}, {per}"
    line = rng.choice(sentences if layout == "sentences" else bullets)
    if with_name:
        line = f"{name}: {line}"
        caption = f"{name} {caption}"
    return line, f"{kpi}|{caption}"


# ---------------------------------------------------------------------------- decks


_BUCKET_LAYOUTS = ("bullets", "sentences", "kpi", "footnoted")
_MAX = {"bullets": 6, "sentences": 4, "kpi": 4, "footnoted": 4, "header-scale": 5, "multi-company": 5}
_SUPER = "¹²³"  # Latin-1, so PDF base fonts print them


class _DeckBuilder:
    def __init__(self, index: int, fmt: str, rng: random.Random) -> None:
        self.index, self.fmt, self.rng = index, fmt, rng
        self.name = f"deck{index:02d}.{fmt}"
        self.slides: list[Slide] = []
        self.claims: list[LabelledClaim] = []
        self.non_claims: list[NonClaim] = []
        self.dropped: Counter = Counter()

    def new_slide(self, title: str, subtitle: str = "") -> Slide:
        s = Slide(page=len(self.slides) + 1, title=title, subtitle=subtitle, blocks=[])
        self.slides.append(s)
        return s

    def numbers_on(self, slide: Slide) -> set[str]:
        texts = [slide.title, slide.subtitle] + [b.text + " " + b.caption + " " + " ".join(" ".join(r) for r in b.rows)
                                                for b in slide.blocks]
        return {m.group(0).replace(",", "").rstrip(".") for t in texts for m in _NUM.finditer(t)}

    def can_place(self, slide: Slide, number: str) -> bool:
        if not number or _YEARISH.fullmatch(number):
            return False
        if number in self.numbers_on(slide) or any(c.page == slide.page and c.number == number for c in self.claims):
            self.dropped["figure repeated on its slide"] += 1
            return False
        return True

    def label(self, item: Item, slide: Slide, layout: str, text: str, printed: str | None = None) -> None:
        self.claims.append(LabelledClaim(
            id=f"d{self.index:02d}-c{len(self.claims) + 1:03d}", deck=self.name, page=slide.page, text=text,
            printed=printed or item.fig.printed, number=item.fig.number, expected=item.expected, why=item.why,
            entity=item.entity, metric=item.metric, period=item.period_key,
            stratum=Stratum(self.fmt, layout, item.kind, item.trap), claimed=str(item.fig.claimed),
            recomputed=item.recomputed, tolerance=str(item.fig.tol), evidence=item.evidence))

    def place_lines(self, slide: Slide, items: list[Item], layout: str, *, with_name: bool = False) -> None:
        notes: list[str] = []
        for item in items:
            if not self.can_place(slide, item.fig.number):
                continue
            line, kpi = render(item, layout, self.rng, with_name=with_name)
            if layout == "kpi":
                big, caption = kpi.split("|", 1)
                slide.blocks.append(Block(kind="kpi", text=big, caption=caption))
                self.label(item, slide, layout, f"{big} {caption}")
            elif layout == "footnoted":
                mark = _SUPER[len(notes)]
                bare = item.fig.printed.lstrip("+-")
                line = line.replace(bare, bare + mark, 1)
                notes.append(f"{mark} {footnote_for(item, self.rng)}")
                slide.blocks.append(Block(kind="line", text=line, bullet=True))
                self.label(item, slide, layout, line)
            else:
                slide.blocks.append(Block(kind="line", text=line, bullet=layout != "sentences"))
                self.label(item, slide, layout, line)
        for n in notes:
            slide.blocks.append(Block(kind="footnote", text=n))

    def place_header_scale(self, slide: Slide, items: list[Item]) -> None:
        for item in items:
            if not self.can_place(slide, item.fig.number):
                continue
            line = f"{item.label}, {item.period}: {item.fig.printed}"
            slide.blocks.append(Block(kind="line", text=line, bullet=True))
            self.label(item, slide, "header-scale", line)

    def non_claim(self, slide: Slide, category: str, rng: random.Random) -> None:
        pool = {"guidance": GUIDANCE, "superlative": SUPERLATIVES, "bio": BIOS, "market-size": MARKETS}[category]
        for _ in range(5):
            n = str(rng.randint(3, 40) if category in ("superlative", "bio") else rng.randint(11, 480))
            text = rng.choice(pool).format(n=n)
            if self.can_place(slide, n):
                slide.blocks.append(Block(kind="line", text=text, bullet=category != "superlative"))
                self.non_claims.append(NonClaim(id=f"d{self.index:02d}-n{len(self.non_claims) + 1:02d}", deck=self.name,
                                                page=slide.page, text=text, number=n, category=category))
                return


def footnote_for(item: Item, rng: random.Random) -> str:
    base = {"value": "As reported, GAAP.", "growth": "Year-over-year change versus the prior-year period.",
            "margin": "As a percentage of revenue.", "change": "Change versus the prior-year period.",
            "share": "Share of total revenue."}[item.verb]
    return rng.choice([base, base + " Source: company filings.", "Company filings; " + base[0].lower() + base[1:]])


def _take(pools: dict[str, list[Item]], want: list[str], n: int, used: set[int], counts: Counter) -> list[Item]:
    """Up to ``n`` items, each from the wanted trap the whole run has the fewest of so far."""
    out: list[Item] = []
    for _ in range(n * 3):
        if len(out) >= n:
            break
        options = [t for t in want if any(id(i) not in used for i in pools.get(t, []))]
        if not options:
            break
        trap = min(options, key=lambda t: (counts[t], want.index(t)))
        item = next(i for i in pools[trap] if id(i) not in used)
        used.add(id(item))
        counts[trap] += 1
        out.append(item)
    return out


def _table(b: _DeckBuilder, maker: _Maker, slide: Slide) -> None:
    """Rows of metrics against period columns, the scale stated in the table's corner cell."""
    fys = maker.fy_periods()[:3]
    periods = fys if len(fys) >= 2 else maker.q_periods()[:2]
    if len(periods) < 2:
        return
    periods = sorted(periods, key=lambda p: p.end)
    co = maker.co
    heads = [phrase(p.kind, p.fy, p.q, co.fiscal, random.Random(0)) if p.kind != "FY" else
             (f"FY{p.fy}" if co.fiscal or b.rng.random() < 0.5 else f"{p.fy}") for p in periods]
    grid = [[b.rng.choice(["$ in millions", "($M)", "in millions of USD"])] + heads]
    pending: list[tuple[int, int, Item]] = []
    metrics = [m for m in ("revenue", "gross_profit", "operating_income", "net_income", "operating_cash_flow", "eps_diluted")
               if maker.room.get(maker.t, m, periods[-1].key)]
    plant = b.rng.random() < 0.7
    for metric in metrics[:3]:
        row = [maker.words(metric) + (" ($)" if METRICS[metric].per_share else "")]
        for col, p in enumerate(periods, start=1):
            fig_of = (lambda v: Fig(f"{_q(v, '0.01')}", number_of(f"{_q(v, '0.01')}"), _q(v, "0.01"), D("0.005"))) \
                if METRICS[metric].per_share else (lambda v: money(v, "bare", b.rng))
            item = None
            older = maker.prior(p)
            if plant and col == 1 and older is not None and metric == metrics[min(1, len(metrics) - 1)]:
                cur, old = maker.room.get(maker.t, metric, p.key), maker.room.get(maker.t, metric, older.key)
                if cur and old:
                    item = maker.contradicted_value(metric, p, fig_of(old.value), cur, "prior-period",
                                                    f"{older.key} value {old.value} in the {p.key} column",
                                                    allow_other_periods=True)
                    plant = item is None
            if item is None:
                item = maker.supported_value(metric, p, fig_of, "none")
            if item is None:
                row.append("—")
                continue
            row.append(item.fig.printed)
            item.period = heads[col - 1]
            pending.append((len(grid), col, item))
        grid.append(row)
    block = Block(kind="table", rows=grid)
    slide.blocks.append(block)
    seen: set[str] = set()
    for r, c, item in pending:
        if item.fig.number in seen or _YEARISH.fullmatch(item.fig.number):
            b.dropped["figure repeated on its slide"] += 1
            continue
        seen.add(item.fig.number)
        b.label(item, slide, "table", f"{grid[r][0]} {grid[0][c]} {grid[r][c]}")


def generate(tickers: list[str], load: Callable[[str], list[Filing]], raw: Callable[[str], bytes], *,
             seed: int, decks: int) -> Generated:
    """``decks`` decks with rooms and labels; ``load`` reads a company's filings, ``raw`` a filing's bytes."""
    rng = random.Random(seed)
    tickers = sorted(t for t in tickers if t in COMPANIES)
    rng.shuffle(tickers)
    by_ticker: dict[str, list[Filing]] = {}

    def filings_of(t: str) -> list[Filing]:
        if t not in by_ticker:
            by_ticker[t] = [f for f in load(t) if f.facts]
        return by_ticker[t]

    counts: Counter = Counter()
    out_decks, claims, non_claims = [], [], []
    dropped: Counter = Counter()
    formats = ("pdf", "pptx", "md")
    for i in range(decks):
        drng = random.Random(f"{seed}:{i}")
        fmt = formats[i % 3]
        main = [tickers[(2 * i) % len(tickers)], tickers[(2 * i + 1) % len(tickers)]]
        if main[0] == main[1]:
            main = main[:1]
        others = [t for t in tickers if t not in main]
        distractor = drng.choice(others) if others else None
        room_filings = [f for t in main for f in filings_of(t)]
        room_paths = [f.path for f in room_filings]
        if distractor and filings_of(distractor):
            extra = drng.choice(filings_of(distractor))
            room_paths.append(extra.path)
            room_filings.append(extra)
        room = RoomFacts(room_filings)
        text = room_text([raw(p) for p in room_paths])
        b = _DeckBuilder(i + 1, fmt, drng)
        cover = b.new_slide(drng.choice(["Sector review", "Investment committee memo", "Peer benchmarking",
                                         "Diligence summary"]))
        cover.blocks.append(Block(kind="note", text=f"Prepared by {drng.choice(AUTHORS)}"))
        cover.blocks.append(Block(kind="note", text=f"{drng.choice(['December', 'November', 'October'])} 2026 · Confidential"))
        makers = {t: _Maker(room, t, text, drng, b.dropped) for t in main}
        pools = {t: {"none": m.plain(), "share": m.shares(),
                     **{trap: getattr(m, "trap_" + trap.replace("-", "_"))() for trap in TRAPS}} for t, m in makers.items()}
        for pool in pools.values():
            for items in pool.values():
                drng.shuffle(items)
        used: set[int] = set()
        for t, m in makers.items():
            pool, name = pools[t], m.name()
            latest = (m.fy_periods() or m.q_periods())
            when = phrase(latest[0].kind, latest[0].fy, latest[0].q, m.co.fiscal, drng) if latest else "latest period"
            plans = [
                ("kpi", f"{name}: {when} at a glance", ["none", "suffix", "cents", "share"], 3),
                ("bullets", f"{name}: results highlights", ["prior-period", "segment-as-total", "wrong-growth", "fiscal-calendar",
                                                            "uncovered-period", "none"], 5),
                ("sentences", f"{name}: what drove the year", ["wrong-margin", "missing-metric", "none", "pct-units"], 3),
                ("footnoted", f"{name}: profitability", ["pct-units", "wrong-margin", "cents", "none", "wrong-growth"], 3),
                ("bullets", f"{name}: latest quarter" if m.q_periods() else f"{name}: more figures", ["quarter-vs-ytd", "fiscal-calendar", "suffix", "prior-period"], 4),
                ("sentences", f"{name}: mix and segments", ["share", "segment-as-total", "missing-metric", "uncovered-period"], 3),
            ]
            for layout, title, want, n in plans:
                items = _take(pool, want, n, used, counts)
                if not items:
                    continue
                slide = b.new_slide(title)
                b.place_lines(slide, items, layout)
                if layout == "sentences" and drng.random() < 0.6:
                    b.non_claim(slide, "superlative", drng)
            hs = _take(pool, ["header-scale"], 3, used, counts)
            if hs:
                notes = {i.scale_note for i in hs}
                if len(notes) > 1:
                    # One header per slide: split millions and thousands onto their own slides.
                    for note in sorted(notes):
                        part = [i for i in hs if i.scale_note == note]
                        slide = b.new_slide(f"{name}: key figures", f"($ in {note})")
                        b.place_header_scale(slide, part)
                else:
                    slide = b.new_slide(f"{name}: key figures", f"($ in {hs[0].scale_note})")
                    b.place_header_scale(slide, hs)
            slide = b.new_slide(f"{name}: financial summary")
            _table(b, m, slide)
        if len(main) > 1:
            mixed: list[Item] = []
            for t in main:
                mixed += _take(pools[t], ["none", "prior-period", "wrong-growth", "segment-as-total", "suffix"], 2, used, counts)
            if mixed:
                slide = b.new_slide("Peer snapshot")
                b.place_lines(slide, mixed, "multi-company", with_name=True)
        slide = b.new_slide("Outlook and market")
        b.non_claim(slide, "guidance", drng)
        b.non_claim(slide, "market-size", drng)
        b.non_claim(slide, "guidance", drng)
        slide = b.new_slide("Deal team")
        for _ in range(2):
            b.non_claim(slide, "bio", drng)
        out_decks.append(DeckSpec(name=b.name, format=fmt, slides=b.slides, room=room_paths, companies=main))
        claims += b.claims
        non_claims += b.non_claims
        dropped.update(b.dropped)
    return Generated(decks=out_decks, claims=claims, non_claims=non_claims, dropped=dict(sorted(dropped.items())))
