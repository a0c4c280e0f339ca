"""The benchmark's own vocabulary: concepts to metrics, analyst wording, companies, non-claims.

Kept apart from ``parsers/metrics.py`` on purpose: the gold must not inherit the verifier's
registry, so a wrong mapping there shows up here as an error instead of agreeing with itself.
"""

from __future__ import annotations

import msgspec

__all__ = ["Company", "COMPANIES", "MARGINS", "METRICS", "MetricWords", "MISSING_METRICS", "MissingMetric",
           "SEGMENT_AXIS", "PRODUCT_AXIS", "AUTHORS", "BIOS", "GUIDANCE", "MARKETS", "SUPERLATIVES"]


class MetricWords(msgspec.Struct, frozen=True):
    id: str
    concepts: tuple[str, ...]
    """Every concept that states this quantity, the preferred first."""
    words: tuple[str, ...]
    per_share: bool = False
    instant: bool = False


METRICS: dict[str, MetricWords] = {m.id: m for m in (
    MetricWords("revenue", ("us-gaap:Revenues", "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax",
                            "us-gaap:RevenuesNetOfInterestExpense"), ("Revenue", "Total revenues", "Revenues")),
    MetricWords("gross_profit", ("us-gaap:GrossProfit",), ("Gross profit",)),
    MetricWords("operating_income", ("us-gaap:OperatingIncomeLoss",), ("Operating income", "Income from operations")),
    MetricWords("net_income", ("us-gaap:NetIncomeLoss",), ("Net income", "Net earnings")),
    MetricWords("eps_diluted", ("us-gaap:EarningsPerShareDiluted",), ("Diluted EPS", "Diluted earnings per share"),
                per_share=True),
    MetricWords("operating_cash_flow", ("us-gaap:NetCashProvidedByUsedInOperatingActivities",),
                ("Operating cash flow", "Cash from operations", "Net cash provided by operating activities")),
    MetricWords("research_and_development", ("us-gaap:ResearchAndDevelopmentExpense",),
                ("R&D expense", "Research and development expense")),
)}
"""Margins and shares are ratios of these; growth compares one with its prior period."""

MARGINS = {"gross_margin": ("gross_profit", "Gross margin"), "operating_margin": ("operating_income", "Operating margin"),
           "net_margin": ("net_income", "Net margin")}

SEGMENT_AXIS = "us-gaap:StatementBusinessSegmentsAxis"
PRODUCT_AXIS = "srt:ProductOrServiceAxis"


class Company(msgspec.Struct, frozen=True):
    ticker: str
    names: tuple[str, ...]
    """Short names a deck prints; the first is the usual one."""
    revenue_words: tuple[str, ...]
    fiscal: bool
    """A fiscal year that does not end on December 31 (labels say "fiscal" / "FY")."""


COMPANIES: dict[str, Company] = {c.ticker: c for c in (
    Company("AAPL", ("Apple", "Apple Inc."), ("Net sales", "Total net sales", "Revenue"), True),
    Company("AMZN", ("Amazon", "Amazon.com"), ("Net sales", "Total net sales", "Revenue"), False),
    Company("CRM", ("Salesforce",), ("Revenue", "Total revenues"), True),
    Company("IBM", ("IBM",), ("Revenue", "Total revenue"), False),
    Company("MA", ("Mastercard",), ("Net revenue", "Revenue"), False),
    Company("META", ("Meta", "Meta Platforms"), ("Revenue", "Revenues"), False),
    Company("NFLX", ("Netflix",), ("Revenues", "Revenue"), False),
    Company("NVDA", ("NVIDIA",), ("Revenue", "Total revenue"), True),
    Company("ORCL", ("Oracle",), ("Total revenues", "Revenue"), True),
    Company("PG", ("P&G", "Procter & Gamble"), ("Net sales", "Revenue"), True),
    Company("TSLA", ("Tesla",), ("Total revenues", "Revenue"), False),
    Company("UNP", ("Union Pacific",), ("Operating revenues", "Revenue"), False),
    Company("WMT", ("Walmart",), ("Total revenues", "Revenue"), True),
)}


class MissingMetric(msgspec.Struct, frozen=True):
    label: str
    absent: tuple[str, ...]
    """Phrases that must not occur in any room filing for the metric to count as absent."""
    unit: str
    """``pct``, ``musd`` (millions of dollars) or ``mcount`` (millions of a count)."""
    low: int
    high: int


MISSING_METRICS = (
    MissingMetric("Net revenue retention", ("revenue retention", "net retention", "expansion rate"), "pct", 104, 131),
    MissingMetric("Same-store sales growth", ("same-store", "same store", "comparable sales", "comparable store"), "pct", 2, 9),
    MissingMetric("Annual recurring revenue", ("recurring revenue", " arr "), "musd", 900, 9000),
    MissingMetric("Monthly active users", ("monthly active", " maus", "active users"), "mcount", 120, 900),
    MissingMetric("Adjusted EBITDA", ("ebitda",), "musd", 1500, 40000),
    MissingMetric("Customer churn", ("churn",), "pct", 2, 9),
    MissingMetric("Gross merchandise volume", ("merchandise volume", "gmv"), "musd", 5000, 90000),
    MissingMetric("Net promoter score", ("promoter score", " nps"), "count", 31, 78),
)

AUTHORS = ("Harbor Lane Advisors", "Northbridge Capital Partners", "Kestrel & Finch LLP", "Summit Ridge Equity Research",
           "Blue Meridian Partners")

# Each carries one figure that is not a claim about the room's filings; ``{n}`` is filled by seed.
GUIDANCE = (
    "Outlook: management expects next fiscal year revenue of about ${n} billion, plus or minus 2%.",
    "We project revenue to reach ${n} billion by fiscal 2029.",
    "Guidance calls for operating margin of roughly {n}% next year.",
    "Our base case assumes {n}% annual growth through 2030.",
)
SUPERLATIVES = (
    "The #1 platform in its category, trusted by {n} of the Fortune 100.",
    "Ranked among the top {n} most valuable brands worldwide.",
    "Best-in-class execution, with {n} consecutive quarters of record results.",
)
BIOS = (
    "Dana Whitfield, Managing Director: {n} years in technology banking.",
    "Luis Ortega, Partner: led {n} transactions across consumer and retail.",
    "Priya Raman, Analyst: covered {n} companies in payments and software.",
)
MARKETS = (
    "Total addressable market estimated at ${n} billion by 2030.",
    "The global market for the category is expected to grow to ${n} billion.",
    "Industry spend could exceed ${n} billion within five years.",
)
