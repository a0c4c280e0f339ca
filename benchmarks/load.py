"""Load through a real ``tickmark serve``; prints one JSON object.

20 decks uploaded at once and verified while 200 SSE clients stream their runs (10 per run) and
a changed filing re-verifies the room: throughput, p95 latencies, peak memory of the serve
process with its children, and events sent against events received (nothing lost, nothing
repeated). Generated filings and decks, loopback only; ``DATABASE_URL`` when set, else an
embedded PostgreSQL in a temporary directory.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import threading
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import psutil

from benchmarks._serve import serving, wait_until
from benchmarks.e2e import _pct, deck, filing

__all__ = ["main"]

REPO = Path(__file__).resolve().parents[1]
ROOM = "load"


class PeakRSS:
    """Samples the RSS of a process and all its descendants every ``interval`` seconds."""

    def __init__(self, pid: int, interval: float = 0.1) -> None:
        self._proc = psutil.Process(pid)
        self._interval = interval
        self._stop = threading.Event()
        self.peak_total = 0
        self.peak_main = 0
        self.peak_children = 0
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                main = self._proc.memory_info().rss
                kids = 0
                for child in self._proc.children(recursive=True):
                    try:
                        kids += child.memory_info().rss
                    except psutil.Error:
                        pass
            except psutil.Error:
                return
            self.peak_main = max(self.peak_main, main)
            self.peak_total = max(self.peak_total, main + kids)
            self.peak_children = max(self.peak_children, len(self._proc.children(recursive=True)))
            self._stop.wait(self._interval)

    def __enter__(self) -> PeakRSS:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(5)


async def _client(http: httpx.AsyncClient, url: str, got: list[tuple[int, float]]) -> None:
    """One SSE client: every frame's id and arrival time, until run.finished."""
    event: str | None = None
    async with http.stream("GET", url) as resp:
        resp.raise_for_status()
        ident: int | None = None
        async for line in resp.aiter_lines():
            if line.startswith("id:"):
                ident = int(line[3:].strip())
            elif line.startswith("event:"):
                event = line[6:].strip()
            elif line == "" and ident is not None:
                got.append((ident, time.time()))
                if event == "run.finished":
                    return
                ident, event = None, None


async def _bench(base: str, rooms: Path, dsn: str, decks: int, per_run: int) -> dict[str, Any]:
    db = await asyncpg.connect(dsn)
    limits = httpx.Limits(max_connections=decks * per_run + 50, max_keepalive_connections=50)
    async with httpx.AsyncClient(base_url=base, timeout=180, limits=limits) as http:
        room_dir = rooms / ROOM
        room_dir.mkdir(parents=True, exist_ok=True)
        (room_dir / "acme-10k.html").write_bytes(filing("840", target_bytes=200_000))

        async def parsed() -> bool:
            r = await http.get(f"/api/rooms/{ROOM}/documents")
            return r.status_code == 200 and any(d["status"] == "parsed" for d in r.json())

        await wait_until(parsed, 60, "the filing to be parsed")
        # A finished deck in the room, so the changed filing below has something to re-verify.
        first = (await http.post(f"/api/rooms/{ROOM}/decks", files={"file": ("warm.md", deck(9), "text/markdown")})
                 ).json()

        async def warm_done() -> bool:
            return (await http.get(f"/api/runs/{first['run_id']}")).json()["status"] == "finished"

        await wait_until(warm_done, 60, "the warm-up run")
        head = int(await db.fetchval("SELECT coalesce(max(id), 0) FROM event"))

        # --- the measured phase -------------------------------------------------------------
        started = time.monotonic()
        wall_started = time.time()

        async def upload(i: int) -> tuple[dict[str, Any], float]:
            t = time.monotonic()
            r = await http.post(f"/api/rooms/{ROOM}/decks", files={"file": (f"deck-{i}.md", deck(9), "text/markdown")})
            r.raise_for_status()
            return r.json(), time.monotonic() - t

        uploads = await asyncio.gather(*(upload(i) for i in range(decks)))
        received: dict[int, list[list[tuple[int, float]]]] = {}
        clients = []
        for accepted, _ in uploads:
            lists: list[list[tuple[int, float]]] = [[] for _ in range(per_run)]
            received[accepted["run_id"]] = lists
            clients += [asyncio.create_task(_client(http, accepted["events_url"], got)) for got in lists]
        # The room re-verifies while the 20 runs and their 200 streams are in flight.
        filing_written = time.time()
        (room_dir / "acme-10k.html").write_bytes(filing("900", target_bytes=200_000, nonce=1))
        await asyncio.wait_for(asyncio.gather(*clients), 300)
        streams_done = time.monotonic()

        async def reverified() -> int:
            return int(await db.fetchval("SELECT count(*) FROM run WHERE room = $1 AND trigger = 'reverify' "
                                         "AND status = 'finished' AND id > $2", ROOM, first["run_id"]))

        await wait_until(reverified, 120, "the room's re-verification")
        # Let any re-verification still running finish, so the figures cover all of it.
        await wait_until(lambda: _none_running(db), 120, "every run to finish", interval=0.2)
        elapsed = time.monotonic() - started

        run_ids = list(received)
        rows = await db.fetch("SELECT id, run_id, extract(epoch FROM created_at) AS at FROM event "
                              "WHERE run_id = ANY($1::bigint[]) ORDER BY id", run_ids)
        sent_by_run: dict[int, list[int]] = {r: [] for r in run_ids}
        created = {}
        for r in rows:
            sent_by_run[r["run_id"]].append(r["id"])
            created[r["id"]] = float(r["at"])
        sent = received_n = lost = duplicated = 0
        delivery_ms: list[float] = []
        finish_s: list[float] = []
        for run_id, lists in received.items():
            expected = sent_by_run[run_id]
            for got in lists:
                ids = [i for i, _ in got]
                sent += len(expected)
                received_n += len(ids)
                lost += len(set(expected) - set(ids))
                duplicated += len(ids) - len(set(ids))
                delivery_ms += [(at - created[i]) * 1000 for i, at in got if i in created]
                if got:
                    finish_s.append(got[-1][1] - wall_started)
        claims = int(await db.fetchval("SELECT count(*) FROM verdict WHERE run_id = ANY($1::bigint[])", run_ids))
        reverify = await db.fetch("SELECT id, extract(epoch FROM finished_at) AS done FROM run WHERE room = $1 "
                                  "AND trigger = 'reverify' AND id > $2", ROOM, first["run_id"])
        changed = int(await db.fetchval("SELECT count(*) FROM event WHERE type = 'verdict.changed' AND id > $1", head))
        first_flip = await db.fetchval("SELECT extract(epoch FROM min(created_at)) FROM event "
                                       "WHERE type = 'verdict.changed' AND id > $1", head)
    await db.close()
    upload_s = [s for _, s in uploads]
    return {
        "decks": decks,
        "sse_clients": decks * per_run,
        "claims_verified": claims,
        "elapsed_s": round(elapsed, 2),
        "streams_done_s": round(streams_done - started, 2),
        "throughput": {"runs_per_s": round(decks / (streams_done - started), 2),
                       "claims_per_s": round(claims / (streams_done - started), 1),
                       "events_delivered_per_s": round(received_n / (streams_done - started), 1)},
        "upload_ms": {"p50": _ms(_pct(upload_s, 0.5)), "p95": _ms(_pct(upload_s, 0.95))},
        "upload_to_run_finished_s": {"p50": _r(_pct(finish_s, 0.5)), "p95": _r(_pct(finish_s, 0.95)),
                                     "max": _r(max(finish_s) if finish_s else None)},
        "event_delivery_ms": {"p50": _r(_pct(delivery_ms, 0.5)), "p95": _r(_pct(delivery_ms, 0.95)),
                              "p99": _r(_pct(delivery_ms, 0.99))},
        "events": {"sent": sent, "received": received_n, "lost": lost, "duplicated": duplicated},
        "reverify": {"runs": len(reverify), "verdict_changed": changed,
                     "filing_written_to_first_flip_s": _r(float(first_flip) - filing_written) if first_flip else None},
    }


async def _none_running(db: asyncpg.Connection) -> bool:
    return not await db.fetchval("SELECT count(*) FROM run WHERE room = $1 AND status IN ('queued', 'running')", ROOM)


def _r(v: float | None, nd: int = 2) -> float | None:
    return None if v is None else round(v, nd)


def _ms(v: float | None) -> float | None:
    return None if v is None else round(v * 1000, 1)


def main() -> int:
    decks = int(os.environ.get("BENCH_DECKS", "20"))
    per_run = int(os.environ.get("BENCH_CLIENTS_PER_RUN", "10"))
    with serving("tickmark-bench-load-", TICKMARK_AUTH="open") as served, PeakRSS(served.pid) as rss:
        out = asyncio.run(_bench(served.base, served.rooms, served.dsn, decks, per_run))
    out["peak_rss_mb"] = {"serve": round(rss.peak_main / 2**20, 1),
                          "serve_and_children": round(rss.peak_total / 2**20, 1),
                          "children": rss.peak_children}
    out["workers"] = int(os.environ.get("TICKMARK_WORKERS", "2"))
    out["cpus"] = os.cpu_count()
    out["measured_at"] = datetime.now().isoformat(timespec="seconds")
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
