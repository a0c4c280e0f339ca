"""Claim extraction on small hand-written slides: one behaviour per case, each on two companies or wordings."""

from __future__ import annotations

from decimal import Decimal

import pytest

from parsers.catalogue import RoomDocument, build_catalogue
from parsers.claims import Proposal, extract_claims, prior_period, validate_proposals
from parsers.model import Deck, Slide, TextBlock
from parsers.quantities import is_label
from parsers.resolve import resolve_claims


def _deck(*slides: tuple[str, list[str]] | tuple[str, list[str], list[list[str]]], cover: str = "Acme Inc. Investor Day") -> Deck:
    out = [Slide(page=1, title=cover, blocks=[])]
    for i, s in enumerate(slides, start=2):
        title, lines, *tables = s
        out.append(Slide(page=i, title=title, blocks=[TextBlock(text=t) for t in lines], tables=list(tables)))
    return Deck(format="txt", slides=out)


def _one(title: str, line: str):
    parsed = extract_claims(_deck((title, [line])))
    return parsed.claims, parsed.discarded


DISCARDS = [
    # No future year in these: the words alone make them projections.
    ("expect_is_a_projection", "Salesforce Q3 FY2025 Highlights", "We expect revenue between $37.8B and $38.0B this year",
     "projection"),
    ("expects_is_a_projection", "Oracle Q2 FY2025 Highlights", "Oracle expects full-year revenue growth of 10%",
     "projection"),
    ("guidance_is_a_projection", "Salesforce Q3 FY2025 Highlights", "Full-year revenue guidance of $37.8B-$38.0B",
     "projection"),
    ("outlook_is_a_projection", "Walmart Q2 FY2025 Highlights", "Net sales growth outlook of 3.75% to 4.75%", "projection"),
    ("a_future_period_is_a_projection", "Acme FY2024 Highlights", "Revenue of $50B in FY2026", "projection"),
    ("guidance_slide_discards_every_figure", "Q1 2024 Guidance", "Total revenue: $1.025 billion", "projection"),
    ("superlative_without_figure", "Mastercard FY2024", "The world's most trusted payments network", "superlative"),
    ("unrivalled_is_a_superlative", "P&G FY2025", "An unrivalled portfolio of iconic consumer brands", "superlative"),
    ("team_biography", "Leadership", "Doug McMillon has led Walmart as CEO since 2014", "team"),
    ("team_biography_with_a_title", "Leadership", "Marc Benioff has served as Chair and CEO since 1999", "team"),
    ("page_number", "Acme FY2024 Highlights", "2", "page number"),
    ("footnote_note", "Acme FY2024 Highlights", "Note: Numbers are rounded to the nearest million.", "footnote"),
    ("fiscal_year_ended_line_is_a_date", "Acme FY2024 Highlights", "Fiscal year ended September 28, 2024", "date"),
    ("address", "Contact", "1 Infinite Loop Drive, Cupertino, CA 95014", "address"),
    ("phone_number", "Contact", "Investor relations: (408) 996-1010", "phone"),
    ("forward_looking_boilerplate", "Disclaimer", "This presentation contains forward-looking statements about 2025", "disclaimer"),
    ("bare_figure_without_label", "Acme FY2024 Highlights", "40", "label"),
]


@pytest.mark.parametrize(("case", "title", "line", "why"), DISCARDS, ids=[d[0] for d in DISCARDS])
def test_non_claims_are_discarded_with_their_reason(case: str, title: str, line: str, why: str) -> None:
    claims, discarded = _one(title, line)
    assert claims == []
    assert len(discarded) == 1 and why in discarded[0].why, discarded


CLAIMS = [
    # case, title, line, value, printed, decimals, scale, unit, kind, bound, metric, period, comparison, basis
    ("currency_value_with_suffix", "Mastercard FY2024 Highlights", "Net revenue reached $28.2B",
     "28.2", "$28.2B", 1, 9, "USD", "value", "eq", "revenue", "FY2024", None, "GAAP"),
    ("currency_value_with_suffix_other_name", "Walmart FY2025 Highlights", "Total revenues were $681.0B",
     "681.0", "$681.0B", 1, 9, "USD", "value", "eq", "revenue", "FY2025", None, "GAAP"),
    ("growth_compares_with_prior_year", "Oracle FY2024 Highlights", "Net income rose 22% Y/Y",
     "22", "22%", 0, 0, "percent", "growth", "eq", "net_income", "FY2024", "FY2023", "GAAP"),
    ("growth_in_words_compares_with_prior_year", "NVIDIA FY2025 Highlights", "Operating income grew 147% year-over-year",
     "147", "147%", 0, 0, "percent", "growth", "eq", "operating_income", "FY2025", "FY2024", "GAAP"),
    ("quarterly_growth_compares_with_same_quarter", "Salesforce Q3 2025 Update", "Subscription revenue up 10% Y/Y",
     "10", "10%", 0, 0, "percent", "growth", "eq", "subscription_revenue", "Q3 FY2025", "Q3 FY2024", "GAAP"),
    ("quarterly_growth_in_words_compares_with_same_quarter", "IBM Q2 2024 Update", "Revenue up 2% year over year",
     "2", "2%", 0, 0, "percent", "growth", "eq", "revenue", "Q2 FY2024", "Q2 FY2023", "GAAP"),
    ("sequential_growth_compares_with_prior_quarter", "Acme Q1 2025 Update", "Revenue up 3% Q/Q",
     "3", "3%", 0, 0, "percent", "growth", "eq", "revenue", "Q1 FY2025", "Q4 FY2024", "GAAP"),
    ("quarter_over_quarter_compares_with_prior_quarter", "NVIDIA Q3 FY2025 Update", "Revenue grew 17% quarter-over-quarter",
     "17", "17%", 0, 0, "percent", "growth", "eq", "revenue", "Q3 FY2025", "Q2 FY2025", "GAAP"),
    ("decline_is_negative_growth", "Union Pacific FY2024", "Freight revenue down 3% Y/Y",
     "-3", "3%", 0, 0, "percent", "growth", "eq", "revenue", "FY2024", "FY2023", "segment:freight"),
    ("declined_is_negative_growth", "IBM FY2024", "Consulting revenue declined 1% Y/Y",
     "-1", "1%", 0, 0, "percent", "growth", "eq", "revenue", "FY2024", "FY2023", "segment:consulting"),
    ("margin", "Mastercard FY2024 Highlights", "Operating margin stood at 58.4%",
     "58.4", "58.4%", 1, 0, "percent", "margin", "eq", "operating_margin", "FY2024", None, "GAAP"),
    ("gross_margin", "P&G FY2025 Highlights", "Gross margin was 51.4%",
     "51.4", "51.4%", 1, 0, "percent", "margin", "eq", "gross_margin", "FY2025", None, "GAAP"),
    ("share_of_total", "Oracle FY2025 Highlights", "Cloud was 44% of total revenues",
     "44", "44%", 0, 0, "percent", "share", "eq", "cloud_revenue", "FY2025", None, "GAAP"),
    ("share_of_total_other_part", "Salesforce FY2025 Highlights", "Subscription was 94% of total revenue",
     "94", "94%", 0, 0, "percent", "share", "eq", "subscription_revenue", "FY2025", None, "GAAP"),
    ("ratio", "Walmart FY2025 Highlights", "Operating cash flow covered capital spending 1.6x",
     "1.6", "1.6x", 1, 0, "multiple", "ratio", "eq", "operating_cash_flow", "FY2025", None, "GAAP"),
    ("ratio_other_name", "Union Pacific FY2024 Highlights", "Cash from operations covered capex 2.1x",
     "2.1", "2.1x", 1, 0, "multiple", "ratio", "eq", "operating_cash_flow", "FY2024", None, "GAAP"),
    ("eps_is_per_share_and_unstated_gaap", "Oracle Q4 FY2024 Results", "Diluted EPS came in at $1.11",
     "1.11", "$1.11", 2, 0, "USD/share", "value", "eq", "eps_diluted", "Q4 FY2024", None, "GAAP"),
    ("earnings_per_share_is_per_share_and_unstated_gaap", "IBM Q4 2024 Results", "Earnings per share of $3.09",
     "3.09", "$3.09", 2, 0, "USD/share", "value", "eq", "eps_diluted", "Q4 FY2024", None, "GAAP"),
    ("stated_non_gaap_basis", "Salesforce FY2025", "Non-GAAP operating margin of 33%",
     "33", "33%", 0, 0, "percent", "margin", "eq", "operating_margin", "FY2025", None, "non-GAAP"),
    ("adjusted_is_non_gaap", "NVIDIA FY2025", "Adjusted gross margin of 75.5%",
     "75.5", "75.5%", 1, 0, "percent", "margin", "eq", "gross_margin", "FY2025", None, "non-GAAP"),
    ("over_is_a_lower_bound", "Salesforce Q4 FY2025", "Over 2,300 customers with more than $1M in ARR",
     "2300", "Over 2,300", 0, 0, "count", "value", "gt", "label:customers with $1m arr", "Q4 FY2025", None,
     "operating metric"),
    ("more_than_is_a_lower_bound", "Oracle Q4 FY2025", "More than 4,000 customers spending over $1M",
     "4000", "More than 4,000", 0, 0, "count", "value", "gt", "label:customers spending $1m", "Q4 FY2025", None,
     "operating metric"),
    ("plus_suffix_is_a_lower_bound", "NVIDIA Q4 FY2025", "40,000+ companies using CUDA",
     "40000", "40,000+", 0, 0, "count", "value", "ge", "label:companies using cuda", "Q4 FY2025", None,
     "operating metric"),
    ("plus_suffix_is_a_lower_bound_other_noun", "Mastercard Q4 FY2024", "3,500+ partners building on the network",
     "3500", "3,500+", 0, 0, "count", "value", "ge", "label:partners building network", "Q4 FY2024", None,
     "operating metric"),
    ("tilde_is_approximate", "General Motors FY2024 Highlights", "~2.7M vehicles delivered",
     "2.7", "~2.7M", 1, 6, "count", "value", "approx", "deliveries", "FY2024", None, "operating metric"),
    ("approximately_is_approximate", "Walmart FY2025 Highlights", "Approximately 10,500 stores worldwide",
     "10500", "Approximately 10,500", 0, 0, "count", "value", "approx", "label:stores worldwide", "FY2025", None,
     "operating metric"),
    ("bullet_period_beats_slide_title", "Walmart FY2025", "In FY2020, net sales stood at $519.9B",
     "519.9", "$519.9B", 1, 9, "USD", "value", "eq", "revenue", "FY2020", None, "GAAP"),
    ("trailing_bullet_period_beats_slide_title", "Oracle FY2025", "Revenue of $39.1B in FY2020",
     "39.1", "$39.1B", 1, 9, "USD", "value", "eq", "revenue", "FY2020", None, "GAAP"),
    ("free_cash_flow_is_non_gaap_by_default", "Oracle FY2024", "Free cash flow totaled $11.8B",
     "11.8", "$11.8B", 1, 9, "USD", "value", "eq", "free_cash_flow", "FY2024", None, "non-GAAP"),
    ("fcf_is_non_gaap_by_default", "Salesforce FY2025", "FCF of $12.4B",
     "12.4", "$12.4B", 1, 9, "USD", "value", "eq", "free_cash_flow", "FY2025", None, "non-GAAP"),
    ("unknown_quantity_keeps_its_label_words", "Mastercard Q4 FY2024", "Cards in circulation surpassed 3.5B",
     "3.5", "surpassed 3.5B", 1, 9, "count", "value", "gt", "label:cards circulation", "Q4 FY2024", None,
     "operating metric"),
    ("unknown_quantity_keeps_its_label_words_after_the_figure", "NVIDIA Q4 FY2025",
     "Developer ecosystem surpassed 5.0M developers",
     "5.0", "surpassed 5.0M", 1, 6, "count", "value", "gt", "label:developer ecosystem developers", "Q4 FY2025", None,
     "operating metric"),
    ("compact_quarter_of_a_fiscal_year_is_a_period_not_a_segment", "Oracle FY2025", "Q2FY24 revenue of $13.3B",
     "13.3", "$13.3B", 1, 9, "USD", "value", "eq", "revenue", "Q2 FY2024", None, "GAAP"),
    ("compact_fiscal_quarter_before_the_quantity", "Salesforce FY2025", "Q4FY25 subscription revenue of $9.5B",
     "9.5", "$9.5B", 1, 9, "USD", "value", "eq", "subscription_revenue", "Q4 FY2025", None, "GAAP"),
]


@pytest.mark.parametrize(
    ("case", "title", "line", "value", "printed", "decimals", "scale", "unit", "kind", "bound", "metric", "period",
     "comparison", "basis"),
    CLAIMS, ids=[c[0] for c in CLAIMS],
)
def test_bullets_become_typed_claims(case, title, line, value, printed, decimals, scale, unit, kind, bound, metric,
                                     period, comparison, basis) -> None:
    claims, discarded = _one(title, line)
    assert len(claims) == 1, (claims, discarded)
    c = claims[0]
    got = (c.value, c.printed, c.decimals, c.scale, c.unit, c.kind, c.bound, c.metric, c.period, c.comparison_period, c.basis)
    assert got == (Decimal(value), printed, decimals, scale, unit, kind, bound, metric, period, comparison, basis)
    assert c.text == line and c.id == "p2-c1"


@pytest.mark.parametrize(("line", "metric", "segment"), [
    ("~205K Model Y vehicles delivered", "deliveries", "segment:model y"),
    ("Data center revenue up 17% sequentially", "revenue", "segment:data center"),
])
def test_words_before_a_quantity_that_are_not_generic_are_its_segment(line: str, metric: str, segment: str) -> None:
    (claim,), _ = _one("Acme FY2025 Highlights", line)
    assert (claim.metric, claim.basis, claim.basis_stated) == (metric, segment, True)


_ROOM = build_catalogue([
    RoomDocument(path="orcl-10-K.html", entity="Oracle Corporation", fiscal_year_end="--05-31",
                 periods=("FY2025",), names=("Oracle Corporation", "Oracle", "ORCL")),
    RoomDocument(path="crm-10-K.html", entity="Salesforce, Inc.", fiscal_year_end="--01-31",
                 periods=("FY2025",), names=("Salesforce, Inc.", "Salesforce", "CRM")),
])


@pytest.mark.parametrize(("line", "company", "metric", "kind"), [
    ("Oracle Cloud revenue of $24.5B", "Oracle Corporation", "cloud_revenue", "value"),
    ("Oracle Cloud was 44% of total revenues", "Oracle Corporation", "cloud_revenue", "share"),
    ("Salesforce subscription revenue of $35.7B", "Salesforce, Inc.", "subscription_revenue", "value"),
    ("Salesforce Subscription was 94% of total revenue", "Salesforce, Inc.", "subscription_revenue", "share"),
])
def test_the_companys_own_name_before_a_quantity_is_not_a_segment(line: str, company: str, metric: str,
                                                                   kind: str) -> None:
    parsed = extract_claims(_deck(("FY2025 Highlights", [line]), cover="Software Review"))
    (claim,) = resolve_claims(parsed, _ROOM).claims
    assert (claim.entity, claim.metric, claim.kind, claim.basis) == (company, metric, kind, "GAAP")


@pytest.mark.parametrize(("title", "grid", "text", "metric", "period"), [
    ("Walmart Key Metrics", [["Metric", "FY2024", "FY2025"], ["Total revenues", "$648.1B", "$681.0B"]],
     "$681.0B", "revenue", "FY2025"),
    ("Oracle Key Metrics", [["", "FY2023", "FY2024"], ["Operating income", "$15.4B", "$15.4B"], ["Net income", "$8.5B", "$10.5B"]],
     "$10.5B", "net_income", "FY2024"),
])
def test_table_cell_takes_metric_from_row_and_period_from_column(title, grid, text, metric, period) -> None:
    claims = extract_claims(_deck((title, [], grid))).claims
    cell = next(c for c in claims if c.text == text)
    assert (cell.metric, cell.period, cell.value, cell.scale, cell.basis) == (metric, period, Decimal(text[1:-1]), 9, "GAAP")


@pytest.mark.parametrize(("header", "row", "period", "comparison"), [
    (["$ millions", "FY24", "Y/Y", "Y/Y CC"], ["Total Revenue", "$34,857", "11%", "12%"], "FY2024", "FY2023"),
    (["$ in millions", "Q3 FY25", "Y/Y", "Y/Y constant currency"], ["Total revenues", "$14,059", "9%", "10%"],
     "Q3 FY2025", "Q3 FY2024"),
])
def test_table_growth_column_inherits_the_period_before_it(header, row, period, comparison) -> None:
    deck = _deck(("Revenue", [], [header, row]))
    amount, growth, cc = extract_claims(deck).claims
    assert (amount.text, amount.scale, amount.unit, amount.period) == (row[1], 6, "USD", period)
    assert (growth.kind, growth.period, growth.comparison_period, growth.basis) == ("growth", period, comparison, "GAAP")
    assert (cc.kind, cc.basis) == ("growth", "constant-currency")


@pytest.mark.parametrize(("row", "amount_metric", "margin_metric"), [
    (["Operating Income", "$8,107", "23%"], "operating_income", "operating_margin"),
    (["Gross Profit", "$26,316", "75%"], "gross_profit", "gross_margin"),
])
def test_percent_of_revenue_column_turns_profit_rows_into_margins(row, amount_metric, margin_metric) -> None:
    deck = _deck(("Income Statement", [], [["$ millions", "FY24", "% of Revenue"], row]))
    by_text = {c.text: c for c in extract_claims(deck).claims}
    assert (by_text[row[1]].metric, by_text[row[2]].metric, by_text[row[2]].kind) == (amount_metric, margin_metric, "margin")


@pytest.mark.parametrize(("title", "row", "metric", "segment"), [
    ("NVIDIA FY2025", ["Data Center operating margin", "71%"], "operating_margin", "segment:data center"),
    ("IBM FY2024", ["Software gross margin", "83.2%"], "gross_margin", "segment:software"),
])
def test_segment_words_before_a_metric_become_a_segment_basis(title, row, metric, segment) -> None:
    deck = _deck((title, [], [["Metric", title.split()[-1]], row]))
    c = extract_claims(deck).claims[0]
    assert (c.metric, c.basis, c.basis_stated) == (metric, segment, True)


@pytest.mark.parametrize(("cover", "first", "second"), [
    ("Mastercard & Walmart: FY2024 Performance Review", "Mastercard", "Walmart"),
    ("Oracle and Salesforce: FY2025 Review", "Oracle", "Salesforce"),
])
def test_multi_company_deck_assigns_each_slide_its_company(cover: str, first: str, second: str) -> None:
    deck = Deck(format="txt", slides=[
        Slide(page=1, title=cover, blocks=[]),
        Slide(page=2, title=f"{first} FY2024 Highlights", blocks=[TextBlock(text="Net revenue was $28.2B")]),
        Slide(page=3, title=f"{second} FY2024 Highlights", blocks=[TextBlock(text="Total revenues were $681.0B")]),
    ])
    parsed = extract_claims(deck)
    assert [c.entity for c in parsed.claims] == [first, second]
    assert parsed.entity is None


def test_company_from_a_copyright_footer() -> None:
    slides = [Slide(page=i, title=t, blocks=[TextBlock(text="©2023 TWILIO INC. ALL RIGHTS RESERVED"),
                                             TextBlock(text="Revenue of $1,076M")])
              for i, t in enumerate(["Q4 2023 Earnings", "Results", "More"], start=1)]
    parsed = extract_claims(Deck(format="pdf", slides=slides))
    assert parsed.entity == "Twilio Inc." and all(c.entity == "Twilio Inc." for c in parsed.claims)


@pytest.mark.parametrize(("line", "printed", "period"), [
    ("Q3 2024 total revenues of $13.3B as of February 29, 2024", "$13.3B", "Q3 FY2024"),
    ("Q2 2024 net sales of $168.0B as of July 31, 2024", "$168.0B", "Q2 FY2024"),
])
def test_years_dates_and_quarter_labels_are_not_figures(line: str, printed: str, period: str) -> None:
    claims, _ = _one("Acme Update", line)
    assert [c.printed for c in claims] == [printed] and claims[0].period == period


@pytest.mark.parametrize("line", ["Revenue was $62.8B, up 1% Y/Y", "Net sales of $681.0B, up 5% Y/Y"])
def test_two_figures_in_one_bullet_are_two_claims(line: str) -> None:
    claims, _ = _one("Acme FY2024", line)
    assert [(c.kind, c.metric, c.id) for c in claims] == [("value", "revenue", "p2-c1"), ("growth", "revenue", "p2-c2")]


def test_prior_period_for_growth() -> None:
    assert prior_period("FY2024") == "FY2023"
    assert prior_period("Q1 FY2025", sequential=True) == "Q4 FY2024"
    assert prior_period(None) is None


def test_model_proposals_survive_only_when_printed_on_their_page() -> None:
    deck = _deck(("Acme FY2024", ["Record quarter with 4,200 partners onboarded"]))
    check = validate_proposals(deck, [
        Proposal(page=2, text="4,200 partners", value="4,200", metric="partners onboarded"),
        Proposal(page=2, text="made up", value="9,999"),
        Proposal(page=7, text="no such page", value="4,200"),
    ], existing=[])
    assert [c.value for c in check.claims] == [Decimal(4200)]
    assert check.dropped == 2 and check.claims[0].id == "p2-c1"


def test_proposals_that_repeat_a_deterministic_claim_are_not_duplicated() -> None:
    deck = _deck(("Acme FY2024", ["Revenue was $5.0B"]))
    existing = extract_claims(deck).claims
    check = validate_proposals(deck, [Proposal(page=2, text="Revenue was $5.0B", value="5.0")], existing)
    assert check.claims == [] and check.duplicates == 1


@pytest.mark.parametrize(("title", "grid", "want"), [
    ("Tesla: financial summary",
     [["", "", "", ""], ["in millions of USD", "2022", "2023", "2024"], ["Revenue", "81,462", "96,773", "97,690"]],
     [("revenue", "FY2022"), ("revenue", "FY2023"), ("revenue", "FY2024")]),
    ("Union Pacific quarterly results",
     [["", "", ""], ["", " ", ""], ["($M)", "2Q25", "2Q24"], ["Operating income", "2,525", "2,413"]],
     [("operating_income", "Q2 FY2025"), ("operating_income", "Q2 FY2024")]),
])
def test_a_table_header_is_its_first_row_that_prints_something(title, grid, want) -> None:
    parsed = extract_claims(_deck((title, [], grid)))
    assert [(c.metric, c.period) for c in parsed.claims] == want


@pytest.mark.parametrize(("title", "grid", "derived", "plain", "plain_metric"), [
    ("Globex Revenue Highlights", [["$ millions", "Q4FY25", "FY25"], ["Total Subscription Revenue", "$362", "$1,385"],
                                   ["Total Subscription Revenue less monthly cloud", "$315", "$1,195"]],
     "$315", "$362", "subscription_revenue"),
    ("Initech Key Metrics", [["", "FY2023", "FY2024"], ["Revenue", "$9.1B", "$9.8B"],
                             ["Revenue minus transaction costs", "$5.2B", "$5.6B"]],
     "$5.6B", "$9.8B", "revenue"),
])
def test_a_quantity_less_a_part_is_another_quantity_not_the_whole(title, grid, derived, plain, plain_metric) -> None:
    claims = {c.text: c for c in extract_claims(_deck((title, [], grid))).claims}
    assert claims[plain].metric == plain_metric
    assert is_label(claims[derived].metric), "read as its own label, never as the whole"


@pytest.mark.parametrize(("row", "metric"), [
    (["Subscription % of Total Revenue", "93%", "92%"], "subscription_revenue"),  # a SaaS results table
    (["Services as a % of revenue", "22.1%", "24.6%"], "services_revenue"),  # a hardware maker's mix table
])
def test_a_table_row_names_the_part_of_a_share_before_its_percent_of(row, metric) -> None:
    grid = [["$ millions", "Q4 FY2025", "FY2025"], ["Total revenue", "$388", "$1,483"], row]
    claims = [c for c in extract_claims(_deck(("Revenue Highlights", [], grid))).claims if c.text == row[1]]
    assert [(c.kind, c.metric, c.denominator) for c in claims] == [("share", metric, "revenue")]


@pytest.mark.parametrize(("title", "line", "share", "metric", "basis"), [
    ("NVDA Q2 FY26 tear sheet", "- Data Center $41.1bn (88% of rev)", "88%", "revenue", "segment:data center"),
    ("Apple fiscal 2024", "Services revenue of $96.2 billion (24.6% of total net sales)", "24.6%",
     "services_revenue", "GAAP"),
])
def test_a_share_in_parentheses_after_a_figure_is_the_share_of_that_figures_quantity(title, line, share, metric,
                                                                                     basis) -> None:
    from parsers.question import question

    got = next(c for c in extract_claims(_deck((title, [line]))).claims if c.printed == share)
    asked = question(got)
    assert (got.kind, got.metric, got.basis) == ("share", metric, basis)
    assert asked.part or asked.num != asked.den, "a share of revenue that names a part checks something"


@pytest.mark.parametrize(("grid", "share", "segment"), [
    ([["FY2025", "% of net sales"], ["Fabric & Home Care", "36%"], ["Beauty", "18%"]], "18%", "beauty"),
    ([["$ in billions", "FY2025 net sales", "Mix %"], ["Walmart U.S.", "$462.4", "68%"],
      ["Sam's Club U.S.", "$90.2", "13%"]], "68%", "walmart u.s."),
])
def test_a_segment_mix_row_asks_for_that_segments_share_of_the_whole(grid, share, segment) -> None:
    from parsers.question import question

    got = next(c for c in extract_claims(_deck(("Segment mix", [], grid))).claims if c.printed == share)
    asked = question(got)
    assert asked.kind == "share" and asked.den == "revenue"
    assert segment.replace(".", "") in (asked.part or "").replace(".", ""), (got.basis, asked)


@pytest.mark.parametrize(("title", "row", "basis", "stated"), [
    ("Non-GAAP Income Statement Highlights", ["Gross profit", "$299", "$1,138"], "non-GAAP", False),
    ("Non-GAAP Financial Summary", ["Operating income", "$60", "$225"], "non-GAAP", False),
    ("Non-GAAP Financial Summary", ["GAAP operating income", "$45", "$210"], "GAAP", True),
    ("GAAP to Non-GAAP Reconciliation", ["Operating income", "$60", "$225"], "GAAP", False),
])
def test_a_row_that_states_no_basis_takes_its_slides_non_gaap_title(title, row, basis, stated) -> None:
    grid = [["$ millions", "Q4 FY2025", "FY2025"], row]
    claim = next(c for c in extract_claims(_deck((title, [], grid))).claims if c.text == row[1])
    assert (claim.basis, claim.basis_stated) == (basis, stated)


@pytest.mark.parametrize(("cover", "title", "paragraph", "later", "period"), [
    ("Apple Inc. Quarter Review", "Apple fiscal 2025",
     "In its fiscal third quarter, net sales were $94.0 billion. Diluted earnings per share were $1.40.", "$1.40",
     "Q3 FY2025"),
    ("Globex Corporation Review", "Globex fiscal 2024",
     "In the fourth quarter, revenue was $2.4 billion. Operating income was $310 million.", "$310 million",
     "Q4 FY2024"),
])
def test_a_quarter_a_sentence_names_holds_for_the_sentences_after_it(cover, title, paragraph, later, period) -> None:
    claims = extract_claims(_deck((title, [paragraph]), cover=cover)).claims
    assert {c.printed: c.period for c in claims}[later] == period


@pytest.mark.parametrize(("paragraph", "metric", "comparison"), [
    ("Net sales were $94.0 billion in fiscal 2025. That was 10% more than a year earlier.", "revenue", "FY2024"),
    ("Operating income was $69.4 billion in fiscal 2024. This was 48% higher than the prior year.",
     "operating_income", "FY2023"),
])
def test_that_was_n_percent_more_speaks_of_the_sentence_befores_quantity(paragraph, metric, comparison) -> None:
    growth = next(c for c in extract_claims(_deck(("Results", [paragraph]))).claims if c.unit == "percent")
    assert (growth.kind, growth.metric, growth.comparison_period) == ("growth", metric, comparison)


@pytest.mark.parametrize(("sentence", "first", "second"), [
    ("iPhone net sales were $44.6 billion and Services net sales reached $27.4 billion.", "revenue",
     "services_revenue"),
    ("Automotive revenue was $19.9 billion and Services revenue reached $3.0 billion.", "revenue",
     "services_revenue"),
])
def test_and_before_a_capital_after_a_figure_starts_another_quantitys_clause(sentence, first, second) -> None:
    claims = extract_claims(_deck(("FY2024 Results", [sentence]))).claims
    assert [c.metric for c in claims] == [first, second]
    assert claims[1].basis == "GAAP", "the second clause's words are not the first's segment"


@pytest.mark.parametrize(("sentence", "metrics"), [
    ("Operating income of $2.5 billion and net income of $1.9 billion both rose from 2023.",
     ["operating_income", "net_income"]),
    ("Net sales rose 6% to $648.1 billion and adjusted EPS of $2.51.", ["revenue", "revenue", "eps_diluted"]),
    ("Revenue of $5.1 billion and grew 12% year over year.", ["revenue", "revenue"]),
])
def test_and_before_a_lowercase_quantitys_name_after_a_figure_starts_its_clause(sentence, metrics) -> None:
    claims = extract_claims(_deck(("FY2024 Results", [sentence]))).claims
    assert [c.metric for c in claims] == metrics
    assert [c.basis for c in claims if c.metric != "eps_diluted"] == ["GAAP"] * (len(metrics) - ("eps_diluted" in metrics))


@pytest.mark.parametrize(("sentence", "quantities"), [
    ("Revenue, operating income and diluted EPS were $24.2 billion, $2.5 billion and $2.91.",
     [("revenue", "GAAP"), ("operating_income", "GAAP"), ("eps_diluted", "GAAP")]),
    ("In the quarter, net sales and net income came in at $94.0 billion and $23.4 billion.",
     [("revenue", "GAAP"), ("net_income", "GAAP")]),
    ("Non-GAAP gross margin and operating margin were 74.5% and 12.4%, respectively.",
     [("gross_margin", "non-GAAP"), ("operating_margin", "non-GAAP")]),
    ("Revenue and adjusted EBITDA of $5.1 billion and $1.2 billion in fiscal 2024.",
     [("revenue", "GAAP"), ("adjusted_ebitda", "non-GAAP")]),
])
def test_a_list_of_quantities_takes_its_list_of_figures_in_order(sentence, quantities) -> None:
    claims = extract_claims(_deck(("FY2024 Results", [sentence]))).claims
    assert [(c.metric, c.basis) for c in claims] == quantities
    assert [c.unit for c in claims if c.metric in ("revenue", "net_income", "operating_income")] == \
        ["USD"] * sum(m in ("revenue", "net_income", "operating_income") for m, _ in quantities), "EPS's unit stays EPS's"


def test_a_list_sentence_with_more_names_than_figures_is_no_respective_list() -> None:
    (claim,) = extract_claims(_deck(("FY2024 Results", ["Cash, cash equivalents and investments were $5.1 billion."]))).claims
    assert claim.metric != "cash", "one quantity with a list in its name, not cash alone"


@pytest.mark.parametrize(("sentence", "kept", "why"), [
    ("Diluted EPS of $3.15 vs. consensus of $2.91, a clean beat.", ["$3.15"], "consensus"),
    ("Revenue of $94.0 billion came in above the Street at $89.5 billion.", ["$94.0 billion"], "consensus"),
    ("Shares -1.9% on the day after revenue grew 6%.", ["6%"], "share price"),
    ("Operating income rose 9%; stock +11% the next session.", ["9%"], "share price"),
    ("Net income of $1.9 billion; our FY26E EPS goes to $6.95.", ["$1.9 billion"], "estimate"),
    ("Operating margin of 24.7%. Stay Buy, PT $270.", ["24.7%"], "price target"),
])
def test_a_consensus_an_estimate_a_price_target_or_a_share_move_is_no_claim(sentence, kept, why) -> None:
    parsed = extract_claims(_deck(("FY2024 Results", [sentence])))
    assert [c.printed.strip() for c in parsed.claims] == kept
    assert any(why in d.why for d in parsed.discarded)


@pytest.mark.parametrize(("line", "metric", "value"), [
    ("Reality Labs operating loss of $17.73 billion", "operating_income", Decimal("-17.73")),
    ("Net loss of $108.1 million for the year", "net_income", Decimal("-108.1")),
    ("GAAP operating loss of $(55) million", "operating_income", Decimal("-55")),  # already signed
    ("Net income (loss) of $5 million", "net_income", Decimal("5")),  # "income (loss)" says nothing of the sign
])
def test_a_loss_is_the_quantity_below_zero(line, metric, value) -> None:
    (claim,), _ = _one("FY2024 Results", line)
    assert (claim.metric, claim.value) == (metric, value)


@pytest.mark.parametrize(("line", "segment"), [
    ("AWS segment sales of $107.6 billion", "segment:aws"),
    ("International segment net sales of $142.9 billion", "segment:international"),
])
def test_x_segment_sales_are_that_segments_revenue(line, segment) -> None:
    (claim,), _ = _one("FY2024 Results", line)
    assert (claim.metric, claim.basis) == ("revenue", segment)


@pytest.mark.parametrize(("line", "words"), [
    ("10.4% Wearables, Home and Accessories share of revenue, FY2023", "wearables, home accessories"),
    ("12% Beauty, Health and Wellness share of net sales in fiscal 2024", "beauty, health wellness"),
])
def test_a_slice_whose_name_lists_its_parts_keeps_its_whole_name(line, words) -> None:
    (claim,), _ = _one("Company at a glance", line)
    assert (claim.kind, claim.label) == ("share", words)


@pytest.mark.parametrize(("cover", "line", "metric", "basis"), [
    ("Amazon.com, Inc. Review", "Amazon's North America segment earned an operating margin of 6.3%.", "operating_margin",
     "segment:north america"),
    ("Procter & Gamble Review", "Beauty recorded net sales of $15.0 billion.", "revenue", "segment:beauty"),
    ("Procter & Gamble Review", "Fabric & Home Care, the largest segment, posted net sales of $29.6 billion.",
     "revenue", "segment:fabric home care"),
    ("Tesla Review", "Third-quarter revenue was $28.1 billion.", "revenue", "GAAP"),
    ("Netflix Review", "Second-half revenue of $20.0 billion", "revenue", "GAAP"),
])
def test_a_segment_is_the_subject_before_the_verb_never_the_verb_or_a_period_word(cover, line, metric, basis) -> None:
    (claim,) = extract_claims(_deck(("FY2024 in review", [line]), cover=cover)).claims
    assert (claim.metric, claim.basis) == (metric, basis)


@pytest.mark.parametrize("line", [
    "Average monthly revenue per paying membership of $11.70",
    "Revenue per available room of $215",
])
def test_an_amount_per_unit_is_another_quantity_than_the_total(line: str) -> None:
    (claim,), _ = _one("FY2024 Results", line)
    assert is_label(claim.metric) and claim.basis == "GAAP"


@pytest.mark.parametrize(("title", "paragraph", "first", "period"), [
    ("Procter & Gamble fiscal 2025", "Third-quarter net sales were $19.8 billion. First-quarter fiscal 2026 net sales "
     "were $22.4 billion.", "$19.8 billion", "Q3 FY2025"),
    ("Oracle fiscal 2025", "Revenue was $13.3 billion in the first quarter. Fiscal 2026 revenue is shown for "
     "comparison at $15.0 billion.", "$13.3 billion", "Q1 FY2025"),
])
def test_a_period_a_later_sentence_names_is_not_lent_to_the_sentences_before_it(title, paragraph, first, period) -> None:
    claims = extract_claims(_deck((title, [paragraph]))).claims
    assert {c.printed: c.period for c in claims}[first] == period


@pytest.mark.parametrize(("title", "paragraph", "printed", "period"), [
    ("Tesla second quarter of 2025", "Capital expenditures for the six months were $3.89 billion.", "$3.89 billion",
     "H1 FY2025"),
    ("IBM first half 2025", "Second-quarter revenue was $17.0 billion.", "$17.0 billion", "Q2 FY2025"),
])
def test_a_part_of_a_year_a_sentence_names_takes_the_slides_fiscal_year(title, paragraph, printed, period) -> None:
    claims = extract_claims(_deck((title, [paragraph]))).claims
    assert {c.printed: c.period for c in claims}[printed] == period


@pytest.mark.parametrize(("header", "row", "period", "comparison"), [
    (["$mm, except per share", "Q1'23", "Q1'22", "Y/Y"], ["Net revenue", "$11,715mm", "$18,353mm", "(36)%"],
     "Q1 FY2023", "Q1 FY2022"),
    (["$mm", "4Q23", "4Q22", "chg"], ["Net sales", "$3,673", "$3,909", "(6)%"], "Q4 FY2023", "Q4 FY2022"),
])
def test_a_change_column_after_two_periods_is_the_later_periods_change(header, row, period, comparison) -> None:
    claims = extract_claims(_deck(("Results", [], [header, row]))).claims
    growth = next(c for c in claims if c.text == row[-1])
    assert (growth.kind, growth.metric, growth.period, growth.comparison_period) == ("growth", "revenue", period,
                                                                                     comparison)


@pytest.mark.parametrize(("corner", "rows", "period"), [
    ("FY2022, $ in billions except per share", [["Johnson & Johnson", "$94.9", "1.3%", "$6.73"],
                                                 ["Verizon", "$136.8", "2.4%", "$5.32"]], "FY2022"),
    ("2Q25, $ in millions except per share", [["Tesla", "$22,496", "(12)%", "$0.33"],
                                               ["Netflix", "$11,079", "16%", "$7.19"]], "Q2 FY2025"),
])
def test_a_table_with_a_company_per_row_reads_each_column_as_a_quantity_in_the_corners_period(corner, rows, period):
    header = [corner, "Revenue", "Y/Y growth", "Diluted EPS"]
    claims = extract_claims(_deck(("Peer comparison", [], [header, *rows]))).claims
    got = {(c.row, c.metric, c.kind, c.period, c.scale if c.unit != "USD/share" else "per share") for c in claims}
    for name, *_ in rows:
        assert (name, "revenue", "value", period, 9 if "billions" in corner else 6) in got
        assert (name, "revenue", "growth", period, None) in got or (name, "revenue", "growth", period, 0) in got
        assert (name, "eps_diluted", "value", period, "per share") in got


@pytest.mark.parametrize(("line", "metric", "basis"), [
    ("EPS (diluted) of $3.43", "eps_diluted", "GAAP"),
    ("The company earned 73.3¢ per diluted share", "eps_diluted", "GAAP"),
    ("Adjusted EPS (US¢) of 19.3¢", "eps_diluted", "non-GAAP"),
    ("Comp store sales down (0.7)%", "comparable_sales", "operating metric"),
    ("Cash from ops of $13.1bn", "operating_cash_flow", "GAAP"),
])
def test_terse_and_inverted_names_of_a_quantity_are_that_quantity(line, metric, basis) -> None:
    (claim,), _ = _one("FY2024 Results", line)
    assert (claim.metric, claim.basis) == (metric, basis)


@pytest.mark.parametrize("line", [
    "Cash, cash equivalents and marketable securities of $14.2 billion",
    "Cash and marketable securities of $8.8 billion",
])
def test_cash_with_marketable_securities_is_not_cash_and_cash_equivalents(line: str) -> None:
    (claim,), _ = _one("FY2024 Results", line)
    assert is_label(claim.metric)


@pytest.mark.parametrize(("title", "paragraph", "period"), [
    ("Buckle: Q3 fiscal 2024", "Net sales for the 39 weeks to November 2, 2024 were $856.1 million.", "9M FY2024"),
    ("Tesla: second quarter 2025", "Year-to-date revenue was $41.8 billion.", "H1 FY2025"),
    ("Gap Inc.: Q2 fiscal 2025", "In the first 26 weeks, capital expenditures were $1.9 billion.", "H1 FY2025"),
    ("Buckle: Q3 fiscal 2024", "Net sales through November 2, 2024 were $856.1 million. Year-to-date diluted EPS was "
     "$2.81.", "9M FY2024"),
])
def test_weeks_and_year_to_date_name_the_part_of_the_year_through_the_slides_quarter(title, paragraph, period):
    claim = extract_claims(_deck((title, [paragraph]))).claims[-1]
    assert claim.period == period


@pytest.mark.parametrize(("title", "line", "period", "comparison"), [
    ("IBM first half 2025", "Revenue grew 4.3% against the first half of 2024.", "H1 FY2025", "H1 FY2024"),
    ("Oracle fiscal 2025", "Operating income rose 10% compared with the fourth quarter of fiscal 2024.", "FY2025",
     "FY2024"),
])
def test_the_period_a_growth_is_compared_against_is_not_the_growths_own(title, line, period, comparison) -> None:
    (claim,) = extract_claims(_deck((title, [line]))).claims
    assert claim.period.endswith(period) and claim.comparison_period.endswith(comparison)


@pytest.mark.parametrize(("header", "row"), [
    (["", "Q4 FY25", "FY25"], ["Non-GAAP earnings per share - basic", "$0.48", "$2.10"]),
    (["$", "2Q25", "2Q24"], ["Earnings per share, basic", "$1.41", "$1.29"]),
])
def test_earnings_per_share_said_to_be_basic_is_basic_eps(header, row) -> None:
    claims = extract_claims(_deck(("Results", [], [header, row]))).claims
    assert {c.metric for c in claims} == {"eps_basic"}


@pytest.mark.parametrize(("header", "rows", "want"), [
    (["FY2024, $mm", "Net sales", "Op. income", "Op. margin"],
     [["North America", "$387,497", "$24,967", "6.4%"], ["AWS", "$107,556", "$39,834", "37.0%"],
      ["Total", "$637,959", "$68,593", "10.8%"]],
     {("North America", "revenue", "segment:north america", 6), ("AWS", "operating_income", "segment:aws", 6),
      ("AWS", "operating_margin", "segment:aws", 0), ("Total", "revenue", "GAAP", 6),
      ("Total", "operating_income", "GAAP", 6)}),
    (["$ in billions", "Net sales", "Gross margin %"],
     [["Products", "$295.0", "37.2%"], ["Services", "$96.2", "73.9%"], ["Total", "$391.0", "46.2%"]],
     {("Products", "gross_margin", "segment:products", 0), ("Services", "gross_margin", "segment:services", 0),
      ("Total", "gross_margin", "GAAP", 0), ("Total", "revenue", "GAAP", 9)}),
])
def test_a_table_with_a_quantity_per_column_reads_each_row_as_a_segment_and_total_as_the_company(header, rows, want):
    claims = extract_claims(_deck(("FY2024 segments", [], [header, *rows]))).claims
    got = {(c.row, c.metric, c.basis, c.scale or 0) for c in claims}
    assert want <= got


@pytest.mark.parametrize(("corner", "line", "period"), [
    ("FY2024, $mm", "AWS delivered most of the operating income.", "FY2024"),
    ("2Q25, $ in millions", "Services grew faster than products.", "Q2 FY2025"),
])
def test_the_period_in_a_tables_corner_is_the_slides_period_for_its_prose(corner, line, period) -> None:
    deck = _deck(("Segment economics", [f"{line} Operating income was $10.4 billion."],
                  [[corner, "Net sales", "Op. income"], ["AWS", "$107,556", "$39,834"]]))
    prose = next(c for c in extract_claims(deck).claims if c.printed == "$10.4 billion")
    assert prose.period == period


@pytest.mark.parametrize(("title", "line", "want"), [
    ("NVDA Q2 FY26 tear sheet", "Revenue $46.7bn (+56% y/y, +6% q/q)",
     [("revenue", "value", None), ("revenue", "growth", "Q2 FY2025"), ("revenue", "growth", "Q1 FY2026")]),
    ("AAPL Q3 FY25 tear sheet", "GM 46.5% (-60bp q/q)", [("gross_margin", "margin", None),
                                                          ("gross_margin", "growth", "Q2 FY2025")]),
    ("Q4 and FY24 Results", "19% (18% in CC) Total Revenue Growth year-over-year",
     [("revenue", "growth", "FY2023"), ("revenue", "growth", "FY2023")]),
])
def test_a_parenthesis_after_a_named_figure_holds_its_changes(title, line, want) -> None:
    claims = extract_claims(_deck((title, [line]))).claims
    assert [(c.metric, c.kind, c.comparison_period) for c in claims] == want


@pytest.mark.parametrize(("title", "line", "period"), [
    ("Mastercard FY2024", "Cash from operations: $11,980 million (2023)", "FY2023"),
    ("Netflix 2024 scorecard", "Operating income of $6.95 billion (2023)", "FY2023"),
])
def test_a_year_in_parentheses_after_a_figure_dates_it(title, line, period) -> None:
    (claim,) = extract_claims(_deck((title, [line]))).claims
    assert claim.period == period


@pytest.mark.parametrize(("header", "rows"), [
    (["$ in millions, except per share", "4Q25", "3Q25"], [["Revenue", "$39,331", "$35,082"],
                                                         ["Gross margin (1)", "73.5%", "74.6%"]]),
    (["$ millions", "FY2024", "FY2023"], [["Net sales", "$391,035", "$383,285"], ["Operating margin", "31.5%", "29.8%"]]),
])
def test_a_row_naming_its_own_quantity_is_not_read_as_part_of_the_row_above(header, rows) -> None:
    claims = extract_claims(_deck(("Results", [], [header, *rows]))).claims
    assert {c.basis for c in claims if c.unit == "percent"} == {"GAAP"}


@pytest.mark.parametrize(("title", "lines", "segment", "metric"), [
    ("NVDA Q2 FY26 tear sheet", ["Data Center revenue $41.1bn (+56% y/y)", "- of which networking $7.3bn (+89% y/y)"],
     "segment:networking", "revenue"),
    ("Apple Q3 FY25 tear sheet", ["Services net sales $27.4bn", "of which advertising $3.1bn"],
     "segment:advertising", "services_revenue"),
])
def test_an_of_which_line_is_a_part_of_the_quantity_above_it(title, lines, segment, metric) -> None:
    claims = extract_claims(_deck((title, lines))).claims
    part = [c for c in claims if c.text == lines[1]]
    assert part and all((c.metric, c.basis) == (metric, segment) for c in part)


@pytest.mark.parametrize(("row", "head", "value", "period"), [
    (["Headcount (k)", "76.5", "72.7"], ["Metric", "FY25", "FY24"], Decimal("76500"), "FY2025"),
    (["Paid memberships (m)", "301.6", "269.6"], ["Metric", "Q2 CY25", "Q2 CY24"], Decimal("301600000"), "Q2 FY2025"),
])
def test_a_count_rows_own_scale_and_a_calendar_year_column_are_read(row, head, value, period) -> None:
    claims = extract_claims(_deck(("Portfolio benchmark", [], [head, row]))).claims
    first = next(c for c in claims if c.printed.strip() == row[1])
    assert (first.value.scaleb(first.scale), first.unit, first.period) == (value, "count", period)


@pytest.mark.parametrize("sentence", [
    "Net sales of $648.1 billion, +5.1% vs. prior year.",
    "Operating income of $2.5 billion, up from 2023; margin stable, +5% vs PY for the segment total.",
])
def test_a_percent_against_the_prior_year_is_a_growth_rate(sentence) -> None:
    claims = extract_claims(_deck(("FY2024 Results", [sentence]))).claims
    growth = next(c for c in claims if c.unit == "percent")
    assert (growth.kind, growth.comparison_period) == ("growth", "FY2023")


@pytest.mark.parametrize(("rows", "total"), [
    ([["$ in millions", "FY2022", "FY2021"], ["Flexibles", "11,151", "10,040"], ["Rigid Packaging", "3,393", "2,823"]],
     ["Total net sales", "14,544", "12,861"]),
    ([["USD mm", "4Q22"], ["Las Vegas Strip", "2,297"], ["Regional Operations", "991"]], ["Total revenues", "3,592"]),
])
def test_rows_above_a_total_of_sales_are_its_segments(rows, total) -> None:
    claims = extract_claims(_deck(("Amcor and MGM Resorts", [], [*rows, total]))).claims
    parts = [c for c in claims if c.row in {r[0] for r in rows[1:]}]
    assert parts and all(c.metric == "revenue" and c.basis.startswith("segment:") for c in parts)


@pytest.mark.parametrize(("title", "result", "outlook"), [
    ("Capital return and outlook", "$9.7B Shares repurchased, Q2 FY26", "Revenue is expected to be $54.0 billion"),
    ("Results & Outlook", "Net income of $2.2 billion in Q2 2025", "We expect capex of $9.0 billion in 2025"),
])
def test_a_title_joining_results_and_outlook_keeps_the_results(title, result, outlook) -> None:
    parsed = extract_claims(_deck((title, [result, outlook])))
    assert [c.text for c in parsed.claims] == [result]
    assert any("projection" in d.why for d in parsed.discarded)


@pytest.mark.parametrize(("line", "period"), [
    ("BBY: FY23 (Jan-23) rev $46.3bn and the Q2 FY24 print still negative", "FY2023"),
    ("MA: 2024 net revenue $28.2bn, with the Q1 2025 trend softer", "FY2024"),
])
def test_of_two_periods_in_a_clause_the_one_before_the_figure_is_its_own(line, period) -> None:
    (claim,) = extract_claims(_deck(("Notes", [line]))).claims
    assert claim.period == period


@pytest.mark.parametrize(("title", "line", "label"), [
    ("Mastercard FY2024", "Switched transactions grew 11% to 159.4 billion.", "switched transactions"),
    ("Apple FY2024", "Services grew 13%, while Greater China sales rose 8%.", "greater china sales"),
    ("J&J Q4 2022", "EPS $1.33 after litigation and separation charges.", "eps"),
])
def test_a_quantitys_name_stops_where_the_sentence_goes_on_about_it(title, line, label) -> None:
    claims = extract_claims(_deck((title, [line]))).claims
    assert label in {c.label for c in claims}, [(c.printed, c.label) for c in claims]


@pytest.mark.parametrize(("line", "value"), [
    ("Operating ratio improved 100 bps despite the charge.", Decimal("-100")),  # a railroad: lower is better
    ("Expense ratio improved 40 bps year over year.", Decimal("-40")),  # an insurer's
    ("Gross margin improved 40 bps year over year.", Decimal("40")),  # a margin improves by rising
])
def test_a_ratio_that_is_better_lower_improves_by_falling(line, value) -> None:
    (claim,) = extract_claims(_deck(("2Q25 review", [line]))).claims
    assert claim.value == value


@pytest.mark.parametrize(("grid", "cell", "period"), [
    ([["$bn", "FY23A", "FY24A", "FY25E"], ["Revenue", "383.3", "391.0", "410.0"]], "391.0", "FY2024"),  # a model's years
    ([["$m", "1Q25A", "2Q25A", "3Q25E"], ["Operating income", "2,252", "2,525", "2,600"]], "2,525", "Q2 FY2025"),
])
def test_a_period_marked_actual_is_that_period(grid, cell, period) -> None:
    claims = extract_claims(_deck(("Model", [], grid))).claims
    assert {c.printed: c.period for c in claims}.get(cell) == period
    assert all(c.column != grid[0][-1] for c in claims), "the estimate column stays out"


@pytest.mark.parametrize(("line", "second", "metric", "period"), [
    ("FY24A revenue of $391.0bn; 3Q25A EPS $1.57", "$1.57", "eps_diluted", "Q3 FY2025"),
    ("UNP 2Q25 revenue $6.2bn; 1H25 EPS $5.85", "$5.85", "eps_diluted", "H1 FY2025"),
])
def test_a_semicolon_before_a_period_starts_the_next_figures_clause(line, second, metric, period) -> None:
    got = next(c for c in extract_claims(_deck(("Notes", [line]))).claims if c.printed == second)
    assert (got.metric, got.period) == (metric, period)
