"""A room that holds one company lends it to a deck that names no company, never to a deck that
names another: "Initech Investor Day" over Globex's filings must not be judged by Globex's figures.
Each on a Markdown and a plain-text deck, over two rooms."""

from __future__ import annotations

import pytest

from parsers.catalogue import RoomDocument, build_catalogue
from parsers.claims import extract_claims
from parsers.decks import load_deck
from parsers.model import Deck
from parsers.resolve import resolve_claims


def _room(name: str, short: str, ticker: str):  # type: ignore[no-untyped-def]
    return build_catalogue([RoomDocument(path=f"{ticker.lower()}-10-K.html", entity=name, fiscal_year_end="--12-31",
                                         periods=("FY2024",), names=(name, short, ticker))])


def _deck(fmt: str, cover: str, heading: str) -> Deck:
    if fmt == "md":
        text, name = f"# {cover}\n\n## {heading}\n\n- Total revenue of $4.2B\n- Net income of $610M\n", "deck.md"
    else:
        text, name = f"{cover}\n\n{heading}\n\n- Total revenue of $4.2B\n- Net income of $610M\n", "deck.txt"
    deck = load_deck(text.encode(), name)
    assert isinstance(deck, Deck)
    return deck


@pytest.mark.parametrize("fmt", ["md", "txt"])
@pytest.mark.parametrize(("room", "other"), [
    (("Globex Corporation", "Globex", "GBX"), "Initech Inc. Investor Day"),
    (("Tesla, Inc.", "Tesla", "TSLA"), "Rivian Automotive, Inc. Q4 review"),
])
def test_a_deck_naming_another_company_takes_no_company_from_a_one_company_room(fmt, room, other) -> None:
    claims = resolve_claims(extract_claims(_deck(fmt, other, "FY2024 highlights")), _room(*room)).claims
    assert claims and all(c.entity is None for c in claims)
    assert all("is not it" in c.resolution.entity for c in claims)


@pytest.mark.parametrize("fmt", ["md", "txt"])
@pytest.mark.parametrize("room", [("Globex Corporation", "Globex", "GBX"), ("Tesla, Inc.", "Tesla", "TSLA")])
def test_a_deck_naming_no_company_is_about_the_one_company_its_room_holds(fmt, room) -> None:
    claims = resolve_claims(extract_claims(_deck(fmt, "Investor Day", "FY2024 highlights")), _room(*room)).claims
    assert claims and all(c.entity == room[0] for c in claims)
