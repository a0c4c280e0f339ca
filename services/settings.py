"""Every setting Tickmark reads, read once from the environment with defaults."""

from __future__ import annotations

import os
from pathlib import Path

import msgspec

__all__ = ["Settings", "load_settings"]


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    home: Path
    """Data directory: the embedded database, the search index, uploaded decks."""
    database_url: str | None
    """An external PostgreSQL; when unset the embedded server under ``home`` is used."""
    host: str = "127.0.0.1"
    port: int = 8000
    rooms: Path = Path("rooms")
    watch_polling: bool = False
    workers: int = 2
    """Job slots per process for parse, verify and deliver jobs."""
    max_upload_bytes: int = 100 * 1024 * 1024
    upload_inflight_bytes: int = 400 * 1024 * 1024
    """Upload bytes all requests in progress may hold at once; past it an upload answers 503."""
    max_file_bytes: int = 300 * 1024 * 1024
    parse_timeout_s: float = 120.0
    parse_memory_bytes: int = 3 * 1024**3
    """Address-space cap for a parser process: a hostile file fails alone."""
    llm_url: str | None = None
    llm_model: str = "default"
    llm_response_format: str = "json_schema"
    llm_timeout_s: float = 120.0
    heartbeat_seconds: float = 30.0
    """A job whose worker stops heartbeating for this long is taken by another worker."""
    public_url: str | None = None
    """Base of the links in webhook payloads; default ``http://host:port``."""
    settle_seconds: float = 0.1
    """A watched file is parsed once its size and sha256 are unchanged over this interval."""
    webhook_max_attempts: int = 6
    webhook_backoff_seconds: float = 2.0
    """The first retry waits this long; each later one twice as long as the one before."""
    webhook_timeout_seconds: float = 10.0
    sse_keepalive_seconds: float = 15.0
    grant_recheck_seconds: float = 2.0
    """How often open SSE streams re-check their token: a revoked one's streams end within this."""
    auth: str = "auto"
    """``required``: every API request needs a room token; ``open``: none needed (a token still
    narrows to its room); ``auto``: open only while ``host`` is a loopback address."""
    webhook_allow_loopback: bool = False
    webhook_allow: tuple[str, ...] = ()
    """When set, every address a webhook host resolves to must be in one of these networks."""
    webhook_deny: tuple[str, ...] = ()
    """Networks denied besides link-local, cloud metadata, unspecified and multicast addresses."""

    @property
    def index_dir(self) -> Path:
        return self.home / "index"

    @property
    def pgdata(self) -> Path:
        return self.home / "pgdata"


def _flag(value: str | None) -> bool:
    return (value or "").strip().lower() in {"1", "true", "yes", "on"}


def _choice(value: str, name: str, allowed: tuple[str, ...]) -> str:
    value = value.strip().lower() or allowed[0]
    if value not in allowed:
        raise ValueError(f"{name}={value!r}: expected one of {', '.join(allowed)}")
    return value


def _networks(value: str | None) -> tuple[str, ...]:
    return tuple(part.strip() for part in (value or "").split(",") if part.strip())


def load_settings(env: dict[str, str] | None = None) -> Settings:
    """Settings from ``env`` (default: the process environment)."""
    e = os.environ if env is None else env
    home = Path(e.get("TICKMARK_HOME") or Path.home() / ".local" / "share" / "tickmark").expanduser()
    return Settings(
        home=home,
        database_url=e.get("DATABASE_URL") or None,
        host=e.get("TICKMARK_HOST", "127.0.0.1"),
        port=int(e.get("TICKMARK_PORT", "8000")),
        rooms=Path(e.get("TICKMARK_ROOMS", "rooms")).expanduser(),
        watch_polling=_flag(e.get("TICKMARK_WATCH_POLLING")),
        workers=int(e.get("TICKMARK_WORKERS", "2")),
        max_upload_bytes=int(e.get("TICKMARK_MAX_UPLOAD_MB", "100")) * 1024 * 1024,
        upload_inflight_bytes=int(e.get("TICKMARK_UPLOAD_INFLIGHT_MB", "400")) * 1024 * 1024,
        max_file_bytes=int(e.get("TICKMARK_MAX_FILE_MB", "300")) * 1024 * 1024,
        parse_timeout_s=float(e.get("TICKMARK_PARSE_TIMEOUT_S", "120")),
        parse_memory_bytes=int(e.get("TICKMARK_PARSE_MEMORY_MB", "3072")) * 1024 * 1024,
        llm_url=e.get("TICKMARK_LLM_URL") or None,
        llm_model=e.get("TICKMARK_LLM_MODEL", "default"),
        llm_response_format=e.get("TICKMARK_LLM_RESPONSE_FORMAT", "json_schema"),
        llm_timeout_s=float(e.get("TICKMARK_LLM_TIMEOUT_S", "120")),
        heartbeat_seconds=float(e.get("TICKMARK_HEARTBEAT_SECONDS", "30")),
        public_url=(e.get("TICKMARK_PUBLIC_URL") or "").rstrip("/") or None,
        settle_seconds=float(e.get("TICKMARK_SETTLE_SECONDS", "0.1")),
        webhook_max_attempts=int(e.get("TICKMARK_WEBHOOK_MAX_ATTEMPTS", "6")),
        webhook_backoff_seconds=float(e.get("TICKMARK_WEBHOOK_BACKOFF_SECONDS", "2")),
        webhook_timeout_seconds=float(e.get("TICKMARK_WEBHOOK_TIMEOUT_SECONDS", "10")),
        sse_keepalive_seconds=float(e.get("TICKMARK_SSE_KEEPALIVE_SECONDS", "15")),
        grant_recheck_seconds=float(e.get("TICKMARK_GRANT_RECHECK_SECONDS", "2")),
        auth=_choice(e.get("TICKMARK_AUTH", "auto"), "TICKMARK_AUTH", ("auto", "required", "open")),
        webhook_allow_loopback=_flag(e.get("TICKMARK_WEBHOOK_ALLOW_LOOPBACK")),
        webhook_allow=_networks(e.get("TICKMARK_WEBHOOK_ALLOW")),
        webhook_deny=_networks(e.get("TICKMARK_WEBHOOK_DENY")),
    )
