"""What the end-to-end tests share: generated rooms, a running ``tickmark serve``, an SSE reader,
and a webhook receiver that records what it is sent."""

from __future__ import annotations

import contextlib
import http.server
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[2]

FILING = """<html><head><title>{entity} - Annual Report (Form 10-K)</title></head><body>
<div>{upper}</div><div>FORM 10-K</div>
<div><span style="font-weight:700">CONSOLIDATED STATEMENTS OF OPERATIONS</span></div>
<div>(In millions, except per share data)</div>
<table>
<tr><td colspan="3"></td><td colspan="7">Years ended</td></tr>
<tr><td colspan="3"></td><td colspan="3">December 31, 2024</td><td></td><td colspan="3">December 31, 2023</td></tr>
<tr><td colspan="3">Total revenue</td><td>$</td><td>4,210</td><td></td><td></td><td>$</td><td>3,650</td><td></td></tr>
<tr><td colspan="3">Gross profit</td><td>$</td><td>2,520</td><td></td><td></td><td>$</td><td>2,100</td><td></td></tr>
<tr><td colspan="3">Operating income</td><td>$</td><td>{operating_income}</td><td></td><td></td><td>$</td><td>700</td><td></td></tr>
<tr><td colspan="3">Net income</td><td>$</td><td>610</td><td></td><td></td><td>$</td><td>500</td><td></td></tr>
</table>
{padding}
</body></html>
"""

DECK = """# {entity} Investor Day

## {short} FY2024 Highlights

- Total revenue of $4.2B
- Operating income of $900M
- Net income of $610M
"""


def filing_html(operating_income: str = "840", entity: str = "Acme Corporation", padding_kb: int = 0) -> bytes:
    """A small 10-K: revenue and net income match the deck, operating income is ``operating_income``."""
    para = "<p>Management's discussion of results of operations and liquidity for the year. </p>\n"
    padding = para * (padding_kb * 1024 // len(para))
    return FILING.format(entity=entity, upper=entity.upper(), operating_income=operating_income,
                         padding=padding).encode()


def deck_md(entity: str = "Acme Corporation") -> bytes:
    """Three claims: revenue supported, operating income $900M (contradicted by 840), net income supported."""
    return DECK.format(entity=entity, short=entity.split()[0]).encode()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def write_atomically(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.parent / f".{path.name}.tmp"
    tmp.write_bytes(data)
    tmp.replace(path)


@dataclass
class Served:
    base: str
    home: Path
    rooms: Path
    proc: subprocess.Popen[str]
    log: Path

    def client(self, timeout: float = 10) -> httpx.Client:
        return httpx.Client(base_url=self.base, timeout=timeout)

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def kill(self) -> None:
        """SIGKILL the process and its children (parser processes), as a crash would."""
        kill_group(self.proc)


def kill_group(proc: subprocess.Popen) -> None:  # type: ignore[type-arg]
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(10)


def env_for(pg_dsn: str, home: Path, rooms: Path, **extra: str) -> dict[str, str]:
    # A process the test kills mid-job cannot remove its multiprocessing scratch folders: keep them
    # under the test's own folder, which pytest removes, not in /tmp.
    scratch = home / "tmp"
    scratch.mkdir(parents=True, exist_ok=True)
    return {
        **os.environ, "TMPDIR": str(scratch), "DATABASE_URL": pg_dsn, "TICKMARK_HOME": str(home), "TICKMARK_ROOMS": str(rooms),
        "TICKMARK_SETTLE_SECONDS": "0.2", "TICKMARK_SSE_KEEPALIVE_SECONDS": "1",
        "TICKMARK_WEBHOOK_BACKOFF_SECONDS": "0.2", "TICKMARK_WEBHOOK_MAX_ATTEMPTS": "4",
        "TICKMARK_WEBHOOK_TIMEOUT_SECONDS": "3", "TICKMARK_WEBHOOK_ALLOW_LOOPBACK": "1", **extra,
    }


def stop_with_sigterm(proc: subprocess.Popen, timeout: float = 60) -> int:  # type: ignore[type-arg]
    """SIGTERM, as ``docker stop`` or systemd sends it, and the exit status once it has drained; a
    process that does not stop in ``timeout`` is killed with its group and fails the caller."""
    proc.send_signal(signal.SIGTERM)
    try:
        return proc.wait(timeout)
    except subprocess.TimeoutExpired:
        kill_group(proc)
        raise AssertionError(f"pid {proc.pid} did not stop within {timeout:.0f}s of SIGTERM") from None


@contextlib.contextmanager
def serving(pg_dsn: str, workdir: Path, *, log_name: str = "serve.log", **extra: str) -> Iterator[Served]:
    """``tickmark serve`` as a real process on a free port, stopped with SIGTERM on exit; a serve
    that does not then exit 0 fails the test."""
    port = free_port()
    home, rooms = workdir / "home", workdir / "rooms"
    rooms.mkdir(parents=True, exist_ok=True)
    log = workdir / log_name
    with log.open("w") as out:
        # Its own process group, so a test can kill it with its parser processes, as a crash would.
        proc = subprocess.Popen([sys.executable, "-m", "services.cli", "serve", "--port", str(port)], cwd=REPO,
                                env=env_for(pg_dsn, home, rooms, TICKMARK_PORT=str(port), **extra),
                                stdout=out, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    served = Served(f"http://127.0.0.1:{port}", home, rooms, proc, log)
    try:
        deadline = time.time() + 60
        while True:
            try:
                if httpx.get(f"{served.base}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.time() > deadline or proc.poll() is not None:
                raise AssertionError(f"serve did not come up:\n{served.log_text()[-3000:]}")
            time.sleep(0.2)
        yield served
    finally:
        # A test that killed serve itself has nothing to stop.
        code = stop_with_sigterm(proc) if proc.poll() is None else None
    if code not in (None, 0):
        raise AssertionError(f"serve exited {code} after SIGTERM:\n{served.log_text()[-3000:]}")


def start_worker(pg_dsn: str, workdir: Path, name: str, **extra: str) -> subprocess.Popen:  # type: ignore[type-arg]
    """``tickmark worker --concurrency 1`` in its own process group, logging to ``workdir/name.log``."""
    with (workdir / f"{name}.log").open("w") as out:
        return subprocess.Popen([sys.executable, "-m", "services.cli", "worker", "--concurrency", "1"], cwd=REPO,
                                env=env_for(pg_dsn, workdir / "home", workdir / "rooms", **extra), stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)


_WORDS = ("strong", "record", "solid", "robust", "healthy", "steady", "higher", "growing", "resilient", "notable",
          "improved", "sustained", "durable", "excellent", "impressive", "balanced", "consistent", "disciplined",
          "efficient", "profitable")


def many_claims_deck(slides: int, entity: str = "Acme Corporation") -> bytes:
    """Up to 20 slides of three claims each (worded apart, or they read as a repeated footer):
    a run long enough to be interrupted mid-way. Per slide: supported, contradicted, supported."""
    short = entity.split()[0]
    body = "".join(f"## {short} FY2024 Highlights: {w} year\n\n- {w.capitalize()} total revenue of $4.2B\n"
                   f"- {w.capitalize()} operating income of $900M\n- {w.capitalize()} net income of $610M\n\n"
                   for w in _WORDS[:slides])
    return f"# {entity} Investor Day\n\n{body}".encode()


@dataclass
class Frame:
    id: int | None
    event: str
    data: str


def read_sse(response: httpx.Response, *, comments: list[str] | None = None) -> Iterator[Frame]:
    """Frames as a client sees them on the wire: fields up to each blank line."""
    ident: int | None = None
    event, data = "message", []
    for line in response.iter_lines():
        if line == "":
            if data:
                yield Frame(ident, event, "\n".join(data))
            ident, event, data = None, "message", []
        elif line.startswith(":"):
            if comments is not None:
                comments.append(line)
        else:
            name, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if name == "id":
                ident = int(value)
            elif name == "event":
                event = value
            elif name == "data":
                data.append(value)


def wait_for(predicate, timeout: float, what: str, interval: float = 0.1):  # type: ignore[no-untyped-def]
    deadline = time.time() + timeout
    while True:
        got = predicate()
        if got:
            return got
        if time.time() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        time.sleep(interval)


@dataclass
class Received:
    at: float
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    """A local HTTP endpoint that records each POST and answers with the next scripted status."""

    statuses: list[int] = field(default_factory=list)
    received: list[Received] = field(default_factory=list)
    port: int = 0
    _server: http.server.ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    def __enter__(self) -> Receiver:
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                outer.received.append(Received(time.time(), self.path, dict(self.headers.items()), body))
                status = outer.statuses.pop(0) if outer.statuses else 200
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.port = self._server.server_address[1]
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.shutdown()
        self._server.server_close()
