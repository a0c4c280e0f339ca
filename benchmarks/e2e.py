"""End-to-end latency through a real ``tickmark serve``; prints one JSON object.

- file written → verdict.changed in the event log, and → signed webhook received (p50, p95),
  for a ~2 MB 10-K-sized filing whose edit flips one claim each round;
- 200 concurrent SSE subscribers on one run: per-event delivery latency (p50, p99).

Uses ``DATABASE_URL`` when set, else an embedded PostgreSQL in a temporary directory.
"""

from __future__ import annotations

import asyncio
import http.server
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

from benchmarks._serve import serving, wait_until

__all__ = ["main"]

REPO = Path(__file__).resolve().parents[1]

FILING = """<html><head><title>Acme Corporation - Annual Report (Form 10-K)</title></head><body>
<div>ACME CORPORATION</div><div>FORM 10-K</div>
{padding}
<div><span style="font-weight:700">CONSOLIDATED STATEMENTS OF OPERATIONS</span></div>
<div>(In millions, except per share data)</div>
<table>
<tr><td colspan="3"></td><td colspan="7">Years ended</td></tr>
<tr><td colspan="3"></td><td colspan="3">December 31, 2024</td><td></td><td colspan="3">December 31, 2023</td></tr>
<tr><td colspan="3">Total revenue</td><td>$</td><td>4,210</td><td></td><td></td><td>$</td><td>3,650</td><td></td></tr>
<tr><td colspan="3">Gross profit</td><td>$</td><td>2,520</td><td></td><td></td><td>$</td><td>2,100</td><td></td></tr>
<tr><td colspan="3">Operating income</td><td>$</td><td>{operating_income}</td><td></td><td></td><td>$</td><td>700</td><td></td></tr>
<tr><td colspan="3">Net income</td><td>$</td><td>610</td><td></td><td></td><td>$</td><td>500</td><td></td></tr>
</table></body></html>
"""

_SECTION = """<div><span style="font-weight:700">Item {n}. Discussion {n}</span></div>
<p>{text}</p>
<table><tr><td>Segment {n}</td><td>Units</td><td>Share</td></tr>
<tr><td>Region A</td><td>{a}</td><td>{pa}%</td></tr><tr><td>Region B</td><td>{b}</td><td>{pb}%</td></tr></table>
"""


def filing(operating_income: str, target_bytes: int = 2_000_000, nonce: int = 0) -> bytes:
    """A 10-K-sized filing: ~2 MB of sections, prose and small tables around the income statement."""
    text = ("Results of operations reflect demand across regions, pricing, and the timing of shipments; "
            "liquidity remained adequate for the needs of the business. ") * 12
    parts, size, n = [], 0, 0
    while size < target_bytes:
        n += 1
        part = _SECTION.format(n=n, text=text, a=100 + n, b=200 + n, pa=n % 90, pb=(n * 7) % 90)
        parts.append(part)
        size += len(part)
    # The nonce makes each round's bytes new, so every round parses instead of hitting the cache.
    return FILING.format(padding=f"<!-- {nonce} -->" + "".join(parts), operating_income=operating_income).encode()


def deck(claims: int = 3) -> bytes:
    lines = ["# Acme Corporation Investor Day", "", "## Acme FY2024 Highlights", "",
             "- Total revenue of $4.2B", "- Operating income of $900M", "- Net income of $610M"]
    for i in range(claims - 3):
        lines += ["", f"## Acme FY2024 Highlights {i + 2}", "", f"- Gross profit of ${2.40 + i / 100:.2f}B"]
    return ("\n".join(lines) + "\n").encode()


def _pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))], 1)


def _write(path: Path, data: bytes) -> float:
    tmp = path.parent / f".{path.name}.tmp"
    tmp.write_bytes(data)
    written = time.time()
    tmp.replace(path)
    return written


class _Receiver:
    def __init__(self) -> None:
        self.received: list[tuple[float, dict[str, str], bytes]] = []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                outer.received.append((time.time(), dict(self.headers.items()), body))
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"


async def _subscriber(client: httpx.AsyncClient, url: str, out: list[tuple[int, float]], opened: list[float]) -> None:
    async with client.stream("GET", url, timeout=120) as resp:
        opened.append(time.time())
        ident = None
        async for line in resp.aiter_lines():
            if line.startswith("id: "):
                ident = int(line[4:])
            elif line == "" and ident is not None:
                out.append((ident, time.time()))
                ident = None


async def _bench(base: str, rooms: Path, dsn: str, rounds: int, subscribers: int) -> dict[str, Any]:
    room = rooms / "bench"
    room.mkdir(parents=True, exist_ok=True)
    db = await asyncpg.connect(dsn)
    receiver = _Receiver()
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        async def parsed(sha_of: bytes) -> bool:
            import hashlib

            sha = hashlib.sha256(sha_of).hexdigest()
            resp = await client.get("/api/rooms/bench/documents")
            docs = resp.json() if resp.status_code == 200 else []
            return any(d["sha256"] == sha and d["status"] == "parsed" for d in docs)

        first = filing("840")
        _write(room / "acme-10k.html", first)
        await wait_until(lambda: parsed(first), 60, "first parse")
        accepted = (await client.post("/api/rooms/bench/decks", files={"file": ("acme-deck.md", deck(), "text/markdown")})).json()

        async def finished(run_id: int) -> bool:
            return (await client.get(f"/api/runs/{run_id}")).json()["status"] == "finished"

        await wait_until(lambda: finished(accepted["run_id"]), 60, "first run")
        await client.post("/api/rooms/bench/webhooks", json={"url": receiver.url, "format": "json", "secret": "b"})

        to_bus, to_webhook, parse_ms = [], [], []
        for i in range(rounds):
            value = "900" if i % 2 == 0 else "840"
            before = len(receiver.received)
            head = int(await db.fetchval("SELECT coalesce(max(id), 0) FROM event"))
            written = _write(room / "acme-10k.html", filing(value, nonce=i + 1))
            async def delivered(n: int = before) -> bool:
                return len(receiver.received) > n

            await wait_until(delivered, 30, "webhook")
            changed = await db.fetchval("SELECT created_at FROM event WHERE id > $1 AND type = 'verdict.changed' "
                                        "AND room = 'bench' ORDER BY id LIMIT 1", head)
            parsed_ev = await db.fetchval("SELECT body->>'elapsed_ms' FROM event WHERE id > $1 AND "
                                          "type = 'document.parsed' AND room = 'bench' ORDER BY id LIMIT 1", head)
            to_bus.append((changed.timestamp() - written) * 1000)
            to_webhook.append((receiver.received[before][0] - written) * 1000)
            parse_ms.append(float(parsed_ev))
            await asyncio.sleep(0.3)

        # Fan-out: many subscribers on one run that is still producing events.
        big = (await client.post("/api/rooms/bench/decks",
                                 files={"file": ("big-deck.md", deck(60), "text/markdown")})).json()
        received: list[tuple[int, float]] = []
        opened: list[float] = []
        limits = httpx.Limits(max_connections=subscribers + 10, max_keepalive_connections=0)
        async with httpx.AsyncClient(base_url=base, limits=limits) as many:
            await asyncio.gather(*(_subscriber(many, big["events_url"], received, opened) for _ in range(subscribers)))
        rows = await db.fetch("SELECT id, type, created_at FROM event WHERE run_id = $1", big["run_id"])
    await db.close()
    receiver.server.shutdown()

    created = {r["id"]: r["created_at"].timestamp() for r in rows if r["type"] != "claim.extracted"}
    # claim.extracted rows share one transaction's now(); their timestamps say nothing about delivery.
    all_open = max(opened) if opened else 0.0
    live = [(t - created[i]) * 1000 for i, t in received if i in created and created[i] >= all_open]
    any_ = [(t - created[i]) * 1000 for i, t in received if i in created]
    end = min((r["id"] for r in rows if r["type"] == "run.finished"), default=0)
    per_sub = sum(1 for r in rows if r["id"] <= end)
    return {
        "filing_bytes": len(first),
        "rounds": rounds,
        "file_to_verdict_changed_ms": {"p50": _pct(to_bus, 0.5), "p95": _pct(to_bus, 0.95), "max": _pct(to_bus, 1)},
        "file_to_webhook_ms": {"p50": _pct(to_webhook, 0.5), "p95": _pct(to_webhook, 0.95),
                               "max": _pct(to_webhook, 1)},
        "file_to_verdict_changed_each_ms": [round(x) for x in to_bus],
        "parse_ms_p50": _pct(parse_ms, 0.5),
        "sse": {
            "subscribers": subscribers,
            "events_per_subscriber": per_sub,
            "frames_received": len(received),
            "complete": len(received) == subscribers * per_sub,
            "live_delivery_ms": {"n": len(live), "p50": _pct(live, 0.5), "p99": _pct(live, 0.99)},
            "delivery_incl_replay_ms": {"n": len(any_), "p50": _pct(any_, 0.5), "p99": _pct(any_, 0.99)},
        },
    }


def main() -> int:
    rounds = int(os.environ.get("BENCH_ROUNDS", "10"))
    subscribers = int(os.environ.get("BENCH_SUBSCRIBERS", "200"))
    settle = os.environ.get("TICKMARK_SETTLE_SECONDS", "0.1")
    # The webhook receiver is on loopback, which webhook targets may only be when allowed.
    with serving("tickmark-bench-e2e-", TICKMARK_SETTLE_SECONDS=settle, TICKMARK_WEBHOOK_ALLOW_LOOPBACK="1") as served:
        out = asyncio.run(_bench(served.base, served.rooms, served.dsn, rounds, subscribers))
    out["settle_seconds"] = float(settle)
    out["measured_at"] = datetime.now().isoformat(timespec="seconds")
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
