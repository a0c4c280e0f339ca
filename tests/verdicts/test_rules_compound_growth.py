"""A compound annual growth rate is the yearly rate that, repeated, takes the first year's figure to the
last: (last / first)^(1/years) - 1, never the last year's growth alone. Shown on two companies."""

from __future__ import annotations

import msgspec
import pytest

from _build import claim, cov, ev, fact
from verdicts.rules import verify

WMT, UNP = "Walmart Inc.", "Union Pacific Corporation"
ROOM = [cov("wmt-10-K.html", WMT, "FY2025", "FY2024", "FY2023"), cov("unp-10-K.html", UNP, "FY2024", "FY2023", "FY2022")]
FACTS = [
    fact("revenue", "FY2023", "611,289", entity=WMT, doc="wmt-10-K.html"),
    fact("revenue", "FY2024", "648,125", entity=WMT, doc="wmt-10-K.html"),
    fact("revenue", "FY2025", "680,985", entity=WMT, doc="wmt-10-K.html"),
    fact("operating_income", "FY2022", "9,917", entity=UNP, doc="unp-10-K.html"),
    fact("operating_income", "FY2023", "9,082", entity=UNP, doc="unp-10-K.html"),
    fact("operating_income", "FY2024", "9,712", entity=UNP, doc="unp-10-K.html"),
]


def _cagr(printed: str, metric: str, entity: str, start: str, end: str, years: int):  # type: ignore[no-untyped-def]
    c = claim(printed, metric, end, entity=entity, kind="growth", comparison=start, text=f"'{start[4:]}-'{end[4:]} CAGR {printed}")
    return msgspec.structs.replace(c, compounded_years=years)


@pytest.mark.parametrize(("printed", "metric", "entity", "start", "end", "verdict"), [
    ("5.5%", "revenue", WMT, "FY2023", "FY2025", "supported"),   # (680,985 / 611,289)^(1/2) - 1 = 5.55%
    ("11.4%", "revenue", WMT, "FY2023", "FY2025", "contradicted"),  # the two years' cumulative growth
    ("(1.0)%", "operating_income", UNP, "FY2022", "FY2024", "supported"),  # (9,712 / 9,917)^(1/2) - 1 = -1.04%
    ("6.9%", "operating_income", UNP, "FY2022", "FY2024", "contradicted"),  # FY2024's growth alone
])
def test_a_cagr_compounds_between_its_first_and_last_years(printed, metric, entity, start, end, verdict) -> None:
    v = verify(_cagr(printed, metric, entity, start, end, 2), ev(ROOM, *FACTS))
    assert v.verdict == verdict, v.reason
    assert {x.role for x in v.citations} >= {"current", "prior"}
    assert "^(1/2)" in v.reason or verdict == "contradicted"


@pytest.mark.parametrize(("entity", "metric"), [(WMT, "revenue"), (UNP, "operating_income")])
def test_a_cagr_over_years_the_deck_does_not_state_is_no_evidence(entity: str, metric: str) -> None:
    c = claim("5.0%", metric, "FY2024", entity=entity, kind="growth", comparison="FY2023", text="CAGR 5.0%")
    v = verify(c, ev(ROOM, *FACTS))
    assert v.verdict == "no-evidence", v.reason
