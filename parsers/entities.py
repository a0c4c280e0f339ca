"""Company names as keys: "Apple Inc.", "APPLE INC" and "Apple" are one entity."""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

__all__ = ["entity_key", "printed_names", "same_entity", "short_forms"]

_SUFFIX = re.compile(
    r"[,.]?\s+(inc|incorporated|corp|corporation|co|company|ltd|limited|plc|n\.?v|s\.?a|ag|llc|lp|holdings?|group)\.?$",
    re.I,
)


@lru_cache(maxsize=8192)
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


@lru_cache(maxsize=16384)
def same_entity(a: str | None, b: str | None) -> bool:
    """True when one name's words begin the other's: "Meta" and "Meta Platforms, Inc."."""
    ka, kb = entity_key(a).split(), entity_key(b).split()
    if not ka or not kb:
        return False
    short, long_ = sorted((ka, kb), key=len)
    return long_[: len(short)] == short


_LEGAL_TAIL = re.compile(
    r"(?:,?\s+(?:Inc|Incorporated|Corp|Corporation|Co|Company|Ltd|Limited|PLC|plc|N\.?V|S\.?A|AG|SE|LLC|LP|"
    r"Holdings?|Group)\.?)+$",
    re.I,
)
_NAME_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9.'’-]*|&")


def short_forms(name: str) -> list[str]:
    """Names a reader may use for a registrant, longest first: "Meta Platforms", "Meta" for
    "Meta Platforms, Inc."; "Amazon" for "Amazon.com, Inc."; the initials "IBM", "P&G"."""
    bare = _LEGAL_TAIL.sub("", re.sub(r"^the\s+", "", name.strip(), flags=re.I)).strip(" ,.")
    words = _NAME_TOKEN.findall(bare)
    out: list[str] = []
    for n in range(len(words), 0, -1):
        form = " ".join(words[:n])
        if form and not form.endswith("&") and form not in out:
            out.append(form)
    if words and words[0].lower().endswith(".com"):
        out.append(words[0][:-4])
    caps = [w for w in words if w != "&"]
    if len(caps) >= 2 and all(w[:1].isupper() for w in caps):
        out.append("&".join("".join(w[0] for w in part.split()) for part in " ".join(words).split(" & ")))
    return out


def printed_names(name: str, text: str, ticker: str | None = None, *, at_least: int = 3) -> list[str]:
    """The names a filing itself prints for its registrant: the legal name, each short form the text
    uses on its own at least ``at_least`` times (in the casing it prints most), and the ticker.

    A one-word short form counts only when the text never prints it in lower case, so "Union" (labor
    unions) is not Union Pacific while "Apple", "Meta" and "Mastercard" are their companies; initials
    ("IBM", "P&G") are matched in capitals only.
    """
    forms = short_forms(name)
    words = forms[0].split() if forms else []
    out = [name]
    for k, form in enumerate(forms):
        initials = form.isupper() and " " not in form and len(form) <= 5 and k == len(forms) - 1 and len(forms) > 1
        flags = 0 if initials else re.I
        # "Union" inside "Union Pacific" is the long name again, not the short one on its own.
        n = len(form.split())
        going_on = re.escape(" " + words[n]) if not initials and n < len(words) else ""
        pattern = re.compile(r"(?<![A-Za-z0-9&])" + re.escape(form) + r"(?![A-Za-z0-9&])"
                             + (f"(?!{going_on})" if going_on else ""), flags)
        seen = Counter(m.group(0) for m in pattern.finditer(text))
        total = sum(seen.values())
        if k > 0 and total < at_least:
            continue
        if k > 0 and " " not in form and "&" not in form and not initials and seen[form.lower()] * 5 > total:
            continue
        printed = max(seen, key=lambda v: seen[v]) if seen else form
        if printed not in out:
            out.append(printed)
    if ticker and ticker.strip() and ticker.strip() not in out:
        out.append(ticker.strip())
    return out
