"""The process lifetime: SIGTERM (what ``docker stop``, systemd and Kubernetes send) stops ``serve``
and ``tickmark verify`` as Ctrl+C does, with everything they started, and the embedded database's
list of holders is repaired so the last process out still stops it."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import psutil
import pytest

from tests.conftest import embedded_home
from tests.e2e._e2e import REPO, deck_md, filing_html, free_port, stop_with_sigterm, wait_for, write_atomically

pytestmark = pytest.mark.slow


@pytest.fixture
def home() -> Iterator[Path]:
    """TICKMARK_HOME for a process with its own embedded database."""
    path = embedded_home("tickmark-lifetime-")
    yield path
    shutil.rmtree(path, ignore_errors=True)


def _env(home: Path, rooms: Path, **extra: str) -> dict[str, str]:
    """The embedded database in ``home``: these tests are about who stops it."""
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    return {**env, "TICKMARK_HOME": str(home), "TICKMARK_ROOMS": str(rooms), "TICKMARK_SETTLE_SECONDS": "0.2",
            **extra}


def _postmaster(home: Path) -> psutil.Process | None:
    pid_file = home / "pgdata" / "postmaster.pid"
    try:
        return psutil.Process(int(pid_file.read_text().split()[0]))
    except (FileNotFoundError, ValueError, IndexError, psutil.NoSuchProcess):
        return None


def _family(proc: subprocess.Popen, home: Path) -> list[psutil.Process]:  # type: ignore[type-arg]
    """The process, everything it started (parser processes, their fork server and resource
    tracker), and the embedded PostgreSQL with its own processes."""
    root = psutil.Process(proc.pid)
    family = [root, *root.children(recursive=True)]
    if (pg := _postmaster(home)) is not None:
        family += [pg, *pg.children(recursive=True)]
    return family


def _all_gone(family: list[psutil.Process]) -> list[str]:
    _, alive = psutil.wait_procs(family, timeout=20)
    return [f"{p.pid} {' '.join(p.cmdline())[:120]}" for p in alive if p.is_running()]


def _handles(home: Path) -> list[int]:
    path = home / "pgdata" / ".handle_pids.json"
    return json.loads(path.read_text()) if path.exists() else []


def _has_parser_processes(proc: subprocess.Popen) -> bool:  # type: ignore[type-arg]
    try:
        return any("forkserver" in " ".join(c.cmdline()) for c in psutil.Process(proc.pid).children(recursive=True))
    except psutil.Error:
        return False


def test_serve_stopped_with_sigterm_drains_stops_what_it_started_and_exits_0(home: Path, tmp_path: Path):
    rooms, port = tmp_path / "rooms", free_port()
    write_atomically(rooms / "acme" / "acme-10k.html", filing_html())
    with (tmp_path / "serve.log").open("w") as log:
        proc = subprocess.Popen([sys.executable, "-m", "services.cli", "serve", "--port", str(port)], cwd=REPO,
                                env=_env(home, rooms), stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        base = f"http://127.0.0.1:{port}"

        def parsed() -> bool:
            try:
                docs = httpx.get(f"{base}/api/rooms/acme/documents", timeout=2)
            except httpx.TransportError:
                return proc.poll() is not None  # ended: the asserts below say how
            return docs.status_code == 200 and [d["status"] for d in docs.json()] == ["parsed"]

        wait_for(parsed, 90, "serve up with the filing parsed")
        assert proc.poll() is None, (tmp_path / "serve.log").read_text()[-3000:]
        family = _family(proc, home)
        assert _postmaster(home) is not None and any("forkserver" in " ".join(p.cmdline()) for p in family)
        code = stop_with_sigterm(proc)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
    log_text = (tmp_path / "serve.log").read_text()
    assert code == 0, log_text[-3000:]
    assert "SIGTERM: stopping" in log_text and "tickmark stopped" in log_text
    assert _all_gone(family) == []
    assert _postmaster(home) is None and _handles(home) == []


def test_verify_stopped_with_sigterm_mid_ingest_stops_what_it_started_and_exits_143(home: Path, tmp_path: Path):
    room = tmp_path / "room"
    # Enough unique filings that the ingest is still under way when the signal comes.
    for i in range(12):
        write_atomically(room / f"acme-{i}.html", filing_html(entity=f"Acme {i} Corporation", padding_kb=1500))
    write_atomically(tmp_path / "deck.md", deck_md())
    with (tmp_path / "verify.log").open("w") as log:
        proc = subprocess.Popen([sys.executable, "-m", "services.cli", "verify", str(tmp_path / "deck.md"),
                                 "--room", str(room)], cwd=REPO, env=_env(home, tmp_path / "rooms"), stdout=log,
                                stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_for(lambda: _has_parser_processes(proc) or proc.poll() is not None, 120, "verify parsing the room")
        assert proc.poll() is None, "verify finished before it could be stopped mid-ingest"
        family = _family(proc, home)
        code = stop_with_sigterm(proc)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
    assert code == 128 + signal.SIGTERM, (tmp_path / "verify.log").read_text()[-3000:]
    assert _all_gone(family) == []
    assert _postmaster(home) is None and _handles(home) == []


def test_a_handle_left_by_a_killed_process_is_dropped_so_the_last_one_out_stops_postgres(home: Path,
                                                                                        tmp_path: Path):
    room = tmp_path / "room"
    room.mkdir()
    # A holder killed outright, as SIGKILL or the OOM killer would: PostgreSQL runs on, and the
    # holder's PID stays listed.
    killed = subprocess.run([sys.executable, "-c", "import os, pathlib\n"
                             "from services.database import embedded_server_dsn\n"
                             f"embedded_server_dsn(pathlib.Path({str(home / 'pgdata')!r}))\n"
                             "os.kill(os.getpid(), 9)\n"], cwd=REPO, env=_env(home, tmp_path / "rooms"),
                            capture_output=True, text=True, timeout=120)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    stale = _handles(home)
    assert len(stale) == 1 and not psutil.pid_exists(stale[0])
    assert (postgres := _postmaster(home)) is not None
    out = subprocess.run([sys.executable, "-m", "services.cli", "ingest", str(room)], cwd=REPO,
                         env=_env(home, tmp_path / "rooms"), capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert _all_gone([postgres]) == [] and _handles(home) == []
