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
