"""Which room figure decides a claim: the most direct reading wins, and a figure of another magnitude
is another quantity (no-evidence), never a contradiction. Each behaviour on two companies' shapes."""

from __future__ import annotations

import pytest

from _build import claim, cov, ev, fact
from verdicts.rules import verify

ROOM = [cov("nvda-10-K.html", "NVIDIA Corporation", "FY2025", "FY2024"),
        cov("ma-10-K.html", "Mastercard Incorporated", "FY2024", "FY2023")]


@pytest.mark.parametrize(("entity", "doc", "tagged", "sentence", "printed"), [
    # A sentence about deferred revenue recognised, against the tagged income statement.
    ("NVIDIA Corporation", "nvda-10-K.html", "130,497", "$729 million", "$130.5 billion"),
    # A sentence about one revenue stream, against the tagged total.
    ("Mastercard Incorporated", "ma-10-K.html", "28,167", "$6.3 billion", "$28.2 billion"),
])
def test_a_tagged_cell_outranks_a_sentence_for_the_same_slot(entity, doc, tagged, sentence, printed) -> None:
    facts = [fact("revenue", "FY2025" if "nvda" in doc else "FY2024", tagged, entity=entity, doc=doc, kind="ixbrl"),
             fact("revenue", "FY2025" if "nvda" in doc else "FY2024", sentence, "units" if "$" in sentence else "millions",
                  entity=entity, doc=doc, kind="text")]
    facts[1] = type(facts[1])(**{**{f: getattr(facts[1], f) for f in facts[1].__struct_fields__},
                                 "value": facts[1].value.scaleb(6 if "million" in sentence else 9)})
    period = "FY2025" if "nvda" in doc else "FY2024"
    v = verify(claim(printed, "revenue", period, entity=entity), ev(ROOM, *facts))
    assert v.verdict == "supported", v.reason
    assert "note the room also prints" not in v.reason, "a sentence is no second opinion on a tagged total"


@pytest.mark.parametrize(("printed", "room", "metric", "unit"), [
    ("$0.66", "6,959", "label:stock-based compensation", "USD"),  # a per-share line read under an amount's name
    ("$1.2B", "46", "label:amortization of acquired intangibles", "USD"),  # one year's line against another's sum
])
def test_a_figure_of_another_magnitude_is_no_evidence_not_a_contradiction(printed, room, metric, unit) -> None:
    c = claim(printed, metric, "FY2025", entity="NVIDIA Corporation", label=metric[6:])
    v = verify(c, ev(ROOM, fact(metric, "FY2025", room, entity="NVIDIA Corporation", doc="nvda-10-K.html", unit=unit)))
    assert v.verdict == "no-evidence", v.reason
    assert "another magnitude" in v.reason


@pytest.mark.parametrize(("printed", "room", "entity", "doc", "period"), [
    ("$28.2 million", "28,167", "Mastercard Incorporated", "ma-10-K.html", "FY2024"),
    ("$130.5 million", "130,497", "NVIDIA Corporation", "nvda-10-K.html", "FY2025"),
])
def test_a_scale_error_is_still_a_contradiction(printed, room, entity, doc, period) -> None:
    v = verify(claim(printed, "revenue", period, entity=entity), ev(ROOM, fact("revenue", period, room, entity=entity, doc=doc)))
    assert v.verdict == "contradicted" and "factor of 1,000" in v.reason, v.reason


@pytest.mark.parametrize(("printed", "room"), [("$25.0B", "28,167"), ("$31.0B", "28,167")])
def test_a_wrong_figure_of_the_same_magnitude_is_contradicted(printed, room) -> None:
    c = claim(printed, "revenue", "FY2024", entity="Mastercard Incorporated")
    v = verify(c, ev(ROOM, fact("revenue", "FY2024", room, entity="Mastercard Incorporated", doc="ma-10-K.html")))
    assert v.verdict == "contradicted", v.reason


def test_a_growth_claim_of_the_wrong_sign_is_contradicted() -> None:
    c = claim("7%", "revenue", "FY2025", entity="NVIDIA Corporation", kind="growth", comparison="FY2024")
    facts = [fact("revenue", "FY2025", "2,789", entity="NVIDIA Corporation", doc="nvda-10-K.html"),
             fact("revenue", "FY2024", "3,014", entity="NVIDIA Corporation", doc="nvda-10-K.html")]
    assert verify(c, ev(ROOM, *facts)).verdict == "contradicted"


@pytest.mark.parametrize(("printed", "verdict"), [("4.3%", "supported"), ("4.4%", "supported"), ("5.0%", "contradicted")])
def test_a_total_printed_two_ways_gives_one_computed_reading_each(printed, verdict) -> None:
    # Walmart prints "Net sales" 674,538 and "Total revenues" 680,985; operating income 29,348.
    wmt = "Walmart Inc."
    room = [cov("wmt-10-K.html", wmt, "FY2025")]
    facts = [fact("operating_income", "FY2025", "29,348", entity=wmt, doc="wmt-10-K.html", kind="ixbrl"),
             fact("revenue", "FY2025", "674,538", entity=wmt, doc="wmt-10-K.html", kind="ixbrl"),
             fact("revenue", "FY2025", "680,985", entity=wmt, doc="wmt-10-K.html", kind="ixbrl")]
    v = verify(claim(printed, "operating_margin", "FY2025", entity=wmt, kind="margin"), ev(room, *facts))
    assert v.verdict == verdict, v.reason


@pytest.mark.parametrize(("entity", "doc", "member", "part", "slice_", "total", "printed", "verdict"), [
    ("NVIDIA Corporation", "nvda-10-K.html", "nvda:DataCenterMember", "data center", "47,525", "60,922", "78%", "supported"),
    ("NVIDIA Corporation", "nvda-10-K.html", "nvda:DataCenterMember", "data center", "47,525", "60,922", "68%",
     "contradicted"),
    ("Apple Inc.", "aapl-10-K.html", "aapl:GreaterChinaSegmentMember", "greater china", "66,952", "391,035", "17.1%",
     "supported"),
])
def test_a_named_slices_share_divides_its_tagged_segment_by_the_total(entity, doc, member, part, slice_, total,
                                                                      printed, verdict) -> None:
    room = [cov(doc, entity, "FY2024")]
    axis = "srt:ProductOrServiceAxis" if "nvda" in doc else "us-gaap:StatementBusinessSegmentsAxis"
    facts = [fact("revenue", "FY2024", slice_, entity=entity, doc=doc, kind="ixbrl", dims={axis: member}),
             fact("revenue", "FY2024", total, entity=entity, doc=doc, kind="ixbrl")]
    c = claim(printed, f"label:{part}", "FY2024", entity=entity, kind="share", label=part)
    c = type(c)(**{**{f: getattr(c, f) for f in c.__struct_fields__}, "denominator": "revenue"})
    v = verify(c, ev(room, *facts))
    assert v.verdict == verdict, v.reason


@pytest.mark.parametrize(("printed", "room", "entity", "scale_error"), [
    ("2.94 cents", "2.94", "NVIDIA Corporation", True),  # dollars printed as cents
    ("611¢", "6.08", "Apple Inc.", False),  # cents that are simply wrong
])
def test_dollars_printed_as_cents_are_a_scale_error(printed, room, entity, scale_error) -> None:
    rooms = [cov("x-10-K.html", entity, "FY2024")]
    c = claim(printed, "eps_diluted", "FY2024", entity=entity)
    c = type(c)(**{**{f: getattr(c, f) for f in c.__struct_fields__}, "unit": "USD/share"})
    v = verify(c, ev(rooms, fact("eps_diluted", "FY2024", room, "units", entity=entity, doc="x-10-K.html", unit="USD/share")))
    assert v.verdict == "contradicted", v.reason
    assert ("factor of 100" in v.reason) == scale_error, v.reason


@pytest.mark.parametrize(("entity", "doc", "printed", "sentence"), [
    ("Elastic N.V.", "estc-10-K.md", "$475M", "$56.1 million"),
    ("Mastercard Incorporated", "ma-10-K.html", "$9.1B", "$6.3 billion"),
])
def test_a_sentence_alone_supports_but_never_contradicts(entity, doc, printed, sentence) -> None:
    room = [cov(doc, entity, "FY2024")]
    scale = "millions" if "million" in sentence else "billions"
    number = sentence.split()[0]
    f = fact("label:sales and marketing", "FY2024", number, scale, entity=entity, doc=doc, kind="text")
    c = claim(printed, "label:sales and marketing", "FY2024", entity=entity, label="sales and marketing")
    v = verify(c, ev(room, f))
    assert v.verdict == "no-evidence" and "only in a sentence" in v.reason, v.reason
    agreeing = claim(number, "label:sales and marketing", "FY2024", entity=entity, label="sales and marketing")
    agreeing = type(agreeing)(**{**{k: getattr(agreeing, k) for k in agreeing.__struct_fields__},
                                 "scale": 6 if scale == "millions" else 9, "unit": "USD"})
    assert verify(agreeing, ev(room, f)).verdict == "supported"


@pytest.mark.parametrize(("printed", "now", "then", "entity"), [
    ("14.5%", "24,250", "24,119", "Union Pacific Corporation"),  # a railroad's flat year claimed as strong growth
    ("0.7%", "37,895", "34,857", "Salesforce, Inc."),  # a software maker's 8.7% claimed as flat
])
def test_a_growth_rate_far_from_the_rooms_is_contradicted_not_another_quantity(printed, now, then, entity) -> None:
    c = claim(printed, "revenue", "FY2024", entity=entity, kind="growth", comparison="FY2023")
    facts = [fact("revenue", "FY2024", now, entity=entity, doc="10-K.html"),
             fact("revenue", "FY2023", then, entity=entity, doc="10-K.html")]
    v = verify(c, ev([cov("10-K.html", entity, "FY2024", "FY2023")], *facts))
    assert v.verdict == "contradicted", v.reason


@pytest.mark.parametrize(("printed", "lines"), [
    # A retailer prints "Net sales" (642,637 / 605,881: 6.07%) and "Total revenues" (648,125 / 611,289: 6.03%).
    ("6.0%", [("Net sales", "642,637", "605,881"), ("Total revenues", "648,125", "611,289")]),
    # A bank prints "Total net revenue" (12.4%) beside "Revenues" (12.0%).
    ("12.4%", [("Revenues", "48,100", "42,950"), ("Total net revenue", "49,460", "44,000")]),
])
def test_a_total_printed_two_ways_grows_two_ways_each_line_over_its_own_prior_year(printed, lines) -> None:
    entity = "Acme Inc."
    facts = [fact("revenue", period, value, label=label, doc="10-K.html", kind="ixbrl")
             for label, now, then in lines for period, value in (("FY2025", now), ("FY2024", then))]
    c = claim(printed, "revenue", "FY2025", entity=entity, kind="growth", comparison="FY2024")
    v = verify(c, ev([cov("10-K.html", entity, "FY2025", "FY2024")], *facts))
    assert v.verdict == "supported", v.reason


@pytest.mark.parametrize(("printed", "income", "revenue"), [
    ("-0.6%", "36,852", "574,785"),  # a retailer's 6.4% operating margin printed as a loss
    ("45%", "2,450", "60,922"),  # a chipmaker's 4.0% claimed as 45%
])
def test_a_margin_far_from_the_rooms_is_contradicted_not_another_quantity(printed, income, revenue) -> None:
    c = claim(printed, "operating_margin", "FY2024", kind="margin")
    e = ev([cov("10-K.html", "Acme Inc.", "FY2024")], fact("operating_income", "FY2024", income, doc="10-K.html"),
           fact("revenue", "FY2024", revenue, doc="10-K.html"))
    v = verify(c, e)
    assert v.verdict == "contradicted", v.reason
