"""Speed at data-room scale, through a real ``tickmark serve``; prints one JSON object.

- drop: the gold decks (49 claims, merged into one PDF) verified against an empty watched room,
  then N real filings from ``../shared/data`` copied in at once (N = 1, 10, all): first and last
  ``verdict.changed`` as a signed webhook and as an SSE event, measured from the moment the copy
  is in place;
- verify: the same deck uploaded cold (first time) and warm (again) against the room of 10 and the
  room of every filing, from POST to ``run.finished`` on the run's SSE stream;
- ingest: every filing through 1 and 2 ``tickmark worker`` processes (one job slot each) on their
  own database, documents per second, and whether anything was parsed twice.

Each figure is a median over ``BENCH_REPEATS`` runs (3; ``BENCH_REPEATS_ALL`` for the all-filings
drop, 1), and each series carries each figure's ratio to the one before it. The parse cache is
emptied before every drop, so each drop parses for real. Uses ``DATABASE_URL`` when set, else an
embedded PostgreSQL in a temporary directory. ``cpu_steal_share`` says how much CPU a virtual
machine's host took back during the run: figures from a run with a high share are not comparable.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import time
import uuid
from datetime import datetime
from pathlib import Path
from typing import Any

import asyncpg
import httpx

from benchmarks._serve import REPO, serving, wait_until
from benchmarks.devdecks import every_filing as filings_under
from benchmarks.e2e import _Receiver

__all__ = ["main"]

DATA = REPO.parent / "shared" / "data"
GOLD = ("dev-apple-netflix", "dev-tesla-meta-amazon", "dev-elastic-pepsico-bestbuy")
ONE = "filings/AAPL/aapl-10-K-FY2024_2024-11-01.html"


def every_filing() -> list[str]:
    return filings_under(DATA)


def gold_room() -> list[str]:
    """The documents the gold decks were labelled against, in the order the decks list them."""
    out: list[str] = []
    for name in GOLD:
        for rel in json.loads((DATA / "gold" / f"{name}.json").read_text())["room"]:
            if rel not in out:
                out.append(rel)
    return out


def gold_deck() -> bytes:
    """The three gold decks as one PDF: 19 slides, 49 labelled claims about eight companies."""
    import pymupdf

    out = pymupdf.open()
    for name in GOLD:
        with pymupdf.open(DATA / "gold" / f"{name}.pdf") as part:
            out.insert_pdf(part)
    try:
        return out.tobytes()
    finally:
        out.close()


def _median(values: list[float]) -> float | None:
    return round(statistics.median(values), 1) if values else None


def _ratios(series: dict[str, float | None]) -> dict[str, float | None]:
    """Each figure over the one before it (the first has none)."""
    out: dict[str, float | None] = {}
    prev: float | None = None
    for key, value in series.items():
        out[key] = round(value / prev, 2) if value is not None and prev else None
        prev = value
    return out


async def _room_stream(client: httpx.AsyncClient, room: str, after: int, seen: list[tuple[str, float]],
                       opened: asyncio.Event) -> None:
    async with client.stream("GET", f"/api/rooms/{room}/events", params={"after": after}, timeout=None) as resp:
        opened.set()
        kind = None
        async for line in resp.aiter_lines():
            if line.startswith("event: "):
                kind = line[7:]
            elif line == "" and kind is not None:
                seen.append((kind, time.time()))
                kind = None


async def _quiet(db: asyncpg.Connection, room: str, documents: int) -> bool:
    """Every dropped file parsed (or failed), no run, job or delivery left to do."""
    done = await db.fetchval("SELECT count(*) FROM document WHERE room = $1 AND kind = 'filing' "
                             "AND superseded_by IS NULL AND status IN ('parsed', 'failed')", room)
    if done < documents:
        return False
    busy = await db.fetchval(
        "SELECT (SELECT count(*) FROM run WHERE room = $1 AND status IN ('queued', 'running'))"
        " + (SELECT count(*) FROM pgqueuer)"
        " + (SELECT count(*) FROM delivery WHERE room = $1 AND status = 'pending')", room)
    return busy == 0


async def _verify(client: httpx.AsyncClient, room: str, deck: bytes) -> tuple[float, dict[str, Any]]:
    """Upload the deck and wait for its ``run.finished`` on the run's stream: milliseconds, result."""
    started = time.perf_counter()
    accepted = (await client.post(f"/api/rooms/{room}/decks",
                                  files={"file": ("gold-deck.pdf", deck, "application/pdf")})).json()
    async with client.stream("GET", accepted["events_url"], timeout=None) as resp:
        async for line in resp.aiter_lines():
            if line == "event: run.finished":
                break
    elapsed = (time.perf_counter() - started) * 1000
    return elapsed, (await client.get(f"/api/runs/{accepted['run_id']}")).json()


def _copy_in(files: list[str], room_dir: Path) -> None:
    """Every file written under a hidden name first, then all renamed in at once: one drop."""
    staged = []
    for rel in files:
        dest = room_dir / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        tmp = dest.parent / f".{dest.name}.tmp"
        shutil.copyfile(DATA / rel, tmp)
        staged.append((tmp, dest))
    for tmp, dest in staged:
        tmp.replace(dest)


def _cpu_seconds(serve_pid: int) -> dict[str, float]:
    """CPU seconds used so far by serve itself, its parser processes, PostgreSQL's processes and
    this benchmark: where a drop's two cores went (a process that exited meanwhile is not counted)."""
    import psutil

    out = {"service": 0.0, "parsers": 0.0, "postgres": 0.0, "benchmark": 0.0}
    try:
        serve = psutil.Process(serve_pid)
        parts = [("service", serve), *(("parsers", c) for c in serve.children(recursive=True))]
    except psutil.Error:
        parts = []
    parts.append(("benchmark", psutil.Process()))
    parts += [("postgres", p) for p in psutil.process_iter(["name"]) if p.info["name"] == "postgres"]
    for kind, proc in parts:
        with contextlib.suppress(psutil.Error):
            t = proc.cpu_times()
            out[kind] += t.user + t.system
    return out


async def _drop(client: httpx.AsyncClient, db: asyncpg.Connection, rooms: Path, receiver: _Receiver,
                deck: bytes, files: list[str], label: str, serve_pid: int) -> dict[str, Any]:
    room = f"drop-{label}-{uuid.uuid4().hex[:6]}"
    (rooms / room).mkdir()
    await wait_until(lambda: _has_room(client, room), 30, "the watcher to see the room")
    _, first = await _verify(client, room, deck)
    await client.post(f"/api/rooms/{room}/webhooks", json={"url": receiver.url, "format": "json", "secret": "b"})
    head = int(await db.fetchval("SELECT coalesce(max(id), 0) FROM event"))
    seen: list[tuple[str, float]] = []
    opened = asyncio.Event()
    stream = asyncio.create_task(_room_stream(client, room, head, seen, opened))
    await asyncio.wait_for(opened.wait(), 30)
    await db.execute("DELETE FROM parse_cache")
    before = len(receiver.received)
    cpu_before = _cpu_seconds(serve_pid)
    _copy_in(files, rooms / room)
    dropped = time.time()
    # Polled slowly: the timings come from the webhook and SSE arrivals, and a fast poll of the
    # database would take CPU from the drop it measures on a 2-core machine.
    await wait_until(lambda: _quiet(db, room, len(files)), 600, f"the {label} drop to settle", interval=0.5)
    # Quiet once may be the moment between a file's facts.updated and the dispatcher queueing its
    # re-verification: the room is settled when it is still quiet a second later.
    await asyncio.sleep(1.0)
    await wait_until(lambda: _quiet(db, room, len(files)), 600, f"the {label} drop to settle", interval=0.5)
    cpu = {k: round(v - cpu_before[k], 2) for k, v in _cpu_seconds(serve_pid).items()}
    await asyncio.sleep(0.5)
    stream.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await stream
    hooks = [t for t, headers, body in receiver.received[before:]
             if headers.get("X-Tickmark-Event") == "verdict.changed" and json.loads(body).get("room") == room]
    sse = [t for kind, t in seen if kind == "verdict.changed"]
    parsed = [t for kind, t in seen if kind == "document.parsed"]
    flips = await db.fetchval("SELECT count(*) FROM verdict_change WHERE room = $1", room)
    ms = lambda t: round((t - dropped) * 1000)  # noqa: E731
    # Where the time to the first flip went, from the log's own timestamps (same clock).
    firsts = {r["type"]: r for r in await db.fetch(
        "SELECT DISTINCT ON (type) type, created_at, body FROM event WHERE room = $1 AND id > $2 "
        "AND type IN ('document.changed', 'document.parsed', 'facts.updated', 'deck.submitted', "
        "'verdict.changed') ORDER BY type, id", room, head)}
    stages = {f"first_{k.replace('.', '_')}_ms": ms(r["created_at"].timestamp()) for k, r in firsts.items()}
    if "document.parsed" in firsts:
        stages["first_parse_elapsed_ms"] = json.loads(firsts["document.parsed"]["body"]).get("elapsed_ms")
    return {
        "room": room,
        "claims": len(first.get("claims", [])),
        "flips": int(flips),
        "webhooks": len(hooks),
        "first_webhook_ms": ms(min(hooks)) if hooks else None,
        "last_webhook_ms": ms(max(hooks)) if hooks else None,
        "first_sse_ms": ms(min(sse)) if sse else None,
        "last_sse_ms": ms(max(sse)) if sse else None,
        "first_parsed_ms": ms(min(parsed)) if parsed else None,
        "last_parsed_ms": ms(max(parsed)) if parsed else None,
        "stages": stages,
        "cpu_s": cpu,
    }


async def _has_room(client: httpx.AsyncClient, room: str) -> bool:
    resp = await client.get("/api/rooms")
    return resp.status_code == 200 and any(r["name"] == room for r in resp.json())


def _summarise_drops(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    keys = ("first_webhook_ms", "last_webhook_ms", "first_sse_ms", "last_sse_ms", "first_parsed_ms",
            "last_parsed_ms")
    out: dict[str, Any] = {"rounds": len(rounds), "flips": [r["flips"] for r in rounds],
                           "webhooks": [r["webhooks"] for r in rounds]}
    for k in sorted({k for r in rounds for k in r["stages"]}):
        out.setdefault("stages_median", {})[k] = _median([r["stages"][k] for r in rounds if r["stages"].get(k)
                                                          is not None])
    for k in sorted({k for r in rounds for k in r["cpu_s"]}):
        out.setdefault("cpu_s_median", {})[k] = _median([r["cpu_s"][k] for r in rounds])
    for k in keys:
        out[k] = _median([r[k] for r in rounds if r[k] is not None])
        out[f"{k}_each"] = [r[k] for r in rounds]
    return out


async def _ingest(admin_dsn: str, work: Path, files: list[str], workers: int) -> dict[str, Any]:
    """Every filing queued at once on a fresh database, taken by ``workers`` worker processes."""
    from services.bootstrap import open_core
    from services.database import _with_database
    from services.settings import load_settings

    name = f"tm_ingest_{uuid.uuid4().hex[:8]}"
    admin = await asyncpg.connect(admin_dsn)
    await admin.execute(f'CREATE DATABASE "{name}"')
    await admin.close()
    dsn = _with_database(admin_dsn, name)
    home = work / name
    procs: list[subprocess.Popen[bytes]] = []
    try:
        settings = load_settings({"TICKMARK_HOME": str(home / "submit"), "DATABASE_URL": dsn})
        async with open_core(settings, dsn=dsn) as core:
            for i in range(workers):
                env = {**os.environ, "DATABASE_URL": dsn, "TICKMARK_HOME": str(home / f"w{i}"),
                       "TICKMARK_ROOMS": str(home / "rooms")}
                log = (home / f"worker{i}.log").open("w")
                procs.append(subprocess.Popen([sys.executable, "-m", "services.cli", "worker", "--concurrency", "1"],
                                              cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT,
                                              start_new_session=True))
            for i in range(workers):
                await wait_until(lambda i=i: _logged(home / f"worker{i}.log", "taking"), 60, "a worker to start")
            blobs = [(rel, (DATA / rel).read_bytes()) for rel in files]
            cpu_before = _worker_cpu_seconds(procs)
            started = time.perf_counter()
            for rel, data in blobs:
                await core.pipeline.submit_filing("ingest", rel, data)
            async with core.pool.acquire() as db:
                async def done() -> bool:
                    n = await db.fetchval("SELECT count(*) FROM document WHERE room = 'ingest' "
                                          "AND status IN ('parsed', 'failed')")
                    return n >= len(files)

                await wait_until(done, 900, "ingest")
                elapsed = time.perf_counter() - started
                cpu = {k: round(v - cpu_before[k], 1) for k, v in _worker_cpu_seconds(procs).items()}
                parses = await db.fetchval("SELECT count(*) FROM event WHERE type IN ('document.parsed', "
                                           "'document.failed') AND room = 'ingest'")
                cached = await db.fetchval("SELECT count(*) FROM parse_cache")
                distinct = await db.fetchval("SELECT count(DISTINCT sha256) FROM document WHERE room = 'ingest'")
        return {"workers": workers, "documents": len(files), "seconds": round(elapsed, 2),
                "docs_per_s": round(len(files) / elapsed, 2), "parse_results": int(parses),
                # CPU seconds by kind and the cores they kept busy on average: one worker already
                # keeps more than one core busy (PostgreSQL stores as it parses), which bounds
                # what a second can add on a two-core machine.
                "cpu_s": cpu, "cores_busy": round(sum(cpu.values()) / elapsed, 2),
                "parsed_once": int(parses) == len(files) and int(cached) <= int(distinct)}
    finally:
        for p in procs:
            p.send_signal(signal.SIGTERM)
        for p in procs:
            try:
                p.wait(30)
            except subprocess.TimeoutExpired:
                p.kill()
        admin = await asyncpg.connect(admin_dsn)
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()
        shutil.rmtree(home, ignore_errors=True)


def _worker_cpu_seconds(procs: list[subprocess.Popen[bytes]]) -> dict[str, float]:
    """CPU seconds used so far by the worker processes, their parser processes and PostgreSQL."""
    import psutil

    out = {"workers": 0.0, "parsers": 0.0, "postgres": 0.0}
    parts: list[tuple[str, Any]] = []
    for p in procs:
        with contextlib.suppress(psutil.Error):
            worker = psutil.Process(p.pid)
            parts += [("workers", worker), *(("parsers", c) for c in worker.children(recursive=True))]
    parts += [("postgres", p) for p in psutil.process_iter(["name"]) if p.info["name"] == "postgres"]
    for kind, proc in parts:
        with contextlib.suppress(psutil.Error):
            t = proc.cpu_times()
            out[kind] += t.user + t.system
    return out


async def _logged(path: Path, needle: str) -> bool:
    return needle in path.read_text(errors="replace") if path.exists() else False


async def _bench(base: str, rooms: Path, dsn: str, work: Path, serve_pid: int, repeats: int, repeats_all: int,
                 parts: set[str]) -> dict[str, Any]:
    deck = gold_deck()
    ten = gold_room()[:10]
    everything = every_filing()
    out: dict[str, Any] = {"filings_all": len(everything), "deck_bytes": len(deck)}
    db = await asyncpg.connect(dsn)
    receiver = _Receiver()
    try:
        async with httpx.AsyncClient(base_url=base, timeout=60) as client:
            drop_rooms: dict[str, str] = {}
            if "drop" in parts:
                drops: dict[str, Any] = {}
                sizes = os.environ.get("BENCH_DROPS", "1,10,all").split(",")
                for label, files, n in (("1", [ONE], repeats), ("10", ten, repeats), ("all", everything, repeats_all)):
                    if label not in sizes:
                        continue
                    rounds = []
                    for _ in range(n):
                        rounds.append(await _drop(client, db, rooms, receiver, deck, files, label, serve_pid))
                        print(f"drop {label}: {json.dumps(rounds[-1])}", file=sys.stderr, flush=True)
                    drop_rooms[label] = rounds[-1]["room"]
                    drops[label] = _summarise_drops(rounds)
                for key in ("first_webhook_ms", "last_webhook_ms", "first_sse_ms", "last_sse_ms"):
                    for label, ratio in _ratios({k: v[key] for k, v in drops.items()}).items():
                        drops[label][f"{key}_ratio_to_previous"] = ratio
                out["drop"] = drops
            if "verify" in parts:
                verify: dict[str, Any] = {}
                for label, files in (("10", ten), ("all", everything)):
                    room = drop_rooms.get(label)
                    if room is None:
                        room = f"verify-{label}-{uuid.uuid4().hex[:6]}"
                        (rooms / room).mkdir()
                        _copy_in(files, rooms / room)
                        await wait_until(lambda r=room, n=len(files): _quiet(db, r, n), 900, "the verify room")
                    cold, result = await _verify(client, room, deck)
                    warm_runs = [await _verify(client, room, deck) for _ in range(max(1, repeats))]
                    warm = [ms for ms, _ in warm_runs]
                    print(f"verify {label}: cold {cold:.0f} ms, warm {warm}", file=sys.stderr, flush=True)
                    verify[label] = {"room": room, "documents": len(files), "claims": len(result.get("claims", [])),
                                     "counts": result.get("counts"), "cold_ms": round(cold),
                                     "warm_ms": _median(warm), "warm_ms_each": [round(w) for w in warm],
                                     # The verifier's own time, without upload, queue and stream.
                                     "warm_run_ms": _median([r.get("result", r).get("elapsed_ms") or 0
                                                             for _, r in warm_runs])}
                for key in ("cold_ms", "warm_ms"):
                    for label, ratio in _ratios({k: v[key] for k, v in verify.items()}).items():
                        verify[label][f"{key}_ratio_to_previous"] = ratio
                out["verify"] = verify
    finally:
        await db.close()
        receiver.server.shutdown()
    if "ingest" in parts:
        ingest = {}
        limit = int(os.environ.get("BENCH_INGEST_LIMIT", "0")) or len(everything)
        for workers in (1, 2):
            ingest[str(workers)] = await _ingest(dsn, work, everything[:limit], workers)
            print(f"ingest {workers}: {json.dumps(ingest[str(workers)])}", file=sys.stderr, flush=True)
        for label, ratio in _ratios({k: v["docs_per_s"] for k, v in ingest.items()}).items():
            ingest[label]["docs_per_s_ratio_to_previous"] = ratio
        out["ingest"] = ingest
    return out


def _cpu_ticks() -> list[int] | None:
    """The machine's CPU time by kind (``/proc/stat``), or None off Linux."""
    try:
        with open("/proc/stat") as f:
            return [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None


def _steal_share(before: list[int] | None, after: list[int] | None) -> float | None:
    """Of the run's CPU time, the share a virtual machine's host took back (steal): a figure measured
    while the host was busy is slower for reasons outside this code."""
    if not before or not after or len(before) < 8:
        return None
    delta = [b - a for a, b in zip(before, after)]
    return round(delta[7] / sum(delta), 3) if sum(delta) else None


def main() -> int:
    if not DATA.is_dir():
        print(json.dumps({"skipped": f"{DATA} is absent"}))
        return 0
    repeats = int(os.environ.get("BENCH_REPEATS", "3"))
    repeats_all = int(os.environ.get("BENCH_REPEATS_ALL", "1"))
    parts = set(os.environ.get("BENCH_PARTS", "drop,verify,ingest").split(","))
    settle = os.environ.get("TICKMARK_SETTLE_SECONDS", "0.1")
    load_before = os.getloadavg()
    ticks_before = _cpu_ticks()
    # The webhook receiver is on loopback, which webhook targets may only be when allowed.
    with serving("tickmark-bench-roomdrop-", TICKMARK_SETTLE_SECONDS=settle,
                 TICKMARK_WEBHOOK_ALLOW_LOOPBACK="1") as served:
        try:
            out = asyncio.run(_bench(served.base, served.rooms, served.dsn, served.work, served.pid, repeats, repeats_all,
                                     parts))
        finally:
            shutil.rmtree(served.rooms, ignore_errors=True)
    out["settle_seconds"] = float(settle)
    out["cpus"] = os.cpu_count()
    out["load_average_before_after"] = [round(x, 2) for x in (*load_before, *os.getloadavg())]
    out["cpu_steal_share"] = _steal_share(ticks_before, _cpu_ticks())
    out["measured_at"] = datetime.now().isoformat(timespec="seconds")
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
