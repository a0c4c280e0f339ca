"""Evaluation on the dev set, not a behaviour test: accuracy on the gold development decks in
../shared/data/gold, through the whole pipeline: real filings parsed into the fact store, the
deck's claims extracted, the rules applied."""

from __future__ import annotations

import json
import shutil
import uuid
from collections import Counter
from collections.abc import AsyncIterator

import pytest

from services.bootstrap import Core, open_core
from services.rooms import ingest_room
from services.settings import load_settings
from tests.conftest import shared_data

pytestmark = pytest.mark.slow


def _numbers(text: str) -> set[str]:
    import re

    return {m.replace(",", "").rstrip(".") for m in re.findall(r"\d[\d,]*\.?\d*", text or "")}


def _matches(gold: dict, claim: dict) -> bool:
    """score_gold.py's rule: same page, and the gold number appears in the claim's value or text."""
    if claim["page"] != gold["page"]:
        return False
    numbers = _numbers(str(gold.get("value", ""))) or _numbers(gold["text"])
    g = sorted(numbers, key=len)[-1] if numbers else ""
    return bool(g) and (g in _numbers(str(claim.get("value", ""))) or g in _numbers(claim["text"]))


@pytest.fixture(scope="module")
async def core(pg_dsn: str, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Core]:
    settings = load_settings({"TICKMARK_HOME": str(tmp_path_factory.mktemp("gold-home"))})
    async with open_core(settings, dsn=pg_dsn) as c:
        yield c


@pytest.fixture(scope="module")
async def outcomes(core: Core, tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, dict, str]]:
    data = shared_data()
    results = []
    for gold_file in sorted((data / "gold").glob("*.json")):
        gold = json.loads(gold_file.read_text())
        room_dir = tmp_path_factory.mktemp(gold["name"])
        for rel in gold["room"]:
            (room_dir / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(data / rel, room_dir / rel)
        room = f"gold-{gold['name']}-{uuid.uuid4().hex[:6]}"
        await ingest_room(core.documents, room, room_dir)
        run_id = await core.verifier.start_run(room, gold["deck"], trigger="cli")
        result = await core.verifier.run(run_id, room, gold["deck"], (data / "gold" / gold["deck"]).read_bytes())
        for g in gold["claims"]:
            found = [c for c in result["claims"] if _matches(g, c)]
            results.append((f"{gold['name']}:{g['id']}", g, found[0]["verdict"] if found else "unmatched"))
    return results


def test_no_claim_that_is_not_supported_is_marked_supported(outcomes):
    false_supported = [key for key, g, got in outcomes if got == "supported" and g["verdict"] != "supported"]
    assert false_supported == []


def test_verdict_accuracy_is_at_least_ninety_percent(outcomes):
    correct = sum(1 for _, g, got in outcomes if got == g["verdict"])
    confusion = Counter((g["verdict"], got) for _, g, got in outcomes)
    misses = [f"{key} want {g['verdict']} got {got}" for key, g, got in outcomes if got != g["verdict"]]
    assert correct / len(outcomes) >= 0.90, f"{correct}/{len(outcomes)}; {dict(confusion)}; misses: {misses}"


def test_every_gold_claim_is_found(outcomes):
    assert [key for key, _, got in outcomes if got == "unmatched"] == []
