"""``tickmark serve`` as a real process: upload, SSE with resume, re-verification, signed webhooks."""

from __future__ import annotations

import hashlib
import hmac
import io
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import httpx
import pytest
from _e2e import (REPO, Receiver, Served, deck_md, env_for, filing_html, read_sse, serving, wait_for,
                  write_atomically)

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def served(pg_dsn: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with serving(pg_dsn, tmp_path_factory.mktemp("serve")) as s:
        yield s


def _parsed(s: Served, room: str, path: str, sha: str | None = None) -> bool:
    r = httpx.get(f"{s.base}/api/rooms/{room}/documents", timeout=5)
    if r.status_code != 200:
        return False
    return any(d["path"] == path and d["status"] == "parsed" and (sha is None or d["sha256"] == sha)
               for d in r.json())


def _upload(s: Served, room: str, name: str = "acme-deck.md", data: bytes | None = None) -> dict:
    r = httpx.post(f"{s.base}/api/rooms/{room}/decks", files={"file": (name, data or deck_md(), "text/markdown")},
                   timeout=10)
    assert r.status_code == 202, r.text
    return r.json()


def _stream(s: Served, url: str, *, last_id: int | None = None, stop_after: int | None = None,
            timeout: float = 20) -> list:
    headers = {"Last-Event-ID": str(last_id)} if last_id is not None else {}
    frames = []
    with httpx.stream("GET", f"{s.base}{url}", headers=headers, timeout=timeout) as resp:
        assert resp.status_code == 200
        assert resp.headers["content-type"].startswith("text/event-stream")
        assert resp.headers["x-accel-buffering"] == "no"
        for f in read_sse(resp):
            frames.append(f)
            if stop_after is not None and len(frames) >= stop_after:
                break  # leaving mid-stream closes the connection
    return frames


def test_a_generated_room_gives_supported_and_contradicted_verdicts(pg_dsn: str, tmp_path: Path):
    room = tmp_path / "rooms" / "acme"
    write_atomically(room / "acme-10k.html", filing_html("840"))
    write_atomically(room / "decks" / "acme-deck.md", deck_md())
    out = subprocess.run([sys.executable, "-m", "services.cli", "verify", str(room / "decks" / "acme-deck.md"),
                          "--room", str(room), "--json"], cwd=REPO, capture_output=True, text=True, timeout=120,
                         env=env_for(pg_dsn, tmp_path / "home", tmp_path / "rooms"))
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    verdicts = {c["text"]: c["verdict"] for c in result["claims"]}
    assert verdicts == {"Total revenue of $4.2B": "supported", "Operating income of $900M": "contradicted",
                        "Net income of $610M": "supported"}


def test_upload_stream_resume_then_a_changed_filing_reaches_a_signed_webhook(served: Served):
    write_atomically(served.rooms / "acme" / "acme-10k.html", filing_html("840"))
    wait_for(lambda: _parsed(served, "acme", "acme-10k.html"), 20, "the filing to be parsed")

    accepted = _upload(served, "acme")
    run_id = accepted["run_id"]
    assert accepted["events_url"] == f"/api/runs/{run_id}/events"

    # Leave after a few events, come back with Last-Event-ID: the two halves are the whole stream.
    first = _stream(served, accepted["events_url"], stop_after=4)
    rest = _stream(served, accepted["events_url"], last_id=first[-1].id)
    whole = _stream(served, accepted["events_url"])
    ids = [f.id for f in first + rest]
    assert ids == [f.id for f in whole], "resuming skipped or repeated events"
    assert ids == sorted(set(ids)) and all(i is not None for i in ids)
    assert whole[0].event == "deck.submitted" and whole[-1].event == "run.finished"
    assert all(json.loads(f.data)["type"] == f.event for f in whole), "the SSE event name is the event type"
    assert sum(f.event == "verdict.reached" for f in whole) == 3
    # The stream ended on its own after run.finished; resuming past it says there is nothing more.
    after_end = httpx.get(f"{served.base}{accepted['events_url']}", headers={"Last-Event-ID": str(ids[-1])})
    assert after_end.status_code == 204

    run = httpx.get(f"{served.base}/api/runs/{run_id}").json()
    assert run["status"] == "finished"
    assert run["counts"] == {"supported": 2, "contradicted": 1, "different-basis": 0, "no-evidence": 0}
    assert [c["verdict"] for c in run["claims"]] == ["supported", "contradicted", "supported"]

    csv_text = httpx.get(f"{served.base}/api/runs/{run_id}/export.csv").content.decode("utf-8-sig")
    lines = csv_text.strip().splitlines()
    assert lines[0].startswith("claim_id,page,claim") and len(lines) == 4 and "4210000000" in csv_text
    from openpyxl import load_workbook

    xlsx = httpx.get(f"{served.base}/api/runs/{run_id}/export.xlsx")
    sheet = load_workbook(io.BytesIO(xlsx.content))["Verdicts"]
    assert [r[10] for r in sheet.iter_rows(min_row=2, values_only=True)] == ["supported", "contradicted", "supported"]

    with Receiver() as receiver:
        hook = httpx.post(f"{served.base}/api/rooms/acme/webhooks",
                          json={"url": receiver.url, "format": "json", "secret": "test-secret"})
        assert hook.status_code == 201 and hook.json()["secret"] == "test-secret"
        written = time.time()
        write_atomically(served.rooms / "acme" / "acme-10k.html", filing_html("900"))
        got = wait_for(lambda: [r for r in receiver.received if r.headers.get("X-Tickmark-Event") == "verdict.changed"],
                       20, "the verdict.changed webhook")[0]
        print(f"file written -> webhook received: {(got.at - written) * 1000:.0f} ms")

    expected = "sha256=" + hmac.new(b"test-secret", got.body, hashlib.sha256).hexdigest()
    assert hmac.compare_digest(got.headers["X-Tickmark-Signature"], expected)
    payload = json.loads(got.body)
    assert got.headers["X-Tickmark-Idempotency-Key"] == payload["id"]
    assert payload["type"] == "verdict.changed" and payload["room"] == "acme"
    assert payload["data"]["before"] == "contradicted" and payload["data"]["after"] == "supported"
    assert payload["data"]["cause_document"] == "acme-10k.html"
    assert payload["link"].endswith(f"/api/runs/{payload['run_id']}")

    rerun = httpx.get(f"{served.base}/api/runs/{payload['run_id']}").json()
    assert rerun["trigger"] == "reverify" and rerun["baseline_run_id"] == run_id
    assert rerun["counts"]["supported"] == 3

    room_frames = []
    with httpx.stream("GET", f"{served.base}/api/rooms/acme/events", timeout=10) as resp:
        for f in read_sse(resp):
            room_frames.append(f)
            if f.event == "verdict.changed":
                break
    kinds = {f.event for f in room_frames}
    assert {"document.parsed", "facts.updated", "deck.submitted", "run.finished", "verdict.changed"} <= kinds
    assert "rule.evaluated" not in kinds


def test_an_idle_stream_gets_keepalive_comments_and_stops_when_the_client_leaves(served: Served):
    head = httpx.get(f"{served.base}/healthz").json()["bus"]["log_head"]
    lines: list[str] = []
    with httpx.stream("GET", f"{served.base}/api/rooms/quiet/events", headers={"Last-Event-ID": str(head)},
                      timeout=10) as resp:
        for line in resp.iter_lines():
            lines.append(line)
            if line.startswith(": keep-alive"):
                break
    assert ": keep-alive" in lines

    def streams() -> int:
        text = httpx.get(f"{served.base}/metrics").text
        return int(next(ln.split()[-1] for ln in text.splitlines() if ln.startswith("tickmark_sse_streams ")))

    wait_for(lambda: streams() == 0, 10, "the server to drop streams whose clients left")


_RECORD_SCHEDULES = """
CREATE TABLE test_job_schedule (dedupe_key text, delay interval);
CREATE FUNCTION test_record_schedule() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO test_job_schedule VALUES (NEW.dedupe_key, NEW.execute_after - NEW.created);
    RETURN NEW;
END $$;
CREATE TRIGGER test_record_schedule AFTER INSERT ON pgqueuer FOR EACH ROW EXECUTE FUNCTION test_record_schedule();
"""
_STOP_RECORDING = """
DROP TRIGGER test_record_schedule ON pgqueuer; DROP FUNCTION test_record_schedule(); DROP TABLE test_job_schedule;
"""


async def test_a_failing_endpoint_is_retried_with_backoff_and_every_attempt_is_recorded(
    served: Served, pool: asyncpg.Pool
):
    # Each retry's wait is read from the queue row that schedules it (execute_after and created
    # share one now()), not from a clock: the schedule is exact however slow the machine is.
    async with pool.acquire() as conn:
        await conn.execute(_RECORD_SCHEDULES)
    try:
        with Receiver(statuses=[500, 503]) as receiver:
            hook = httpx.post(f"{served.base}/api/rooms/retry/webhooks",
                              json={"url": receiver.url, "format": "slack"})
            secret = hook.json()["secret"]
            _upload(served, "retry")
            wait_for(lambda: len(receiver.received) >= 3, 20, "three delivery attempts")
        async with pool.acquire() as conn:
            delivery = int(receiver.received[0].headers["X-Tickmark-Delivery"])
            delays = {r["dedupe_key"]: r["delay"].total_seconds() for r in await conn.fetch(
                "SELECT dedupe_key, delay FROM test_job_schedule WHERE dedupe_key LIKE $1", f"deliver:{delivery}:%")}
    finally:
        async with pool.acquire() as conn:
            await conn.execute(_STOP_RECORDING)
    # TICKMARK_WEBHOOK_BACKOFF_SECONDS is 0.2 for served tests, doubling after each failure.
    assert delays == {f"deliver:{delivery}:1": 0.0, f"deliver:{delivery}:2": 0.2, f"deliver:{delivery}:3": 0.4}
    got = receiver.received[:3]
    assert [r.headers["X-Tickmark-Attempt"] for r in got] == ["1", "2", "3"]
    assert len({r.headers["X-Tickmark-Idempotency-Key"] for r in got}) == 1
    assert len({r.body for r in got}) == 1, "a retry sends the same bytes"
    for r in got:
        assert r.headers["X-Tickmark-Signature"] == "sha256=" + hmac.new(secret.encode(), r.body,
                                                                          hashlib.sha256).hexdigest()
    assert "text" in json.loads(got[0].body), "slack format"
    async with pool.acquire() as conn:
        delivery_id = int(got[0].headers["X-Tickmark-Delivery"])
        rows = await conn.fetch("SELECT attempt, status_code FROM delivery_attempt WHERE delivery_id = $1 "
                                "ORDER BY attempt", delivery_id)
        status = await conn.fetchval("SELECT status FROM delivery WHERE id = $1", delivery_id)
    assert [(r["attempt"], r["status_code"]) for r in rows] == [(1, 500), (2, 503), (3, 200)]
    assert status == "delivered"


def test_a_deck_dropped_into_the_decks_folder_starts_a_run_and_a_deleted_file_is_marked_removed(served: Served):
    write_atomically(served.rooms / "drop" / "acme-10k.html", filing_html("840"))
    wait_for(lambda: _parsed(served, "drop", "acme-10k.html"), 20, "the filing to be parsed")
    head = httpx.get(f"{served.base}/healthz").json()["bus"]["log_head"]
    # Written in pieces, slower than the settle interval would allow for one piece: parsed once, whole.
    deck = served.rooms / "drop" / "decks" / "slow-deck.md"
    deck.parent.mkdir(parents=True, exist_ok=True)
    data = deck_md()
    with deck.open("wb") as fh:
        for i in range(0, len(data), 40):
            fh.write(data[i:i + 40])
            fh.flush()
            time.sleep(0.05)
    frames = []
    with httpx.stream("GET", f"{served.base}/api/rooms/drop/events", headers={"Last-Event-ID": str(head)},
                      timeout=20) as resp:
        for f in read_sse(resp):
            frames.append(f)
            if f.event == "run.finished":
                break
    submitted = [json.loads(f.data) for f in frames if f.event == "deck.submitted"]
    assert len(submitted) == 1 and submitted[0]["trigger"] == "watch"
    run = httpx.get(f"{served.base}/api/runs/{submitted[0]['run_id']}").json()
    assert run["counts"]["supported"] == 2 and run["counts"]["contradicted"] == 1

    (served.rooms / "drop" / "acme-10k.html").unlink()

    def removed() -> bool:
        docs = httpx.get(f"{served.base}/api/rooms/drop/documents").json()
        return any(d["path"] == "acme-10k.html" and d["status"] == "removed" for d in docs)

    wait_for(removed, 20, "the deleted filing to be marked removed")


def test_serve_and_a_worker_share_the_queue_without_double_work(pg_dsn: str, tmp_path: Path):
    with serving(pg_dsn, tmp_path, TICKMARK_WORKERS="1") as s:
        write_atomically(s.rooms / "pair" / "acme-10k.html", filing_html("840"))
        log = tmp_path / "worker.log"
        with log.open("w") as out:
            other = subprocess.Popen([sys.executable, "-m", "services.cli", "worker", "--concurrency", "1"], cwd=REPO,
                                     env=env_for(pg_dsn, s.home, s.rooms), stdout=out, stderr=subprocess.STDOUT)
        try:
            wait_for(lambda: _parsed(s, "pair", "acme-10k.html"), 20, "the filing to be parsed")
            wait_for(lambda: "tickmark worker taking" in log.read_text(), 30, "the worker to start")

            def both_verified() -> bool:
                return "verified run" in s.log_text() and "verified run" in log.read_text()

            # Which process takes a job is up to the queue: submit rounds of decks until each process
            # has verified some, so every check below runs on a queue that was really shared.
            run_ids: list[int] = []
            for round_ in range(6):
                batch = [_upload(s, "pair", f"deck-{round_}-{i}.md")["run_id"] for i in range(8)]
                run_ids += batch

                def all_finished(batch: list[int] = batch) -> bool:
                    return all(httpx.get(f"{s.base}/api/runs/{r}").json()["status"] == "finished" for r in batch)

                wait_for(all_finished, 60, "every run to finish", interval=0.3)
                if both_verified():
                    break
            assert both_verified(), f"one process took every verify job of {len(run_ids)}: the queue is not shared"
            for r in run_ids:
                frames = _stream(s, f"/api/runs/{r}/events")
                reached = [json.loads(f.data)["claim_id"] for f in frames if f.event == "verdict.reached"]
                assert sorted(reached) == ["p1-c1", "p1-c2", "p1-c3"], f"run {r} was verified more than once"
                assert sum(f.event == "run.finished" for f in frames) == 1
        finally:
            other.terminate()
            other.wait(30)
