"""Named SQL from ``sql/queries/*.sql`` and the numbered migrations in ``sql/``."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

__all__ = ["SQL_DIR", "Migration", "migrations", "query"]

SQL_DIR = Path(__file__).resolve().parent.parent / "sql"
_NAME = re.compile(r"^--\s*name:\s*(\w+)\s*$", re.M)


@cache
def _queries() -> dict[str, str]:
    named: dict[str, str] = {}
    for path in sorted((SQL_DIR / "queries").glob("*.sql")):
        parts = _NAME.split(path.read_text())
        for name, body in zip(parts[1::2], parts[2::2], strict=True):
            if name in named:
                raise RuntimeError(f"query {name!r} is defined twice (second in {path.name})")
            named[name] = body.strip().rstrip(";")
    return named


def query(name: str) -> str:
    """The SQL text of a named query; a typo fails loudly at first use."""
    try:
        return _queries()[name]
    except KeyError:
        raise KeyError(f"no query named {name!r} in {SQL_DIR / 'queries'}") from None


class Migration:
    __slots__ = ("version", "name", "sql")

    def __init__(self, version: int, name: str, sql: str) -> None:
        self.version, self.name, self.sql = version, name, sql


def migrations() -> list[Migration]:
    """``NNN_name.sql`` files in version order."""
    found = []
    for path in sorted(SQL_DIR.glob("[0-9][0-9][0-9]_*.sql")):
        found.append(Migration(int(path.name[:3]), path.stem[4:], path.read_text()))
    versions = [m.version for m in found]
    if len(set(versions)) != len(versions):
        raise RuntimeError(f"two migrations share a number in {SQL_DIR}")
    return found
