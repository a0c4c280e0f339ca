"""The ``tickmark`` command line."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from collections.abc import Sequence

from services import redact
from services.database import DatabaseUnavailable
from services.settings import Settings, load_settings

__all__ = ["main"]


def _parser(settings: Settings) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tickmark", description="Tick and tie an investor deck against a deal room.")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    s = sub.add_parser("serve", help="API, page, room watcher and workers in one process")
    s.add_argument("--host", default=settings.host)
    s.add_argument("--port", type=int, default=settings.port)

    w = sub.add_parser("worker", help="take parse, verify and deliver jobs from the shared queue")
    w.add_argument("--concurrency", type=int, default=settings.workers)

    i = sub.add_parser("ingest", help="parse every filing in a room folder (cached by content)")
    i.add_argument("dir")
    i.add_argument("--room", help="room name (default: the folder's name)")

    pa = sub.add_parser("parse", help="parse one filing and print what was found")
    pa.add_argument("file")
    pa.add_argument("--json", action="store_true", help="print one JSON object")

    c = sub.add_parser("claims", help="extract the checkable claims from a deck")
    c.add_argument("deck")
    c.add_argument("--json", action="store_true", help="print one JSON object")

    v = sub.add_parser("verify", help="verify a deck against a room of filings")
    v.add_argument("deck")
    v.add_argument("--room", required=True, help="folder holding the room's filings")
    v.add_argument("--json", action="store_true", help="print one JSON object when done")
    v.add_argument("--pdf", metavar="OUT", help="also write the deck with every claim tickmarked, as a PDF")

    t = sub.add_parser("token", help="per-room API tokens: create, revoke, list")
    tsub = t.add_subparsers(dest="token_command", required=True, metavar="ACTION")
    tc = tsub.add_parser("create", help="make a token for one room; it is printed once")
    tc.add_argument("room")
    tc.add_argument("--name", default="", help="a label, e.g. who holds it")
    tr = tsub.add_parser("revoke", help="revoke a token by its id or printed prefix")
    tr.add_argument("token")
    tsub.add_parser("list", help="every token's id, room, label and prefix (never the token)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    settings = load_settings()
    args = _parser(settings).parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.command in {"serve", "worker"} else logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    redact.install()
    terminated: list[int] = []
    if args.command not in {"serve", "worker"}:  # those two stop on either signal and exit 0
        _interrupt_on_sigterm(terminated)
    try:
        return _dispatch(args, settings)
    except DatabaseUnavailable as exc:
        print(f"tickmark: {exc}", file=sys.stderr)
        return 3
    except KeyboardInterrupt:
        # Stopped before finishing, after its own clean-up: 128 + the signal, as a shell reports it.
        return 128 + (terminated[0] if terminated else signal.SIGINT)


def _interrupt_on_sigterm(terminated: list[int]) -> None:
    """SIGTERM stops a command exactly as Ctrl+C does: the running work is cancelled, what it
    started (the embedded database's handle, the parser processes) is stopped on the way out."""

    def interrupt(signum: int, frame: object) -> None:
        terminated.append(signum)
        if signal.getsignal(signal.SIGINT) in (signal.SIG_IGN, signal.SIG_DFL, None):
            raise KeyboardInterrupt  # started with Ctrl+C ignored (``cmd &`` in a script)
        signal.raise_signal(signal.SIGINT)  # asyncio.run's handler cancels the main task

    signal.signal(signal.SIGTERM, interrupt)


def _dispatch(args: argparse.Namespace, settings: Settings) -> int:
    if args.command == "serve":
        from services.server import serve

        return asyncio.run(serve(settings, host=args.host, port=args.port))
    if args.command == "worker":
        from services.server import worker

        return asyncio.run(worker(settings, concurrency=args.concurrency))
    from services import commands

    if args.command == "parse":
        return commands.parse(args.file, args.json)
    if args.command == "claims":
        return commands.claims(args.deck, args.json, settings)
    if args.command == "ingest":
        return commands.ingest(settings, args.dir, args.room)
    if args.command == "verify":
        return commands.verify(settings, args.deck, args.room, args.json, pdf=args.pdf)
    if args.command == "token":
        return commands.token(settings, args.token_command, room=getattr(args, "room", None),
                              name=getattr(args, "name", ""), ident=getattr(args, "token", None))
    raise AssertionError(f"unhandled command {args.command}")


if __name__ == "__main__":
    sys.exit(main())
