"""Room tokens through a real ``tickmark serve`` with ``TICKMARK_AUTH=required``: a token for
one room can neither read nor stream another, tokens come from the CLI and can be revoked, and
no token, webhook secret or database password reaches the log."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import httpx
import pytest
from _e2e import REPO, Receiver, Served, deck_md, env_for, filing_html, read_sse, serving, wait_for, write_atomically

pytestmark = pytest.mark.slow
PASSWORD = "pw-Zq81-never-logged"


def _with_password(dsn: str) -> str:
    # The embedded server trusts local connections, so a password in the URL is carried and ignored.
    parts = urlsplit(dsn)
    user = parts.username or "postgres"
    netloc = f"{user}:{PASSWORD}@{parts.hostname or ''}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def _cli(dsn: str, workdir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "services.cli", *args], cwd=REPO, capture_output=True, text=True,
                          timeout=60, env=env_for(dsn, workdir / "home", workdir / "rooms"))


class Rooms:
    def __init__(self, served: Served, tokens: dict[str, str], dsn: str, workdir: Path) -> None:
        self.s, self.tokens, self.dsn, self.workdir = served, tokens, dsn, workdir

    def get(self, path: str, room: str | None, **kw: object) -> httpx.Response:
        headers = {"Authorization": f"Bearer {self.tokens[room]}"} if room else {}
        return httpx.get(f"{self.s.base}{path}", headers=headers, timeout=10, **kw)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def rooms(pg_dsn: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Rooms]:
    workdir = tmp_path_factory.mktemp("access")
    dsn = _with_password(pg_dsn)
    tokens = {}
    for room in ("alpha", "beta"):
        made = _cli(dsn, workdir, "token", "create", room, "--name", f"{room} analysts")
        assert made.returncode == 0, made.stderr
        tokens[room] = made.stdout.strip()
    with serving(dsn, workdir, TICKMARK_AUTH="required") as s:
        r = Rooms(s, tokens, dsn, workdir)
        for room in ("alpha", "beta"):
            write_atomically(s.rooms / room / f"{room}-10k.html", filing_html("840"))

        def parsed() -> bool:
            return all(any(d["status"] == "parsed" for d in r.get(f"/api/rooms/{room}/documents", room).json())
                       for room in ("alpha", "beta") if r.get(f"/api/rooms/{room}/documents", room).status_code == 200)

        wait_for(lambda: parsed() and all(r.get(f"/api/rooms/{x}/documents", x).status_code == 200
                                          for x in ("alpha", "beta")), 30, "both rooms' filings to be parsed")
        yield r


def _upload(r: Rooms, room: str, token_room: str) -> httpx.Response:
    return httpx.post(f"{r.s.base}/api/rooms/{room}/decks", files={"file": ("deck.md", deck_md(), "text/markdown")},
                      headers={"Authorization": f"Bearer {r.tokens[token_room]}"}, timeout=10)


def test_without_a_token_the_api_is_closed_but_health_and_the_page_are_not(rooms: Rooms):
    r = rooms.get("/api/rooms", None)
    assert r.status_code == 401 and "token" in r.json()["detail"]
    assert r.headers["www-authenticate"].startswith("Bearer")
    assert rooms.get("/api/rooms", None, params={"token": "tm_notarealtokenatall0000000"}).status_code == 401
    assert rooms.get("/healthz", None).status_code == 200
    assert rooms.get("/", None).status_code == 200


def test_a_token_for_one_room_can_neither_read_nor_stream_another(rooms: Rooms):
    assert [x["name"] for x in rooms.get("/api/rooms", "alpha").json()] == ["alpha"]
    accepted = _upload(rooms, "alpha", "alpha")
    assert accepted.status_code == 202
    run_id = accepted.json()["run_id"]
    wait_for(lambda: rooms.get(f"/api/runs/{run_id}", "alpha").json()["status"] == "finished", 30, "the run")
    alpha_docs = rooms.get("/api/rooms/alpha/documents", "alpha").json()
    cited = next(c for claim in rooms.get(f"/api/runs/{run_id}", "alpha").json()["claims"]
                 for c in claim.get("citations") or [] if c.get("table"))
    table_path = f"/api/documents/{alpha_docs[0]['id']}/tables/{cited['table']}"
    assert rooms.get(table_path, "alpha").status_code == 200

    # Paths that name the other room: refused by the app before any query.
    for path in ("/api/rooms/alpha/documents", "/api/rooms/alpha/events", "/api/rooms/alpha/runs",
                 "/api/rooms/alpha/webhooks"):
        assert rooms.get(path, "beta").status_code == 403, path
    assert _upload(rooms, "alpha", "beta").status_code == 403
    # Paths that name a row by id: the rows are invisible under beta's row-level security.
    for path in (f"/api/runs/{run_id}", f"/api/runs/{run_id}/events", f"/api/runs/{run_id}/export.csv",
                 f"/api/runs/{run_id}/export.xlsx", table_path):
        assert rooms.get(path, "beta").status_code == 404, path
    # EventSource cannot send headers; the query-parameter token is held to the same rule.
    assert rooms.get(f"/api/runs/{run_id}/events", None, params={"token": rooms.tokens["beta"]}).status_code == 404
    assert rooms.get("/api/rooms/alpha/events", None, params={"token": rooms.tokens["beta"]}).status_code == 403

    # Beta's own room stream, replayed from the start of the log, carries only beta's events.
    frames = []
    with httpx.stream("GET", f"{rooms.s.base}/api/rooms/beta/events", params={"token": rooms.tokens["beta"]},
                      timeout=10) as resp:
        assert resp.status_code == 200
        for f in read_sse(resp):
            frames.append(f)
            if f.event == "document.parsed":
                break
    assert frames and all(json.loads(f.data)["room"] == "beta" for f in frames)
    head = rooms.get("/api/events/head", "beta").json()["head"]
    assert head < rooms.get("/api/events/head", "alpha").json()["head"], "beta's head is beta's, not the log's"

    # Alpha's token reads its own run and streams it to the end.
    with httpx.stream("GET", f"{rooms.s.base}/api/runs/{run_id}/events", params={"token": rooms.tokens["alpha"]},
                      timeout=10) as resp:
        events = [f.event for f in read_sse(resp)]
    assert events[0] == "deck.submitted" and events[-1] == "run.finished"


def test_a_revoked_token_is_refused(rooms: Rooms):
    made = _cli(rooms.dsn, rooms.workdir, "token", "create", "alpha")
    token = made.stdout.strip()
    headers = {"Authorization": f"Bearer {token}"}
    assert httpx.get(f"{rooms.s.base}/api/rooms", headers=headers).status_code == 200
    listed = _cli(rooms.dsn, rooms.workdir, "token", "list").stdout
    assert token not in listed and token[:12] in listed
    assert _cli(rooms.dsn, rooms.workdir, "token", "revoke", token[:12]).returncode == 0
    assert httpx.get(f"{rooms.s.base}/api/rooms", headers=headers).status_code == 401


def test_webhook_targets_are_checked_and_no_secret_reaches_the_log(rooms: Rooms):
    headers = {"Authorization": f"Bearer {rooms.tokens['alpha']}"}
    for url in ("http://169.254.169.254/latest/meta-data/", "http://[fe80::1]/hook", "http://0.0.0.0:1/"):
        r = httpx.post(f"{rooms.s.base}/api/rooms/alpha/webhooks", json={"url": url}, headers=headers)
        assert r.status_code == 400 and "refused" in r.json()["detail"], (url, r.text)
    secret = "whsec-Kx91-must-not-appear"
    with Receiver(statuses=[500]) as receiver:
        r = httpx.post(f"{rooms.s.base}/api/rooms/alpha/webhooks",
                       json={"url": receiver.url, "secret": secret, "format": "json"}, headers=headers)
        assert r.status_code == 201, r.text
        assert _upload(rooms, "alpha", "alpha").status_code == 202
        wait_for(lambda: len(receiver.received) >= 2, 20, "a failed attempt and its retry")
    log = rooms.s.log_text()
    assert "token=***" in log, "the access log should show the masked query token"
    assert "will retry" in log
    for leaked in (*rooms.tokens.values(), secret, PASSWORD):
        assert leaked not in log
