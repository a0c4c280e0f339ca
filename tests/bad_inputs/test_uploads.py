"""Hostile uploads through POST /api/rooms/{room}/decks: traversal in file and room names, wrong
types and over-size bodies are refused with a clear JSON error, and the service keeps serving."""

from __future__ import annotations

from collections.abc import Iterator

import asyncpg
import httpx
import pytest

from tests.e2e._e2e import Served, deck_md, serving

pytestmark = pytest.mark.slow
LIMIT_MB = 1


@pytest.fixture(scope="module")
def served(pg_dsn: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with serving(pg_dsn, tmp_path_factory.mktemp("uploads"), TICKMARK_MAX_UPLOAD_MB=str(LIMIT_MB)) as s:
        yield s


def _post(s: Served, name: str, data: bytes, room: str = "uploads", mime: str = "text/markdown") -> httpx.Response:
    return httpx.post(f"{s.base}/api/rooms/{room}/decks", files={"file": (name, data, mime)}, timeout=30)


@pytest.mark.parametrize("name", ["../../../etc/evil-deck.md", "..\\..\\evil-deck.md", "decks/../../evil-deck.md",
                                  "/abs/path/evil-deck.md"])
def test_a_file_name_with_traversal_keeps_only_its_last_part(served: Served, name: str):
    r = _post(served, name, deck_md())
    assert r.status_code == 202, r.text
    assert r.json()["deck"] == "decks/evil-deck.md"
    run = httpx.get(f"{served.base}/api/runs/{r.json()['run_id']}").json()
    assert run["deck"] == "decks/evil-deck.md"
    # Uploads live in the database, never on disk: nothing appears anywhere under the service's folders.
    assert not [p for p in served.home.parent.rglob("evil-deck*")]


@pytest.mark.parametrize("name", ["..", ".", ".hidden.md", "", "../"])
def test_a_file_name_that_is_only_traversal_or_hidden_is_refused(served: Served, name: str):
    r = _post(served, name, deck_md())
    assert r.status_code in (400, 422), r.text
    assert "detail" in r.json()


@pytest.mark.parametrize("room", ["..", "..%2F..%2Fetc", ".hidden", "a%00b", "x" * 101])
async def test_a_room_name_outside_the_rules_is_refused(served: Served, pool: asyncpg.Pool, room: str):
    # Refused means nothing was stored for it anywhere, not only nothing under that name.
    stored = "SELECT (SELECT count(*) FROM room), (SELECT count(*) FROM run), (SELECT count(*) FROM document)"
    async with pool.acquire() as conn:
        before = tuple(await conn.fetchrow(stored))
    r = _post(served, "deck.md", deck_md(), room=room)
    assert r.status_code in (400, 404), r.text
    assert r.json()["detail"]
    async with pool.acquire() as conn:
        assert tuple(await conn.fetchrow(stored)) == before


@pytest.mark.parametrize("name, data, mime", [
    ("deck.exe", b"MZ\x90\x00" + b"\x00" * 64, "application/octet-stream"),
    ("deck.html", b"<html><body>$4.2B</body></html>", "text/html"),
    ("deck.pdf", b"<html>not a pdf</html>", "application/pdf"),
    ("deck.pptx", b"%PDF-1.4 not a zip", "application/vnd.ms-powerpoint"),
    ("deck.md", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "text/markdown"),
])
def test_a_wrong_type_is_415_with_the_accepted_types(served: Served, name: str, data: bytes, mime: str):
    r = _post(served, name, data, mime=mime)
    assert r.status_code == 415, r.text
    body = r.json()
    assert body["status_code"] == 415 and name in body["detail"]
    assert "pdf" in body["extra"]["accepted"]


def test_an_over_size_upload_is_413_with_the_limit(served: Served):
    big = b"# Deck\n\n" + b"- Total revenue of $4.2B\n" * (LIMIT_MB * 1024 * 1024 // 24 + 100)
    r = _post(served, "big-deck.md", big)
    assert r.status_code == 413, r.text
    assert r.json()["status_code"] == 413 and "limit" in r.json()["detail"].lower()


def test_the_service_keeps_serving_after_hostile_uploads(served: Served):
    assert httpx.get(f"{served.base}/healthz").status_code == 200
    r = _post(served, "fine-deck.md", deck_md())
    assert r.status_code == 202
