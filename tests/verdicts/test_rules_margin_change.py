"""A margin's move in percentage points or basis points is this period's margin less the prior one's,
computed from the room's figures; shown on two companies' shapes."""

from __future__ import annotations

import pytest

from _build import claim, cov, ev, fact
from verdicts.rules import verify

UNP = "Union Pacific Corporation"
AMZN = "Amazon.com, Inc."
ROOM = [cov("unp-10-K.html", UNP, "FY2024", "FY2023"), cov("amzn-10-K.html", AMZN, "FY2024", "FY2023")]
FACTS = [
    # Union Pacific: operating margin 40.05% in 2024 against 37.65% in 2023 (+2.39 points).
    fact("operating_income", "FY2024", "9,712", entity=UNP, doc="unp-10-K.html"),
    fact("revenue", "FY2024", "24,250", entity=UNP, doc="unp-10-K.html"),
    fact("operating_income", "FY2023", "9,082", entity=UNP, doc="unp-10-K.html"),
    fact("revenue", "FY2023", "24,119", entity=UNP, doc="unp-10-K.html"),
    # Amazon: net margin printed by the filing itself, 9.29% against 5.29% (+4.0 points).
    fact("net_margin", "FY2024", "9.29%", "units", entity=AMZN, doc="amzn-10-K.html", unit="percent"),
    fact("net_margin", "FY2023", "5.29%", "units", entity=AMZN, doc="amzn-10-K.html", unit="percent"),
]


@pytest.mark.parametrize(("entity", "metric", "printed", "verdict"), [
    (UNP, "operating_margin", "2.4 pp", "supported"),
    (UNP, "operating_margin", "239 bps", "supported"),
    (UNP, "operating_margin", "1.0 pp", "contradicted"),
    (AMZN, "net_margin", "4.0 percentage points", "supported"),
    (AMZN, "net_margin", "400 bps", "supported"),
    (AMZN, "net_margin", "2.5 pp", "contradicted"),
])
def test_a_margin_change_in_points_is_the_difference_of_two_margins(entity, metric, printed, verdict) -> None:
    c = claim(printed, metric, "FY2024", entity=entity, kind="growth", comparison="FY2023")
    v = verify(c, ev(ROOM, *FACTS))
    assert v.verdict == verdict, v.reason
    assert {x.role for x in v.citations} >= {"current", "prior"}


def test_a_margin_change_without_the_prior_year_is_no_evidence() -> None:
    c = claim("2.4 pp", "operating_margin", "FY2024", entity=UNP, kind="growth", comparison="FY2023")
    v = verify(c, ev(ROOM, *FACTS[:2]))
    assert v.verdict == "no-evidence"


@pytest.mark.parametrize(("entity", "metric", "printed"), [(UNP, "operating_margin", "2.4 bps"),
                                                           (AMZN, "net_margin", "4.0 bps")])
def test_points_printed_as_basis_points_are_a_unit_error(entity, metric, printed) -> None:
    c = claim(printed, metric, "FY2024", entity=entity, kind="growth", comparison="FY2023")
    v = verify(c, ev(ROOM, *FACTS))
    assert v.verdict == "contradicted" and "factor of 100" in v.reason, v.reason


# A total the room prints two ways, both years: a retailer's "Net sales" and "Total revenues", a
# bank's "Total net revenue" and "Revenues, net of interest expense". Its facts are listed so that
# the most direct figure of each year is a different line.
RETAILER, BANK = "Walton Stores Inc.", "Harbor Bancorp"
TWO_LINES = [cov("wltn-10-K.html", RETAILER, "FY2024", "FY2023"), cov("hbr-10-K.html", BANK, "FY2024", "FY2023")]
TWO_LINE_FACTS = [
    fact("net_income", "FY2024", "500", entity=RETAILER, doc="wltn-10-K.html"),
    fact("revenue", "FY2024", "10,400", entity=RETAILER, doc="wltn-10-K.html", label="Total revenues"),
    fact("revenue", "FY2024", "10,000", entity=RETAILER, doc="wltn-10-K.html", label="Net sales"),
    fact("net_income", "FY2023", "400", entity=RETAILER, doc="wltn-10-K.html"),
    fact("revenue", "FY2023", "10,000", entity=RETAILER, doc="wltn-10-K.html", label="Net sales"),
    fact("revenue", "FY2023", "10,100", entity=RETAILER, doc="wltn-10-K.html", label="Total revenues"),
    fact("operating_income", "FY2024", "3,000", entity=BANK, doc="hbr-10-K.html"),
    fact("revenue", "FY2024", "12,500", entity=BANK, doc="hbr-10-K.html", label="Revenues, net of interest expense"),
    fact("revenue", "FY2024", "12,000", entity=BANK, doc="hbr-10-K.html", label="Total net revenue"),
    fact("operating_income", "FY2023", "2,640", entity=BANK, doc="hbr-10-K.html"),
    fact("revenue", "FY2023", "12,000", entity=BANK, doc="hbr-10-K.html", label="Total net revenue"),
    fact("revenue", "FY2023", "12,400", entity=BANK, doc="hbr-10-K.html", label="Revenues, net of interest expense"),
]


@pytest.mark.parametrize(("entity", "metric", "printed", "verdict"), [
    # 5.00% - 4.00% over net sales; over total revenues 4.81% - 3.96% = 85 bps.
    (RETAILER, "net_margin", "100 bps", "supported"),
    (RETAILER, "net_margin", "85 bps", "supported"),
    (RETAILER, "net_margin", "150 bps", "contradicted"),
    # 25.00% - 22.00% over total net revenue; over the other line 24.00% - 21.29% = 271 bps.
    (BANK, "operating_margin", "300 bps", "supported"),
    (BANK, "operating_margin", "271 bps", "supported"),
    (BANK, "operating_margin", "400 bps", "contradicted"),
])
def test_a_margin_move_compares_each_year_over_the_same_line(entity, metric, printed, verdict) -> None:
    c = claim(printed, metric, "FY2024", entity=entity, kind="growth", comparison="FY2023")
    v = verify(c, ev(TWO_LINES, *TWO_LINE_FACTS))
    assert v.verdict == verdict, v.reason


# A rate that is no ratio of two registry quantities (a railroad's operating ratio, a software company's
# net revenue retention) moves by its level this period less its level a year before.
@pytest.mark.parametrize(("metric", "label", "now", "then", "printed", "verdict"), [
    ("label:operating ratio %", "Operating ratio", "59.0", "60.0", "(100) bps", "supported"),
    ("label:operating ratio %", "Operating ratio", "59.0", "60.0", "50 bps", "contradicted"),
    ("net_revenue_retention", "Net expansion rate", "112", "110", "+2 pts", "supported"),
])
def test_a_rates_move_in_points_is_the_difference_of_its_levels(metric, label, now, then, printed, verdict):
    room = [cov("q.html", UNP, "Q2 FY2025", "Q2 FY2024")]
    facts = [fact(metric, "Q2 FY2025", now, 0, unit="percent", entity=UNP, doc="q.html"),
             fact(metric, "Q2 FY2024", then, 0, unit="percent", entity=UNP, doc="q.html")]
    c = claim(printed, metric if not metric.startswith("label:") else "label:operating ratio", "Q2 FY2025", entity=UNP,
              kind="growth", comparison="Q2 FY2024", label=label)
    v = verify(c, ev(room, *facts))
    assert v.verdict == verdict, v.reason


# Margins rounded to a tenth before they are subtracted: "up 90 basis points" from 23.0% and 22.1%.
@pytest.mark.parametrize(("printed", "verdict"), [("90 bps", "no-evidence"), ("0.9 pp", "no-evidence"),
                                                  ("150 bps", "contradicted")])
def test_a_move_within_the_rounding_of_its_margins_is_not_contradicted(printed, verdict):
    room = [cov("pg-10-Q.html", "Procter Co", "Q3 FY2025", "Q3 FY2024")]
    facts = [fact("operating_income", "Q3 FY2025", "4,600", entity="Procter Co", doc="pg-10-Q.html"),
             fact("revenue", "Q3 FY2025", "19,955", entity="Procter Co", doc="pg-10-Q.html"),
             fact("operating_income", "Q3 FY2024", "4,502", entity="Procter Co", doc="pg-10-Q.html"),
             fact("revenue", "Q3 FY2024", "20,390", entity="Procter Co", doc="pg-10-Q.html")]
    c = claim(printed, "operating_margin", "Q3 FY2025", entity="Procter Co", kind="growth", comparison="Q3 FY2024")
    assert verify(c, ev(room, *facts)).verdict == verdict
