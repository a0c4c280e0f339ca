"""A seeded slice of DealRoom-Exact: two decks generated, verified and scored, end to end.

These assert the benchmark's own properties (labels recomputed from the independent facts, strata
and JSON keys present, the scorer's counts adding up), never the verifier's accuracy.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from benchmarks.dealroom.facts import load_filings
from benchmarks.dealroom.generate import TRAPS
from benchmarks.dealroom.model import VERDICTS, LabelledClaim
from benchmarks.dealroom.score import _match, upper_bound
from tests.conftest import shared_data

pytest.importorskip("arelle", reason="the bench extra (arelle-release) is not installed")

KEYS = ("decks", "claims", "accuracy", "false_supported", "false_contradicted", "false_supported_upper_bound",
        "strata", "errors", "confusion", "claim_recall", "non_claims_leaked", "differential", "dropped")
DIFF_KEYS = ("facts", "agree", "agreement", "disagreement_kinds", "files", "parse_failures", "primary_disagreements")


@pytest.fixture(scope="module")
def slice_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], dict[str, Any], Path]:
    from benchmarks.dealroom.__main__ import run

    data = shared_data()
    out = tmp_path_factory.mktemp("dealroom")
    report = run(["--seed", "3", "--decks", "2", "--out", str(out / "out"), "--cache", str(out / "cache"),
                  "--data", str(data), "--differential", "none"])
    labels = json.loads((out / "out" / "labels.json").read_text())
    return report, labels, out


def _evidence_values(claim: dict[str, Any]) -> list[Decimal]:
    return [Decimal(ref.rsplit("=", 1)[1]) for ref in claim["evidence"]]


@pytest.mark.slow
def test_report_has_the_keys_other_tools_read(slice_run: tuple[dict[str, Any], dict[str, Any], Path]) -> None:
    report, labels, _ = slice_run
    assert all(k in report for k in KEYS)
    assert report["decks"] == 2 and report["claims"] == len(labels["claims"]) > 0
    assert 0.0 <= report["accuracy"] <= 1.0


@pytest.mark.slow
def test_every_label_is_recomputed_from_the_independent_facts(slice_run) -> None:  # type: ignore[no-untyped-def]
    report, labels, out = slice_run
    cached = load_filings(shared_data(), out / "cache", [shared_data() / p for d in labels["decks"] for p in d["room"]])
    stated = {f"{f.path}#{x.concept}@{x.start or ''}..{x.end}[{','.join(f'{a}={m}' for a, m in x.dims)}]={x.value}"
              for f in cached for x in f.facts}
    for c in labels["claims"]:
        assert all(ref in stated for ref in c["evidence"]), c["id"]
        claimed, tol = Decimal(c["claimed"]), Decimal(c["tolerance"])
        if c["expected"] == "no-evidence":
            assert c["evidence"] == [] and c["recomputed"] == ""
            continue
        truth = Decimal(c["recomputed"])
        values = _evidence_values(c)
        kind, metric = c["stratum"]["kind"], c["metric"]
        if kind == "growth":
            assert abs((values[0] / values[1] - 1) * 100 - truth) < Decimal("1e-5")
        elif kind == "share" or (kind == "margin" and not metric.startswith("change:")):
            assert abs(values[0] / values[1] * 100 - truth) < Decimal("1e-5")
        elif kind == "value" and c["expected"] != "different-basis":
            assert truth == values[0]
        if c["expected"] == "supported":
            assert abs(claimed - truth) <= tol, c["id"]
        elif c["expected"] == "contradicted":
            assert abs(claimed - truth) > tol, c["id"]
        else:
            # A segment given as the total: the printed figure is the segment's, not the total's.
            assert abs(claimed - values[0]) <= tol < abs(claimed - truth), c["id"]


@pytest.mark.slow
def test_claims_carry_their_strata_and_the_slice_spans_formats(slice_run) -> None:  # type: ignore[no-untyped-def]
    report, labels, _ = slice_run
    for c in labels["claims"]:
        s = c["stratum"]
        assert s["format"] in ("pdf", "pptx", "md") and s["kind"] in ("value", "growth", "margin", "share")
        assert s["trap"] in ("none", *TRAPS) and s["layout"]
        assert c["expected"] in VERDICTS
    assert len({d["format"] for d in labels["decks"]}) == 2
    for dim, groups in report["strata"].items():
        assert sum(g["claims"] for g in groups.values()) == report["claims"], dim


@pytest.mark.slow
def test_scorer_counts_add_up(slice_run) -> None:  # type: ignore[no-untyped-def]
    report, _, _ = slice_run
    conf = report["confusion"]
    assert sum(sum(row.values()) for row in conf.values()) == report["claims"]
    assert sum(conf[v][v] for v in VERDICTS) == report["correct"] == report["claims"] - len(report["errors"])
    assert report["false_supported"] == sum(conf[v]["supported"] for v in VERDICTS if v != "supported")
    assert report["false_contradicted"] == sum(conf[v]["contradicted"] for v in VERDICTS if v != "contradicted")
    assert report["false_supported_upper_bound"] == round(upper_bound(report["false_supported"],
                                                                      report["supported_verdicts"]), 4)
    assert 0.0 <= report["claim_recall"] <= 1.0


@pytest.mark.slow
def test_differential_compares_every_independent_fact_with_tickmark_parse(slice_run) -> None:  # type: ignore[no-untyped-def]
    from benchmarks.dealroom.differential import differential

    _, labels, out = slice_run
    # The smallest room filing keeps this to one parse; its facts are already in the slice's cache.
    path = min({p for d in labels["decks"] for p in d["room"]}, key=lambda p: (shared_data() / p).stat().st_size)
    filing = load_filings(shared_data(), out / "cache", [shared_data() / path])[0]
    diff = differential([filing], shared_data())
    assert all(k in diff for k in DIFF_KEYS) and diff["parse_failures"] == {}
    assert diff["facts"] == len(filing.facts) > 0
    assert diff["agreement"] == round(diff["agree"] / diff["facts"], 4)
    assert sum(diff["disagreement_kinds"].values()) >= diff["facts"] - diff["agree"]
    for row in diff["primary_disagreements"]:
        assert row["problems"] and row["file"] == path


@pytest.mark.slow
def test_decks_and_rooms_are_written_and_the_database_is_gone(slice_run) -> None:  # type: ignore[no-untyped-def]
    report, labels, out = slice_run
    for d in labels["decks"]:
        assert (out / "out" / "decks" / d["name"]).stat().st_size > 0
        room = out / "out" / "rooms" / Path(d["name"]).stem
        assert sorted(str(p.relative_to(room)) for p in room.rglob("*") if p.is_file()) == sorted(d["room"])
    assert not list((out / "out").rglob("pgdata"))
    assert report["verifier"]["failures"] == {}


def test_upper_bound_is_the_zero_error_rule_and_clopper_pearson_above_it() -> None:
    assert upper_bound(0, 100) == pytest.approx(1 - 0.05 ** (1 / 100))
    assert upper_bound(1, 100) == pytest.approx(0.0466, abs=2e-4)
    assert upper_bound(0, 0) == 1.0


def _claim(cid: str, page: int, number: str, text: str) -> LabelledClaim:
    from benchmarks.dealroom.model import Stratum

    return LabelledClaim(id=cid, deck="d", page=page, text=text, printed="", number=number, expected="supported",
                         why="", entity="X", metric="revenue", period="FY2024",
                         stratum=Stratum("pdf", "bullets", "value", "none"), claimed="0", recomputed="0", tolerance="0")


def test_matching_is_by_page_and_printed_number_one_to_one_and_sees_through_footnote_marks() -> None:
    claims = [_claim("a", 2, "130.5", "Revenue $130.5B¹"), _claim("b", 2, "72.9", "Net income $72.9B"),
              _claim("c", 3, "130.5", "Revenue $130.5B")]
    given = [{"page": 2, "printed": "$130.5B1", "text": ""}, {"page": 2, "printed": "$72.9B", "text": ""},
             {"page": 2, "printed": "$130.5B", "text": "again"}]
    matched = _match(claims, given)
    assert matched["a"] is given[0] and matched["b"] is given[1]
    assert "c" not in matched
