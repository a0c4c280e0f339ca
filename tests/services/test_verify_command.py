"""``tickmark verify``, ``claims`` and ``parse`` as a user runs them, on the example room the
project generates from NVIDIA's public FY2025 figures (examples/build_examples.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DECK = REPO / "examples" / "decks" / "nvidia-fy2025-highlights.pdf"
ROOM = REPO / "examples" / "room"


def tickmark(*args: str, dsn: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": dsn, "TICKMARK_HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "services.cli", *args], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=180)


@pytest.fixture(scope="module")
def verified(pg_dsn: str, tmp_path_factory: pytest.TempPathFactory) -> dict:
    out = tickmark("verify", str(DECK), "--room", str(ROOM), "--json", dsn=pg_dsn,
                   home=tmp_path_factory.mktemp("home"))
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def by_text(result: dict) -> dict[str, dict]:
    return {c["text"]: c for c in result["claims"]}


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("Revenue of $130.5B", "supported"),
        ("Revenue up 114% year over year", "supported"),
        ("Gross margin of 75.0%", "supported"),
        ("Net income of $72.9M", "contradicted"),
        ("Operating income of $32.97B", "contradicted"),
        ("Diluted EPS of $2.99", "different-basis"),
        ("Basic EPS of $2.97", "supported"),
        ("FY2021 revenue of $16.7B", "no-evidence"),
    ],
)
def test_example_deck_gets_the_verdict_its_figures_deserve(verified: dict, text: str, verdict: str):
    claim = by_text(verified)[text]
    assert claim["verdict"] == verdict, claim["reason"]


def test_verify_json_follows_the_contract(verified: dict):
    assert {"deck", "room", "claims", "discarded", "elapsed_ms"} <= verified.keys()
    for claim in verified["claims"]:
        assert {"id", "page", "text", "value", "metric", "period", "basis", "verdict", "reason",
                "citations", "trace"} <= claim.keys()
        assert [t["rule"] for t in claim["trace"]] == ["scope", "locate", "unit", "period", "scale", "compute",
                                                       "band", "basis"]
        for cite in claim["citations"]:
            assert {"document", "locator", "as_printed"} <= cite.keys()
            assert not Path(cite["document"]).is_absolute()


def test_supported_figure_is_cited_to_its_income_statement_cell(verified: dict):
    claim = by_text(verified)["Revenue of $130.5B"]
    cite = claim["citations"][0]
    assert cite["document"] == "nvda-10-K-FY2025-excerpt.html"
    assert isinstance(cite["document_id"], int), "a citation names the stored version it was read from"
    assert cite["as_printed"] == "130,497"
    assert "Consolidated Statements of Income" in cite["locator"]


def test_projections_and_superlatives_are_discarded_not_verified(verified: dict):
    discarded = {d["text"]: d["why"] for d in verified["discarded"]}
    texts = by_text(verified)
    for line in ("We expect revenue to reach $200B in FY2027", "The world's leading accelerated computing platform"):
        assert line not in texts
    assert any("200B" in t for t in discarded)


def test_second_verify_of_the_same_room_parses_nothing_again(pg_dsn: str, tmp_path: Path, verified: dict):
    out = tickmark("ingest", str(ROOM), dsn=pg_dsn, home=tmp_path)
    assert out.returncode == 0, out.stderr
    assert all("(cached)" in line for line in out.stdout.strip().splitlines())


def test_verify_streams_verdicts_to_the_terminal_without_json(pg_dsn: str, tmp_path: Path):
    out = tickmark("verify", str(DECK), "--room", str(ROOM), dsn=pg_dsn, home=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "supported" in out.stderr and "Revenue of $130.5B" in out.stderr
    assert "supported: " in out.stdout


def test_parse_json_has_every_part_of_a_document(pg_dsn: str, tmp_path: Path):
    out = tickmark("parse", str(ROOM / "nvda-10-K-FY2025-excerpt.html"), "--json", dsn=pg_dsn, home=tmp_path)
    assert out.returncode == 0, out.stderr
    body = json.loads(out.stdout)
    assert {"document", "sections", "tables", "facts", "passages"} <= body.keys()
    assert isinstance(body["passages"], int)
    revenue = [f for f in body["facts"] if f["metric"] == "revenue" and f["period"] == "FY2025"]
    assert revenue and revenue[0]["value"] in ("130497000000", "1.30497E+11")
    assert revenue[0]["source"]["kind"] == "table"


def test_claims_json_lists_claims_and_discards(pg_dsn: str, tmp_path: Path):
    out = tickmark("claims", str(DECK), "--json", dsn=pg_dsn, home=tmp_path)
    assert out.returncode == 0, out.stderr
    body = json.loads(out.stdout)
    assert len(body["claims"]) == 8
    assert all(d["why"] for d in body["discarded"])


def test_unreadable_deck_fails_with_a_reason_not_a_traceback(pg_dsn: str, tmp_path: Path):
    bad = tmp_path / "broken.pdf"
    bad.write_bytes(b"%PDF-1.7\n" + os.urandom(2000))
    out = tickmark("claims", str(bad), dsn=pg_dsn, home=tmp_path)
    assert out.returncode == 1
    assert "Traceback" not in out.stderr and "broken.pdf" in out.stderr


async def test_a_run_resumed_after_a_crash_publishes_and_stores_nothing_twice(pg_dsn: str, tmp_path: Path):
    from events.bus import EventFilter
    from services.bootstrap import open_core
    from services.rooms import ingest_room
    from services.settings import load_settings

    async with open_core(load_settings({"TICKMARK_HOME": str(tmp_path)}), dsn=pg_dsn) as core:
        room = f"resume-{tmp_path.name[-8:]}"
        await ingest_room(core.documents, room, ROOM)
        run_id = await core.verifier.start_run(room, DECK.name, trigger="cli")
        first = await core.verifier.run(run_id, room, DECK.name, DECK.read_bytes())
        # The job is taken again (its worker died before acknowledging it): same run, same bytes.
        async with core.pool.acquire() as conn:
            await conn.execute("UPDATE run SET status = 'running', result = NULL WHERE id = $1", run_id)
            await conn.execute("DELETE FROM verdict WHERE run_id = $1 AND claim_id = $2", run_id,
                               first["claims"][-1]["id"])
        second = await core.verifier.run(run_id, room, DECK.name, DECK.read_bytes())
        again = await core.verifier.run(run_id, room, DECK.name, DECK.read_bytes())

        seen = []
        async for stored in core.bus.subscribe(0, EventFilter(run_id=run_id)):
            seen.append(stored)
            if sum(1 for s in seen if s.type == "run.finished") == 2:
                break
    assert [c["verdict"] for c in second["claims"]] == [c["verdict"] for c in first["claims"]]
    assert again == second
    extracted = [s.event.claim_id for s in seen if s.type == "claim.extracted"]
    reached = [s.event.claim_id for s in seen if s.type == "verdict.reached"]
    rules = [(s.event.claim_id, s.event.rule) for s in seen if s.type == "rule.evaluated"]
    assert len(extracted) == len(set(extracted)) == len(first["claims"])
    # The one verdict lost in the crash is reached again; no other is repeated.
    assert sorted(reached) == sorted([c["id"] for c in first["claims"]] + [first["claims"][-1]["id"]])
    assert len(rules) == 8 * (len(first["claims"]) + 1)
