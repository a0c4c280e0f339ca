"""Every input a client sends to a real ``tickmark serve``: ids in paths and queries, SSE resume
headers, multipart bodies, webhook URLs and room names. A malformed one is refused with a 4xx
whose JSON says what was wrong (``error`` and ``reason``), never a 500, and the service keeps serving."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from services import uploads
from tests.e2e._e2e import REPO, Served, deck_md, env_for, filing_html, serving, wait_for, write_atomically

pytestmark = pytest.mark.slow
BIG = "99999999999999999999"
PAST_INT64 = str(2**63)
ROOM = "inputs"


@pytest.fixture(scope="module")
def served(pg_dsn: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with serving(pg_dsn, tmp_path_factory.mktemp("inputs"), TICKMARK_MAX_UPLOAD_MB="1") as s:
        yield s


def _refused(r: httpx.Response, status: int | tuple[int, ...], said: str) -> dict:
    statuses = (status,) if isinstance(status, int) else status
    assert r.status_code in statuses, f"{r.status_code}: {r.text[:500]}"
    body = r.json()
    assert body["error"] and body["reason"], body
    assert said.lower() in body["reason"].lower(), body["reason"]
    return body


@pytest.mark.parametrize(("method", "path"), [
    ("GET", f"/api/runs/{BIG}"),
    ("GET", f"/api/runs/{PAST_INT64}"),
    ("GET", f"/api/runs/{PAST_INT64}/events"),
    ("GET", f"/api/runs/{BIG}/export.csv"),
    ("GET", f"/api/documents/{PAST_INT64}/tables/t1"),
    ("GET", f"/api/documents/{BIG}/pages/1/image"),
    ("GET", f"/api/documents/1/pages/{BIG}/image"),
    ("DELETE", f"/api/rooms/{ROOM}/webhooks/{BIG}"),
])
def test_an_id_beyond_int64_in_a_path_is_400_not_500(served: Served, method: str, path: str):
    _refused(httpx.request(method, served.base + path, timeout=10), 400, "out of range")


@pytest.mark.parametrize(("path", "params"), [
    (f"/api/rooms/{ROOM}/webhooks", {"id": BIG}),
    (f"/api/rooms/{ROOM}/events", {"after": BIG}),
    (f"/api/rooms/{ROOM}/events", {"after": "-5"}),
    ("/api/runs/1/events", {"after": PAST_INT64}),
])
def test_an_id_beyond_its_range_in_a_query_is_400_with_the_parameter_named(served: Served, path: str, params: dict):
    method = "DELETE" if path.endswith("webhooks") else "GET"
    body = _refused(httpx.request(method, served.base + path, params=params, timeout=10), 400, "")
    assert next(iter(params)) in body["reason"]


@pytest.mark.parametrize("header", [BIG, PAST_INT64, "²", "١٢", "12abc", "-1", "1e5", "0x10"])
@pytest.mark.parametrize("stream", [f"/api/rooms/{ROOM}/events", "/api/runs/1/events"])
def test_a_last_event_id_that_is_not_an_ascii_bigint_is_400(served: Served, stream: str, header: str):
    # Headers travel as bytes: "²" as the single latin-1 byte a server decodes back to "²".
    raw = header.encode("latin-1") if all(ord(c) < 256 for c in header) else header.encode()
    r = httpx.get(served.base + stream, headers={"Last-Event-ID": raw}, timeout=10)
    _refused(r, 400, "Last-Event-ID")


@pytest.mark.parametrize("room", ["inputs%0A", "in%0Aputs", "a%00b", "room%09", "%C3%A9t%C3%A9", "x" * 101, "-lead"])
@pytest.mark.parametrize("route", ["/documents", "/events", "/runs", "/webhooks"])
def test_a_room_name_must_match_whole_in_every_route(served: Served, room: str, route: str):
    _refused(httpx.get(f"{served.base}/api/rooms/{room}{route}", timeout=10), 400, "not a room name")


def test_a_room_name_with_a_trailing_newline_is_not_a_new_room(served: Served):
    r = httpx.post(f"{served.base}/api/rooms/{ROOM}%0A/decks", files={"file": ("d.md", deck_md(), "text/markdown")},
                   timeout=10)
    _refused(r, 400, "not a room name")
    assert all("\n" not in room["name"] for room in httpx.get(f"{served.base}/api/rooms", timeout=10).json())


@pytest.mark.parametrize("text", ["t1%00", "t" * 300])
def test_free_text_in_a_path_is_bounded_and_free_of_control_characters(served: Served, text: str):
    _refused(httpx.get(f"{served.base}/api/documents/1/tables/{text}", timeout=10), 400, "")


@pytest.mark.parametrize("bbox", ["nan,nan,nan,nan", "0,0,inf,10", "1,2,3", "a,b,c,d"])
def test_a_bbox_must_be_four_finite_numbers(served: Served, bbox: str):
    _refused(httpx.get(f"{served.base}/api/documents/1/pages/1/image", params={"bbox": bbox}, timeout=10),
             400, "bbox")


def _multipart(body: bytes, boundary: str = "XyZ") -> dict[str, str]:
    return {"Content-Type": f"multipart/form-data; boundary={boundary}", "Content-Length": str(len(body))}


def _part(headers: str, content: bytes, boundary: str = "XyZ", close: bool = True) -> bytes:
    body = f"--{boundary}\r\n{headers}\r\n\r\n".encode() + content + f"\r\n--{boundary}".encode()
    return body + (b"--\r\n" if close else b"\r\n")


def _upload(served: Served, body: bytes, headers: dict[str, str] | None = None) -> httpx.Response:
    return httpx.post(f"{served.base}/api/rooms/{ROOM}/decks", content=body, headers=headers or _multipart(body),
                      timeout=30)


def test_a_file_part_with_an_empty_filename_is_400(served: Served):
    body = _part('Content-Disposition: form-data; name="file"; filename=""\r\nContent-Type: text/markdown', deck_md())
    _refused(_upload(served, body), 400, "empty file name")


def test_a_200_kb_filename_is_refused_with_what_was_too_long(served: Served):
    name = "d" * 200_000 + ".md"
    body = _part(f'Content-Disposition: form-data; name="file"; filename="{name}"', deck_md())
    body_ = _refused(_upload(served, body), (400, 414, 431), "file name")
    assert "entity too large" not in body_["reason"].lower()


def test_a_long_filename_under_the_header_limit_is_refused_by_its_length(served: Served):
    body = _part(f'Content-Disposition: form-data; name="file"; filename="{"d" * 400}.md"', deck_md())
    _refused(_upload(served, body), 400, "at most 255")


def test_a_filename_with_control_characters_is_400(served: Served):
    body = _part('Content-Disposition: form-data; name="file"; filename="deck\x07.md"', deck_md())
    _refused(_upload(served, body), 400, "control character")


@pytest.mark.parametrize(("body", "said"), [
    (_part('Content-Disposition: form-data; name="note"', b"hello"), "no 'file' part"),
    (_part('Content-Disposition: form-data; name="file"', deck_md()), "no filename"),
    (_part('Content-Disposition: form-data; name="file"; filename="d.md"', deck_md(), close=False), "ended before"),
    (b"--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"d.md\"\r\n\r\n" + deck_md(), "ended before"),
    (b"", "ended before"),
    (_part('Content-Disposition: form-data; name="file"; filename="d.md"', b""), "empty"),
])
def test_a_malformed_multipart_body_is_400_with_what_is_wrong(served: Served, body: bytes, said: str):
    _refused(_upload(served, body), 400, said)


def test_two_file_parts_are_refused(served: Served):
    part = b'Content-Disposition: form-data; name="file"; filename="%s"\r\n\r\n'
    body = (b"--XyZ\r\n" + part % b"a.md" + deck_md() + b"\r\n--XyZ\r\n" + part % b"b.md" + deck_md()
            + b"\r\n--XyZ--\r\n")
    _refused(_upload(served, body), 400, "more than one")


@pytest.mark.parametrize("content_type", ["application/json", "multipart/form-data", "text/plain; boundary=x"])
def test_an_upload_that_is_not_multipart_with_a_boundary_is_415(served: Served, content_type: str):
    r = httpx.post(f"{served.base}/api/rooms/{ROOM}/decks", content=b"{}", headers={"Content-Type": content_type},
                   timeout=10)
    _refused(r, 415, "multipart/form-data")


def test_an_upload_declaring_more_than_the_limit_is_413_before_it_is_read(served: Served):
    r = httpx.post(f"{served.base}/api/rooms/{ROOM}/decks", content=b"x" * 100,
                   headers={"Content-Type": "multipart/form-data; boundary=XyZ", "Content-Length": "100"}, timeout=10)
    assert r.status_code == 400  # a short body is read and found malformed, not refused by size
    big = 5 * 1024 * 1024
    with httpx.Client(timeout=30) as client:
        r = client.post(f"{served.base}/api/rooms/{ROOM}/decks", content=iter([b"x" * big]),
                        headers={"Content-Type": "multipart/form-data; boundary=XyZ", "Content-Length": str(big)})
    _refused(r, 413, "limit")


def test_a_streamed_upload_arrives_whole(served: Served):
    deck = deck_md() + b"\n" + b"<!-- padding -->\n" * 20_000
    r = httpx.post(f"{served.base}/api/rooms/{ROOM}/decks", files={"file": ("padded.md", deck, "text/markdown")},
                   timeout=30)
    assert r.status_code == 202, r.text
    docs = httpx.get(f"{served.base}/api/rooms/{ROOM}/documents", timeout=10).json()
    mine = [d for d in docs if d["path"] == "decks/padded.md"]
    assert mine and mine[0]["size"] == len(deck)
    assert mine[0]["sha256"] == hashlib.sha256(deck).hexdigest()


@pytest.mark.parametrize(("url", "said"), [
    ("http://127.0.0.1:8080/hook\r\nX-Injected: 1", "control or space"),
    ("http://127.0.0.1:99999/hook", "port"),
    ("http://127.0.0.1:0/hook", "port"),
    ("http://[::1/hook", "malformed"),
    ("http://127.0.0.1/" + "a" * 5000, "2048"),
    ("gopher://127.0.0.1/", "http"),
    ("http://[64:ff9b::a9fe:a9fe]/hook", "169.254.169.254"),
])
def test_a_webhook_url_that_cannot_be_used_is_400_with_the_reason(served: Served, url: str, said: str):
    r = httpx.post(f"{served.base}/api/rooms/{ROOM}/webhooks", json={"url": url}, timeout=10)
    _refused(r, 400, said)


@pytest.mark.parametrize("body", [b"{", b"[]", b'{"url": 5}', b'{"url": "http://x/", "format": "fax"}',
                                  b'{"url": "http://x/", "extra": 1}', b'{"url": "http://x/", "secret": "a b"}',
                                  b'{"url": "http://x/", "secret": "' + b"s" * 300 + b'"}',
                                  b'{"url": "http://x/", "secret": ""}'])
def test_a_malformed_webhook_body_is_400(served: Served, body: bytes):
    r = httpx.post(f"{served.base}/api/rooms/{ROOM}/webhooks", content=body,
                   headers={"Content-Type": "application/json"}, timeout=10)
    _refused(r, 400, "")


def test_the_api_docs_are_served_from_the_package_and_name_the_schema(served: Served):
    page = httpx.get(f"{served.base}/schema", timeout=10, follow_redirects=True)
    assert page.status_code == 200 and "/schema/openapi.json" in page.text
    assert "http://" not in page.text and "https://" not in page.text, "the viewer must load nothing from elsewhere"
    spec = httpx.get(f"{served.base}/schema/openapi.json", timeout=10).json()
    assert "/api/rooms/{room}/decks" in spec["paths"]


@pytest.mark.parametrize("folder", ["bad room", "trailing\n", "tab\there", "-lead"])
def test_a_room_folder_whose_name_is_not_a_room_name_is_not_watched(served: Served, folder: str):
    write_atomically(served.rooms / folder / "acme-10k.html", filing_html())
    good = f"named-{abs(hash(folder)) % 10_000}"
    write_atomically(served.rooms / good / "acme-10k.html", filing_html())

    def parsed() -> bool:
        r = httpx.get(f"{served.base}/api/rooms/{good}/documents", timeout=10)
        return r.status_code == 200 and any(d["status"] == "parsed" for d in r.json())

    wait_for(parsed, 60, "the well-named room's filing to be parsed (the watcher has seen both folders)")
    names = {r["name"] for r in httpx.get(f"{served.base}/api/rooms", timeout=10).json()}
    assert folder not in names and good in names
    assert "is not watched" in served.log_text() and "not a room name" in served.log_text()


def test_the_service_still_serves_after_every_refusal(served: Served):
    assert httpx.get(f"{served.base}/healthz", timeout=10).status_code == 200
    assert "Traceback" not in served.log_text()


@pytest.mark.parametrize("room", ["alpha\n", "al\x00pha", "al\tpha", "-alpha", "a" * 101])
def test_token_create_refuses_a_room_name_that_does_not_match_whole(pg_dsn: str, tmp_path: Path, room: str):
    out = subprocess.run([sys.executable, "-m", "services.cli", "token", "create", "--", room.replace("\x00", "\x01")],
                         cwd=REPO, capture_output=True, text=True, timeout=60,
                         env=env_for(pg_dsn, tmp_path / "home", tmp_path / "rooms"))
    assert out.returncode != 0
    assert "not a room name" in out.stderr


def _verify(pg_dsn: str, tmp_path: Path, deck: Path, room: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "services.cli", "verify", str(deck), "--room", str(room)], cwd=REPO,
                          capture_output=True, text=True, timeout=180,
                          env=env_for(pg_dsn, tmp_path / "home", tmp_path / "rooms"))


@pytest.fixture
def cli_room(tmp_path: Path) -> Path:
    room = tmp_path / "cli-room"
    write_atomically(room / "acme-10k.html", filing_html())
    write_atomically(room / "broken.pdf", b"%PDF-1.4\nthis is not a pdf body at all\n")
    return room


@pytest.mark.parametrize(("name", "content", "said"), [
    ("photo.pdf", b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01" + b"\x00" * 2000, "cannot verify this deck"),
    ("blank.md", b"", "is empty"),
    ("spaces.md", b"   \n\n  ", "cannot verify this deck"),
])
def test_verify_of_a_deck_that_cannot_be_read_says_why_and_fails(pg_dsn: str, tmp_path: Path, cli_room: Path,
                                                                  name: str, content: bytes, said: str):
    deck = tmp_path / name
    deck.write_bytes(content)
    out = _verify(pg_dsn, tmp_path, deck, cli_room)
    assert out.returncode != 0
    assert said in out.stderr, out.stderr[-2000:]
    assert str(deck) in out.stderr or name in out.stderr


def test_verify_of_a_directory_says_it_is_a_directory(pg_dsn: str, tmp_path: Path, cli_room: Path):
    out = _verify(pg_dsn, tmp_path, cli_room, cli_room)
    assert out.returncode != 0 and "is a directory" in out.stderr


def test_verify_repeats_a_failed_filings_reason_on_the_cached_run(pg_dsn: str, tmp_path: Path, cli_room: Path):
    deck = tmp_path / "deck.md"
    deck.write_bytes(deck_md())
    runs = [_verify(pg_dsn, tmp_path, deck, cli_room) for _ in range(2)]
    lines = [[line for line in r.stderr.splitlines() if "skipped broken.pdf" in line] for r in runs]
    assert all(r.returncode == 0 for r in runs), runs[-1].stderr[-2000:]
    assert lines[0] and lines[1], [r.stderr[-1500:] for r in runs]
    assert "None" not in lines[0][0] and "None" not in lines[1][0]
    assert lines[0] == lines[1], "the cached run says the same as the first"


async def _chunks(body: bytes, size: int):  # type: ignore[no-untyped-def]
    for i in range(0, len(body), size):
        yield body[i:i + size]


@pytest.mark.parametrize("size", [1, 2, 3, 5, 7, 11, 13, 17, 64, 4095, 4097, 1 << 16])
async def test_a_streamed_body_yields_the_file_whole_however_it_is_cut(tmp_path: Path, size: int):
    content = b"# Deck\r\n\r\n--XyY is close to the boundary\r\n--Xy\r\n" + bytes(range(256)) * 40 + b"\r\n-"
    body = (b"preamble\r\n--XyZ\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n--XyZ\r\n"
            b"Content-Disposition: form-data; name=\"file\"; filename=\"d.md\"\r\nContent-Type: text/markdown\r\n\r\n"
            + content + b"\r\n--XyZ--\r\nepilogue")
    heads: list[tuple[str, bytes]] = []
    got = await uploads.receive_file(_chunks(body, size), b"XyZ", tmp_path, limit=1 << 20,
                                     check_head=lambda name, head: heads.append((name, head)))
    with got.file:
        got.file.seek(0)
        assert got.file.read() == content
    assert (got.filename, got.size, got.sha256) == ("d.md", len(content), hashlib.sha256(content).hexdigest())
    assert heads == [("d.md", content[:4096])]
    assert not list(tmp_path.iterdir()), "the spooled file is gone once closed"


def test_a_wrong_type_is_refused_from_its_first_bytes(served: Served):
    body = _part('Content-Disposition: form-data; name="file"; filename="deck.pdf"', b"MZ\x90\x00" + b"\x00" * 900_000)
    _refused(_upload(served, body), 415, "not a PDF")
