"""Running the pure parsers out of process: bounded in time and memory, parallel across cores.

A hostile or broken file can hang a parser or balloon its memory; in a child process with an
address-space limit and a deadline, that costs one failed document, never the service.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import ctypes
import gc
import hashlib
import multiprocessing
import os
import resource
import signal
import sys
import time
from functools import cache
from pathlib import Path

import msgspec

from parsers.model import Deck, ParsedDocument, ParseFailure

__all__ = ["CachedParse", "LoadedDeck", "ParserPool", "parser_version"]


class CachedParse(msgspec.Struct):
    """What parsing one blob of bytes gave: a document or the reason there is none."""

    document: ParsedDocument | None = None
    failure: ParseFailure | None = None


class LoadedDeck(msgspec.Struct):
    """A deck's slides, or the reason it has none."""

    deck: Deck | None = None
    failure: ParseFailure | None = None


_encoder = msgspec.msgpack.Encoder(decimal_format="string")
_decoder = msgspec.msgpack.Decoder(CachedParse)
_deck_decoder = msgspec.msgpack.Decoder(LoadedDeck)


def encode_parse(result: CachedParse) -> bytes:
    return _encoder.encode(result)


def decode_parse(blob: bytes) -> CachedParse:
    return _decoder.decode(blob)


@cache
def parser_version() -> str:
    """A digest of the parser sources: the parse cache is keyed by it, so a parser change re-parses."""
    root = Path(__file__).resolve().parent.parent / "parsers"
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _limit_memory(max_bytes: int) -> None:
    try:
        resource.setrlimit(resource.RLIMIT_AS, (max_bytes, max_bytes))
    except (ValueError, OSError):
        pass
    _die_with_parent()


def _die_with_parent() -> None:
    # A worker's parent is the fork server, which exits when the service does, however it ends;
    # without this a worker of a killed service waits on its job queue forever.
    if sys.platform == "linux":
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL))


_PR_SET_PDEATHSIG = 1


def _guarded(parse, data: bytes, name: str) -> object:  # type: ignore[no-untyped-def]
    try:
        return parse(data, name)
    except MemoryError:
        return ParseFailure("too-large", "parsing needed more memory than a document may use; the file is "
                                         "unusually large or built to exhaust memory")
    except RecursionError:
        return ParseFailure("hostile", "the file nests its structure too deeply to parse safely")
    except Exception as exc:  # noqa: BLE001 - a parser bug must become a recorded failure, not a crash
        return ParseFailure("corrupt", f"the parser could not read this file ({type(exc).__name__}: {exc})")


def _parse_filing(data: bytes, name: str, max_bytes: int) -> bytes:
    from parsers.filings import parse_filing

    out = _guarded(lambda d, n: parse_filing(d, n, max_bytes=max_bytes), data, name)
    result = CachedParse(document=out) if isinstance(out, ParsedDocument) else CachedParse(failure=out)  # type: ignore[arg-type]
    return encode_parse(result)


def _load_deck(data: bytes, name: str) -> bytes:
    from parsers.decks import load_deck

    out = _guarded(load_deck, data, name)
    return _encoder.encode(LoadedDeck(deck=out) if isinstance(out, Deck) else LoadedDeck(failure=out))  # type: ignore[arg-type]


def _cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


_FILINGS, _DECKS = "filings", "decks"
_WARM_UP_FILING = (
    b"<html><body><h1>Annual report</h1><p>Net sales were $1.2 billion for the fiscal year ended September 28, "
    b"2024, up 5% compared to 2023.</p><table><tr><td>(in millions)</td><td>2024</td><td>2023</td></tr>"
    b"<tr><td>Net sales</td><td>$ 391,035</td><td>$ 383,285</td></tr><tr><td>Gross margin</td><td>46.2%</td>"
    b"<td>44.1%</td></tr></table></body></html>"
)
# Filing parsers yield the CPU to this process (re-verification, flips, deliveries, streams) and to
# the deck parser: during a room drop the first filing's flips must not queue behind the tenth parse.
_NICENESS = {_FILINGS: 10, _DECKS: 0}


def _start_parser(max_bytes: int, niceness: int) -> None:
    _limit_memory(max_bytes)
    if niceness:
        with contextlib.suppress(OSError):
            os.nice(niceness)
    # Started on the first file, a parser process made that file (the one a room drop waits on)
    # take twice as long: the process started, then code paths and caches ran for the first time.
    with contextlib.suppress(Exception):
        _parse_filing(_WARM_UP_FILING, "warm-up.html", len(_WARM_UP_FILING))
    # A parse builds a document tree of many small objects that live until it ends: the collector's
    # default pace walks them again and again (about a tenth of a parse's CPU). The modules and caches
    # loaded so far never die, so they leave the collector's sight for good.
    gc.freeze()
    gc.set_threshold(100_000, 50, 100)


def _started() -> None:
    """A task that only makes the pool start a process (whose initializer warms it up)."""


class ParserPool:
    """Parser processes with a memory cap and a per-file deadline: ``workers`` for filings (at most one
    per core; all cores when None), and one of their own for decks, so a deck is never queued behind
    a room drop's filings."""

    def __init__(self, workers: int | None = None, *, memory_bytes: int = 3 * 1024**3,
                 timeout_s: float = 120.0, max_file_bytes: int = 300 * 1024**2) -> None:
        # Never more filing parsers than cores: more would only take turns.
        self._workers = {_FILINGS: min(workers, _cores()) if workers else _cores(), _DECKS: 1}
        self._memory = memory_bytes
        self._timeout = timeout_s
        self._max_file_bytes = max_file_bytes
        self._pools: dict[str, concurrent.futures.ProcessPoolExecutor] = {}

    @property
    def workers(self) -> int:
        """Filings parsed at once."""
        return self._workers[_FILINGS]

    def _executor(self, lane: str) -> concurrent.futures.ProcessPoolExecutor:
        if lane not in self._pools:
            # Not fork: this process has threads (asyncio's executor, asyncpg), and a child forked
            # while one of them holds a lock hangs. The fork server starts clean, with the parsers
            # preloaded once, and forks each worker from there.
            ctx = multiprocessing.get_context("forkserver")
            ctx.set_forkserver_preload(["parsers.filings", "parsers.decks"])
            self._pools[lane] = concurrent.futures.ProcessPoolExecutor(
                self._workers[lane], mp_context=ctx, initializer=_start_parser,
                initargs=(self._memory, _NICENESS[lane]),
            )
        return self._pools[lane]

    async def warm(self) -> None:
        """Start every parser process now, each warming itself up, rather than on the first file."""
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(self._executor(lane), _started)
                               for lane in (_FILINGS, _DECKS) for _ in range(self._workers[lane])))

    async def parse_filing(self, data: bytes, name: str) -> CachedParse:
        out = await self._run(_FILINGS, _parse_filing, data, name, self._max_file_bytes)
        return CachedParse(failure=out) if isinstance(out, ParseFailure) else decode_parse(out)

    async def load_deck(self, data: bytes, name: str) -> Deck | ParseFailure:
        out = await self._run(_DECKS, _load_deck, data, name)
        if isinstance(out, ParseFailure):
            return out
        loaded = _deck_decoder.decode(out)
        return loaded.deck if loaded.deck is not None else loaded.failure or ParseFailure("corrupt", "no slides")

    async def _run(self, lane: str, fn, *args):  # type: ignore[no-untyped-def]
        """``fn(*args)`` in a worker process; a stall or a dead worker becomes a ParseFailure."""
        loop = asyncio.get_running_loop()
        try:
            future = loop.run_in_executor(self._executor(lane), fn, *args)
            return await asyncio.wait_for(future, self._timeout)
        except asyncio.TimeoutError:
            self._reset(lane)
            return ParseFailure("hostile", f"parsing did not finish within {self._timeout:.0f} s; the file is "
                                           "too complex or built to stall a parser")
        except concurrent.futures.process.BrokenProcessPool:
            self._reset(lane)
            return ParseFailure("hostile", "the parser process died on this file (memory exhausted or a "
                                           "crash in a library)")

    def _reset(self, lane: str) -> None:
        pool = self._pools.pop(lane, None)
        if pool is not None:
            for proc in list(getattr(pool, "_processes", {}).values()):
                proc.kill()
            pool.shutdown(wait=False, cancel_futures=True)

    def close(self, grace_s: float = 10.0) -> None:
        """Stop the parser processes: a parse under way gets ``grace_s`` to finish (its job is
        re-taken anyway if it does not), then its process is killed."""
        pools, self._pools = list(self._pools.values()), {}
        processes = []
        for pool in pools:
            processes.extend(getattr(pool, "_processes", {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
        deadline = time.monotonic() + grace_s
        for proc in processes:
            proc.join(max(0.0, deadline - time.monotonic()))
            if proc.is_alive():
                proc.kill()
                proc.join(5)
