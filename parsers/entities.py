"""Company names as keys: "Apple Inc.", "APPLE INC" and "Apple" are one entity."""

from __future__ import annotations

import re

__all__ = ["entity_key", "same_entity"]

_SUFFIX = re.compile(
    r"[,.]?\s+(inc|incorporated|corp|corporation|co|company|ltd|limited|plc|n\.?v|s\.?a|ag|llc|lp|holdings?|group)\.?$",
    re.I,
)


def entity_key(name: str | None) -> str:
    """Lower-case name without legal suffixes or punctuation: the join key between decks and filings."""
    if not name:
        return ""
    t = name.strip().replace("’", "'").replace("&amp;", "&")
    t = re.sub(r"^the\s+", "", t, flags=re.I)
    prev = None
    while prev != t:
        prev = t
        t = _SUFFIX.sub("", t).strip(" ,.")
    t = re.sub(r"[^a-z0-9&]+", " ", t.lower())
    return re.sub(r"\s+", " ", t).strip()


def same_entity(a: str | None, b: str | None) -> bool:
    """True when one name's words begin the other's: "Meta" and "Meta Platforms, Inc."."""
    ka, kb = entity_key(a).split(), entity_key(b).split()
    if not ka or not kb:
        return False
    short, long_ = sorted((ka, kb), key=len)
    return long_[: len(short)] == short
