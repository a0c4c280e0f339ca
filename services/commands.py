"""What each ``tickmark`` subcommand does; ``services.cli`` only parses arguments."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path
from typing import Any

import msgspec

from events.bus import EventFilter
from parsers.model import ParseFailure
from services.bootstrap import open_core
from services.rooms import ingest_room, room_name_for
from services.settings import Settings

__all__ = ["claims", "ingest", "parse", "token", "verify"]

_BADGE = {"supported": "green", "contradicted": "red", "different-basis": "yellow", "no-evidence": "bright_black"}


_json = msgspec.json.Encoder(decimal_format="string")


def _print_json(obj: Any) -> None:
    sys.stdout.write(_json.encode(obj).decode())
    sys.stdout.write("\n")


def _unreadable(path: Path) -> str | None:
    """Why ``path`` cannot be read as one input file, or None."""
    if path.is_dir():
        return "is a directory, not a file"
    if not path.exists():
        return "no such file"
    if not path.is_file():
        return "is not a regular file"
    try:
        with path.open("rb"):
            pass
    except OSError as exc:
        return f"cannot be read: {exc.strerror or exc}"
    if path.stat().st_size == 0:
        return "is empty"
    return None


def _read(path: str) -> bytes:
    p = Path(path)
    if (why := _unreadable(p)) is not None:
        raise SystemExit(f"tickmark: {path}: {why}")
    return p.read_bytes()


def parse(file: str, as_json: bool) -> int:
    from parsers.filings import parse_filing

    started = time.perf_counter()
    out = parse_filing(_read(file), Path(file).name)
    if isinstance(out, ParseFailure):
        print(f"tickmark parse: {file}: {out.reason}: {out.detail}", file=sys.stderr)
        if as_json:
            _print_json({"error": {"reason": out.reason, "detail": out.detail}})
        return 1
    body = msgspec.to_builtins(out)
    body["passages"] = len(out.passages)
    body["elapsed_ms"] = round((time.perf_counter() - started) * 1000, 1)
    if as_json:
        _print_json(body)
        return 0
    d = out.document
    print(f"{file}: {d.format} {d.form or ''} {d.entity or '(entity unknown)'}; fiscal year end {d.fiscal_year_end}")
    print(f"  periods {', '.join(d.periods) or '-'}")
    print(f"  {len(out.sections)} sections, {len(out.tables)} tables, {len(out.facts)} facts, "
          f"{len(out.passages)} passages in {body['elapsed_ms']} ms")
    return 0


def claims(deck: str, as_json: bool, settings: Settings) -> int:
    from parsers.claims import extract_claims
    from parsers.decks import load_deck

    loaded = load_deck(_read(deck), Path(deck).name)
    if isinstance(loaded, ParseFailure):
        print(f"tickmark claims: {deck}: {loaded.reason}: {loaded.detail}", file=sys.stderr)
        return 1
    if settings.llm_url:
        from services.llm_claims import LLMSettings, extract_with_model

        parsed, _ = extract_with_model(loaded, LLMSettings.from_settings(settings))
    else:
        parsed = extract_claims(loaded)
    if as_json:
        _print_json({"deck": deck, "entity": parsed.entity, "claims": parsed.claims, "discarded": parsed.discarded})
        return 0
    for c in parsed.claims:
        print(f"p{c.page:<3} {c.kind:<7} {c.metric or c.label:<28} {c.period or '-':<11} {c.printed:<12} {c.text[:70]}")
    print(f"{len(parsed.claims)} claims, {len(parsed.discarded)} discarded")
    return 0


async def _ingest(settings: Settings, room_dir: Path, room: str | None) -> int:
    async with open_core(settings) as core:
        name = room or room_name_for(room_dir, settings.rooms)
        outcomes = await ingest_room(core.documents, name, room_dir)
    for o in outcomes:
        note = f"{o.facts} facts" if o.status == "parsed" else f"{o.reason}: {o.detail}"
        print(f"{o.status:<7} {'(cached) ' if o.cached else ''}{o.path}: {note}")
    return 0 if all(o.status != "failed" for o in outcomes) else 1


def ingest(settings: Settings, room_dir: str, room: str | None) -> int:
    path = Path(room_dir)
    if not path.is_dir():
        raise SystemExit(f"tickmark: {room_dir}: not a folder")
    return asyncio.run(_ingest(settings, path, room))


async def _verify(settings: Settings, deck: Path, room_dir: Path, as_json: bool, pdf: Path | None = None) -> int:
    from rich.console import Console

    err = Console(stderr=True)
    data = deck.read_bytes()
    async with open_core(settings) as core:
        room = room_name_for(room_dir, settings.rooms)
        outcomes = await ingest_room(core.documents, room, room_dir, skip={deck})
        reasons = await _failure_reasons(core, room, outcomes)
        for path, (reason, detail) in reasons.items():
            err.print(f"skipped {path}: {reason}: {detail}", style="yellow", markup=False, highlight=False)
        run_id = await core.verifier.start_run(room, deck.name, trigger="cli")
        work = asyncio.create_task(core.verifier.run(run_id, room, deck.name, data))
        if not as_json:
            stream = asyncio.create_task(_stream(core, run_id, err))
            await asyncio.wait([work, stream], return_when=asyncio.FIRST_EXCEPTION)
            if work.done() and work.exception() is not None:
                stream.cancel()
            else:
                await stream
        result = await work
        if pdf is not None and "error" not in result:
            from services.pdfexport import export_for_deck

            pdf.write_bytes(await export_for_deck(core.parsers, data, deck.name, result))
            err.print(f"tickmarked deck written to {pdf}")
    result["deck"] = str(deck)
    result["room"] = str(room_dir)
    result["documents"] = [{"path": o.path, "status": o.status, "reason": reasons.get(o.path, (o.reason,))[0]}
                           for o in outcomes]
    if "error" in result:
        error = result["error"]
        why = f"{error.get('reason')}: {error.get('detail')}" if isinstance(error, dict) else str(error)
        print(f"tickmark: {deck}: cannot verify this deck: {why}", file=sys.stderr)
    if as_json:
        _print_json(result)
    else:
        counts = result.get("counts", {})
        print("  ".join(f"{k}: {v}" for k, v in counts.items()) + f"  ({len(result['discarded'])} discarded, "
              f"{result['elapsed_ms']:.0f} ms)")
    return 0 if "error" not in result else 1


async def _failure_reasons(core: Any, room: str, outcomes: list[Any]) -> dict[str, tuple[str, str]]:
    """(reason, detail) of every failed file; a failure cached from an earlier run carries none
    itself, so it is read back from the room's recorded documents."""
    from services.runs import documents_of

    failed = [o for o in outcomes if o.status == "failed"]
    recorded: dict[str, tuple[str | None, str | None]] = {}
    if any(not o.reason for o in failed):
        recorded = {d.path: (d.error_reason, d.error_detail) for d in await documents_of(core.pool, room)}
    out = {}
    for o in failed:
        reason, detail = (o.reason, o.detail) if o.reason else recorded.get(o.path, (None, None))
        out[o.path] = (reason or "failed", detail or "no reason was recorded when it failed")
    return out


async def _stream(core: Any, run_id: int, err: Any) -> None:
    """Print verdicts as they reach the bus, with a progress bar over the run's claims."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    total = 0
    with Progress(TextColumn("verifying"), BarColumn(), MofNCompleteColumn(), console=err, transient=True) as bar:
        task = bar.add_task("claims", total=None)
        async for stored in core.bus.subscribe(0, EventFilter(run_id=run_id)):
            if stored.type == "claim.extracted":
                total += 1
                bar.update(task, total=total)
            elif stored.type == "verdict.reached":
                ev = stored.event
                bar.advance(task)
                colour = _BADGE.get(ev.verdict, "white")
                bar.console.print(f"[{colour}]{ev.verdict:<15}[/] p{ev.result['page']:<3} "
                                  f"{ev.result['text'][:60]:<60}  {ev.reason}", highlight=False, soft_wrap=True)
            elif stored.type == "run.finished":
                return


def verify(settings: Settings, deck: str, room_dir: str, as_json: bool, *, pdf: str | None = None) -> int:
    deck_path, room_path = Path(deck), Path(room_dir)
    if (why := _unreadable(deck_path)) is not None:
        raise SystemExit(f"tickmark: {deck}: {why}")
    if not room_path.is_dir():
        raise SystemExit(f"tickmark: {room_dir}: not a folder")
    pdf_path = Path(pdf).resolve() if pdf else None
    if pdf_path is not None and not pdf_path.parent.is_dir():
        raise SystemExit(f"tickmark: {pdf}: its folder does not exist")
    return asyncio.run(_verify(settings, deck_path.resolve(), room_path.resolve(), as_json, pdf_path))


async def _token(settings: Settings, action: str, room: str | None, name: str, ident: str | None) -> int:
    from services import access
    from services.database import connect_pool, migrate, resolve_dsn

    pool = await connect_pool(await resolve_dsn(settings), max_size=2)
    try:
        await migrate(pool)
        if action == "create":
            assert room is not None
            made = await access.create_token(pool, room, name)
            print(made.token)
            print(f"token {made.id} for room {room!r}; it is shown only now, store it safely", file=sys.stderr)
            return 0
        if action == "revoke":
            assert ident is not None
            revoked = await access.revoke_token(pool, ident)
            for token_id, token_room in revoked:
                print(f"revoked token {token_id} (room {token_room!r})")
            if not revoked:
                print(f"tickmark: no live token {ident!r}", file=sys.stderr)
            return 0 if revoked else 1
        for t in await access.list_tokens(pool):
            state = f"revoked {t.revoked_at:%Y-%m-%d}" if t.revoked_at else "live"
            print(f"{t.id:>4}  {t.prefix}…  {t.room:<24} {state:<18} {t.name}")
        return 0
    finally:
        await pool.close()


def token(settings: Settings, action: str, *, room: str | None = None, name: str = "", ident: str | None = None) -> int:
    """``tickmark token create ROOM`` prints a new token once; ``revoke`` and ``list`` manage them."""
    from services.access import room_name_problem

    if action == "create" and room is not None and (problem := room_name_problem(room)) is not None:
        raise SystemExit(f"tickmark: {problem}")
    return asyncio.run(_token(settings, action, room, name, ident))
