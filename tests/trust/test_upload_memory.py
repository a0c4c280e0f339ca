"""Memory under concurrent large uploads: eight ~95 MB decks sent at once to a real ``serve``.

Uploads stream to disk and then into the blob table in chunks, and the bytes all uploads in
progress may reserve are capped (``TICKMARK_UPLOAD_INFLIGHT_MB``); past the cap an upload is
refused at once with 503, a JSON reason and Retry-After, and the client retries. The documented
guarantee checked here: the serving process's peak resident memory stays under its resident
memory before the uploads plus the in-flight cap plus a fixed slack, and every upload is
accepted in the end. ``serve`` runs with no job slots (``TICKMARK_WORKERS=0``, the scale-out
shape where ``tickmark worker`` processes verify), so what is measured is what receiving
uploads costs; verifying a deck holds that deck in the worker's memory, which is not bounded here."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from litestar.exceptions import HTTPException

from services.uploads import InFlight
from tests.e2e._e2e import Served, serving

pytestmark = pytest.mark.slow
MB = 1024 * 1024
UPLOADS = 8
SIZE = 95 * MB
CAP_MB = 200
SLACK = 100 * MB
"""Allocator and interpreter noise, connection and chunk buffers."""
BOUNDARY = "tickmark-memory-test"


def _proc_kb(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    raise AssertionError(f"no {field} for {pid}")


def _body(index: int) -> tuple[Iterator[bytes], int]:
    """A multipart body of one ~95 MB PowerPoint-looking deck, generated as it is sent."""
    head = (f"--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big-{index}.pptx\"\r\n"
            "Content-Type: application/vnd.openxmlformats-officedocument.presentationml.presentation\r\n\r\n").encode()
    tail = f"\r\n--{BOUNDARY}--\r\n".encode()
    chunk = bytes((index * 31 + i) % 251 for i in range(MB))  # different bytes per upload: no shared blob

    def gen() -> Iterator[bytes]:
        yield head + b"PK\x03\x04"
        sent = 4
        while sent < SIZE:
            piece = chunk[: min(MB, SIZE - sent)]
            sent += len(piece)
            yield piece
        yield tail

    return gen(), len(head) + SIZE + len(tail)


@pytest.fixture(scope="module")
def served(pg_dsn: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with serving(pg_dsn, tmp_path_factory.mktemp("upload-memory"), TICKMARK_MAX_UPLOAD_MB="100",
                 TICKMARK_UPLOAD_INFLIGHT_MB=str(CAP_MB), TICKMARK_WORKERS="0") as s:
        yield s


def test_eight_concurrent_95_mb_uploads_stay_within_the_in_flight_bound(served: Served):
    pid = served.proc.pid
    before = _proc_kb(pid, "VmRSS")
    outcomes: dict[int, int] = {}
    refusals: list[httpx.Response] = []
    failures: list[str] = []

    def upload(index: int) -> None:
        deadline = time.time() + 400
        with httpx.Client(timeout=httpx.Timeout(120)) as client:
            while time.time() < deadline:
                body, length = _body(index)
                try:
                    r = client.post(f"{served.base}/api/rooms/memory/decks", content=body,
                                    headers={"Content-Type": f"multipart/form-data; boundary={BOUNDARY}",
                                             "Content-Length": str(length)})
                except httpx.TransportError as exc:
                    failures.append(f"upload {index}: {exc!r}")
                    return
                if r.status_code == 503:
                    refusals.append(r)
                    time.sleep(float(r.headers.get("retry-after", "5")))
                    continue
                outcomes[index] = r.status_code
                if r.status_code != 202:
                    failures.append(f"upload {index}: {r.status_code} {r.text[:300]}")
                return
        failures.append(f"upload {index}: still refused at the deadline")

    threads = [threading.Thread(target=upload, args=(i,)) for i in range(UPLOADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(600)
    peak = _proc_kb(pid, "VmHWM")
    bound = before + CAP_MB * MB + SLACK
    print(json.dumps({"uploads": UPLOADS, "size_mb": SIZE // MB, "in_flight_cap_mb": CAP_MB,
                      "rss_before_mb": round(before / MB), "peak_rss_mb": round(peak / MB),
                      "bound_mb": round(bound / MB), "refused_503": len(refusals)}))
    assert not failures, failures
    assert sorted(outcomes) == list(range(UPLOADS)) and set(outcomes.values()) == {202}
    # 8 x 95 MB cannot all fit under a 200 MB cap: some were turned away, each saying why.
    assert refusals
    for r in refusals:
        assert r.headers["retry-after"].isdigit()
        assert "TICKMARK_UPLOAD_INFLIGHT_MB" in r.json()["reason"]
    assert peak < bound, f"serve peaked at {peak // MB} MB; the bound is {bound // MB} MB"


def test_the_in_flight_bound_refuses_what_does_not_fit_and_frees_on_exit():
    gate = InFlight(100)
    with gate.reserve(60):
        with pytest.raises(HTTPException) as refused:
            with gate.reserve(41):
                pass
        assert refused.value.status_code == 503 and refused.value.headers == {"Retry-After": "5"}
        assert "60 of the 100 bytes" in refused.value.detail
        with gate.reserve(40):
            assert gate.reserved == 100
    assert gate.reserved == 0
    with pytest.raises(RuntimeError), gate.reserve(100):
        raise RuntimeError("a failed upload still gives its bytes back")
    assert gate.reserved == 0


def test_an_upload_larger_than_the_bound_is_admitted_alone():
    gate = InFlight(10)
    with gate.reserve(50):
        assert gate.reserved == 50
        with pytest.raises(HTTPException):
            with gate.reserve(1):
                pass
