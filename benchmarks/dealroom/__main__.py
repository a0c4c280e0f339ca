"""``python -m benchmarks.dealroom [--seed N] [--decks K] [--out DIR]``: generate, verify, score; print JSON.

Writes the decks, their rooms (copies of the filings plus distractors) and the labels under
``--out`` (a temporary folder, removed afterwards, when not given); the verifier's embedded
database lives in a temporary folder of its own (outside ``--out``: the server runs as another
user, and pytest makes its own temp root private) and is removed after the run. The independent facts are cached by sha256 under
``--cache`` so a second run does not read the filings again.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import msgspec

from benchmarks.dealroom.differential import differential
from benchmarks.dealroom.facts import Filing, inline_filings, load_filings
from benchmarks.dealroom.generate import TRAPS, generate
from benchmarks.dealroom.score import score, verify_decks
from benchmarks.dealroom.writers import write_deck

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"


def _args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m benchmarks.dealroom", description=__doc__.splitlines()[0])
    p.add_argument("--seed", type=int, default=12)
    p.add_argument("--decks", type=int, default=14)
    p.add_argument("--out", type=Path, default=None, help="keep decks, rooms, labels and report.json here")
    p.add_argument("--data", type=Path, default=DATA)
    p.add_argument("--cache", type=Path, default=None, help="independent facts cache (default: OUT/cache, "
                                                                "or the system temp folder)")
    p.add_argument("--differential", choices=("all", "rooms", "none"), default="all",
                   help="filings to compare with tickmark parse: every inline filing, those in the rooms, or none")
    p.add_argument("--verifier", choices=("auto", "in-process", "cli", "none"), default="auto")
    return p.parse_args(argv)


def run(argv: list[str] | None = None) -> dict[str, Any]:
    args = _args(argv)
    if not (args.data / "filings").is_dir():
        sys.exit(f"benchmarks.dealroom needs {args.data / 'filings'}")
    started = time.perf_counter()
    out = args.out or Path(tempfile.mkdtemp(prefix="tickmark-dealroom-"))
    cache = args.cache or (out / "cache" if args.out else Path(tempfile.gettempdir()) / "tickmark-dealroom-cache")
    out.mkdir(parents=True, exist_ok=True)
    home = Path(tempfile.mkdtemp(prefix="tickmark-dealroom-home-"))
    try:
        return _run(args, out, cache, home, started)
    finally:
        shutil.rmtree(home, ignore_errors=True)
        if args.out is None:
            shutil.rmtree(out, ignore_errors=True)


def _run(args: argparse.Namespace, out: Path, cache: Path, home: Path, started: float) -> dict[str, Any]:
    files = inline_filings(args.data)
    read: dict[str, Filing] = {}

    def load(ticker: str) -> list[Filing]:
        got = load_filings(args.data, cache, files.get(ticker, []))
        read.update((f.path, f) for f in got)
        return got

    gen = generate(sorted(files), load, lambda rel: (args.data / rel).read_bytes(), seed=args.seed, decks=args.decks)
    generated_s = time.perf_counter() - started
    jobs = []
    for deck in gen.decks:
        room = out / "rooms" / Path(deck.name).stem
        shutil.rmtree(room, ignore_errors=True)
        for rel in deck.room:
            dst = room / rel
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(args.data / rel, dst)
        path = out / "decks" / deck.name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(write_deck(deck))
        jobs.append((deck.name, path, room))
    (out / "labels.json").write_bytes(msgspec.json.encode({"claims": gen.claims, "non_claims": gen.non_claims,
                                                            "decks": gen.decks}))
    verify_started = time.perf_counter()
    if args.verifier == "none":
        results, path_used = {}, "none"
    else:
        results, path_used = verify_decks(jobs, home, mode=args.verifier)
    verify_s = time.perf_counter() - verify_started
    scored = score(gen.claims, gen.non_claims, results)
    if args.differential == "none":
        diff: dict[str, Any] = {"skipped": True}
    else:
        targets = sorted({rel for d in gen.decks for rel in d.room}) if args.differential == "rooms" else \
            [str(p.relative_to(args.data)) for ps in files.values() for p in ps]
        for rel in targets:
            if rel not in read:
                read.update((f.path, f) for f in load_filings(args.data, cache, [args.data / rel]))
        diff = differential([read[r] for r in targets], args.data)
    claims_by_deck = Counter(c.deck for c in gen.claims)
    trap_counts = Counter(c.stratum.trap for c in gen.claims)
    report: dict[str, Any] = {
        "benchmark": "dealroom",
        "seed": args.seed,
        "decks": len(gen.decks),
        "claims": len(gen.claims),
        "companies": sorted({t for d in gen.decks for t in d.companies}),
        "formats": dict(Counter(d.format for d in gen.decks)),
        "labels": dict(Counter(c.expected for c in gen.claims)),
        "traps": {t: trap_counts.get(t, 0) for t in ("none", *TRAPS)},
        **{k: scored[k] for k in ("accuracy", "correct", "false_supported", "false_contradicted", "supported_verdicts",
                                  "false_supported_upper_bound", "claim_recall", "non_claims", "non_claims_leaked",
                                  "verifier_claims_unlabelled", "verdicts_given", "confusion", "strata")},
        "worst_strata": _worst(scored["strata"], scored["errors"]),
        "dropped": gen.dropped,
        "differential": diff,
        "verifier": {"path": path_used, "seconds": round(verify_s, 1),
                     "failures": {n: r["error"] for n, r in results.items() if r.get("error")},
                     "per_deck": {n: {"claims_labelled": claims_by_deck[n], "claims_given": len(r.get("claims", [])),
                                      "seconds": r.get("seconds")} for n, r in results.items()}},
        "deck_list": [{"name": d.name, "format": d.format, "companies": d.companies, "room": d.room,
                       "slides": len(d.slides), "claims": claims_by_deck[d.name]} for d in gen.decks],
        "seconds": {"generate": round(generated_s, 1), "verify": round(verify_s, 1),
                    "total": round(time.perf_counter() - started, 1)},
        "leaked": scored["leaked"],
        "errors": scored["errors"],
        "out": str(out) if args.out else None,
    }
    (out / "report.json").write_text(json.dumps(report, indent=1))
    return report


_ENTITY = re.compile(r"\b[A-Z][\w&.,']*(?:\s+(?:&\s+)?[A-Z][\w&.,']*)+")


def _worst(strata: dict[str, dict[str, Any]], errors: list[dict[str, Any]], n: int = 3) -> list[dict[str, Any]]:
    """The ``n`` least accurate strata (one per trap or layout pair that names the same claims), each
    with the verifier's commonest reasons for its misses, figures masked so that like reasons group."""
    dims = ("format", "layout", "kind", "trap")
    rows = [{"stratum": f"{dim}={k}", **v} for dim, groups in strata.items() for k, v in groups.items()
            if v["claims"] >= 10 and v["accuracy"] is not None]
    out: list[dict[str, Any]] = []
    seen: set[tuple] = set()
    for row in sorted(rows, key=lambda r: (r["accuracy"], -r["claims"])):
        dim, value = row["stratum"].split("=", 1)
        misses = [e for e in errors if e["stratum"][dims.index(dim)] == value]
        ids = tuple(sorted(e["id"] for e in misses))
        if ids in seen:
            continue
        seen.add(ids)
        reasons = Counter(_ENTITY.sub("<entity>", re.sub(r"\d[\d,.]*", "#", e["reason"] or ""))[:80] for e in misses)
        out.append({**row, "top_reasons": [{"count": c, "reason": r} for r, c in reasons.most_common(3)]})
        if len(out) == n:
            break
    return out


if __name__ == "__main__":
    print(json.dumps(run(), indent=1))
