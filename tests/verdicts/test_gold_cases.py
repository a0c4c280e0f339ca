"""Evaluation on the dev set, not a behaviour test: the 49 gold claims (../shared/data/gold) as
hand-built claim + evidence fixtures.

Each room's facts are written as the filing parser delivers them (base-unit values, registry metric
ids or ``label:`` rows, basis, fiscal period labels) from the gold ``evidence`` entries, with the
distractors the room really holds: other periods, other bases, other segments, other companies.
Every claim is judged against its whole room, not a hand-picked subset.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from _build import claim, cov, ev, fact, passage
from verdicts.rules import verify

GOLD = Path(__file__).resolve().parents[3] / "shared" / "data" / "gold"

# ---------------------------------------------------------------- room A: Apple, Netflix (+ Meta)

A_K = "filings/AAPL/aapl-10-K-FY2024_2024-11-01.html"
A_PR = "press_releases/AAPL/aapl_q4_fy2024_earnings_release.html"
A_Q = "filings/AAPL/aapl-10-Q-Q2FY2025_2025-03-29.htm"
N_K = "filings/NFLX/nflx-10-K-FY2024.html"
N_Q = "filings/NFLX/nflx-10-Q-Q2-2025.html"
M_K = "filings/META/meta-10-K-FY2024.html"
AAPL, NFLX, META = "Apple Inc.", "Netflix, Inc.", "Meta Platforms, Inc."


def _apple(metric, period, printed, scale="millions", doc=A_K, **kw):
    return fact(metric, period, printed, scale, entity=AAPL, doc=doc, **kw)


def _nflx(metric, period, printed, scale="thousands", doc=N_K, **kw):
    return fact(metric, period, printed, scale, entity=NFLX, doc=doc, **kw)


def _meta(metric, period, printed, scale="millions", **kw):
    return fact(metric, period, printed, scale, entity=META, doc=M_K, **kw)


PCT = {"unit": "percent"}
EPS = {"unit": "USD/share"}

NFLX_Q = [
    _nflx("revenue", "Q2 FY2025", "11,079,166", doc=N_Q), _nflx("revenue", "Q2 FY2024", "9,559,310", doc=N_Q),
    _nflx("revenue", "H1 FY2025", "21,569,757", doc=N_Q),
    _nflx("growth:revenue", "Q2 FY2025", "16", 0, doc=N_Q, **PCT),
    _nflx("growth:revenue", "Q2 FY2025", "17", 0, doc=N_Q, basis="constant-currency", **PCT),
    _nflx("operating_income", "Q2 FY2025", "3,775,094", doc=N_Q),
    _nflx("operating_income", "Q2 FY2024", "2,602,580", doc=N_Q),
]
META_K = [
    _meta("revenue", "FY2024", "164,501"), _meta("revenue", "FY2023", "134,902"), _meta("revenue", "FY2022", "116,609"),
    _meta("growth:revenue", "FY2024", "22%", 0, kind="text", **PCT),
    _meta("growth:revenue", "FY2024", "23%", 0, kind="text", basis="constant-currency", **PCT),
    _meta("free_cash_flow", "FY2024", "52,103", basis="non-GAAP"),
    _meta("free_cash_flow", "FY2023", "43,010", basis="non-GAAP"),
    _meta("operating_cash_flow", "FY2024", "91,328"), _meta("operating_cash_flow", "FY2023", "71,113"),
    _meta("capex", "FY2024", "(37,256)"), _meta("capex", "FY2023", "(27,045)"),
    _meta("cash", "FY2024", "$77.81 billion", "billions", kind="text", instant=True),
    _meta("cash", "FY2024", "43,889", instant=True), _meta("cash", "FY2023", "41,862", instant=True),
    _meta("label:family daily active people (dap)", "FY2024", "3.35 billion", "billions", unit="count",
          basis="operating metric", kind="text"),
]
ROOM_A = {
    "coverage": [
        cov(A_K, AAPL, "FY2024", "FY2023", "FY2022", fye="--09-28"),
        cov(A_PR, AAPL, "Q4 FY2024", "FY2024", "Q4 FY2023", "FY2023", fye="--09-28"),
        cov(A_Q, AAPL, "Q2 FY2025", "H1 FY2025", "Q2 FY2024", "H1 FY2024", fye="--09-28"),
        cov(N_K, NFLX, "FY2024", "FY2023", "FY2022"),
        cov(N_Q, NFLX, "Q2 FY2025", "H1 FY2025", "Q2 FY2024", "H1 FY2024"),
        cov(M_K, META, "FY2024", "FY2023", "FY2022"),
    ],
    "facts": [
        _apple("revenue", "FY2024", "391,035"), _apple("revenue", "FY2023", "383,285"),
        _apple("revenue", "FY2022", "394,328"),
        _apple("product_revenue", "FY2024", "294,866"), _apple("services_revenue", "FY2024", "96,169"),
        # Apple's statement calls gross profit dollars "Gross margin": the registry reads that row as gross_margin.
        _apple("gross_margin", "FY2024", "180,683"), _apple("gross_margin", "FY2023", "169,148"),
        _apple("gross_margin", "FY2024", "46.2", 0, **PCT), _apple("gross_margin", "FY2023", "44.1", 0, **PCT),
        _apple("gross_margin", "FY2024", "37.2", 0, basis="segment:Products", **PCT),
        _apple("gross_margin", "FY2024", "73.9", 0, basis="segment:Services", **PCT),
        _apple("operating_income", "FY2024", "123,216"), _apple("operating_income", "FY2023", "114,301"),
        _apple("operating_income", "FY2022", "119,437"),
        _apple("net_income", "FY2024", "93,736"), _apple("net_income", "FY2023", "96,995"),
        _apple("net_income", "FY2022", "99,803"),
        _apple("research_and_development", "FY2024", "31,370"), _apple("research_and_development", "FY2023", "29,915"),
        _apple("label:iphone", "FY2024", "201,183"), _apple("label:iphone", "FY2023", "200,583"),
        _apple("label:ipad", "FY2024", "26,694"), _apple("label:ipad", "FY2023", "28,300"),
        _apple("label:mac", "FY2024", "29,984"), _apple("label:mac", "FY2023", "29,357"),
        _apple("eps_diluted", "FY2024", "6.08", 0, **EPS), _apple("eps_diluted", "FY2023", "6.13", 0, **EPS),
        _apple("revenue", "Q4 FY2024", "$94.9 billion", "billions", doc=A_PR, kind="text"),
        _apple("revenue", "Q4 FY2024", "94,930", doc=A_PR), _apple("revenue", "Q4 FY2023", "89,498", doc=A_PR),
        _apple("revenue", "FY2024", "391,035", doc=A_PR),
        _apple("eps_diluted", "Q4 FY2024", "$0.97", 0, doc=A_PR, kind="text", **EPS),
        _apple("eps_diluted", "Q4 FY2024", "0.97", 0, doc=A_PR, **EPS),
        _apple("eps_diluted", "Q4 FY2023", "1.46", 0, doc=A_PR, **EPS),
        _apple("eps_diluted", "Q4 FY2024", "$1.64", 0, doc=A_PR, kind="text", basis="non-GAAP", **EPS),
        _apple("revenue", "Q2 FY2025", "95,359", doc=A_Q), _apple("revenue", "Q2 FY2024", "90,753", doc=A_Q),
        _apple("revenue", "H1 FY2025", "219,659", doc=A_Q), _apple("net_income", "Q2 FY2025", "24,780", doc=A_Q),
        _nflx("revenue", "FY2024", "39,000,966"), _nflx("revenue", "FY2023", "33,723,297"),
        _nflx("revenue", "FY2022", "31,615,550"),
        _nflx("net_income", "FY2024", "8,711,631"), _nflx("net_income", "FY2023", "5,407,990"),
        _nflx("net_income", "FY2022", "4,491,924"),
        _nflx("operating_income", "FY2024", "10,417,614"), _nflx("operating_income", "FY2023", "6,954,003"),
        _nflx("operating_income", "FY2022", "5,632,831"),
        _nflx("growth:operating_income", "FY2024", "50", 0, **PCT),
        _nflx("growth:revenue", "FY2024", "16", 0, **PCT),
        _nflx("growth:net_income", "FY2024", "61%", 0, kind="text", **PCT),
        _nflx("paid_memberships", "FY2024", "301,626", unit="count", basis="operating metric", instant=True),
        _nflx("paid_memberships", "FY2023", "260,280", unit="count", basis="operating metric", instant=True),
        *NFLX_Q,
        *META_K,
    ],
    "passages": [
        passage(A_PR, "iPhone, iPad, Mac, Services and the active installed base of devices reached a new all-time "
                      "high across all products and geographic segments."),
        passage(N_Q, "Beginning in the first quarter of 2025, we no longer report paid memberships."),
    ],
}

# ---------------------------------------------------------------- room B: Tesla, Meta, Amazon (+ Netflix)

T_K = "filings/TSLA/tsla-10-K-FY2024.html"
T_Q = "filings/TSLA/tsla-10-Q-Q2-2025.html"
T_X = "filings/TSLA/xbrl/tsla-10-Q-Q2-2024_htm.xml"
Z_K = "filings/AMZN/amzn-10-K-FY2024.html"
TSLA, AMZN = "Tesla, Inc.", "Amazon.com, Inc."
ENERGY = "segment:EnergyGenerationAndStorageSegmentMember"
AWS = "segment:AmazonWebServicesSegmentMember"


def _tsla(metric, period, printed, scale="millions", doc=T_K, **kw):
    return fact(metric, period, printed, scale, entity=TSLA, doc=doc, **kw)


def _amzn(metric, period, printed, scale="millions", **kw):
    return fact(metric, period, printed, scale, entity=AMZN, doc=Z_K, **kw)


COUNT = {"unit": "count", "basis": "operating metric"}
ROOM_B = {
    "coverage": [
        cov(T_K, TSLA, "FY2024", "FY2023", "FY2022"),
        cov(T_Q, TSLA, "Q2 FY2025", "H1 FY2025", "Q2 FY2024", "H1 FY2024"),
        cov(T_X, TSLA, "Q2 FY2024", "H1 FY2024", "Q2 FY2023", "H1 FY2023"),
        cov(M_K, META, "FY2024", "FY2023", "FY2022"),
        cov(Z_K, AMZN, "FY2024", "FY2023", "FY2022"),
        cov(N_Q, NFLX, "Q2 FY2025", "H1 FY2025", "Q2 FY2024", "H1 FY2024"),
    ],
    "facts": [
        _tsla("revenue", "FY2024", "97,690"), _tsla("revenue", "FY2023", "96,773"), _tsla("revenue", "FY2022", "81,462"),
        _tsla("gross_profit", "FY2024", "17,450"), _tsla("gross_profit", "FY2023", "17,660"),
        _tsla("gross_margin", "FY2024", "17.9", 0, **PCT), _tsla("gross_margin", "FY2023", "18.2", 0, **PCT),
        _tsla("gross_margin", "FY2024", "18.4", 0, basis="segment:TotalAutomotive", **PCT),
        _tsla("gross_margin", "FY2023", "18.9", 0, basis="segment:TotalAutomotive", **PCT),
        _tsla("deliveries", "FY2024", "1,789,000", 0, kind="text", **COUNT),
        _tsla("label:consumer vehicles produced", "FY2024", "1,773,000", 0, kind="text", **COUNT),
        _tsla("label:fsd (supervised) revenue", "FY2024", "$596 million", kind="text"),
        _tsla("operating_cash_flow", "FY2024", "14,923"), _tsla("operating_cash_flow", "FY2023", "13,256"),
        _tsla("capex", "FY2024", "(11,339)"), _tsla("capex", "FY2023", "(8,898)"),
        _tsla("revenue", "FY2024", "10,086", basis=ENERGY), _tsla("revenue", "FY2023", "6,035", basis=ENERGY),
        _tsla("revenue", "Q2 FY2025", "22,496", doc=T_Q), _tsla("revenue", "Q2 FY2024", "25,500", doc=T_Q),
        _tsla("revenue", "H1 FY2025", "41,831", doc=T_Q),
        _tsla("revenue", "Q2 FY2025", "2,789", doc=T_Q, basis=ENERGY),
        _tsla("revenue", "Q2 FY2024", "3,014", doc=T_Q, basis=ENERGY),
        _tsla("revenue", "H1 FY2025", "5,519", doc=T_Q, basis=ENERGY),
        _tsla("revenue", "H1 FY2024", "4,649", doc=T_Q, basis=ENERGY),
        _tsla("deliveries", "H1 FY2025", "721,000", 0, doc=T_Q, kind="text", **COUNT),
        _tsla("revenue", "Q2 FY2024", "25,500", doc=T_X), _tsla("revenue", "Q2 FY2024", "3,014", doc=T_X, basis=ENERGY),
        _tsla("revenue", "Q2 FY2023", "24,927", doc=T_X), _tsla("revenue", "Q2 FY2023", "1,509", doc=T_X, basis=ENERGY),
        *META_K,
        _amzn("revenue", "FY2024", "637,959"), _amzn("revenue", "FY2023", "574,785"), _amzn("revenue", "FY2022", "513,983"),
        _amzn("revenue", "FY2024", "107,556", basis=AWS), _amzn("revenue", "FY2023", "90,757", basis=AWS),
        _amzn("revenue", "FY2022", "80,096", basis=AWS),
        _amzn("operating_income", "FY2024", "39,834", basis=AWS), _amzn("operating_income", "FY2023", "24,631", basis=AWS),
        _amzn("operating_income", "FY2024", "68,593"), _amzn("operating_income", "FY2023", "36,852"),
        _amzn("growth:revenue", "FY2024", "19", 0, basis=AWS, **PCT),
        _amzn("growth:revenue", "FY2023", "13", 0, basis=AWS, **PCT),
        _amzn("growth:revenue", "FY2024", "11", 0, **PCT), _amzn("growth:revenue", "FY2023", "12", 0, **PCT),
        _amzn("free_cash_flow", "FY2024", "38,219", basis="non-GAAP"),
        _amzn("free_cash_flow", "FY2023", "36,813", basis="non-GAAP"),
        _amzn("operating_cash_flow", "FY2024", "115,877"), _amzn("operating_cash_flow", "FY2023", "84,946"),
        *NFLX_Q,
    ],
    "passages": [
        passage(M_K, "In July 2023, we launched Threads, a new app for sharing text updates and joining public "
                     "conversations."),
        passage(T_Q, "We delivered approximately 721,000 consumer vehicles through the second quarter of 2025."),
    ],
}

# ---------------------------------------------------------------- room C: Elastic, PepsiCo, Best Buy (+ Apple)

E_K = "filings/ESTC/estc-10-K-FY2025.md"
E_PR4 = "press_releases/ESTC/Fourth_Quarter_and_Fiscal_2025_Financial_Results.html"
E_PR2 = "press_releases/ESTC/Second_Quarter_Fiscal_2025_Financial_Results.html"
P_K = "filings_pdf/PEPSICO_2022_10K.pdf"
P_Q = "filings_pdf/PEPSICO_2023Q1_EARNINGS.pdf"
B_Q4 = "filings_pdf/BESTBUY_2023Q4_EARNINGS.pdf"
B_Q = "filings_pdf/BESTBUY_2024Q2_10Q.pdf"
A_Q3 = "filings/AAPL/aapl-10-Q-Q3FY2024_2024-06-29.html"
ESTC, PEP, BBY = "Elastic N.V.", "PepsiCo, Inc.", "Best Buy Co., Inc."


def _estc(metric, period, printed, scale="thousands", doc=E_PR4, **kw):
    return fact(metric, period, printed, scale, entity=ESTC, doc=doc, **kw)


def _pep(metric, period, printed, scale="millions", doc=P_K, **kw):
    return fact(metric, period, printed, scale, entity=PEP, doc=doc, **kw)


def _bby(metric, period, printed, scale="millions", doc=B_Q4, **kw):
    return fact(metric, period, printed, scale, entity=BBY, doc=doc, **kw)


ROOM_C = {
    "coverage": [
        cov(E_K, ESTC, "FY2025", "FY2024", "FY2023", fye="--04-30"),
        cov(E_PR4, ESTC, "Q4 FY2025", "FY2025", "Q4 FY2024", "FY2024", fye="--04-30"),
        cov(E_PR2, ESTC, "Q2 FY2025", "H1 FY2025", "Q2 FY2024", "H1 FY2024", fye="--04-30"),
        cov(P_K, PEP, "FY2022", "FY2021", "FY2020"),
        cov(P_Q, PEP, "Q1 FY2023", "Q1 FY2022"),
        cov(B_Q4, BBY, "Q4 FY2023", "FY2023", "Q4 FY2022", "FY2022", fye="--01-28"),
        cov(B_Q, BBY, "Q2 FY2024", "H1 FY2024", "Q2 FY2023", "H1 FY2023", fye="--01-28"),
        cov(A_Q3, AAPL, "Q3 FY2024", "9M FY2024", "Q3 FY2023", "9M FY2023", fye="--09-28"),
    ],
    "facts": [
        _estc("revenue", "FY2025", "1,483,296"), _estc("revenue", "FY2024", "1,267,321"),
        _estc("revenue", "Q4 FY2025", "388,430"), _estc("revenue", "Q4 FY2024", "335,045"),
        _estc("growth:revenue", "FY2025", "17%", 0, kind="text", **PCT),
        _estc("growth:revenue", "FY2025", "17%", 0, kind="text", basis="constant-currency", **PCT),
        _estc("cloud_revenue", "FY2025", "$688 million", "millions", kind="text"),
        _estc("cloud_revenue", "FY2025", "687,619"), _estc("cloud_revenue", "FY2024", "545,034"),
        _estc("share:cloud_revenue", "FY2025", "46", 0, **PCT), _estc("share:cloud_revenue", "FY2024", "43", 0, **PCT),
        _estc("operating_margin", "FY2025", "(3.7)%", 0, **PCT),
        _estc("operating_margin", "FY2025", "-4%", 0, kind="text", **PCT),
        _estc("operating_margin", "FY2025", "15.2%", 0, basis="non-GAAP", **PCT),
        _estc("operating_margin", "FY2025", "15%", 0, kind="text", basis="non-GAAP", **PCT),
        _estc("operating_margin", "FY2024", "(9.1)%", 0, **PCT),
        _estc("operating_margin", "FY2024", "12.4%", 0, basis="non-GAAP", **PCT),
        _estc("operating_income", "FY2025", "(54,922)"), _estc("operating_income", "FY2024", "(115,357)"),
        _estc("deferred_revenue", "Q4 FY2025", "852,457"),
        _estc("deferred_revenue", "FY2025", "802,117", instant=True),
        _estc("label:deferred revenue, non-current", "FY2025", "50,340", instant=True),
        _estc("deferred_revenue", "FY2024", "712,331", instant=True),
        _estc("revenue", "FY2025", "1,483,296", doc=E_K), _estc("revenue", "FY2024", "1,267,321", doc=E_K),
        _estc("revenue", "FY2023", "1,068,989", doc=E_K),
        _estc("growth:revenue", "FY2025", "17%", 0, doc=E_K, kind="text", **PCT),
        _estc("share:cloud_revenue", "FY2025", "46%", 0, doc=E_K, kind="text", **PCT),
        _estc("share:cloud_revenue", "FY2024", "43%", 0, doc=E_K, kind="text", **PCT),
        _estc("revenue", "Q2 FY2025", "365,364", doc=E_PR2), _estc("revenue", "Q2 FY2024", "309,581", doc=E_PR2),
        _pep("revenue", "FY2022", "86,392"), _pep("revenue", "FY2021", "79,474"), _pep("revenue", "FY2020", "70,372"),
        _pep("growth:revenue", "FY2022", "9 %", 0, **PCT),
        _pep("growth:revenue", "FY2022", "14 %", 0, basis="organic", **PCT),
        _pep("operating_cash_flow", "FY2022", "10,811"), _pep("operating_cash_flow", "FY2021", "11,616"),
        _pep("free_cash_flow", "FY2022", "5,855", basis="non-GAAP"),
        _pep("free_cash_flow", "FY2021", "7,364", basis="non-GAAP"),
        _pep("revenue", "Q1 FY2023", "17,846", doc=P_Q), _pep("revenue", "Q1 FY2022", "16,200", doc=P_Q),
        _bby("revenue", "FY2023", "46,298"), _bby("revenue", "FY2022", "51,761"),
        _bby("revenue", "Q4 FY2023", "14,735"), _bby("revenue", "Q4 FY2022", "16,365"),
        _bby("gross_margin", "FY2023", "21.4 %", 0, **PCT), _bby("gross_margin", "FY2022", "22.5 %", 0, **PCT),
        _bby("gross_margin", "Q4 FY2023", "20.6 %", 0, **PCT), _bby("gross_margin", "Q4 FY2022", "20.5 %", 0, **PCT),
        _bby("gross_profit", "FY2023", "9,912"), _bby("gross_profit", "FY2022", "11,640"),
        _bby("eps_diluted", "FY2023", "6.29", 0, **EPS), _bby("eps_diluted", "FY2022", "9.84", 0, **EPS),
        _bby("eps_diluted", "FY2023", "7.08", 0, basis="non-GAAP", **EPS),
        _bby("eps_diluted", "FY2022", "10.01", 0, basis="non-GAAP", **EPS),
        _bby("comparable_sales", "FY2023", "(9.9)%", 0, basis="operating metric", **PCT),
        _bby("revenue", "Q2 FY2024", "9,583", doc=B_Q), _bby("revenue", "Q2 FY2023", "10,329", doc=B_Q),
        fact("revenue", "Q3 FY2024", "85,777", entity=AAPL, doc=A_Q3),
    ],
    "passages": [
        passage(E_K, "The number of customers who represented greater than $100,000 in annual contract value "
                     "('ACV') was over 1,510 and over 1,330 as of April 30, 2025 and 2024, respectively."),
        passage(E_PR4, "Total customer count with Annual Contract Value (ACV) greater than $100,000 was over 1,510."),
        passage(E_PR4, "Elastic is the leading Search AI company, helping customers build generative AI experiences."),
        passage(P_Q, "We continue to expect 8 percent organic revenue growth and 9 percent core constant currency "
                     "EPS growth in 2023."),
    ],
}


def gold(deck, id_, c, verdict, room):
    return pytest.param(deck, id_, c, verdict, room, id=f"{deck}-{id_}-{verdict}")


A, B, C = "dev-apple-netflix", "dev-tesla-meta-amazon", "dev-elastic-pepsico-bestbuy"
CASES = [
    gold(A, "c01", claim("$391.0B", "revenue", "FY2024", entity=AAPL), "supported", ROOM_A),
    gold(A, "c02", claim("46.2%", "gross_margin", "FY2024", entity=AAPL), "supported", ROOM_A),
    gold(A, "c03", claim("31.5%", "operating_margin", "FY2024", entity=AAPL), "supported", ROOM_A),
    gold(A, "c04", claim("$97.0B", "net_income", "FY2024", entity=AAPL), "contradicted", ROOM_A),
    gold(A, "c05", claim("$31.4M", "research_and_development", "FY2024", entity=AAPL), "contradicted", ROOM_A),
    gold(A, "c06", claim("$201.2B", "label:iphone net sales", "FY2024", entity=AAPL, label="iPhone net sales"),
         "supported", ROOM_A),
    gold(A, "c07", claim("$28.3B", "label:ipad net sales", "FY2024", entity=AAPL, label="iPad net sales"),
         "contradicted", ROOM_A),
    gold(A, "c08", claim("$274.5B", "revenue", "FY2020", entity=AAPL), "no-evidence", ROOM_A),
    gold(A, "c09", claim("$94.9B", "revenue", "Q4 FY2024", entity=AAPL), "supported", ROOM_A),
    gold(A, "c10", claim("$1.64", "eps_diluted", "Q4 FY2024", entity=AAPL), "different-basis", ROOM_A),
    gold(A, "c11", claim("surpassed 2.2B", "label:active installed base devices", "Q4 FY2024", entity=AAPL,
                         label="active installed base devices", basis="operating metric"), "no-evidence", ROOM_A),
    gold(A, "c12", claim("$39.0B", "revenue", "FY2024", entity=NFLX), "supported", ROOM_A),
    gold(A, "c13", claim("61%", "net_income", "FY2024", entity=NFLX, kind="growth"), "supported", ROOM_A),
    gold(A, "c14", claim("35%", "operating_income", "FY2024", entity=NFLX, kind="growth"), "contradicted", ROOM_A),
    gold(A, "c15", claim("17%", "revenue", "Q2 2025", entity=NFLX, kind="growth"), "different-basis", ROOM_A),
    gold(A, "c16", claim("exceeded 310M", "paid_memberships", "Q2 2025", entity=NFLX, basis="operating metric"),
         "no-evidence", ROOM_A),
    gold(B, "c01", claim("$97.7B", "revenue", "FY2024", entity=TSLA), "supported", ROOM_B),
    gold(B, "c02", claim("18.4%", "gross_margin", "FY2024", entity=TSLA), "different-basis", ROOM_B),
    gold(B, "c03", claim("~1.79M", "deliveries", "FY2024", entity=TSLA, basis="operating metric"), "supported", ROOM_B),
    gold(B, "c04", claim("$596B", "label:fsd (supervised) revenue", "FY2024", entity=TSLA,
                         label="FSD (Supervised) revenue"), "contradicted", ROOM_B),
    gold(B, "c05", claim("1.3x", "ratio:operating_cash_flow/capex", "FY2024", entity=TSLA, kind="ratio"),
         "supported", ROOM_B),
    gold(B, "c06", claim("7%", "revenue", "Q2 2025", entity=TSLA, kind="growth",
                         basis="segment:Energy generation & storage"), "contradicted", ROOM_B),
    gold(B, "c07", claim("384K", "deliveries", "Q2 2025", entity=TSLA, basis="operating metric"), "no-evidence", ROOM_B),
    gold(B, "c08", claim("$164.5B", "revenue", "FY2024", entity=META), "supported", ROOM_B),
    gold(B, "c09", claim("23%", "revenue", "FY2024", entity=META, kind="growth"), "different-basis", ROOM_B),
    gold(B, "c10", claim("$52.1B", "free_cash_flow", "FY2024", entity=META), "supported", ROOM_B),
    gold(B, "c11", claim("$77.81M", "cash", "FY2024", entity=META), "contradicted", ROOM_B),
    gold(B, "c12", claim("surpassed 300M", "label:threads monthly actives", "FY2024", entity=META,
                         label="Threads monthly actives", basis="operating metric"), "no-evidence", ROOM_B),
    gold(B, "c13", claim("$638.0B", "revenue", "FY2024", entity=AMZN), "supported", ROOM_B),
    gold(B, "c14", claim("37%", "operating_margin", "FY2024", entity=AMZN, basis="segment:AWS"), "supported", ROOM_B),
    gold(B, "c15", claim("$115.9B", "free_cash_flow", "FY2024", entity=AMZN), "different-basis", ROOM_B),
    gold(B, "c16", claim("13%", "revenue", "FY2024", entity=AMZN, kind="growth", basis="segment:AWS"),
         "contradicted", ROOM_B),
    gold(C, "c01", claim("$1,483M", "revenue", "FY2025", entity=ESTC), "supported", ROOM_C),
    gold(C, "c02", claim("17%", "revenue", "FY2025", entity=ESTC, kind="growth"), "supported", ROOM_C),
    gold(C, "c03", claim("$688M", "cloud_revenue", "FY2025", entity=ESTC), "supported", ROOM_C),
    gold(C, "c04", claim("52%", "cloud_revenue", "FY2025", entity=ESTC, kind="share"), "contradicted", ROOM_C),
    gold(C, "c05", claim("15%", "operating_margin", "FY2025", entity=ESTC), "different-basis", ROOM_C),
    gold(C, "c06", claim("Over 1,510", "label:customers with acv > $100k", "FY2025", entity=ESTC,
                         label="customers with ACV > $100K", basis="operating metric"), "supported", ROOM_C),
    gold(C, "c07", claim("$852K", "deferred_revenue", "Q4 FY2025", entity=ESTC), "contradicted", ROOM_C),
    gold(C, "c08", claim("2,000+", "label:customers building genai applications", "Q4 FY2025", entity=ESTC,
                         label="customers building GenAI applications", basis="operating metric"), "no-evidence", ROOM_C),
    gold(C, "c09", claim("$86.4B", "revenue", "FY2022", entity=PEP), "supported", ROOM_C),
    gold(C, "c10", claim("14%", "revenue", "FY2022", entity=PEP, kind="growth"), "different-basis", ROOM_C),
    gold(C, "c11", claim("$11.6B", "operating_cash_flow", "FY2022", entity=PEP), "contradicted", ROOM_C),
    gold(C, "c12", claim("$17.8B", "revenue", "Q1 2023", entity=PEP), "supported", ROOM_C),
    gold(C, "c13", claim("$91.5B", "revenue", "FY2023", entity=PEP), "no-evidence", ROOM_C),
    gold(C, "c14", claim("$46.3B", "revenue", "FY2023", entity=BBY), "supported", ROOM_C),
    gold(C, "c15", claim("(10.6)%", "revenue", "FY2023", entity=BBY, kind="growth"), "supported", ROOM_C),
    gold(C, "c16", claim("$7.08", "eps_diluted", "FY2023", entity=BBY), "different-basis", ROOM_C),
    gold(C, "c17", claim("22.5%", "gross_margin", "FY2023", entity=BBY), "contradicted", ROOM_C),
]


@pytest.mark.parametrize(("deck", "id_", "c", "verdict", "room"), CASES)
def test_gold_claim_gets_the_gold_verdict(deck, id_, c, verdict, room):
    v = verify(c, ev(room["coverage"], *room["facts"], passages=room["passages"]))
    assert v.verdict == verdict, v.reason


def test_fixtures_carry_the_gold_labels():
    if not GOLD.is_dir():
        pytest.skip(f"needs the gold set at {GOLD}")
    labels = {}
    for path in GOLD.glob("*.json"):
        data = json.loads(path.read_text())
        labels.update({(data["name"], c["id"]): c["verdict"] for c in data["claims"]})
    ours = {(p.values[0], p.values[1]): p.values[3] for p in CASES}
    assert ours == labels
