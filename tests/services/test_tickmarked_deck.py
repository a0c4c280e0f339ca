"""The deck as pages (a PDF's own, PPTX and Markdown drawn from their boxes), where each claim's
figure is printed on them, and the tickmarked PDF: its marks, its layers and its claim list."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pymupdf
import pytest

from parsers.decks import load_deck
from parsers.model import Deck, Slide, TextBlock
from services.deckview import DeckPages, deck_pdf, layout, locate_claims, locate_discards, numbered, rendered_deck
from services.pdfexport import LAYER_NAMES, NOT_CHECKED_LAYER, NOT_CHECKED_SUBJECT, export_pdf

REPO = Path(__file__).resolve().parents[2]
EXAMPLE_DECK = REPO / "examples" / "decks" / "nvidia-fy2025-highlights.pdf"
EXAMPLE_ROOM = REPO / "examples" / "room"
_FLAGS = pymupdf.TEXTFLAGS_TEXT & ~pymupdf.TEXT_PRESERVE_LIGATURES


def _board_deck() -> Deck:
    """A PPTX-shaped deck: one shape holding three bullets, a table in its own box, and a slide
    without boxes (as Markdown gives)."""
    shape = (40.0, 100.0, 680.0, 300.0)
    return Deck(format="pptx", slides=[
        Slide(page=1, title="Acme FY2024 Highlights", blocks=[
            TextBlock(text="Revenue of $5.0B in FY2024", bbox=shape, size=20),
            TextBlock(text="Operating income of $900M in FY2024", bbox=shape, size=20),
            TextBlock(text="FY2025 revenue outlook of $5.6B", bbox=shape, size=20)],
            tables=[[["Metric", "FY2024", "FY2023"], ["Net income", "$604M", "$498M"]]],
            table_boxes=[[[(380.0, 300.0, 680.0, 380.0)] * 3] * 2]),
        Slide(page=2, title="Customers", blocks=[TextBlock(text="Over 12,000 customers, up from 10,900"),
                                                 TextBlock(text="12,000 is a round number")]),
    ])


def _claims() -> list[dict]:
    shape, table = [40.0, 100.0, 680.0, 300.0], [380.0, 300.0, 680.0, 380.0]
    cite = {"document": "acme-10-K-2024.html", "locator": "Operations; Total revenue; December 31, 2024",
            "as_printed": "5,012", "role": "evidence", "table": "t3", "row": 0, "column": 0}
    return [
        # Out of reading order on purpose: numbers follow the page, not the list.
        {"id": "p2-c1", "page": 2, "printed": "12,000", "text": "Over 12,000 customers, up from 10,900",
         "bbox": None, "verdict": "no-evidence", "reason": "nothing in the room states customers"},
        {"id": "p1-c1", "page": 1, "printed": "$5.0B", "text": "Revenue of $5.0B in FY2024", "bbox": shape,
         "verdict": "supported", "reason": "revenue is $5.012B, matching $5.0B", "citations": [cite]},
        {"id": "p1-c2", "page": 1, "printed": "$900M", "text": "Operating income of $900M in FY2024", "bbox": shape,
         "verdict": "contradicted", "reason": "operating income is $812M, not $900M", "citations": []},
        {"id": "p1-c3", "page": 1, "printed": "$604M", "text": "Net income: $604M", "bbox": table,
         "verdict": "different-basis", "reason": "matches the non-GAAP figure"},
    ]


def test_a_pptx_deck_is_drawn_one_page_per_slide_with_its_words_where_the_deck_put_them():
    pdf = rendered_deck(_board_deck())
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        assert doc.page_count == 2
        assert doc[0].rect.width == 720  # boxes within 10 in: the 16:9 slide of that width
        words = doc[0].get_text("text", flags=_FLAGS)
        for text in ("Acme FY2024 Highlights", "Revenue of $5.0B in FY2024", "Net income", "$498M"):
            assert text in words
        revenue = doc[0].search_for("Revenue of $5.0B")[0]
        middle = pymupdf.Point((revenue.x0 + revenue.x1) / 2, (revenue.y0 + revenue.y1) / 2)
        assert pymupdf.Rect(40, 100, 680, 300).contains(middle), "drawn inside its shape's box"
        assert "Over 12,000 customers" in doc[1].get_text("text", flags=_FLAGS)


def test_each_claim_is_marked_on_its_own_figure_and_numbered_in_reading_order():
    pdf = rendered_deck(_board_deck())
    marks = {m.claim_id: m for m in locate_claims(pdf, numbered(_claims()))}
    assert [marks[i].n for i in ("p1-c1", "p1-c2", "p1-c3", "p2-c1")] == [1, 2, 3, 4]
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        for claim in _claims():
            box = pymupdf.Rect(marks[claim["id"]].box)
            printed = doc[claim["page"] - 1].get_textbox(box + (-1, -1, 1, 1)).strip()
            assert printed == claim["printed"], (claim["id"], printed)
    # Two claims in one shape get two places; the table cell's figure, not its row label.
    assert marks["p1-c1"].box != marks["p1-c2"].box
    assert marks["p1-c3"].box[0] > 500


def test_a_claim_without_a_box_is_found_by_its_sentence_not_by_the_first_equal_number():
    deck = Deck(format="md", slides=[Slide(page=1, title="Customers", blocks=[
        TextBlock(text="12,000 is where we were in 2021"), TextBlock(text="Over 12,000 customers in FY2024")])])
    pdf = rendered_deck(deck)
    claim = {"id": "p1-c1", "page": 1, "printed": "12,000", "text": "Over 12,000 customers in FY2024", "bbox": None}
    [mark] = locate_claims(pdf, [claim])
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        sentence = doc[0].search_for("Over 12,000 customers")[0]
    assert sentence.intersects(pymupdf.Rect(mark.box))


def test_discarded_figures_are_found_by_their_text_and_a_missing_one_says_so():
    pdf = rendered_deck(_board_deck())
    found, cell, missing = locate_discards(pdf, [
        {"page": 1, "text": "FY2025 revenue outlook of $5.6B", "why": "projection or guidance"},
        {"page": 1, "text": "Net income: $498M", "why": "prior period"},
        {"page": 1, "text": "nowhere on the slide", "why": "x"}])
    assert found.box is not None and found.why == "projection or guidance"
    assert cell.box is not None and cell.box[0] > 600, "a table discard is found by its cell"
    assert missing.box is None


def test_the_tickmarked_pdf_marks_every_claim_on_a_layer_per_verdict_and_lists_them_after_the_deck():
    pdf = rendered_deck(_board_deck())
    result = {"run_id": 9, "room": "acme", "deck": "decks/board.pptx", "claims": _claims(),
              "discarded": [{"page": 1, "text": "FY2025 revenue outlook of $5.6B", "why": "projection or guidance"}],
              "counts": {"supported": 1, "contradicted": 1, "different-basis": 1, "no-evidence": 1}}
    out = export_pdf(result, pdf)
    with pymupdf.open(stream=out, filetype="pdf") as doc:
        layers = {xref: o["name"] for xref, o in doc.get_ocgs().items()}
        assert set(layers.values()) == {*LAYER_NAMES.values(), NOT_CHECKED_LAYER}
        assert not next(o for o in doc.get_ocgs().values() if o["name"] == NOT_CHECKED_LAYER)["on"]
        subjects: dict[str, set[str]] = {}
        skipped = [a for p in doc.pages(0, 2) for a in p.annots() if a.info["subject"] == NOT_CHECKED_SUBJECT]
        assert len(skipped) == 1 and layers[skipped[0].get_oc()] == NOT_CHECKED_LAYER
        assert "projection or guidance" in skipped[0].info["content"]
        for page in doc.pages(0, 2):
            for annot in page.annots():
                assert annot.info["title"] == "Tickmark"
                if annot.info["subject"] == NOT_CHECKED_SUBJECT:
                    continue
                subjects.setdefault(annot.info["subject"], set()).add(annot.type[1])
                number, verdict = annot.info["subject"].lstrip("#").split(" ")
                assert layers[annot.get_oc()] == LAYER_NAMES[verdict]
        assert subjects == {f"#{n} {v}": {"Square", "Ink", "FreeText"} for n, v in
                            [(1, "supported"), (2, "contradicted"), (3, "different-basis"), (4, "no-evidence")]}
        # The list wraps long words at hyphens and lines anywhere: compare without whitespace.
        listing = "".join("".join(doc[p].get_text("text", flags=_FLAGS) for p in range(2, doc.page_count)).split())
        assert doc.page_count >= 3 and [t[1] for t in doc.get_toc()][-1] == "Claims checked"
    for text in ("Revenue of $5.0B in FY2024", "Supported", "revenue is $5.012B, matching $5.0B",
                 "acme-10-K-2024.html: Operations; Total revenue; December 31, 2024; printed 5,012",
                 "Operating income of $900M in FY2024", "Contradicted", "No evidence", "Different basis",
                 "Not checked", "projection or guidance"):
        assert "".join(text.split()) in listing, text
    assert listing.index("Revenueof$5.0B") < listing.index("Over12,000"), "numbered order"


def test_a_pdf_deck_is_its_own_pages_and_a_pptx_needs_its_loaded_slides():
    with pymupdf.open() as doc:
        doc.new_page(width=720, height=405).insert_text((50, 100), "Revenue of $5.0B", fontsize=18)
        own = doc.tobytes()
    assert deck_pdf(own, "deck.pdf", None) is own
    with pytest.raises(ValueError):
        deck_pdf(b"PK\x03\x04...", "deck.pptx", None)


def test_slide_images_are_cached_by_the_decks_sha256(tmp_path: Path):
    pdf = rendered_deck(_board_deck())
    cache = DeckPages(tmp_path)
    first = cache.image("ab12", pdf, 1)
    assert first[:3] == b"\xff\xd8\xff" and list((tmp_path / "ab12").glob("p1-*.jpg"))
    assert cache.image("ab12", b"not read again", 1) == first
    with pytest.raises(IndexError):
        cache.image("ab12", pdf, 3)
    with pytest.raises(ValueError):
        cache.image("../etc", pdf, 1)


def test_layout_of_a_pdf_deck_places_every_claim_the_verifier_extracted():
    """The example NVIDIA deck through the real extractor: every claim lands on its own figure."""
    from parsers.claims import extract_claims

    data = EXAMPLE_DECK.read_bytes()
    parsed = extract_claims(load_deck(data, EXAMPLE_DECK.name))
    claims = [{"id": c.id, "page": c.page, "printed": c.printed, "text": c.text,
               "bbox": list(c.bbox) if c.bbox else None} for c in parsed.claims]
    placed = layout(1, "decks/nvidia.pdf", "pdf", data, claims, [])
    assert len(placed.marks) == len(claims) and all(m.box for m in placed.marks)
    with pymupdf.open(stream=data, filetype="pdf") as doc:
        for claim, mark in zip(numbered(claims), placed.marks, strict=True):
            text = doc[mark.page - 1].get_textbox(pymupdf.Rect(mark.box) + (-1, -1, 1, 1))
            assert claim["printed"] in " ".join(text.split()), (claim, text)


def test_verify_pdf_writes_the_tickmarked_deck(pg_dsn: str, tmp_path: Path):
    out = tmp_path / "tickmarked.pdf"
    env = {**os.environ, "DATABASE_URL": pg_dsn, "TICKMARK_HOME": str(tmp_path / "home")}
    done = subprocess.run([sys.executable, "-m", "services.cli", "verify", str(EXAMPLE_DECK), "--room",
                           str(EXAMPLE_ROOM), "--json", "--pdf", str(out)], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    with pymupdf.open(stream=out.read_bytes(), filetype="pdf") as pdf, pymupdf.open(EXAMPLE_DECK) as deck:
        numbers = {a.info["subject"].split(" ")[0] for p in pdf.pages(0, deck.page_count) for a in p.annots()
                   if a.info["subject"] != NOT_CHECKED_SUBJECT}
        assert numbers == {f"#{n}" for n in range(1, len(result["claims"]) + 1)}
        assert pdf.page_count > deck.page_count


async def test_a_room_token_reads_its_own_runs_deck_and_history_and_nothing_of_another_room(pool):
    """The deck view's reads run as the room-scoped role: its grants cover them, and RLS hides
    another room's run (its blob, shared by content, is read by the owner only after that)."""
    import uuid

    from services.access import RoomPool
    from services.sqlfiles import query

    rooms = [f"deck-{uuid.uuid4().hex[:6]}" for _ in range(2)]
    runs = {}
    async with pool.acquire() as conn, conn.transaction():
        for room in rooms:
            await conn.execute(query("ensure_room"), room)
            deck = await conn.fetchval("INSERT INTO document (room, path, sha256, size, kind, status, format) VALUES "
                                       "($1, 'decks/d.pdf', $1, 1, 'deck', 'parsed', 'pdf') RETURNING id", room)
            filing = await conn.fetchval("INSERT INTO document (room, path, sha256, size, kind, status) VALUES "
                                         "($1, '10-K.html', $1 || 'f', 1, 'filing', 'parsed') RETURNING id", room)
            first, second = [await conn.fetchval(
                "INSERT INTO run (room, deck_document_id, deck_path, trigger, cause_document_id, status) "
                "VALUES ($1, $2, 'decks/d.pdf', $3, $4, 'finished') RETURNING id", room, deck, trigger, cause)
                for trigger, cause in (("upload", None), ("reverify", filing))]
            for run, verdict in ((first, "no-evidence"), (second, "supported")):
                await conn.execute("INSERT INTO claim (run_id, claim_id, room, page, body) VALUES "
                                   "($1, 'p1-c1', $2, 1, '{\"id\": \"p1-c1\", \"page\": 1}')", run, room)
                await conn.execute("INSERT INTO verdict (run_id, claim_id, room, verdict, reason, body) VALUES "
                                   "($1, 'p1-c1', $2, $3, 'r', '{}')", run, room, verdict)
            await conn.execute(query("record_flip"), second, "p1-c1", room, first, "no-evidence", "supported", filing)
            runs[room] = first
    mine, theirs = rooms
    scoped = RoomPool(pool, mine)
    async with scoped.acquire() as conn:
        assert (await conn.fetchrow(query("page_run_deck"), runs[mine]))["sha256"] == mine
        assert await conn.fetchrow(query("page_run_deck"), runs[theirs]) is None
        assert len(await conn.fetch(query("page_run_claim_bodies"), runs[mine])) == 1
        history = await conn.fetch(query("page_claim_history"), runs[mine], "p1-c1")
        assert [(h["verdict"], h["before"], h["cause_document"]) for h in history] == [
            ("no-evidence", None, None), ("supported", "no-evidence", "10-K.html")]
        assert await conn.fetch(query("page_claim_history"), runs[theirs], None) == []


def test_a_table_with_a_box_per_cell_is_drawn_cell_by_cell_and_a_box_off_the_page_places_nothing():
    """Docling decks box every cell, on pages wider than a PPTX slide."""
    grid = [["$ millions", "Q4FY25", "FY25"], ["Total Revenue", "$388", "$1,483"]]
    boxes = [[(100.0, 140.0, 300.0, 156.0), (560.0, 140.0, 620.0, 156.0), (1100.0, 140.0, 1180.0, 156.0)],
             [(100.0, 190.0, 300.0, 206.0), (560.0, 190.0, 620.0, 206.0), (1100.0, 190.0, 1180.0, 206.0)]]
    deck = Deck(format="docling", slides=[Slide(page=1, title="Revenue Highlights", blocks=[], tables=[grid],
                                                table_boxes=[boxes])])
    pdf = rendered_deck(deck)
    claims = [{"id": "p1-c1", "page": 1, "printed": "$1,483", "text": "Total Revenue: $1,483", "bbox": list(boxes[1][2])},
              {"id": "p1-c2", "page": 1, "printed": "$9", "text": "elsewhere", "bbox": [5000.0, 10.0, 5100.0, 30.0]}]
    inside, outside = locate_claims(pdf, claims)
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        assert doc[0].rect.width > 1180, "the page is as wide as its boxes need"
        assert doc[0].get_textbox(pymupdf.Rect(inside.box) + (-1, -1, 1, 1)).strip() == "$1,483"
    assert outside.box is None
    out = export_pdf({"run_id": 1, "claims": [{**c, "verdict": "supported", "reason": "r"} for c in claims]}, pdf)
    with pymupdf.open(stream=out, filetype="pdf") as doc:
        assert {a.info["subject"] for a in doc[0].annots()} == {"#1 supported", "#2 supported"}


def _page_one_with_layers_off(pdf: bytes, names: list[str]) -> bytes:
    """What a reader shows of page 1 once the reviewer has turned ``names`` off and saved."""
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        by_name = {o["name"]: xref for xref, o in doc.get_ocgs().items()}
        doc.set_layer(-1, off=[by_name[n] for n in names])
        saved = doc.tobytes()
    with pymupdf.open(stream=saved, filetype="pdf") as doc:
        return doc[0].get_pixmap().samples


def test_a_reviewer_turning_a_verdicts_layer_off_hides_exactly_those_marks():
    out = export_pdf({"run_id": 1, "claims": _claims()}, rendered_deck(_board_deck()))
    with pymupdf.open(stream=out, filetype="pdf") as doc:
        bare = doc[0].get_pixmap(annots=False).samples
        marked = doc[0].get_pixmap().samples
    assert marked != bare
    assert _page_one_with_layers_off(out, [LAYER_NAMES["supported"]]) not in (marked, bare), \
        "the supported marks went, the others stayed"
    assert _page_one_with_layers_off(out, [*LAYER_NAMES.values(), NOT_CHECKED_LAYER]) == bare, \
        "every layer off: the deck's own page"
