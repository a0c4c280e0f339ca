"""Keep secrets out of logs: DSN passwords, bearer tokens and webhook secrets are masked on
every handler, whatever logger the record came from (uvicorn's access log included)."""

from __future__ import annotations

import logging
import re
import threading

__all__ = ["RedactSecrets", "install", "redact", "remember"]

MASK = "***"
_PATTERNS = (
    # scheme://user:password@host -> scheme://user:***@host
    (re.compile(r"(?P<keep>\b[a-z][a-z0-9+.-]*://[^/\s:@]*:)[^@\s/]+(?=@)", re.I), rf"\g<keep>{MASK}"),
    (re.compile(r"(?P<keep>\bpassword\s*[=:]\s*)[^\s&;,'\"]+", re.I), rf"\g<keep>{MASK}"),
    (re.compile(r"(?P<keep>\bBearer\s+)[^\s'\",]+", re.I), rf"\g<keep>{MASK}"),
    (re.compile(r"(?P<keep>[?&](?:token|access_token|secret)=)[^&\s'\"]+", re.I), rf"\g<keep>{MASK}"),
    (re.compile(r"\btm_[A-Za-z0-9_-]{16,}"), f"tm_{MASK}"),
)
_known: set[str] = set()
_lock = threading.Lock()


def remember(secret: str | None) -> None:
    """Mask this exact string from now on (a webhook secret, say, which has no telltale shape)."""
    if secret and len(secret) >= 6:
        with _lock:
            _known.add(secret)


def redact(text: str) -> str:
    for pattern, replacement in _PATTERNS:
        text = pattern.sub(replacement, text)
    for secret in tuple(_known):
        if secret in text:
            text = text.replace(secret, MASK)
    return text


class RedactSecrets(logging.Filter):
    """Masks secrets in a record's message, arguments and traceback before any handler writes it."""

    def filter(self, record: logging.LogRecord) -> bool:
        # Arguments are masked one by one rather than merged into the message: some formatters
        # (uvicorn's access log) read record.args themselves.
        if isinstance(record.args, tuple):
            record.args = tuple(_masked(a) for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: _masked(v) for k, v in record.args.items()}
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        elif record.msg is not None:
            record.msg = redact(str(record.msg))
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        return True


def _masked(value: object) -> object:
    if value is None or isinstance(value, (bool, int, float)):
        return value
    return redact(str(value))


def install() -> None:
    """Add the filter to every handler configured so far (root's and each named logger's)."""
    loggers = [logging.getLogger()] + [lg for lg in logging.Logger.manager.loggerDict.values()
                                       if isinstance(lg, logging.Logger)]
    for logger in loggers:
        for handler in logger.handlers:
            if not any(isinstance(f, RedactSecrets) for f in handler.filters):
                handler.addFilter(RedactSecrets())
