"""Claims resolved against the room: company from the claim, its slide, the cover or the room itself;
period from the claim, its column or its slide, in the company's own fiscal calendar. Each rule is
shown on two companies or layouts."""

from __future__ import annotations

from decimal import Decimal

import pytest

from parsers.catalogue import Catalogue, RoomDocument, build_catalogue
from parsers.claims import extract_claims
from parsers.entities import printed_names, short_forms
from parsers.model import Claim, Deck, ParsedDeck, Slide, TextBlock
from parsers.resolve import resolve_claims

ROOM = build_catalogue([
    RoomDocument(path="ma-10-K.html", entity="Mastercard Incorporated", fiscal_year_end="--12-31",
                 periods=("FY2024", "FY2023"), names=("Mastercard Incorporated", "Mastercard", "MA")),
    RoomDocument(path="aapl-10-K.html", entity="Apple Inc.", fiscal_year_end="--09-28",
                 periods=("FY2024", "FY2023"), names=("Apple Inc.", "Apple", "AAPL")),
    RoomDocument(path="aapl-10-Q.html", entity="Apple Inc.", fiscal_year_end="--09-27",
                 periods=("Q3 FY2025",), names=("Apple Inc.", "Apple", "AAPL")),
    RoomDocument(path="pg-10-K.html", entity="PROCTER & GAMBLE CO", fiscal_year_end="--06-30",
                 periods=("FY2025",), names=("PROCTER & GAMBLE CO", "Procter & Gamble", "P&G", "PG")),
    RoomDocument(path="nflx-10-K.html", entity="Netflix, Inc.", fiscal_year_end="--12-31",
                 periods=("FY2024",), names=("Netflix, Inc.", "Netflix", "NFLX")),
])


def _slides(cover: str, *slides: tuple[str, list[str]], cover_lines: tuple[str, ...] = ()) -> Deck:
    out = [Slide(page=1, title=cover, blocks=[TextBlock(text=t) for t in cover_lines])]
    for page, (title, lines) in enumerate(slides, start=2):
        out.append(Slide(page=page, title=title, blocks=[TextBlock(text=t) for t in lines]))
    return Deck(format="txt", slides=out)


def _resolved(deck: Deck, catalogue: Catalogue = ROOM) -> list[Claim]:
    return resolve_claims(extract_claims(deck), catalogue).claims


# ---------------------------------------------------------------- entity


@pytest.mark.parametrize(("title", "company"), [
    ("Mastercard at a glance", "Mastercard Incorporated"),
    ("Apple: FY2024 scorecard", "Apple Inc."),
    ("P&G fiscal 2025 in review", "PROCTER & GAMBLE CO"),
])
def test_one_company_per_slide_takes_the_company_its_title_names(title: str, company: str) -> None:
    deck = _slides("Harbor Street Research: Consumer Review", (title, ["Net revenue of $28.2 billion in 2024"]))
    (claim,) = _resolved(deck)
    assert claim.entity == company
    assert "slide title" in claim.resolution.entity


@pytest.mark.parametrize("cover", ["Harbor Street Research Review", "Northgate Capital Partners", "Blue Owl Holdings"])
def test_a_cover_naming_its_author_names_no_company(cover: str) -> None:
    deck = _slides(cover, ("FY2024 in numbers", ["Revenue of $39.0 billion"]))
    (claim,) = _resolved(deck)
    assert claim.entity is None
    # The verdict can say what was looked for.
    assert "Mastercard Incorporated" in claim.resolution.entity and "Netflix" in claim.resolution.entity


def test_a_cover_naming_one_room_company_lends_it_to_every_slide() -> None:
    deck = _slides("Netflix: 2024 Investor Review", ("Highlights", ["Revenue of $39.0 billion in 2024"]),
                   ("Profitability", ["Operating income of $10.4 billion in 2024"]))
    assert [c.entity for c in _resolved(deck)] == ["Netflix, Inc.", "Netflix, Inc."]


@pytest.mark.parametrize(("line", "company"), [
    ("Apple services net sales of $96.2 billion", "Apple Inc."),
    ("Mastercard net revenue of $28.2 billion", "Mastercard Incorporated"),
])
def test_the_claims_own_words_outrank_its_slide(line: str, company: str) -> None:
    deck = _slides("Sector review", ("Netflix and peers, FY2024", [line]))
    (claim,) = _resolved(deck)
    assert claim.entity == company


def test_a_room_with_one_company_makes_it_the_default() -> None:
    room = build_catalogue([RoomDocument(path="wmt.html", entity="WALMART INC.", fiscal_year_end="--01-31",
                                         periods=("FY2025",), names=("WALMART INC.", "Walmart", "WMT"))])
    deck = _slides("Retail deep dive", ("FY2025", ["Total revenues of $681.0 billion"]))
    (claim,) = _resolved(deck, room)
    assert claim.entity == "WALMART INC." and claim.resolution.entity == "the room holds one company"


def test_a_slide_naming_two_companies_leaves_an_unnamed_claim_unresolved() -> None:
    deck = _slides("Review", ("Apple and Netflix, FY2024", ["Revenue of $39.0 billion"]))
    (claim,) = _resolved(deck)
    assert claim.entity is None


def test_tickers_match_in_capitals_only() -> None:
    named = [n.entity.name for n in ROOM.named_in("MA and PG grew; ma pg are words")]
    assert named == ["Mastercard Incorporated", "PROCTER & GAMBLE CO"]


@pytest.mark.parametrize(("line", "company"), [
    ("Netflix revenue of $39.0 billion in 2024", "Netflix, Inc."),
    ("Mastercard net revenue of $28.2 billion in 2024", "Mastercard Incorporated"),
])
def test_the_companys_own_name_is_not_a_segment(line: str, company: str) -> None:
    (claim,) = _resolved(_slides("Review", ("FY2024", [line])))
    assert claim.entity == company and claim.basis == "GAAP"


# ---------------------------------------------------------------- period


@pytest.mark.parametrize(("first", "other"), [
    ("Net revenue of $28.2 billion in 2024", "Operating income of $15.6 billion"),
    ("Fiscal 2024 revenue was $391.0 billion", "Net income of $93.7 billion"),
])
def test_a_period_stated_once_on_a_slide_lends_it_to_the_slides_other_figures(first: str, other: str) -> None:
    claims = _resolved(_slides("Harbor Street Research", ("Mastercard at a glance", [first, other])))
    assert [c.period for c in claims] == ["FY2024", "FY2024"]
    assert "the one period slide 2 states" in claims[1].resolution.period


@pytest.mark.parametrize("lines", [
    ["Net revenue of $28.2 billion in 2024", "Operating income of $15.6 billion",
     "Net revenue of $18.9 billion in 2021", "Net income of $6.3 billion"],
    ["Fiscal 2024: total net sales of $391.0 billion", "Net income of $93.7 billion",
     "Fiscal 2021: total net sales of $365.8 billion", "Net income of $94.7 billion"],
])
def test_a_bullet_reads_in_the_period_stated_above_it_until_another_is_stated(lines: list[str]) -> None:
    claims = _resolved(_slides("Review", ("Mastercard at a glance", lines)))
    assert [c.period for c in claims] == ["FY2024", "FY2024", "FY2021", "FY2021"]
    assert "stated above it" in claims[3].resolution.period


@pytest.mark.parametrize(("line", "period"), [
    ("Net sales of $94.0 billion for the three months ended June 28, 2025", "Q3 FY2025"),  # Apple: FY ends in September
    ("Net sales of $21.0 billion for the three months ended June 30, 2025", "Q2 FY2025"),  # Netflix: calendar year
])
def test_a_dated_period_is_read_in_the_companys_fiscal_calendar(line: str, period: str) -> None:
    company = "Apple" if "94.0" in line else "Netflix"
    (claim,) = _resolved(_slides("Review", (f"{company} update", [line])))
    assert claim.period == period


@pytest.mark.parametrize(("header", "period"), [("4Q24", "Q4 FY2024"), ("1H25", "H1 FY2025"), ("9M24", "9M FY2024"),
                                                 ("Q3 FY25", "Q3 FY2025")])
def test_results_deck_column_headers_name_their_periods(header: str, period: str) -> None:
    slide = Slide(page=2, title="Netflix financial summary", blocks=[TextBlock(text="$ in millions")],
                  tables=[[["", header, "FY2023"], ["Revenue", "10,247", "33,723"]]])
    claims = _resolved(Deck(format="txt", slides=[Slide(page=1, title="Results", blocks=[]), slide]))
    assert claims[0].period == period and claims[0].resolution.period == f"column header '{header}'"
    assert claims[0].scale == 6, "the slide's '$ in millions' scales its table"


def test_a_column_whose_header_names_no_readable_period_does_not_borrow_the_decks() -> None:
    slide = Slide(page=2, title="Summary", blocks=[], tables=[[["", "2Q25", "Run-rate"], ["Revenue", "6,154", "24,600"]]])
    deck = Deck(format="txt", slides=[Slide(page=1, title="Union Pacific 2Q 2025 results", blocks=[]), slide])
    claims = extract_claims(deck).claims
    assert [c.period for c in claims] == ["Q2 FY2025", None]


@pytest.mark.parametrize("line", ["Diluted EPS of $3.15 compared to $2.74 in 2Q24",
                                  "Net revenue of $7.5 billion versus $6.7 billion in 2Q24"])
def test_a_comparison_clauses_period_stays_with_its_own_figure(line: str) -> None:
    deck = _slides("Mastercard 2Q 2025 results", ("Second quarter", [line]))
    current, prior = extract_claims(deck).claims
    assert (current.period, prior.period) == ("Q2 FY2025", "Q2 FY2024")


@pytest.mark.parametrize("date_line", ["March 2025", "Prepared December 12, 2024"])
def test_a_cover_date_is_not_the_decks_period(date_line: str) -> None:
    deck = _slides("Harbor Street Research", ("Mastercard at a glance", ["Operating income of $15.6 billion"]),
                   cover_lines=(date_line,))
    assert extract_claims(deck).claims[0].period is None


# ---------------------------------------------------------------- names the filings print


def test_short_forms_of_legal_names() -> None:
    assert short_forms("Meta Platforms, Inc.")[:2] == ["Meta Platforms", "Meta"]
    assert "AMAZON" in short_forms("AMAZON.COM, INC.")
    assert "P&G" in short_forms("The Procter & Gamble Company")
    assert short_forms("NVIDIA CORPORATION") == ["NVIDIA"]


def test_a_short_form_counts_only_when_the_filing_prints_it_on_its_own() -> None:
    text = "Union Pacific Corporation (the Corporation). Union Pacific railroads ... " * 3 + \
        "the union agreements; European Union rules; Union Pacific UP " * 3
    names = printed_names("Union Pacific Corporation", text, "UNP")
    assert "Union" not in names and "Union Pacific" in names and "UNP" in names
    apple = printed_names("Apple Inc.", "Apple designs iPhone. Apple sells Mac. Apple Music. " * 2, "AAPL")
    assert apple == ["Apple Inc.", "Apple", "AAPL"]


@pytest.mark.parametrize(("legal", "ticker", "line"), [
    ("Ulta Beauty, Inc.", "ULTA", "Ulta delivered the cleanest print. Its net income came in at $289.4mm."),
    ("Uber Technologies, Inc.", "UBER", "Uber grew gross bookings. Its revenue rose 18% in 2024."),
])
def test_a_one_word_name_its_ticker_spells_names_the_company(legal: str, ticker: str, line: str) -> None:
    room = build_catalogue([
        RoomDocument(path="a.pdf", entity=legal, periods=("FY2024",), names=(legal.split(",")[0], ticker)),
        RoomDocument(path="unp.html", entity="Union Pacific Corporation", periods=("FY2024",),
                     names=("Union Pacific Corporation", "Union Pacific", "UNP")),
    ])
    got = _resolved(_slides("Desk notes", ("Takeaways", [line])), room)
    assert got and all(c.entity == legal for c in got), [(c.text, c.entity) for c in got]
    union = _resolved(_slides("Desk notes", ("Takeaways", ["Union membership rose; revenue was $5.0bn in 2024."])), room)
    assert [c.entity for c in union] == [None], "a one-word cut that is an ordinary word names nobody"


def test_the_catalogue_merges_a_companys_documents_and_keeps_every_period() -> None:
    apple = next((e for e in ROOM.entities if e.name == "Apple Inc."), None)
    assert apple is not None and apple.periods == ("FY2023", "FY2024", "Q3 FY2025")
    assert len(ROOM.entities) == 4


def test_an_empty_room_resolves_nothing() -> None:
    parsed = extract_claims(_slides("Apple FY2024", ("Highlights", ["Revenue of $391.0B"])))
    assert resolve_claims(parsed, Catalogue()) is parsed


def test_cents_per_share_are_dollars() -> None:
    (claim,) = _resolved(_slides("Mastercard FY2024", ("Highlights", ["Diluted earnings per share of 1,389 cents"])))
    assert (claim.value, claim.scale, claim.unit) == (Decimal("1389"), -2, "USD/share")
    assert isinstance(extract_claims(Deck(format="txt", slides=[])), ParsedDeck)


@pytest.mark.parametrize(("line", "metric"), [
    ("Services accounted for 55.5% of Amazon's revenue in 2023", "services_revenue"),
    ("Europe accounted for 25% of Apple’s total net sales in fiscal 2024", "label:europe"),
    ("16% Greater China share of net sales, fiscal 2024", "label:greater china"),
])
def test_a_share_names_its_part_beside_the_figure(line: str, metric: str) -> None:
    (claim,) = extract_claims(_slides("Review", ("Mix", [line]))).claims
    assert (claim.kind, claim.metric, claim.denominator) == ("share", metric, "revenue")


@pytest.mark.parametrize(("line", "value", "decimals"), [
    ("P&G's net margin (fraction of revenue) was 0.177 in FY24", "17.7", 1),
    ("Walmart's operating margin (fraction of revenue) was 0.043 in fiscal 2025", "4.3", 1),
])
def test_a_margin_printed_as_a_fraction_is_a_percentage(line: str, value: str, decimals: int) -> None:
    (claim,) = extract_claims(_slides("Review", ("Profitability", [line]))).claims
    assert (claim.kind, claim.unit, claim.value, claim.decimals) == ("margin", "percent", Decimal(value), decimals)


@pytest.mark.parametrize(("line", "company"), [
    ("Apple’s gross margin was 46.2% in fiscal 2024", "Apple Inc."),
    ("Netflix’s operating income was $10.4 billion in 2024", "Netflix, Inc."),
])
def test_a_curly_possessive_of_the_company_is_not_a_segment(line: str, company: str) -> None:
    (claim,) = _resolved(_slides("Review", ("Scorecard", [line])))
    assert claim.entity == company and claim.basis == "GAAP"


@pytest.mark.parametrize("line", ["Net income of $72.9M", "Revenue of €19.9M", "Operating income of $1.9M"])
def test_a_figure_ending_in_9m_is_not_the_nine_months(line: str) -> None:
    (claim,) = extract_claims(_slides("Review", ("FY2025 highlights", [line]))).claims
    assert claim.period == "FY2025"


@pytest.mark.parametrize("line", ["Revenue carloads (thousands): 8,334", "Revenue passenger miles of 245 billion"])
def test_a_quantity_name_followed_by_a_counted_noun_is_another_quantity(line: str) -> None:
    (claim,) = extract_claims(_slides("Review", ("FY2024 operations", [line]))).claims
    assert claim.metric is not None and claim.metric.startswith("label:")


@pytest.mark.parametrize(("line", "why"), [
    ("The #1 platform in its category, trusted by 14 of the Fortune 100.", "superlative"),
    ("Best-in-class execution, with 20 consecutive quarters of record results.", "superlative"),
    ("Priya Raman, Analyst: covered 36 companies in payments and software.", "team biography"),
    ("Tom Okafor, Managing Director - 18 years covering consumer retail", "team biography"),
])
def test_boasts_and_biographies_that_count_are_not_claims(line: str, why: str) -> None:
    parsed = extract_claims(_slides("Review", ("Why us", [line])))
    assert parsed.claims == [] and [d.why for d in parsed.discarded] == [why]


@pytest.mark.parametrize(("line", "claims"), [
    ("Diluted EPS growth of 15.0% y/y in 2Q25", 1),  # the latest quarter beside a full year: a result
    ("Revenue of $28.0 billion in FY2026", 0),  # a later full year: a target
])
def test_only_a_later_full_year_than_the_slides_own_is_a_projection(line: str, claims: int) -> None:
    parsed = extract_claims(_slides("Review", ("Union Pacific: full-year 2024 at a glance", [line])))
    assert len(parsed.claims) == claims, parsed.discarded


@pytest.mark.parametrize(("title", "line", "period"), [
    ("Netflix: three months ended June 30, 2025", "Operating cash flow for the six months was $4.6 billion.",
     "H1 FY2025"),
    ("Mastercard: three months ended September 30, 2024", "Net revenue for the nine months was $20.6 billion.",
     "9M FY2024"),
])
def test_a_part_of_the_year_a_sentence_names_survives_the_slides_date_in_the_companys_calendar(title, line, period):
    (claim,) = _resolved(_slides("Review", (title, [line])))
    assert claim.period == period


# ---------------------------------------------------------------- sections and sides of a page

_MEMO = """RIVERBEND PARTNERS -- IC MEMO

1. {first}
{rule}

  {first_line}

2. {second}
{rule}

  $ in millions      {period}
  Revenue              {value}
  Operating income        950
"""


@pytest.mark.parametrize(("first", "second", "owner"), [
    ("Mastercard -- FY2024", "Netflix -- FY2024", "Netflix, Inc."),
    ("Apple Inc. -- fiscal 2024", "Procter & Gamble -- fiscal 2025", "PROCTER & GAMBLE CO"),
])
def test_a_figure_on_a_page_of_sections_belongs_to_the_heading_above_it(first, second, owner) -> None:
    from parsers.decks import load_deck

    text = _MEMO.format(first=first, second=second, rule="=" * 30, first_line="- Net revenue of $28.2 billion.",
                        period="FY2024" if "2024" in second else "FY2025", value="39,001")
    deck = load_deck(text.encode(), "memo.txt")
    assert isinstance(deck, Deck)
    claims = _resolved(deck)
    first_owner = next(c.entity for c in claims if c.text.startswith("Net revenue"))
    table = [c for c in claims if c.row]
    assert first_owner != owner and table and {c.entity for c in table} == {owner}
    assert all("heading above it" in c.resolution.entity for c in table)


@pytest.mark.parametrize(("title", "left", "right"), [
    ("Mastercard (left) and Netflix (right): 2024", "Mastercard Incorporated", "Netflix, Inc."),
    ("P&G (left) vs Apple (right)", "PROCTER & GAMBLE CO", "Apple Inc."),
])
def test_a_title_naming_the_left_and_right_halves_gives_each_figure_its_halfs_company(title, left, right) -> None:
    slide = Slide(page=2, title=title, blocks=[
        TextBlock(text="Revenue of $28.2 billion", bbox=(40, 100, 400, 130)),
        TextBlock(text="Net income of $8.7 billion", bbox=(520, 100, 900, 130))])
    claims = _resolved(Deck(format="pptx", slides=[Slide(page=1, title="Chart book", blocks=[]), slide]))
    assert [c.entity for c in claims] == [left, right]


@pytest.mark.parametrize(("lines", "owner"), [
    (["Apple and Netflix, FY2024", "Netflix, full year:", "revenue $39.0bn", "operating margin 26.7%"], "Netflix, Inc."),
    (["AAPL vs MA", "MA, calendar 2024:", "net revenue $28.2bn", "- diluted EPS $13.89"], "Mastercard Incorporated"),
])
def test_a_line_introducing_a_list_names_the_company_of_the_lines_under_it(lines, owner) -> None:
    claims = _resolved(_slides("Desk notes", ("Two names", lines)))
    assert claims and {c.entity for c in claims} == {owner}, [(c.text, c.entity) for c in claims]


@pytest.mark.parametrize(("first", "second", "cell", "owner"), [
    ("Mastercard, USD m", "Netflix, USD m", "+16%", "Netflix, Inc."),
    ("AAPL ($m)", "MA ($m)", "+13%", "Mastercard Incorporated"),
])
def test_two_tables_sharing_a_row_and_column_name_give_a_cell_the_corner_of_its_own_table(first, second, cell,
                                                                                         owner) -> None:
    tables = [[[first, "FY2024", "y/y"], ["Net income", "12,874", "+15%"]],
              [[second, "FY2024", "y/y"], ["Net income", "8,712", cell]]]
    deck = Deck(format="md", slides=[Slide(page=1, title="Book", blocks=[]),
                                     Slide(page=2, title="Two tables", blocks=[], tables=tables)])
    got = next(c for c in _resolved(deck) if c.printed == cell.lstrip("+"))
    assert got.entity == owner


@pytest.mark.parametrize(("first", "second"), [
    (("Netflix", "Q2 2025 Earnings", "Revenue of $11.08 billion", "Netflix, Inc.", "Q2 FY2025"),
     ("Apple", "Q3 FY2025 Results", "Net sales of $94.0 billion", "Apple Inc.", "Q3 FY2025")),
    (("Mastercard", "Fourth quarter 2024", "Net revenue of $7.5 billion", "Mastercard Incorporated", "Q4 FY2024"),
     ("Procter & Gamble", "Fiscal 2025 results", "Net sales of $84.3 billion", "PROCTER & GAMBLE CO", "FY2025")),
])
def test_a_section_cover_lends_its_company_and_period_to_the_pages_after_it(first, second) -> None:
    deck = Deck(format="pdf", slides=[
        Slide(page=1, title=first[0], blocks=[TextBlock(text=first[1]), TextBlock(text="Investor Relations")]),
        Slide(page=2, title="Financial highlights", blocks=[TextBlock(text=first[2])]),
        Slide(page=3, title=second[0], blocks=[TextBlock(text=second[1])]),
        Slide(page=4, title="Financial highlights", blocks=[TextBlock(text=second[2])]),
    ])
    got = [(c.page, c.entity, c.period) for c in _resolved(deck)]
    assert got == [(2, first[3], first[4]), (4, second[3], second[4])]


@pytest.mark.parametrize(("corner", "want"), [
    ("LTM to latest 10-Q, $bn", {"Apple Inc.": "TTM Q3 FY2025", "PROCTER & GAMBLE CO": None}),
    ("Latest fiscal year, $bn", {"Apple Inc.": "FY2024", "PROCTER & GAMBLE CO": "FY2025"}),
])
def test_a_summary_dated_only_latest_reads_each_company_in_its_own_latest_period(corner, want) -> None:
    table = [[corner, "Revenue", "Net income"], ["Apple", "408.6", "99.3"], ["P&G", "84.3", "16.0"]]
    deck = Deck(format="pdf", slides=[Slide(page=1, title="Desk monitor", blocks=[]),
                                      Slide(page=2, title="Summary across issuers", blocks=[], tables=[table])])
    got = {c.entity: c.period for c in _resolved(deck)}
    assert got == want


@pytest.mark.parametrize(("corner", "metric"), [
    ("Net income, FY2023 vs FY2024 ($bn)", "net_income"),  # a benchmarking chart over companies
    ("Revenue ($bn)", "revenue"),
])
def test_a_table_of_companies_as_rows_takes_its_quantity_from_the_corner(corner, metric) -> None:
    table = [[corner, "FY2023", "FY2024"], ["Apple", "$97.0", "$93.7"], ["Mastercard", "$11.2", "$12.9"]]
    deck = Deck(format="pptx", slides=[Slide(page=1, title="Peer benchmarking", blocks=[]),
                                       Slide(page=2, title="Earnings momentum", blocks=[], tables=[table])])
    got = {(c.entity, c.period): c.metric for c in _resolved(deck)}
    assert got[("Mastercard Incorporated", "FY2024")] == metric and got[("Apple Inc.", "FY2023")] == metric


@pytest.mark.parametrize(("column", "apple"), [
    ("Revenue, latest fiscal year ($bn)", "FY2024"),  # the other companies read in their own latest year
    ("Revenue ($bn)", None),  # nothing dates them: no year rather than the note's
])
def test_a_note_dating_named_companies_does_not_date_the_others(column, apple) -> None:
    table = [["", column], ["Apple", "$391.0"], ["Mastercard", "$28.2"], ["P&G", "$84.3"]]
    deck = Deck(format="pptx", slides=[
        Slide(page=1, title="Peer book", blocks=[]),
        Slide(page=2, title="Scale", blocks=[TextBlock(text="Fiscal 2025 (year ended June 30, 2025) for P&G")],
              tables=[table])])
    got = {c.entity: c.period for c in _resolved(deck)}
    assert got["PROCTER & GAMBLE CO"] == "FY2025"
    assert got["Apple Inc."] == apple


@pytest.mark.parametrize(("note", "company", "period"), [
    ("Calendar 2024 for Mastercard; fiscal 2025 (year ended June 30, 2025) for P&G", "PROCTER & GAMBLE CO", "FY2025"),
    ("Fiscal 2025 (nine months ended June 28, 2025) for Apple", "Apple Inc.", "9M FY2025"),
])
def test_a_note_dating_named_companies_dates_their_cells_under_a_shared_column(note, company, period) -> None:
    table = [["", "FY2024 revenue ($bn)"], ["Mastercard", "$28.2"], ["P&G", "$84.3"], ["Apple", "$313.7"]]
    deck = Deck(format="pptx", slides=[Slide(page=1, title="Peer book", blocks=[]),
                                       Slide(page=2, title="Scale", blocks=[TextBlock(text=note)], tables=[table])])
    got = {c.entity: c.period for c in _resolved(deck)}
    assert got[company] == period and got["Mastercard Incorporated"] == "FY2024", got
