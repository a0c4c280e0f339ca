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
    max_file_bytes: int = 300 * 1024 * 1024
    llm_url: str | None = None
    llm_model: str = "default"
    llm_response_format: str = "json_schema"
    heartbeat_seconds: float = 30.0
    """A job whose worker stops heartbeating for this long is taken by another worker."""

    @property
    def index_dir(self) -> Path:
        return self.home / "index"

    @property
    def pgdata(self) -> Path:
        return self.home / "pgdata"


def _flag(value: str | None) -> bool:
    return (value or "").strip().lower() in {"1", "true", "yes", "on"}


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
        max_file_bytes=int(e.get("TICKMARK_MAX_FILE_MB", "300")) * 1024 * 1024,
        llm_url=e.get("TICKMARK_LLM_URL") or None,
        llm_model=e.get("TICKMARK_LLM_MODEL", "default"),
        llm_response_format=e.get("TICKMARK_LLM_RESPONSE_FORMAT", "json_schema"),
        heartbeat_seconds=float(e.get("TICKMARK_HEARTBEAT_SECONDS", "30")),
    )
