"""The verdict rules, one behaviour per case, built by hand (no files, no parsers run)."""

from __future__ import annotations

from decimal import Decimal

import msgspec
import pytest

from _build import claim, cov, ev, fact, passage
from parsers.model import Resolution
from verdicts.model import RuleOutcome, Verdict
from verdicts.rules import RULES, evaluate, needed_metrics, tolerance, verify

K10 = "acme-10-K-FY2024.html"
Q10 = "acme-10-Q-Q2FY2025.html"
PR = "acme-q4-release.html"
ROOM = [
    cov(K10, "Acme Inc.", "FY2024", "FY2023", "FY2022"),
    cov(Q10, "Acme Inc.", "Q2 FY2025", "H1 FY2025", "Q2 FY2024", "H1 FY2024"),
    cov("other-10-K.html", "Other Corp", "FY2024", "FY2023"),
]
REV = [fact("revenue", "FY2024", "391,035"), fact("revenue", "FY2023", "383,285"), fact("revenue", "FY2022", "394,328")]


def case(id_, c, e, verdict, *needles):
    return pytest.param(c, e, verdict, needles, id=id_)


CASES = [
    # ---- scope
    case("no_document_covers_the_period_is_no_evidence",
         claim("$274.5B", "revenue", "FY2020"), ev(ROOM, *REV), "no-evidence", "No document covers Acme Inc. FY2020"),
    case("only_other_companies_cover_the_claim_is_no_evidence",
         claim("$10.0B", "revenue", "FY2024", entity="Nobody Ltd"), ev(ROOM, *REV), "no-evidence", "No document covers"),
    case("a_claim_without_a_period_is_no_evidence",
         claim("$391.0B", "revenue", None), ev(ROOM, *REV), "no-evidence", "names no period"),
    # ---- locate
    case("metric_absent_from_the_room_is_no_evidence_saying_what_was_searched",
         claim("2.2B", "label:active installed base devices", "FY2024", label="active installed base devices"),
         ev(ROOM, *REV), "no-evidence", "documents searched"),
    case("another_companys_figure_is_never_evidence",
         claim("$50.0B", "revenue", "FY2024"), ev(ROOM, fact("revenue", "FY2024", "50,000", entity="Other Corp")),
         "no-evidence"),
    case("label_claim_finds_its_row_by_label_words",
         claim("$2.8B", "label:energy generation & storage revenue", "FY2024"),
         ev(ROOM, fact("label:energy generation and storage", "FY2024", "2,789"), *REV), "supported"),
    case("label_claim_falls_back_to_a_passage_with_its_period",
         claim("over 1,510", "label:customers with acv > $100k", "FY2025", label="customers with ACV > $100K"),
         ev([cov("e-10-K.md", "Acme Inc.", "FY2025", "FY2024", fye="--04-30")], passages=[passage(
             "e-10-K.md", "The number of customers who represented greater than $100,000 in annual contract value "
             "('ACV') was over 1,510 and over 1,330 as of April 30, 2025 and 2024, respectively.")]),
         "supported"),
    case("passage_figures_pair_with_their_own_dates",
         claim("over 1,330", "label:customers with acv > $100k", "FY2025", label="customers with ACV > $100K"),
         ev([cov("e-10-K.md", "Acme Inc.", "FY2025", "FY2024", fye="--04-30")], passages=[passage(
             "e-10-K.md", "customers with ACV greater than $100,000 was over 1,510 and over 1,330 as of April 30, "
             "2025 and 2024")]),
         "supported"),  # over 1,330 is still true when the room says over 1,510 for FY2025
    case("a_passage_without_a_number_is_no_evidence",
         claim("over 2.2B", "label:active installed base devices", "FY2024", label="active installed base devices"),
         ev(ROOM, passages=[passage(K10, "The active installed base of devices reached a new all-time high.")]),
         "no-evidence"),
    # ---- unit
    case("a_dollar_gross_margin_row_is_set_aside_for_a_percent_claim",
         claim("46.2%", "gross_margin", "FY2024"),
         ev(ROOM, fact("gross_margin", "FY2024", "180,683"), fact("gross_profit", "FY2024", "180,683"), *REV),
         "supported", "180,683 / 391,035"),
    case("percentage_points_are_not_percent",
         claim("2pp", "operating_margin", "FY2024"),
         ev(ROOM, fact("operating_margin", "FY2024", "2.0", 0, unit="percent")), "no-evidence", "cannot be compared"),
    case("basis_points_convert_to_percentage_points",
         claim("50 bps", "label:margin expansion", "FY2024"),
         ev(ROOM, fact("label:margin expansion", "FY2024", "0.5", 0, unit="pp")), "supported"),
    case("another_currency_is_not_comparable",
         claim("€10.0B", "revenue", "FY2024"), ev(ROOM, fact("revenue", "FY2024", "10,000", currency="USD")),
         "no-evidence"),
    # ---- period
    case("value_from_another_period_is_contradicted_not_supported",
         claim("$97.0B", "net_income", "FY2024"),
         ev(ROOM, fact("net_income", "FY2024", "93,736"), fact("net_income", "FY2023", "96,995")),
         "contradicted", "FY2023 figure", "period shift"),
    case("metric_only_for_other_periods_is_no_evidence",
         claim("over 310M", "paid_memberships", "Q2 FY2025"),
         ev(ROOM, fact("paid_memberships", "FY2024", "301,626", "thousands", unit="count", instant=True,
                       basis="operating metric")),
         "no-evidence", "only for FY2024"),
    case("year_to_date_does_not_answer_a_quarter",
         claim("384K", "deliveries", "Q2 FY2025"),
         ev(ROOM, fact("deliveries", "H1 FY2025", "721,000", 0, unit="count", doc=Q10)), "no-evidence"),
    case("a_full_year_does_not_answer_a_quarter",
         claim("$94.9B", "revenue", "Q4 FY2024"), ev(ROOM, *REV), "no-evidence", "not for Q4 FY2024"),
    case("a_year_end_balance_answers_the_fourth_quarter",
         claim("$852M", "deferred_revenue", "Q4 FY2024"), ev(ROOM, fact("deferred_revenue", "FY2024", "852,457",
                                                                          "thousands", instant=True)),
         "supported"),
    case("period_labels_are_normalised",
         claim("$11.1B", "revenue", "Q2 2025"), ev(ROOM, fact("revenue", "Q2 FY2025", "11,079,166", "thousands", doc=Q10)),
         "supported"),
    # ---- scale
    case("scale_is_normalised_before_the_band",
         claim("$31.4M", "research_and_development", "FY2024"),
         ev(ROOM, fact("research_and_development", "FY2024", "31,370")), "contradicted", "factor of 1,000"),
    case("thousands_header_is_applied",
         claim("$39.0B", "revenue", "FY2024"), ev(ROOM, fact("revenue", "FY2024", "39,000,966", "thousands")),
         "supported"),
    case("scale_error_upward_is_contradicted",
         claim("$596B", "label:fsd revenue", "FY2024"), ev(ROOM, fact("label:fsd revenue", "FY2024", "$596 million",
                                                                         kind="text")),
         "contradicted", "factor of 1,000"),
    # ---- compute
    case("derived_margin_rounds_to_the_printed_figure",
         claim("31.5%", "operating_margin", "FY2024"),
         ev(ROOM, fact("operating_income", "FY2024", "123,216"), *REV), "supported", "123,216 / 391,035"),
    case("derived_margin_that_does_not_round_is_contradicted",
         claim("32.5%", "operating_margin", "FY2024"),
         ev(ROOM, fact("operating_income", "FY2024", "123,216"), *REV), "contradicted"),
    case("negative_growth_is_computed_with_its_sign",
         claim("(10.6)%", "revenue", "FY2023", kind="growth"),
         ev(ROOM, fact("revenue", "FY2023", "46,298"), fact("revenue", "FY2022", "51,761")), "supported"),
    case("wrong_sign_growth_is_contradicted",
         claim("7%", "revenue", "FY2024", kind="growth"),
         ev(ROOM, fact("revenue", "FY2024", "2,789"), fact("revenue", "FY2023", "3,014")), "contradicted"),
    case("printed_growth_is_preferred_when_as_precise_as_the_claim",
         claim("35%", "operating_income", "FY2024", kind="growth"),
         ev(ROOM, fact("growth:operating_income", "FY2024", "50", 0, unit="percent"),
            fact("operating_income", "FY2024", "10,417,614", "thousands"),
            fact("operating_income", "FY2023", "6,954,003", "thousands")), "contradicted", "50"),
    case("computed_growth_is_used_when_the_printed_one_is_coarser",
         claim("49.8%", "operating_income", "FY2024", kind="growth"),
         ev(ROOM, fact("growth:operating_income", "FY2024", "50", 0, unit="percent"),
            fact("operating_income", "FY2024", "10,417,614", "thousands"),
            fact("operating_income", "FY2023", "6,954,003", "thousands")), "supported", "computed"),
    case("a_printed_year_over_year_rate_does_not_answer_a_sequential_claim",
         claim("16%", "revenue", "Q2 FY2025", kind="growth", comparison="Q1 FY2025"),
         ev(ROOM, fact("growth:revenue", "Q2 FY2025", "16", 0, unit="percent", doc=Q10),
            fact("revenue", "Q2 FY2025", "11,079", doc=Q10), fact("revenue", "Q1 FY2025", "10,543", doc=Q10)),
         "contradicted", "11,079 / 10,543"),
    case("growth_needs_the_prior_period_to_compute",
         claim("5%", "revenue", "FY2022", kind="growth"), ev(ROOM, *REV), "no-evidence", "not for FY2021"),
    case("coverage_ratio_divides_by_the_size_of_an_outflow",
         claim("1.3x", "ratio:operating_cash_flow/capex", "FY2024", kind="ratio"),
         ev(ROOM, fact("operating_cash_flow", "FY2024", "14,923"), fact("capex", "FY2024", "(11,339)")), "supported"),
    case("share_of_total_is_computed",
         claim("46%", "cloud_revenue", "FY2024", kind="share"),
         ev(ROOM, fact("cloud_revenue", "FY2024", "687,619", "thousands"),
            fact("revenue", "FY2024", "1,483,296", "thousands")), "supported"),
    case("wrong_share_of_total_is_contradicted",
         claim("52%", "cloud_revenue", "FY2024", kind="share"),
         ev(ROOM, fact("share:cloud_revenue", "FY2024", "46", 0, unit="percent"),
            fact("cloud_revenue", "FY2024", "687,619", "thousands"),
            fact("revenue", "FY2024", "1,483,296", "thousands")), "contradicted"),
    case("segment_margin_divides_by_the_segments_revenue",
         claim("37%", "operating_margin", "FY2024", basis="segment:AWS"),
         ev(ROOM, fact("operating_income", "FY2024", "39,834", basis="segment:AmazonWebServicesSegmentMember"),
            fact("revenue", "FY2024", "107,556", basis="segment:AmazonWebServicesSegmentMember"),
            fact("operating_income", "FY2024", "68,593"), fact("revenue", "FY2024", "637,959")), "supported"),
    # ---- band
    case("one_decimal_billions_band_is_half_a_tenth_inside", claim("$2.8B", "revenue", "FY2024"),
         ev(ROOM, fact("revenue", "FY2024", "2,849")), "supported"),
    case("one_decimal_billions_band_is_half_a_tenth_outside", claim("$2.8B", "revenue", "FY2024"),
         ev(ROOM, fact("revenue", "FY2024", "2,851")), "contradicted"),
    case("whole_millions_band_is_half_a_million", claim("$2,806M", "revenue", "FY2024"),
         ev(ROOM, fact("revenue", "FY2024", "2,806,499", "thousands")), "supported"),
    case("whole_millions_band_excludes_a_million_off", claim("$2,806M", "revenue", "FY2024"),
         ev(ROOM, fact("revenue", "FY2024", "2,807,000", "thousands")), "contradicted"),
    case("a_tie_below_rounds_up_to_the_claim", claim("36%", "gross_margin", "FY2024"),
         ev(ROOM, fact("gross_margin", "FY2024", "35.5", 0, unit="percent")), "supported"),
    case("a_tie_above_rounds_away_from_the_claim", claim("36%", "gross_margin", "FY2024"),
         ev(ROOM, fact("gross_margin", "FY2024", "36.5", 0, unit="percent")), "contradicted"),
    case("a_negative_tie_rounds_away_from_zero", claim("(10.6)%", "gross_margin", "FY2024"),
         ev(ROOM, fact("gross_margin", "FY2024", "(10.55)%", 0, unit="percent")), "supported"),
    case("whole_percent_band_excludes_six_tenths", claim("36%", "gross_margin", "FY2024"),
         ev(ROOM, fact("gross_margin", "FY2024", "36.6", 0, unit="percent")), "contradicted"),
    case("approximate_figure_gets_a_full_unit", claim("~$20B", "revenue", "FY2024"),
         ev(ROOM, fact("revenue", "FY2024", "20,950")), "supported"),
    case("approximate_figure_is_still_bounded", claim("~$20B", "revenue", "FY2024"),
         ev(ROOM, fact("revenue", "FY2024", "21,200")), "contradicted"),
    case("approximate_millions_of_units", claim("~1.79M", "deliveries", "FY2024", basis="operating metric"),
         ev(ROOM, fact("deliveries", "FY2024", "1,789,226", 0, unit="count", basis="operating metric")), "supported"),
    case("over_a_bound_holds_at_the_bound", claim("over 1,000", "customers", "FY2024"),
         ev(ROOM, fact("customers", "FY2024", "1,000", 0, unit="count", instant=True)), "supported"),
    case("over_a_bound_fails_below_it", claim("over 1,000", "customers", "FY2024"),
         ev(ROOM, fact("customers", "FY2024", "999", 0, unit="count", instant=True)), "contradicted"),
    case("a_coarser_room_figure_widens_the_band_to_its_own_precision", claim("$94.93B", "revenue", "FY2024"),
         ev(ROOM, fact("revenue", "FY2024", "$94.9 billion", "billions", kind="text")), "supported", "only to"),
    # ---- basis
    case("non_gaap_match_is_different_basis_naming_both", claim("$1.64", "eps_diluted", "FY2024"),
         ev(ROOM, fact("eps_diluted", "FY2024", "$0.97", 0, unit="USD/share"),
            fact("eps_diluted", "FY2024", "$1.64", 0, unit="USD/share", basis="non-GAAP")),
         "different-basis", "reported (GAAP)", "non-GAAP"),
    case("stated_non_gaap_claim_matches_non_gaap", claim("$1.64", "eps_diluted", "FY2024", basis="non-GAAP"),
         ev(ROOM, fact("eps_diluted", "FY2024", "$0.97", 0, unit="USD/share"),
            fact("eps_diluted", "FY2024", "$1.64", 0, unit="USD/share", basis="non-GAAP")), "supported"),
    case("unqualified_claim_is_read_as_gaap", claim("$0.97", "eps_diluted", "FY2024"),
         ev(ROOM, fact("eps_diluted", "FY2024", "$0.97", 0, unit="USD/share"),
            fact("eps_diluted", "FY2024", "$1.64", 0, unit="USD/share", basis="non-GAAP")), "supported"),
    case("a_companys_own_non_gaap_measure_is_its_basis", claim("$52.1B", "free_cash_flow", "FY2024"),
         ev(ROOM, fact("free_cash_flow", "FY2024", "52,103", basis="non-GAAP"),
            fact("operating_cash_flow", "FY2024", "91,328")), "supported"),
    case("operating_cash_flow_presented_as_fcf_is_different_basis", claim("$115.9B", "free_cash_flow", "FY2024"),
         ev(ROOM, fact("free_cash_flow", "FY2024", "38,219", basis="non-GAAP"),
            fact("operating_cash_flow", "FY2024", "115,877")), "different-basis", "operating cash flow"),
    case("constant_currency_growth_is_different_basis", claim("17%", "revenue", "Q2 FY2025", kind="growth"),
         ev(ROOM, fact("growth:revenue", "Q2 FY2025", "16", 0, unit="percent", doc=Q10),
            fact("growth:revenue", "Q2 FY2025", "17", 0, unit="percent", basis="constant-currency", doc=Q10)),
         "different-basis", "constant-currency"),
    case("segment_margin_presented_as_total_is_different_basis", claim("18.4%", "gross_margin", "FY2024"),
         ev(ROOM, fact("gross_margin", "FY2024", "17.9", 0, unit="percent"),
            fact("gross_margin", "FY2024", "18.4", 0, unit="percent", basis="segment:TotalAutomotiveMember")),
         "different-basis"),
    case("a_dimensioned_fact_is_not_the_total",
         claim("$201.2B", "revenue", "FY2024"),
         ev(ROOM, fact("revenue", "FY2024", "201,183", dims={"srt:ProductOrServiceAxis": "us-gaap:IPhoneMember"}),
            *REV), "different-basis"),
    case("only_other_basis_figures_that_miss_is_no_evidence", claim("$5.0B", "ebitda", "FY2024"),
         ev(ROOM, fact("adjusted_ebitda", "FY2024", "4,000", basis="non-GAAP")), "no-evidence"),
    case("no_same_basis_figure_but_another_basis_matches_is_different_basis",
         claim("15%", "operating_margin", "FY2024"),
         ev(ROOM, fact("operating_margin", "FY2024", "15.2", 0, unit="percent", basis="non-GAAP")), "different-basis"),
    case("another_period_on_another_basis_never_supports",
         claim("$1.46", "eps_diluted", "FY2024"),
         ev(ROOM, fact("eps_diluted", "FY2024", "$0.97", 0, unit="USD/share"),
            fact("eps_diluted", "FY2023", "$1.46", 0, unit="USD/share")), "contradicted", "period shift"),
    # ---- conflicts
    case("restated_figure_from_the_later_filing_wins_over_the_earlier",
         claim("$383.3B", "revenue", "FY2023"),
         ev(ROOM + [cov("acme-10-K-FY2023.html", "Acme Inc.", "FY2023", "FY2022")],
            fact("revenue", "FY2023", "383,285"), fact("revenue", "FY2023", "380,000", doc="acme-10-K-FY2023.html")),
         "supported", "superseded"),
    case("matching_only_the_figure_a_later_filing_recasts_is_not_settled",
         claim("$380.0B", "revenue", "FY2023"),
         ev(ROOM + [cov("acme-10-K-FY2023.html", "Acme Inc.", "FY2023", "FY2022")],
            fact("revenue", "FY2023", "383,285"), fact("revenue", "FY2023", "380,000", doc="acme-10-K-FY2023.html")),
         "no-evidence", "may restate it"),
    case("agreeing_figures_at_different_precision_are_not_a_conflict",
         claim("$94.9B", "revenue", "Q4 FY2024"),
         ev([cov(PR, "Acme Inc.", "Q4 FY2024")], fact("revenue", "Q4 FY2024", "$94.9 billion", "billions", doc=PR),
            fact("revenue", "Q4 FY2024", "94,930", doc=PR)), "supported"),
    # A constant-currency or organic rate the room does not print: the reported rate matching it may be
    # the same number, so the room says nothing about the deck's basis.
    case("a_constant_currency_rate_matching_only_the_reported_one_is_not_settled",
         claim("18%", "services_revenue", "Q3 FY2025", kind="growth", basis="constant-currency"),
         ev([cov(Q10, "Acme Inc.", "Q3 FY2025", "Q3 FY2024")],
            fact("growth:services_revenue", "Q3 FY2025", "18", 0, unit="percent", doc=Q10)),
         "no-evidence", "constant-currency", "may equal it"),
    case("an_organic_rate_matching_only_the_reported_one_is_not_settled",
         claim("2%", "revenue", "FY2024", kind="growth", basis="organic"),
         ev(ROOM, fact("growth:revenue", "FY2024", "2", 0, unit="percent")), "no-evidence", "organic"),
    case("an_unqualified_rate_matching_only_the_constant_currency_one_is_still_another_basis",
         claim("17%", "revenue", "Q2 FY2025", kind="growth"),
         ev(ROOM, fact("growth:revenue", "Q2 FY2025", "17", 0, unit="percent", basis="constant-currency", doc=Q10)),
         "different-basis"),
    # A tagged cell's id is its concept's words; a deck copies the row's printed words.
    *(case(f"a_tagged_row_is_found_by_its_printed_label_{n}",
           claim(printed, label_id, "FY2024", label=label),
           ev(ROOM, fact(concept, "FY2024", cell, label=row, kind="ixbrl")), "supported")
      for n, (printed, label_id, label, concept, cell, row) in enumerate((
          ("$(171)M", "label:other income/ expense net", "Other income/(expense), net",
           "label:nonoperating income expense", "(171)", "Other income/(expense), net"),
          ("$1.3B", "label:interest expense", "Interest expense",
           "label:interest expense nonoperating", "1,269", "Interest expense"),
      ))),
    case("a_row_under_another_reconciliations_heading_is_not_found_by_its_printed_label",
         claim("1%", "label:stock-based compensation expense", "FY2024", label="Stock-based compensation expense"),
         ev(ROOM, fact("label:operating margin stock-based compensation expense", "FY2024", "18.0%", "units",
                       unit="percent", label="Stock-based compensation expense")), "no-evidence"),
    # A slide's short forms of the row's words are the same row.
    *(case(f"an_abbreviated_row_name_is_the_filings_row_{n}",
           claim(printed, metric, "FY2024", label=label), ev(ROOM, fact(room_metric, "FY2024", cell, label=row)),
           "supported")
      for n, (printed, metric, label, room_metric, cell, row) in enumerate((
          ("$210M", "label:other non-op. income/ expense", "Other non-op. income/(expense)",
           "label:other non-operating income/ expense, net", "210", "Other non-operating income/(expense), net"),
          ("$1.3B", "label:int. expense", "Int. expense", "label:interest expense", "1,269", "Interest expense"),
      ))),
    # An expense or outflow is printed either way round: in parentheses on one page, plain on another.
    *(case(f"an_outflow_printed_with_the_other_sign_is_the_same_figure_{n}",
           claim(printed, metric, "FY2024", label=label), ev(ROOM, fact(metric, "FY2024", cell)), "supported")
      for n, (printed, metric, label, cell) in enumerate((
          ("$(182.6)M", "label:interest expense", "Interest expense", "182.6"),
          ("$39.2B", "capex", "Capital expenditures", "(39,230)"),
      ))),
    case("a_sign_is_still_a_contradiction_for_income",
         claim("$(171)M", "label:other income", "FY2024", label="Other income"),
         ev(ROOM, fact("label:other income", "FY2024", "171")), "contradicted"),
    *(case(f"an_outflow_in_parentheses_grows_as_it_gets_bigger_{n}",
           claim(printed, metric, "FY2024", kind="growth", label=label, comparison="FY2023"),
           ev(ROOM, fact(metric, "FY2024", now), fact(metric, "FY2023", then)), "supported")
      for n, (printed, metric, label, now, then) in enumerate((
          ("+5%", "label:interest expense", "Interest expense", "(335)", "(319)"),
          ("up 10%", "capex", "Capital expenditures", "(1,100)", "(1,000)"),
      ))),
    # A heading shared by several companies ("FY2024" over Mastercard, Salesforce, NVIDIA) may mean the
    # year that mostly fell in 2024: for a company whose year ends in January to March, the next fiscal
    # year's figure under it is not shown to be wrong; for a December year end it is a period shift.
    *(case(f"the_next_fiscal_year_under_a_shared_heading_is_unsettled_for_a_{month}_year_end",
           msgspec.structs.replace(claim(printed, "revenue", "FY2024", entity="Early Co"),
                                   resolution=Resolution(period="column header 'Early Co'")),
           ev([cov("early-10-K.html", "Early Co", "FY2025", "FY2024", fye=fye)],
              fact("revenue", "FY2025", now, entity="Early Co", doc="early-10-K.html"),
              fact("revenue", "FY2024", then, entity="Early Co", doc="early-10-K.html")),
           verdict, *needles)
      for month, fye, printed, now, then, verdict, needles in (
          ("january", "--01-31", "$37.9B", "37,895", "34,857", "no-evidence", ("ends in January",)),
          ("march", "--03-31", "$12.4B", "12,410", "11,020", "no-evidence", ("ends in March",)),
          ("june", "--06-30", "$14.7B", "14,694", "14,544", "no-evidence", ("ends in June",)),
          ("september", "--09-28", "$14.7B", "14,694", "14,544", "contradicted", ("period shift",)),
          ("december", "--12-31", "$37.9B", "37,895", "34,857", "contradicted", ("period shift",)),
      )),
    case("the_next_fiscal_year_against_the_claims_own_words_is_a_period_shift",
         msgspec.structs.replace(claim("$37.9B", "revenue", "FY2024", entity="Early Co"),
                                 resolution=Resolution(period="the claim's words")),
         ev([cov("early-10-K.html", "Early Co", "FY2025", "FY2024", fye="--01-31")],
            fact("revenue", "FY2025", "37,895", entity="Early Co", doc="early-10-K.html"),
            fact("revenue", "FY2024", "34,857", entity="Early Co", doc="early-10-K.html")), "contradicted"),
    case("a_schedules_later_year_is_no_period_shift",
         claim("$2.5B", "label:total debt", "Q2 FY2025", label="Total debt"),
         ev([cov(Q10, "Acme Inc.", "Q2 FY2025", "FY2024")], fact("label:total debt", "Q2 FY2025", "32,813", doc=Q10),
            fact("label:total debt", "FY2028", "2,522", doc=Q10)), "no-evidence", "of another magnitude"),
    # An undated sentence that compares its figure with earlier quarters: each figure is the period
    # named after it, the first the release's own.
    case("a_passage_figure_compared_with_named_quarters_is_the_documents_own_period",
         claim("1,460", "label:customers with acv $100k", "Q3 FY2025", label="customers with ACV $100K"),
         ev([cov(PR, "Acme Inc.", "Q3 FY2025", "9M FY2025", "Q3 FY2024")], passages=[passage(
             PR, "Total customer count with ACV greater than $100,000 was over 1,460 compared to over 1,420 in "
             "Q2 FY25, and over 1,270 in Q3 FY24")]), "supported"),
    *(case(f"a_figure_compared_with_a_named_quarter_is_{period.replace(' ', '_')}s",
           claim(figure, "label:customers spending over $1 million", period, label="customers spending over $1 million"),
           ev([cov(PR, "Acme Inc.", "Q2 FY2025", "H1 FY2025", "Q2 FY2024")], passages=[passage(
               PR, "Customers spending over $1 million reached 1,120, versus 1,050 in Q2 FY24")]),
           "supported", figure) for figure, period in (("1,120", "Q2 FY2025"), ("1,050", "Q2 FY2024"))),
]


@pytest.mark.parametrize(("c", "e", "verdict", "needles"), CASES)
def test_rule(c, e, verdict, needles):
    v = verify(c, e)
    assert v.verdict == verdict, v.reason
    for needle in needles:
        assert needle in v.reason, v.reason


def test_evaluate_streams_every_rule_in_order_then_one_verdict():
    items = list(evaluate(claim("$391.0B", "revenue", "FY2024"), ev(ROOM, *REV)))
    assert [i.rule for i in items[:-1]] == list(RULES)
    assert all(isinstance(i, RuleOutcome) for i in items[:-1])
    assert isinstance(items[-1], Verdict)
    assert items[-1].trace == items[:-1]


def test_rules_after_the_deciding_one_are_skipped():
    v = verify(claim("$274.5B", "revenue", "FY2020"), ev(ROOM, *REV))
    assert v.trace[0].outcome == "decided"
    assert [t.outcome for t in v.trace[1:]] == ["skip"] * 7


def test_verdict_carries_base_unit_values_tolerance_and_citations():
    v = verify(claim("$391.0B", "revenue", "FY2024"), ev(ROOM, *REV))
    assert v.claimed == Decimal("391_000_000_000") and v.found == Decimal("391_035_000_000")
    assert v.tolerance == Decimal("50_000_000")
    assert [(c.document, c.as_printed, c.role) for c in v.citations] == [(K10, "391,035", "evidence")]
    assert all(isinstance(x, Decimal) for x in (v.claimed, v.found, v.tolerance))


def test_derived_verdict_cites_each_input_with_its_role():
    v = verify(claim("31.5%", "operating_margin", "FY2024"), ev(ROOM, fact("operating_income", "FY2024", "123,216"), *REV))
    assert [(c.as_printed, c.role) for c in v.citations] == [("123,216", "numerator"), ("391,035", "denominator")]
    assert v.found is not None and abs(v.found - Decimal("31.51")) < Decimal("0.01")


def test_period_shift_cites_the_other_periods_figure():
    v = verify(claim("$97.0B", "net_income", "FY2024"),
               ev(ROOM, fact("net_income", "FY2024", "93,736"), fact("net_income", "FY2023", "96,995")))
    assert [(c.as_printed, c.role) for c in v.citations] == [("93,736", "evidence"), ("96,995", "other-period")]


def test_different_basis_cites_both_figures():
    v = verify(claim("$1.64", "eps_diluted", "FY2024"),
               ev(ROOM, fact("eps_diluted", "FY2024", "$0.97", 0, unit="USD/share"),
                  fact("eps_diluted", "FY2024", "$1.64", 0, unit="USD/share", basis="non-GAAP")))
    assert [(c.as_printed, c.role) for c in v.citations] == [("$0.97", "evidence"), ("$1.64", "other-basis")]


def test_superseded_figure_is_cited_with_its_role():
    v = verify(claim("$383.3B", "revenue", "FY2023"),
               ev(ROOM + [cov("old.html", "Acme Inc.", "FY2023")],
                  fact("revenue", "FY2023", "383,285"), fact("revenue", "FY2023", "380,000", doc="old.html")))
    assert ("old.html", "superseded") in [(c.document, c.role) for c in v.citations]


@pytest.mark.parametrize(
    ("printed", "band"),
    [
        pytest.param("$2.8B", Decimal("50_000_000"), id="tenths_of_billions"),
        pytest.param("$2,806M", Decimal("500_000"), id="whole_millions"),
        pytest.param("36%", Decimal("0.5"), id="whole_percent"),
        pytest.param("~$20B", Decimal("1_000_000_000"), id="approximate_is_a_full_unit"),
        pytest.param("~$250B", Decimal("2_500_000_000"), id="approximate_is_at_least_one_percent"),
        pytest.param("$1.64", Decimal("0.005"), id="cents"),
        pytest.param("35 bps", Decimal("0.005"), id="basis_points_in_points"),
        pytest.param("50 bps", Decimal("0.05"), id="basis_points_in_tens_to_the_nearest_ten"),
    ],
)
def test_tolerance_comes_from_the_printed_precision(printed, band):
    assert tolerance(claim(printed, "revenue", "FY2024")) == band


@pytest.mark.parametrize(
    ("c", "expected"),
    [
        pytest.param(claim("$391.0B", "revenue", "FY2024"),
                     {"revenue", "arr", "subscription_revenue", "product_revenue", "services_revenue", "segment_revenue"},
                     id="value_with_alternates"),
        pytest.param(claim("31.5%", "operating_margin", "FY2024"),
                     {"operating_margin", "operating_income", "revenue"}, id="margin_and_its_parts"),
        pytest.param(claim("46%", "cloud_revenue", "FY2024", kind="share"),
                     {"share:cloud_revenue", "cloud_revenue", "revenue"}, id="share_and_the_total"),
        pytest.param(claim("1.3x", "ratio:operating_cash_flow/capex", "FY2024", kind="ratio"),
                     {"ratio:operating_cash_flow/capex", "operating_cash_flow", "capex"}, id="ratio_parts"),
    ],
)
def test_needed_metrics_name_everything_the_rules_read(c, expected):
    assert needed_metrics(c) == expected


def test_needed_metrics_for_growth_include_the_quantity_and_its_printed_rate():
    got = needed_metrics(claim("17%", "free_cash_flow", "FY2024", kind="growth"))
    assert {"growth:free_cash_flow", "free_cash_flow", "operating_cash_flow", "growth:operating_cash_flow"} == got


def test_evaluate_is_lazy_so_each_rule_can_be_emitted_as_it_completes():
    # A rule that ran before it was asked for would have seen the facts taken away after the first outcome.
    evidence = ev(ROOM, *REV)
    stream = evaluate(claim("$391.0B", "revenue", "FY2024"), evidence)
    first = next(stream)
    assert isinstance(first, RuleOutcome) and first.rule == "scope" and first.outcome != "decided"
    evidence.facts.clear()
    rest = list(stream)
    assert [r.rule for r in rest[:-1]] == list(RULES[1:])
    assert isinstance(rest[-1], Verdict) and rest[-1].verdict == "no-evidence", rest[-1].reason


def test_a_ratio_claim_divides_by_the_denominator_it_names():
    import msgspec

    c = msgspec.structs.replace(claim("1.3x", "operating_cash_flow", "FY2024", kind="ratio"), denominator="capex")
    e = ev(ROOM, fact("operating_cash_flow", "FY2024", "14,923"), fact("capex", "FY2024", "(11,339)"), *REV)
    v = verify(c, e)
    assert v.verdict == "supported" and "14,923 / (11,339)" in v.reason


def test_another_segments_figure_is_not_a_different_basis():
    c = claim("13%", "revenue", "FY2024", kind="growth", basis="segment:aws")
    e = ev(ROOM,
           fact("revenue", "FY2024", "107,556", basis="segment:AWS"), fact("revenue", "FY2023", "90,757", basis="segment:AWS"),
           fact("revenue", "FY2022", "80,096", basis="segment:AWS"),
           fact("revenue", "FY2024", "37,855", basis="segment:Other"), fact("revenue", "FY2023", "33,591", basis="segment:Other"))
    v = verify(c, e)
    assert v.verdict == "contradicted" and "period shift" in v.reason


def _on_a_non_gaap_slide(printed: str, metric: str, kind: str = "value"):
    import msgspec

    # As the deck extractor reads a row of a "Non-GAAP Highlights" table: the basis is the slide's.
    return msgspec.structs.replace(claim(printed, metric, "FY2024", kind=kind), basis="non-GAAP", basis_stated=False)


def test_a_slides_non_gaap_basis_is_checked_against_the_rooms_non_gaap_figure():
    e = ev(ROOM, fact("operating_income", "FY2024", "123,216"),
           fact("operating_income", "FY2024", "131,620", basis="non-GAAP", doc=PR), *REV)
    assert verify(_on_a_non_gaap_slide("$131.6B", "operating_income"), e).verdict == "supported"
    assert verify(_on_a_non_gaap_slide("$123.2B", "operating_income"), e).verdict == "different-basis"


def test_a_quantity_the_room_has_only_as_reported_is_read_as_reported_on_a_non_gaap_slide():
    e = ev(ROOM, fact("gross_profit", "FY2024", "180,683", basis="non-GAAP", doc=PR), *REV)
    assert verify(_on_a_non_gaap_slide("$391.0B", "revenue"), e).verdict == "supported"
    assert verify(_on_a_non_gaap_slide("$401.0B", "revenue"), e).verdict == "contradicted"
    stated = claim("$391.0B", "revenue", "FY2024", basis="non-GAAP")  # the claim's own words say non-GAAP
    assert verify(stated, e).verdict == "different-basis"


def _period_from(c, where: str, text: str):
    import msgspec

    from parsers.model import Resolution

    return msgspec.structs.replace(c, resolution=Resolution(period=f"{where} '{text}'", period_text=text))


_RELEASE = [cov(PR, "Acme Inc.", "Q4 FY2024", "FY2024", "Q4 FY2023", "FY2023"), *ROOM]


@pytest.mark.parametrize(("title", "printed", "metric", "kind", "facts"), [
    # A software maker's "at a glance" slide: the quarter's growth rate under a quarter-and-year title.
    ("Q4 and FY24 Results At a Glance", "32%", "cloud_revenue", "growth",
     [fact("growth:cloud_revenue", "Q4 FY2024", "32%", 0, unit="percent", doc=PR),
      fact("growth:cloud_revenue", "FY2024", "29%", 0, unit="percent", doc=PR)]),
    # A retailer's highlights: the quarter's net sales under "Fourth Quarter and Fiscal 2024".
    ("Fourth Quarter and Fiscal 2024 Highlights", "$38.3B", "revenue", "value",
     [fact("revenue", "Q4 FY2024", "38,347", doc=PR), *REV]),
])
def test_a_figure_for_the_quarter_a_quarter_and_year_heading_names_is_supported_not_a_period_shift(
        title, printed, metric, kind, facts):
    c = claim(printed, metric, "FY2024", kind=kind, comparison="FY2023" if kind == "growth" else None)
    e = ev(_RELEASE, *facts)
    heading = verify(_period_from(c, "slide title", title), e)
    assert heading.verdict == "supported" and "Q4 FY2024" in heading.reason, heading.reason
    own = verify(_period_from(c, "row label", "FY2024"), e)  # the claim's own words name the year
    assert own.verdict == "contradicted" and "period shift" in own.reason, own.reason


@pytest.mark.parametrize(("printed", "metric", "slice_fact"), [
    # A retailer whose 10-K tags service sales as a product-or-service member of net sales.
    ("55.5%", "services_revenue", fact("revenue", "FY2024", "318,898", basis="segment:ServiceMember")),
    # A hardware maker's products, the same way.
    ("44.5%", "product_revenue", fact("revenue", "FY2024", "255,887", basis="segment:ProductMember")),
])
def test_a_share_of_revenue_reads_a_slice_the_room_tags_as_a_member_of_revenue(printed, metric, slice_fact):
    import msgspec

    c = msgspec.structs.replace(claim(printed, metric, "FY2024", kind="share"), denominator="revenue")
    e = ev(ROOM, fact("revenue", "FY2024", "574,785"), slice_fact)
    v = verify(c, e)
    assert v.verdict == "supported", v.reason


@pytest.mark.parametrize(("printed", "label", "member", "value"), [
    ("10.4%", "wearables, home accessories", "segment:WearablesHomeandAccessoriesMember", "39,845"),  # a phone maker
    ("94.2%", "subscription support", "segment:SubscriptionandSupportMember", "35,679"),  # a CRM vendor
])
def test_a_member_name_with_a_glued_and_is_the_slice_a_deck_names(printed, label, member, value):
    import msgspec

    c = msgspec.structs.replace(claim(printed, f"label:{label}", "FY2024", kind="share", label=label),
                                denominator="revenue")
    total = "383,285" if "Wearables" in member else "37,895"
    e = ev(ROOM, fact("revenue", "FY2024", total), fact("revenue", "FY2024", value, basis=member))
    v = verify(c, e)
    assert v.verdict == "supported", v.reason


@pytest.mark.parametrize(("printed", "metric", "segment", "line", "value", "verdict"), [
    ("$24M", "services_revenue", "segment:professional", "Professional services", "24,015", "supported"),
    ("$3.1B", "product_revenue", "segment:hardware", "Hardware products", "3,092", "supported"),
    # The room's line does not name the slice: its figure is the whole, another basis than the slice.
    ("$24M", "services_revenue", "segment:professional", "Total services", "24,015", "different-basis"),
])
def test_a_slice_the_rooms_own_line_names_is_that_line(printed, metric, segment, line, value, verdict):
    c = claim(printed, metric, "FY2024", basis=segment)
    scale = "thousands" if printed.endswith("M") else "millions"
    v = verify(c, ev(ROOM, fact(metric, "FY2024", value, scale, label=line)))
    assert v.verdict == verdict, v.reason


@pytest.mark.parametrize(("printed", "metric", "label", "member", "value", "verdict"), [
    ("$56.2B", "services_revenue", "advertising services revenue", "segment:AdvertisingServicesMember", "56,214",
     "supported"),  # a retailer's advertising line, tagged as a member of net sales
    ("$35.7B", "subscription_revenue", "subscription and support", "segment:SubscriptionAndSupportMember", "35,679",
     "supported"),  # a CRM vendor's
    # Another line than the one named: its members' words are not the claim's.
    ("$5.6B", "services_revenue", "cloud services revenue", "segment:CloudServicesAndLicenseSupportMember", "5,623",
     "different-basis"),
])
def test_a_revenue_line_a_claim_names_is_the_member_of_revenue_with_its_words(printed, metric, label, member, value,
                                                                                verdict):
    c = claim(printed, metric, "FY2024", label=label)
    v = verify(c, ev(ROOM, fact("revenue", "FY2024", "637,959"), fact("revenue", "FY2024", value, basis=member)))
    assert v.verdict == verdict, v.reason


@pytest.mark.parametrize(("printed", "comparable", "reported"), [("+15.6%", "15.6", "18.2"), ("(0.7)%", "-0.7", "-3.2")])
def test_sales_growth_that_matches_comparable_sales_is_a_different_basis(printed, comparable, reported) -> None:
    growth = claim(printed, "revenue", "FY2024", kind="growth", comparison="FY2023")
    room = ev(ROOM, fact("comparable_sales", "FY2024", comparable, 0, unit="percent", basis="operating metric"),
              fact("growth:revenue", "FY2024", reported, 0, unit="percent"))
    assert verify(growth, room).verdict == "different-basis"


@pytest.mark.parametrize(("printed", "metric", "label"), [("22.9%", "label:pretax margin", "pretax margin"),
                                                          ("31.5%", "operating_margin", "")])
def test_a_margin_missing_its_numerator_says_so_not_that_the_period_is_missing(printed, metric, label) -> None:
    margin = claim(printed, metric, "FY2024", kind="margin", label=label)
    verdict = verify(margin, ev(ROOM, *REV))
    assert verdict.verdict == "no-evidence"
    assert "not for FY2024" not in verdict.reason and "needed to compute" in verdict.reason


@pytest.mark.parametrize(("printed", "now", "then", "verdict"), [
    ("1.3%", "94,943", "93,775", "no-evidence"),   # 1.25%: within one printed unit
    ("2.1%", "391,035", "383,285", "no-evidence"),  # 2.02%
    ("2.4%", "391,035", "383,285", "contradicted"),  # beyond one unit: a wrong rate
])
def test_a_computed_growth_within_one_printed_unit_of_the_claim_is_not_a_contradiction(printed, now, then, verdict):
    growth = claim(printed, "revenue", "FY2024", kind="growth", comparison="FY2023")
    room = ev(ROOM, fact("revenue", "FY2024", now), fact("revenue", "FY2023", then))
    assert verify(growth, room).verdict == verdict


@pytest.mark.parametrize(("printed", "claimed", "line", "now", "then"), [
    ("17%", "value-added services and solutions revenue", "value-added services and solutions", "10,832", "9,274"),
    ("67%", "energy generation & storage revenue", "energy generation and storage", "10,086", "6,035"),
])
def test_a_label_lines_growth_computed_from_the_same_line_in_other_words_is_the_same_slot(printed, claimed, line,
                                                                                         now, then) -> None:
    growth = claim(printed, f"label:{claimed}", "FY2024", kind="growth", label=claimed, comparison="FY2023")
    room = ev(ROOM, fact(f"label:{line}", "FY2024", now), fact(f"label:{line}", "FY2023", then))
    assert verify(growth, room).verdict == "supported"


@pytest.mark.parametrize(("printed", "num", "den", "verdict"), [
    ("10%", "38,377", "365,361", "no-evidence"),   # 10.50%: within one printed unit
    ("31.6%", "123,216", "391,035", "no-evidence"),  # 31.51%
    ("35.0%", "123,216", "391,035", "contradicted"),
])
def test_a_computed_share_within_one_printed_unit_of_the_claim_is_not_a_contradiction(printed, num, den, verdict):
    share = claim(printed, "operating_margin", "FY2024", kind="margin")
    room = ev(ROOM, fact("operating_income", "FY2024", num), fact("revenue", "FY2024", den))
    assert verify(share, room).verdict == verdict


@pytest.mark.parametrize(("printed", "basis", "total"), [
    ("over $400 million", "segment:slack", "8,247"),
    ("more than $1.5B", "segment:wearables", "391,035"),
])
def test_a_one_sided_bound_met_by_another_basis_says_nothing_about_the_basis(printed, basis, total):
    c = claim(printed, "revenue", "FY2024", basis=basis)
    e = ev(ROOM, fact("revenue", "FY2024", total), fact("revenue", "FY2023", "383,285"))
    v = verify(c, e)
    assert c.bound in ("gt", "ge") and v.verdict == "no-evidence", v.reason


@pytest.mark.parametrize(("metric", "printed", "first", "recast"), [
    ("revenue", "$94.9B", "94,943", "79,990"),
    ("research_and_development", "$14.6B", "14,603", "13,712"),
])
def test_a_figure_as_first_reported_that_a_later_filing_recasts_is_not_settled(metric, printed, first, recast):
    # The claim matches the older document's figure; the later one prints another for the same slot.
    v = verify(claim(printed, metric, "FY2023"),
               ev(ROOM + [cov("old.html", "Acme Inc.", "FY2023")],
                  fact(metric, "FY2023", recast), fact(metric, "FY2023", first, doc="old.html")))
    assert v.verdict == "no-evidence" and "may restate it" in v.reason, v.reason
    assert {("old.html", "superseded"), (K10, "evidence")} <= {(c.document, c.role) for c in v.citations}


# A quarter no document prints is the year to date less the quarters before it.
@pytest.mark.parametrize(("printed", "period", "facts", "verdict"), [
    ("$19,335M", "Q1 FY2025", [("H1 FY2025", "41,831"), ("Q2 FY2025", "22,496")], "supported"),
    ("$20.1B", "Q1 FY2025", [("H1 FY2025", "41,831"), ("Q2 FY2025", "22,496")], "contradicted"),
    ("$25.7B", "Q4 FY2024", [("FY2024", "97,690"), ("9M FY2024", "71,983")], "supported"),
])
def test_a_quarter_is_the_year_to_date_less_its_other_quarters(printed, period, facts, verdict):
    room = [cov(Q10, "Acme Inc.", "Q2 FY2025", "H1 FY2025", "FY2024", "9M FY2024")]
    v = verify(claim(printed, "revenue", period), ev(room, *(fact("revenue", p, cell, doc=Q10) for p, cell in facts)))
    assert v.verdict == verdict, v.reason
    assert {c.role for c in v.citations} >= {"evidence", "other-period"}


def test_a_balance_is_never_a_difference_of_two_dates():
    room = [cov(Q10, "Acme Inc.", "Q2 FY2025", "H1 FY2025")]
    v = verify(claim("$4.5B", "cash", "Q1 FY2025"), ev(room, fact("cash", "H1 FY2025", "15,587", doc=Q10, instant=True),
                                                       fact("cash", "Q2 FY2025", "11,087", doc=Q10, instant=True)))
    assert v.verdict == "no-evidence"


@pytest.mark.parametrize(("printed", "segment", "member", "part_value", "total"), [
    ("18%", "segment:beauty", "segment:BeautyMember", "15,212", "84,284"),  # a consumer-goods segment mix
    ("68%", "segment:walmart us", "segment:WalmartUSMember", "462,415", "680,985"),  # a retailer's
])
def test_a_segment_mix_share_is_the_segments_revenue_over_the_whole(printed, segment, member, part_value, total):
    c = msgspec.structs.replace(claim(printed, "revenue", "FY2025", kind="share", basis=segment),
                                denominator="revenue")
    e = ev(ROOM, fact("revenue", "FY2025", total), fact("revenue", "FY2025", part_value, basis=member))
    v = verify(c, e)
    assert v.verdict == "supported", v.reason


# The trailing twelve months to a quarter are the last fiscal year plus this year to date less last year's.
@pytest.mark.parametrize(("printed", "period", "facts", "verdict"), [
    # A calendar-year carmaker's LTM to June: FY2024 + H1 FY2025 - H1 FY2024.
    ("$92.7B", "TTM Q2 FY2025", [("FY2024", "97,690"), ("H1 FY2025", "41,831"), ("H1 FY2024", "46,801")], "supported"),
    ("$97.7B", "TTM Q2 FY2025", [("FY2024", "97,690"), ("H1 FY2025", "41,831"), ("H1 FY2024", "46,801")],
     "contradicted"),
    # A May year-end software maker's trailing four quarters to August: FY2024 + Q1 FY2025 - Q1 FY2024.
    ("$53.8B", "TTM Q1 FY2025", [("FY2024", "52,961"), ("Q1 FY2025", "13,307"), ("Q1 FY2024", "12,453")],
     "supported"),
])
def test_trailing_twelve_months_are_the_last_year_plus_this_year_to_date_less_last_years(printed, period, facts,
                                                                                         verdict):
    room = [cov(K10, "Acme Inc.", "FY2024"), cov(Q10, "Acme Inc.", "Q1 FY2025", "H1 FY2025", "Q1 FY2024", "H1 FY2024")]
    v = verify(claim(printed, "revenue", period), ev(room, *(fact("revenue", p, cell, doc=K10 if p.startswith("FY")
                                                                  else Q10) for p, cell in facts)))
    assert v.verdict == verdict, v.reason
    assert {c.role for c in v.citations} >= {"evidence", "other-period"}


@pytest.mark.parametrize("printed", ["$97.7B", "$92.7B"])
def test_trailing_twelve_months_are_never_judged_against_a_fiscal_year(printed):
    room = [cov(K10, "Acme Inc.", "FY2024", "FY2025")]
    v = verify(claim(printed, "revenue", "TTM Q2 FY2025"),
               ev(room, fact("revenue", "FY2024", "97,690"), fact("revenue", "FY2025", "92,720")))
    assert v.verdict == "no-evidence", v.reason


# A margin's or a growth's inputs for a quarter no document prints are the year to date less its other part.
def test_a_quarters_margin_divides_quarters_derived_from_the_year_to_date():
    room = [cov(Q10, "Acme Inc.", "Q2 FY2025", "H1 FY2025")]
    facts = [fact("operating_income", "H1 FY2025", "7,620", doc=Q10), fact("operating_income", "Q2 FY2025", "3,775", doc=Q10),
             fact("revenue", "H1 FY2025", "21,622", doc=Q10), fact("revenue", "Q2 FY2025", "11,079", doc=Q10)]
    v = verify(claim("36.5%", "operating_margin", "Q1 FY2025", kind="margin"), ev(room, *facts))
    assert v.verdict == "supported", v.reason  # (7,620 - 3,775) / (21,622 - 11,079) = 36.47%
    assert {c.role for c in v.citations} >= {"numerator", "denominator", "other-period"}


@pytest.mark.parametrize(("printed", "verdict"), [("+6.1%", "supported"), ("+9.0%", "contradicted")])
def test_a_fourth_quarters_growth_compares_quarters_derived_from_each_years_total(printed, verdict):
    room = [cov(K10, "Acme Inc.", "FY2024", "FY2023"), cov(Q10, "Acme Inc.", "9M FY2024", "9M FY2023")]
    facts = [fact("revenue", "FY2024", "391,035"), fact("revenue", "FY2023", "383,285"),
             fact("revenue", "9M FY2024", "296,105", doc=Q10), fact("revenue", "9M FY2023", "293,787", doc=Q10)]
    v = verify(claim(printed, "revenue", "Q4 FY2024", kind="growth", comparison="Q4 FY2023"), ev(room, *facts))
    assert v.verdict == verdict, v.reason


@pytest.mark.parametrize(("segment", "reported", "heading", "other", "claimed", "verdict"), [
    # A retailer's table of growth rates, reported and excluding foreign exchange, one row per segment.
    ("international", "9", "year-over-year percentage growth, excluding the effect of foreign exchange rates", "10",
     "10%", "different-basis"),
    ("international", "9", "year-over-year percentage growth, excluding the effect of foreign exchange rates", "10",
     "9%", "supported"),
    # A consumer-goods maker's organic growth by segment.
    ("beauty", "2", "organic sales growth", "4", "4%", "different-basis"),
])
def test_a_segments_printed_growth_rates_settle_its_growth_on_the_basis_their_heading_names(
        segment, reported, heading, other, claimed, verdict):
    c = claim(claimed, f"label:{segment} sales", "FY2024", kind="growth", label=f"{segment} sales")
    e = ev(ROOM, fact(f"label:net sales {segment}", "FY2024", "142,906"), fact(f"label:net sales {segment}", "FY2023", "131,200"),
           fact(f"label:year-over-year percentage growth {segment}", "FY2024", reported, "percent", unit="percent"),
           fact(f"label:{heading} {segment}", "FY2024", other, "percent", unit="percent",
                basis="organic" if "organic" in heading else "constant-currency"))
    v = verify(c, e)
    assert v.verdict == verdict, v.reason


@pytest.mark.parametrize(("printed", "metric", "room", "scale", "verdict"), [
    ("24,250", "revenue", "24,250", "millions", "supported"),  # a railroad's revenue in a unitless LTM table
    ("35,679", "label:subscription support", "35,679", "millions", "supported"),  # a CRM vendor's line
    ("210", "operating_income", "213,118", "thousands", "no-evidence"),  # no power of a thousand fits: not contradicted
    ("24,107", "revenue", "24,250", "millions", "no-evidence"),
])
def test_a_table_cell_with_no_unit_is_read_at_the_scale_where_it_is_the_rooms_figure(printed, metric, room, scale,
                                                                                     verdict):
    c = msgspec.structs.replace(claim(printed, metric, "FY2024"), row="Revenue", column="FY24")
    v = verify(c, ev(ROOM, fact(metric, "FY2024", room, scale, label="Revenue")))
    assert v.verdict == verdict, v.reason
