"""Verdicts on hand-labelled decks: ``python -m benchmarks.devdecks [NAME ...]``.

Runs ``tickmark verify DECK --room ROOM --json`` for every label file in tests/fixtures/decks and
the three dev gold decks in ../shared/data/gold, each against a room built in a temporary folder
from the label's ``room`` list (one temporary TICKMARK_HOME, removed after). A labelled claim is
matched to an extracted claim on the same page that carries the same number, one to one, the
closest text first. Prints JSON: per deck the claims found against labelled, accuracy, the
confusion matrix (label -> verdict), false supported, false contradicted, non-claims that leaked
into claims, extracted claims nobody labelled, and each miss with the verifier's reason.

``--whole-room`` verifies every deck against one room of every filing in ../shared/data instead:
a deck's verdicts should not change because the room also holds other companies and other
periods (a label of no-evidence for a period no document covered may then rightly be settled).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("TICKMARK_DEV_DATA") or REPO.parent / "shared" / "data")
FIXTURES = REPO / "tests" / "fixtures" / "decks"
TICKMARK = REPO / ".venv" / "bin" / "tickmark"
NUM = re.compile(r"\d[\d,]*\.?\d*")


def numbers(s: object) -> set[str]:
    return {m.group(0).replace(",", "").rstrip(".") for m in NUM.finditer(str(s or ""))}


def label_number(c: dict) -> str:
    found = numbers(c.get("value")) or numbers(c.get("text"))
    return max(found, key=len) if found else ""


def _flat(s: object) -> str:
    return " ".join(str(s or "").split()).lower()


def match(labels: list[dict], extracted: list[dict]) -> dict[str, int]:
    """Label id -> index of the extracted claim it is matched to; each extracted claim is used once.

    Candidates share the label's page and number; among them the one whose text equals the
    label's, then one whose text contains it or is contained in it, then the first in deck order."""
    used: set[int] = set()
    out: dict[str, int] = {}
    for lc in labels:
        want, text = label_number(lc), _flat(lc["text"])
        if not want:
            continue
        cands = [i for i, sc in enumerate(extracted) if i not in used and int(sc.get("page", -1)) == int(lc["page"])
                 and (want in numbers(sc.get("value")) or want in numbers(sc.get("text")))]
        if not cands:
            continue
        rank = [0 if _flat(extracted[i].get("text")) == text else
                1 if text in _flat(extracted[i].get("text")) or _flat(extracted[i].get("text")) in text else 2 for i in cands]
        best = cands[rank.index(min(rank))]
        used.add(best)
        out[lc["id"]] = best
    return out


def leaked(non_claims: list[dict], extracted: list[dict], matched: set[int]) -> list[dict]:
    """Non-claims that an unmatched extracted claim on the same page reproduces."""
    out = []
    for nc in non_claims:
        key = _flat(nc["text"])[:40]
        for i, sc in enumerate(extracted):
            got = _flat(sc.get("text"))
            if i in matched or int(sc.get("page", -1)) != int(nc["page"]) or not got or not key:
                continue
            if key in got or (got in _flat(nc["text"]) and numbers(got)):
                out.append({"page": nc["page"], "text": nc["text"][:80], "as_claim": str(sc.get("text"))[:80],
                            "verdict": sc.get("verdict")})
                break
    return out


def resolved(sc: dict) -> dict:
    keep = ("entity", "metric", "period", "basis", "unit", "label")
    return {k: sc[k] for k in keep if sc.get(k) not in (None, "", [], {})}


def score(label: dict, result: dict) -> dict:
    extracted = result.get("claims", [])
    pairs = match(label["claims"], extracted)
    confusion: dict[str, dict[str, int]] = {}
    misses, correct, false_supported, false_contradicted = [], 0, 0, 0
    for lc in label["claims"]:
        sc = extracted[pairs[lc["id"]]] if lc["id"] in pairs else None
        got = sc.get("verdict", "pending") if sc else "unmatched"
        confusion.setdefault(lc["verdict"], {}).setdefault(got, 0)
        confusion[lc["verdict"]][got] += 1
        if got == lc["verdict"]:
            correct += 1
            continue
        false_supported += got == "supported"
        false_contradicted += got == "contradicted"
        miss = {"id": lc["id"], "page": lc["page"], "text": lc["text"][:70], "want": lc["verdict"], "got": got}
        if sc:
            miss["reason"] = str(sc.get("reason") or "")[:240]
            miss["resolved"] = resolved(sc)
        misses.append(miss)
    leaks = leaked(label.get("non_claims", []), extracted, set(pairs.values()))
    n = len(label["claims"])
    return {"labelled": n, "found": len(pairs), "extracted": len(extracted), "correct": correct,
            "accuracy": round(correct / n, 3) if n else None, "false_supported": false_supported,
            "false_contradicted": false_contradicted, "confusion": confusion,
            "non_claims": len(label.get("non_claims", [])), "non_claims_leaked": len(leaks),
            "unlabelled_extracted": len(extracted) - len(pairs) - len(leaks),
            "leaks": leaks, "misses": misses}


def label_files(names: list[str]) -> list[Path]:
    files = sorted(FIXTURES.glob("*.json")) + sorted((DATA / "gold").glob("*.json"))
    return [f for f in files if not names or f.stem in names]


def deck_for(label_file: Path, deck: str) -> Path:
    local = label_file.parent / deck
    return local if local.exists() else DATA / deck


def every_filing(data: Path = DATA) -> list[str]:
    """Every filing under ``data`` (10-K/10-Q HTML and XBRL, PDF filings, releases), as room paths."""
    return [p.relative_to(data).as_posix() for sub in ("filings", "filings_pdf", "press_releases")
            for p in sorted((data / sub).rglob("*")) if p.is_file()]


def run_deck(label_file: Path, work: Path, env: dict, timeout: int, whole_room: bool = False) -> tuple[dict, float]:
    label = json.loads(label_file.read_text())
    room = work / "rooms" / ("whole-room" if whole_room else label["name"])
    for rel in every_filing() if whole_room else label["room"]:
        dst = room / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(DATA / rel, dst)
    started = time.perf_counter()
    cmd = [str(TICKMARK), "verify", str(deck_for(label_file, label["deck"])), "--room", str(room), "--json"]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env, cwd=work)
    seconds = time.perf_counter() - started
    if out.returncode != 0 and not out.stdout.strip():
        return {"error": f"exit {out.returncode}: {out.stderr.strip()[-400:]}"}, seconds
    return json.loads(out.stdout), seconds


def _add(total: dict, part: dict) -> None:
    for k in ("labelled", "found", "extracted", "correct", "false_supported", "false_contradicted",
              "non_claims", "non_claims_leaked", "unlabelled_extracted"):
        total[k] = total.get(k, 0) + part.get(k, 0)
    for want, row in part.get("confusion", {}).items():
        for got, n in row.items():
            total.setdefault("confusion", {}).setdefault(want, {}).setdefault(got, 0)
            total["confusion"][want][got] += n


def group_of(label_file: Path) -> str:
    if label_file.parent != FIXTURES:
        return "dev_gold"
    return "estc_real" if label_file.stem.startswith("estc-") else "new_dev_decks"


def main(argv: list[str]) -> int:
    timeout = int(os.environ.get("DEVDECKS_TIMEOUT", "900"))
    whole_room = "--whole-room" in argv
    argv = [a for a in argv if a != "--whole-room"]
    files = label_files(argv)
    if not files:
        print(json.dumps({"error": f"no label files match {argv}"}))
        return 1
    work = Path(tempfile.mkdtemp(prefix="tm-devdecks-"))
    env = {**os.environ, "TICKMARK_HOME": str(work / "home"), "TICKMARK_ROOMS": str(work / "rooms")}
    env.pop("DATABASE_URL", None)
    report: dict = {"room": "every filing" if whole_room else "each label's room", "decks": {}, "totals": {}}
    try:
        for f in files:
            label = json.loads(f.read_text())
            try:
                result, seconds = run_deck(f, work, env, timeout, whole_room)
            except subprocess.TimeoutExpired:
                result, seconds = {"error": f"timed out after {timeout}s"}, float(timeout)
            part = score(label, result) if "error" not in result else {"labelled": len(label["claims"]), "error": result["error"]}
            part["seconds"] = round(seconds, 1)
            part["layout"] = label.get("layout", "dev gold deck")
            report["decks"][label["name"]] = part
            for group in (group_of(f), "all"):
                _add(report["totals"].setdefault(group, {}), part)
            print(f"{label['name']}: {part.get('correct', 0)}/{part['labelled']} in {seconds:.0f}s", file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for t in report["totals"].values():
        t["accuracy"] = round(t["correct"] / t["labelled"], 3) if t.get("labelled") else None
    print(json.dumps(report, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
