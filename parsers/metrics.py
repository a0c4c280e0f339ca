"""The metric registry: canonical quantities, the words and XBRL concepts that name them, and
which other quantities count as the same thing on another basis.

A metric id names a quantity (``revenue``, ``eps_diluted``); the basis (GAAP, non-GAAP, segment,
constant currency) is carried beside it on facts and claims, read from qualifier words.
Quantities outside the registry still work through ``label_metric``: BM25 and the label words.
"""

from __future__ import annotations

import re
from functools import lru_cache

import msgspec

from parsers.quantities import label_id

__all__ = ["Metric", "REGISTRY", "by_concept", "find_metric", "find_metric_span", "label_metric", "basis_from_text", "alternates"]


class Metric(msgspec.Struct, frozen=True):
    id: str
    names: tuple[str, ...]
    concepts: tuple[str, ...] = ()
    unit: str = "USD"
    basis: str = "GAAP"
    alternates: tuple[str, ...] = ()
    """Other quantities a deck may present as this one (ARR as revenue, OCF as FCF)."""
    ratio_of: tuple[str, str] | None = None
    """For margins and ratios: numerator and denominator metric ids."""
    instant: bool = False
    """A balance at a date (cash, deferred revenue), not a flow over a period."""
    outflow: bool = False
    """An expense or cash outflow, which filings and decks print with either sign."""


_M = Metric
REGISTRY: tuple[Metric, ...] = (
    _M("revenue", ("revenue", "revenues", "total revenue", "total revenues", "net revenue", "net revenues",
                   "net sales", "total net sales", "sales", "total net revenue", "total net revenues", "top line",
                   "sales to customers", "operating revenue", "operating revenues", "total operating revenues",
                   "rev", "rev."),
       ("Revenues", "RevenueFromContractWithCustomerExcludingAssessedTax", "SalesRevenueNet",
        "RevenueFromContractWithCustomerIncludingAssessedTax", "RevenuesNetOfInterestExpense"),
       alternates=("arr", "subscription_revenue", "product_revenue", "services_revenue", "segment_revenue")),
    _M("product_revenue", ("product revenue", "products revenue", "products net sales", "product net sales", "products"),
       alternates=("revenue",)),
    _M("services_revenue", ("services revenue", "service revenue", "services net sales", "services"),
       alternates=("revenue",)),
    _M("subscription_revenue", ("subscription revenue", "subscription revenues", "subscription"),
       alternates=("revenue", "arr")),
    _M("cloud_revenue", ("cloud revenue",), alternates=("revenue",)),
    _M("cost_of_revenue", ("cost of revenue", "cost of revenues", "cost of sales", "total cost of sales",
                           "total cost of revenue", "total cost of revenues", "cost of goods sold"),
       ("CostOfRevenue", "CostOfGoodsAndServicesSold"), outflow=True),
    _M("gross_profit", ("gross profit", "gross margin dollars", "total gross margin"), ("GrossProfit",)),
    _M("gross_margin", ("gross margin", "gross profit margin", "gross margin percentage", "gross profit rate", "gm"),
       unit="percent", ratio_of=("gross_profit", "revenue")),
    _M("research_and_development", ("research and development", "r&d", "research & development", "r&d investment"),
       ("ResearchAndDevelopmentExpense", "ResearchAndDevelopmentExpenseExcludingAcquiredInProcessCost"), outflow=True),
    _M("sga", ("selling, general and administrative", "sg&a", "selling general and administrative"),
       ("SellingGeneralAndAdministrativeExpense",)),
    # Software and internet companies split SG&A in two; either line on its own is none of the others.
    _M("sales_and_marketing", ("sales and marketing", "sales & marketing", "s&m", "selling and marketing", "marketing and sales"),
       ("SellingAndMarketingExpense",), outflow=True),
    _M("general_and_administrative", ("general and administrative", "general & administrative", "g&a"),
       ("GeneralAndAdministrativeExpense",), outflow=True),
    _M("operating_expenses", ("operating expenses", "total operating expenses", "opex"),
       ("OperatingExpenses", "CostsAndExpenses"), outflow=True),
    _M("operating_income", ("operating income", "income from operations", "operating profit",
                            "operating income (loss)", "income (loss) from operations", "loss from operations",
                            "operating loss", "op. income", "op income", "oper. income"),
       ("OperatingIncomeLoss",)),
    _M("operating_margin", ("operating margin", "operating income margin", "operating profit margin", "op. margin",
                            "op margin"),
       unit="percent", ratio_of=("operating_income", "revenue")),
    _M("net_income", ("net income", "net earnings", "net income (loss)", "net loss", "net income attributable",
                      "profit"),
       # ProfitLoss includes noncontrolling interests (P&G's 3,793 beside its 3,769 attributable): not net income.
       ("NetIncomeLoss", "NetIncomeLossAvailableToCommonStockholdersBasic")),
    _M("net_margin", ("net margin", "net income margin", "net profit margin"), unit="percent",
       ratio_of=("net_income", "revenue")),
    _M("eps_basic", ("basic eps", "basic earnings per share", "basic net income per share", "basic",
                     "eps basic", "eps, basic", "per basic share", "basic income per share",
                     "basic earnings loss per share"),
       ("EarningsPerShareBasic",), unit="USD/share"),
    _M("eps_diluted", ("diluted eps", "eps", "diluted earnings per share", "earnings per share",
                       "diluted net income per share", "net income per share diluted", "diluted",
                       "eps diluted", "eps, diluted", "per diluted share", "diluted income per share",
                       "earnings loss per share", "diluted earnings loss per share",
                       # "GAAP net loss per share - basic and diluted": the per-share figure, not the loss.
                       "net income per share", "net loss per share", "net income loss per share",
                       "net loss income per share", "net earnings per share", "loss per share"),
       ("EarningsPerShareDiluted", "EarningsPerShareBasicAndDiluted"), unit="USD/share"),
    _M("operating_cash_flow", ("operating cash flow", "cash from operations", "net cash provided by operating activities",
                               "cash provided by operating activities", "cash flow from operations",
                               "net cash from operating activities", "cash generated by operating activities",
                               "cash generated from operations", "cash from ops", "cash flow from ops", "ocf",
                               "total cash provided by operating activities", "net cash flows from operating activities",
                               "cash provided by operations",
                               # "Net cash provided by (used in) operating activities": either sign, one line.
                               "net cash provided by used in operating activities",
                               "net cash used in provided by operating activities",
                               "cash provided by used in operating activities"),
       ("NetCashProvidedByUsedInOperatingActivities",), alternates=("free_cash_flow",)),
    _M("capex", ("capital expenditures", "capex", "capital spending", "capital investments", "purchases of property and equipment",
                 "purchase of property and equipment",
                 "payments for acquisition of property, plant and equipment", "purchases of property, plant and equipment"),
       ("PaymentsToAcquirePropertyPlantAndEquipment", "PaymentsToAcquireProductiveAssets"), outflow=True),
    _M("share_repurchases", ("share repurchases", "stock repurchases", "share buybacks", "buybacks", "buyback",
                             "repurchases of common stock", "repurchase of common stock", "purchases of treasury stock",
                             "repurchases of class a common stock", "payments for repurchase of common stock",
                             "common stock repurchased", "repurchased"),
       ("PaymentsForRepurchaseOfCommonStock",), outflow=True),
    _M("free_cash_flow", ("free cash flow", "fcf", "adjusted free cash flow"), basis="non-GAAP",
       alternates=("operating_cash_flow",)),
    _M("ebitda", ("ebitda",), basis="non-GAAP", alternates=("adjusted_ebitda", "operating_income")),
    _M("adjusted_ebitda", ("adjusted ebitda", "adj. ebitda", "adj ebitda"), basis="non-GAAP",
       alternates=("ebitda", "operating_income")),
    _M("rpo", ("remaining performance obligations", "remaining performance obligation", "rpo"),
       ("RevenueRemainingPerformanceObligation",), instant=True),
    # The part of RPO to be recognised within twelve months: a KPI of its own, never the whole RPO.
    _M("crpo", ("current remaining performance obligations", "current remaining performance obligation",
                "current rpo", "crpo"), instant=True),
    _M("arr", ("annual recurring revenue", "arr", "annualized recurring revenue"), basis="operating metric",
       alternates=("revenue", "subscription_revenue"), instant=True),
    _M("deferred_revenue", ("deferred revenue", "total deferred revenue", "contract liabilities"),
       ("ContractWithCustomerLiability", "DeferredRevenue"), instant=True),
    # Cash with marketable securities or investments is a larger sum, printed under its own label.
    _M("cash", ("cash and cash equivalents", "cash & cash equivalents", "cash and equivalents", "cash & equivalents", "cash"),
       ("CashAndCashEquivalentsAtCarryingValue",), instant=True),
    _M("total_assets", ("total assets",), ("Assets",), instant=True),
    _M("customers", ("customers", "customer count", "total customers", "active customer accounts"), unit="count", basis="operating metric", instant=True),
    _M("employees", ("employees", "headcount", "full-time employees"), unit="count", basis="operating metric", instant=True),
    _M("deliveries", ("deliveries", "vehicles delivered", "total deliveries"),
       unit="count", basis="operating metric"),
    _M("paid_memberships", ("paid memberships", "paid members", "memberships", "subscribers"), unit="count",
       basis="operating metric"),
    _M("net_revenue_retention", ("net revenue retention", "net expansion rate", "dollar-based net expansion rate",
                                 "net retention rate"), unit="percent", basis="operating metric"),
    _M("comparable_sales", ("comparable sales", "same-store sales", "same store sales", "comparable store sales",
                              "comparable-store sales", "comp sales", "comp store sales", "comps",
                              "comparable store net sales"),
       unit="percent", basis="operating metric"),
)

_BY_ID = {m.id: m for m in REGISTRY}
# "As Adjusted" (recast for a new accounting standard) and "as restated" are still GAAP.
_NON_GAAP = re.compile(r"\bnon[- ]?gaap\b|(?<!\bas )\badjusted\b|\badj\.|\bcore\b|\bpro forma\b", re.I)
_CONSTANT = re.compile(r"\bconstant[- ]currency\b|\bcc\b|\bfx[- ]neutral\b|\bcurrency[- ]neutral\b|\bex[- ]fx\b"
                       r"|\bexcluding (?:the )?(?:effects? of )?(?:changes in )?foreign (?:currency )?exchange(?: rates?)?\b",
                       re.I)
_ORGANIC = re.compile(r"\borganic\b", re.I)


def by_id(metric_id: str) -> Metric | None:
    return _BY_ID.get(metric_id)


@lru_cache(maxsize=None)
def _concept_index() -> dict[str, str]:
    return {c: m.id for m in REGISTRY for c in m.concepts}


def by_concept(concept: str) -> str | None:
    """Registry id for an XBRL concept, with or without its ``us-gaap:`` prefix."""
    return _concept_index().get(concept.rsplit(":", 1)[-1])


def normalise_label(text: str) -> str:
    t = text.lower().replace("’", "'").replace("\u00a0", " ")
    t = re.sub(r"\(\d\)|\[\d\]|\*+|†", " ", t)
    t = re.sub(r"[^a-z0-9&%$/.,' -]+", " ", t)
    return re.sub(r"\s+", " ", t).strip(" .,:;-")


@lru_cache(maxsize=None)
def _name_patterns() -> list[tuple[str, re.Pattern[str], str]]:
    """Each registry name, its pattern and metric, longest name first."""
    pats = []
    for m in REGISTRY:
        for n in m.names:
            # "Other non-op. income/(expense)", "non-operating income": the name's negation is another line.
            pats.append((n, re.compile(r"(?<![a-z])(?<!non-)(?<!non )" + re.escape(n) + r"(?![a-z])"), m.id))
    pats.sort(key=lambda p: -len(p[0]))
    return pats


def find_metric(text: str, *, exact: bool = False) -> str | None:
    """The registry metric a label or sentence names; the longest matching name wins.

    With ``exact`` the whole normalised label must be one of the metric's names (table rows);
    otherwise a name anywhere in the text counts (deck bullets).
    """
    found = find_metric_span(text, exact=exact)
    return found[0] if found else None


def find_metric_span(text: str, *, exact: bool = False) -> tuple[str, int, int] | None:
    """The registry metric a phrase names and where its name sits in the *normalised* phrase.

    The span lets a caller read the qualifier words around the name ("AWS" in "AWS operating margin").
    """
    t = normalise_label(text)
    if exact:
        found = next(((m.id, 0, len(t)) for m in REGISTRY if t in m.names), None)
    else:
        # The substring test first: a pattern matches only where its name is, and most are absent.
        found = next(((metric_id, m.start(), m.end()) for name, pat, metric_id in _name_patterns()
                      if name in t and (m := pat.search(t))), None)
    if found and found[0] == "eps_diluted" and _BASIC.search(t) and not _DILUTED.search(t):
        # "Net income per share - basic": the name's longer part is not the whole.
        return ("eps_basic", *found[1:])
    return found


_BASIC, _DILUTED = re.compile(r"\bbasic\b"), re.compile(r"\bdiluted\b")


@lru_cache(maxsize=1 << 16)
def label_metric(label: str) -> str:
    """Metric id for a quantity outside the registry: its normalised label."""
    return label_id(normalise_label(label))


_GAAP = re.compile(r"(?<!non-)(?<!non )\bgaap\b", re.I)
_LOSS = re.compile(r"\bloss(?:es)?\b", re.I)
_GAIN = re.compile(r"\b(?:income|earnings|profit)\b", re.I)


def states_gaap(text: str) -> bool:
    """Whether ``text`` says GAAP of itself ("GAAP operating loss"), not "non-GAAP"."""
    return _GAAP.search(text) is not None


# Quantities printed below zero when the company loses money: "net loss per share was $0.25".
LOSS_METRICS = frozenset({"net_income", "operating_income", "eps_basic", "eps_diluted"})


def names_a_loss(text: str) -> bool:
    """Whether a quantity's name says it is a loss ("operating loss", "net loss"), not a quantity that
    may be one ("net income (loss)"): its figure, printed without a sign, is below zero."""
    return _LOSS.search(text) is not None and _GAIN.search(text) is None


def basis_from_text(text: str) -> str | None:
    """The basis qualifier a label states, or None when it states none (read as GAAP)."""
    if _CONSTANT.search(text):
        return "constant-currency"
    if _ORGANIC.search(text):
        return "organic"
    if _NON_GAAP.search(text):
        return "non-GAAP"
    return None


def alternates(metric_id: str) -> tuple[str, ...]:
    m = _BY_ID.get(metric_id)
    return m.alternates if m else ()
