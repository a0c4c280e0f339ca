"""A row that prints its unit in its name, a year a sentence compares with, and a release that prints
its figures in sentences alone: what each says about the figure's unit and period."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from tests.parsers.test_filings_amounts import _facts, _html, _parse

DATA = Path(__file__).parents[2].parent / "shared" / "data"
real = pytest.mark.skipif(not DATA.is_dir(), reason=f"shared data folder {DATA} is absent")


@pytest.mark.parametrize("label", ["Operating ratio (%)", "Effective tax rate, percent"])
def test_a_row_that_names_its_unit_as_a_percentage_is_a_percentage_in_a_money_table(label):
    doc = _html(f"""<div><b>Operating/Performance Statistics</b></div><div>(Dollars in millions)</div>
    <table><tr><td></td><td>2024</td><td>2023</td></tr>
    <tr><td>Operating income</td><td>$9,712</td><td>$9,082</td></tr>
    <tr><td>{label}</td><td>59.9</td><td>62.3</td></tr></table>""")
    (fact,) = [f for f in doc.facts if f.label == label and f.period == "FY2024"]
    assert (fact.unit, fact.value) == ("percent", Decimal("59.9"))


@pytest.mark.parametrize(("sentence", "metric", "printed"), [
    ("Operating income of $9.7 billion increased 7% from 2023, and our operating ratio was 59.9%.",
     "operating_income", "$9.7 billion"),
    ("Net sales of $84.3 billion were up 2% over fiscal 2024.", "revenue", "$84.3 billion"),
])
def test_a_year_a_sentence_compares_with_is_not_the_figures_period(sentence, metric, printed):
    doc = _html(f"<h2>2025 Results</h2><p>{sentence}</p>", title="Acme Corporation - Form 10-K 2025")
    periods = {f.period for f in _facts(doc, metric, kind="text") if f.as_printed == printed}
    assert periods and not {"FY2023", "FY2024"} & periods


def test_a_release_that_prints_figures_only_in_sentences_covers_their_quarter():
    doc = _html("<p>Globex today announced financial results for its fiscal 2025 fourth quarter ended "
                "September 27, 2025. The company posted quarterly revenue of $12.4 billion, up 6 percent year "
                "over year, and quarterly diluted earnings per share of $1.12.</p>",
                title="Globex Reports Fourth Quarter Results")
    assert {f.period for f in doc.facts} == {"Q4 FY2025"}
    assert doc.document.periods == ["Q4 FY2025"]


@real
def test_apple_newsroom_release_covers_its_fourth_quarter():
    path = DATA / "press_releases/AAPL/aapl_q4_fy2024_earnings_release.html"
    doc = _parse(path.read_bytes(), path.name)
    assert "Q4 FY2024" in doc.document.periods


@pytest.mark.parametrize("sentence", ["GAAP net loss per share was $0.25; non-GAAP diluted earnings per share was $0.59.",
                                      "Net loss per share of $0.25 compared with net income per share of $0.12 a year ago."])
def test_a_per_share_loss_a_sentence_prints_without_a_sign_is_below_zero(sentence):
    doc = _html(f"<h2>Second Quarter Fiscal 2025 Financial Highlights</h2><p>{sentence}</p>",
                title="Acme Reports Second Quarter Fiscal 2025 Results")
    values = {f.value for f in _facts(doc, "eps_diluted", kind="text")}
    assert Decimal("-0.25") in values and Decimal("0.25") not in values


@pytest.mark.parametrize("label", ["Net loss per share, basic and diluted", "Net (loss) income per share - diluted"])
def test_a_per_share_row_is_earnings_per_share_not_net_income(label):
    doc = _html(f"""<div>(in thousands, except per share data)</div>
    <table><tr><td></td><td>2024</td><td>2023</td></tr>
    <tr><td>Net loss</td><td>$(25,450)</td><td>$(24,796)</td></tr>
    <tr><td>{label}</td><td>$(0.25)</td><td>$(0.25)</td></tr></table>""")
    assert {f.value for f in _facts(doc, "eps_diluted") if f.period == "FY2024"} == {Decimal("-0.25")}
    assert Decimal("-0.25") not in {f.value for f in _facts(doc, "net_income")}


@pytest.mark.parametrize(("banner", "periods"), [
    ("Three months ended<br/>June 30,", {"Q2 FY2025", "Q2 FY2024"}),
    ("Nine Months Ended<br>September 30,", {"9M FY2025", "9M FY2024"}),
])
def test_a_line_break_inside_a_header_cell_separates_its_words(banner, periods):
    doc = _html(f"""<div>(Dollars in millions)</div><table>
    <tr><td></td><td colspan="2">{banner}</td></tr>
    <tr><td></td><td>2025</td><td>2024</td></tr>
    <tr><td>Operating revenues</td><td>$6,152</td><td>$5,982</td></tr></table>""", title="Acme Corporation - Form 10-Q")
    assert {f.period for f in _facts(doc, "revenue")} == periods


@pytest.mark.parametrize(("sentence", "metric", "points"), [
    ("Operating income increased $98 million, or 2%, to $4.6 billion and operating margin increased 90 basis "
     "points to 23.0% versus the prior year period.", "growth:operating_margin", Decimal("0.9")),
    ("Gross margin decreased 20 basis points to 51.0% of net sales for the quarter.", "growth:gross_margin",
     Decimal("-0.2")),
    ("Net margin improved by 1.5 percentage points.", "growth:net_margin", Decimal("1.5")),
])
def test_a_margins_move_in_points_is_read_from_its_sentence(sentence, metric, points):
    doc = _html(f"<h2>Three Months Ended March 31, 2025</h2><p>{sentence}</p>",
                title="Acme Company Form 10-Q for the quarterly period ended March 31, 2025")
    assert [(f.value, f.unit) for f in _facts(doc, metric, kind="text")] == [(points, "pp")]


@pytest.mark.parametrize(("title", "row", "metric", "basis"), [
    ("Reconciliation of GAAP to Non-GAAP Data Adjusted Free Cash Flow (unaudited)",
     "Net cash provided by operating activities", "operating_cash_flow", "GAAP"),
    ("Reconciliation of GAAP to Non-GAAP Data Supplementary Information (unaudited)", "Total deferred revenue",
     "deferred_revenue", "GAAP"),
])
def test_a_reconciliation_title_carried_into_the_header_states_no_basis_for_its_columns(title, row, metric, basis):
    doc = _html(f"""<div>(in thousands)</div><table>
    <tr><td></td><td colspan="2">{title}</td></tr>
    <tr><td></td><td colspan="2">Three Months Ended July 31,</td></tr>
    <tr><td></td><td>2024</td><td>2023</td></tr>
    <tr><td>{row}</td><td>88,058</td><td>52,389</td></tr></table>""", title="Acme N.V. Reports First Quarter Fiscal 2025 Results")
    assert {f.basis for f in _facts(doc, metric)} == {basis}


@pytest.mark.parametrize("group", ["Net income per share:", "Net loss per share attributable to ordinary shareholders:"])
def test_basic_and_diluted_under_a_per_share_heading_are_basic_and_diluted_eps(group):
    doc = _html(f"""<div>(in millions, except per share data)</div><table>
    <tr><td></td><td>2024</td><td>2023</td></tr>
    <tr><td>{group}</td><td></td><td></td></tr>
    <tr><td>Basic</td><td>$2.97</td><td>$1.21</td></tr>
    <tr><td>Diluted</td><td>$2.94</td><td>$1.19</td></tr></table>""")
    assert {f.value for f in _facts(doc, "eps_basic", "FY2024")} == {Decimal("2.97")}
    assert {f.value for f in _facts(doc, "eps_diluted", "FY2024")} == {Decimal("2.94")}


@pytest.mark.parametrize(("dimensions", "basis"), [
    # A tech company's segment revenue tagged with both axes: the segment is the business-segment member.
    ({"srt:ConsolidationItemsAxis": "us-gaap:OperatingSegmentsMember",
      "us-gaap:StatementBusinessSegmentsAxis": "ibm:SoftwareMember"}, "segment:SoftwareMember"),
    ({"srt:ConsolidationItemsAxis": "us-gaap:OperatingSegmentsMember",
      "us-gaap:StatementBusinessSegmentsAxis": "nvda:ComputeAndNetworkingMember"}, "segment:ComputeAndNetworkingMember"),
    # Alone, a consolidation item is what the figure is a part of.
    ({"srt:ConsolidationItemsAxis": "us-gaap:CorporateNonSegmentMember"}, "segment:CorporateNonSegmentMember"),
])
def test_a_business_segment_member_outranks_the_consolidation_item_beside_it(dimensions, basis):
    from parsers.filings.ixbrl import basis_for

    assert basis_for(dimensions) == basis


@pytest.mark.parametrize(("group", "basis"), [
    ("Year-over-year Percentage Growth, excluding the effect of foreign exchange rates", "constant-currency"),  # a retailer
    ("Organic sales growth", "organic"),  # a consumer-goods maker
    ("Non-GAAP to GAAP reconciliation", None),  # a heading's non-GAAP may name only what its rows reconcile to
])
def test_a_heading_that_states_constant_currency_or_organic_gives_its_rows_that_basis(group, basis):
    from parsers.filings.facts import row_metric

    assert row_metric("International", group)[1] == basis
