"""The section tree of a filing (Parts, Items, statements, notes, subheadings) and passages for BM25."""

from __future__ import annotations

import hashlib
import re

from parsers.model import Passage, Section

__all__ = ["SectionTree", "heading_level", "chunk_passages", "short_hash"]

_PART = re.compile(r"^PART\s+(IV|I{1,3})\b\.?", re.I)
_ITEM = re.compile(r"^ITEM\s+(\d{1,2}[A-C]?)\s*(?:[.:\-—–]|\s|$)", re.I)
_STATEMENT = re.compile(
    r"^(?:condensed\s+)?(?:consolidated\s+)?(?:statements?\s+of\s+(?:operations|income|earnings|cash\s+flows?|"
    r"comprehensive\s+(?:income|loss)|(?:changes\s+in\s+)?(?:shareholders|stockholders|share\s?owners)['’]?\s+equity|"
    r"(?:changes\s+in\s+)?equity|financial\s+position)|balance\s+sheets?)\b",
    re.I,
)
_NOTE = re.compile(r"^NOTE\s+\d{1,2}\b\s*[.:\-—–]?", re.I)


def short_hash(*parts: object) -> str:
    """Twelve hex digits of SHA-1 over the parts: stable ids from content, not from memory."""
    return hashlib.sha1("\x1f".join(map(str, parts)).encode()).hexdigest()[:12]


def heading_level(text: str, bold: bool) -> int | None:
    """1 Part, 2 Item, 3 financial statement or note, 4 bold subheading; None for body text."""
    n = len(text)
    if n > 200 or n < 3:
        return None
    if _PART.match(text) and n < 90:
        return 1
    if _ITEM.match(text) and (bold or n < 140) and not text.rstrip().endswith((",", ";")):
        return 2
    if n < 130 and _STATEMENT.match(text):
        if "consolidated" in text.lower() or bold or text.isupper():
            return 3
    if _NOTE.match(text) and n < 150:
        return 3
    if bold and n < 110 and not text.endswith((".", ",", ";")) and any(ch.isalpha() for ch in text):
        return 4
    return None


class SectionTree:
    """Builds sections in reading order; ids hash the heading path and the occurrence among siblings."""

    __slots__ = ("sections", "_stack", "_seen", "_pages")

    def __init__(self) -> None:
        self.sections: list[Section] = []
        self._stack: list[tuple[int, str, str, str]] = []  # (level, id, path, title)
        self._seen: dict[tuple[str, str], int] = {}
        self._pages: dict[str, list[int]] = {}

    @property
    def current(self) -> str | None:
        return self._stack[-1][1] if self._stack else None

    @property
    def current_title(self) -> str:
        return self._stack[-1][3] if self._stack else ""

    def open(self, title: str, level: int, page: int | None = None) -> str:
        while self._stack and self._stack[-1][0] >= level:
            self._stack.pop()
        parent_id = self._stack[-1][1] if self._stack else None
        parent_path = self._stack[-1][2] if self._stack else ""
        key = re.sub(r"\s+", " ", title.lower()).strip()
        n = self._seen.get((parent_path, key), 0)
        self._seen[(parent_path, key)] = n + 1
        path = f"{parent_path}/{key}"
        sid = short_hash(path, n)
        self._stack.append((level, sid, path, title))
        self.sections.append(Section(id=sid, parent=parent_id, title=title, level=level,
                                     pages=(page, page) if page else None))
        return sid

    def level_of_current(self) -> int:
        return self._stack[-1][0] if self._stack else 0

    def titles(self) -> list[str]:
        """Titles from the root to the current section."""
        return [t for *_, t in self._stack]

    def touch_page(self, page: int) -> None:
        """Extend the current sections' page ranges to ``page`` (PDFs)."""
        for _, sid, _, _ in self._stack:
            self._pages.setdefault(sid, []).append(page)

    def finish(self) -> list[Section]:
        if not self._pages:
            return self.sections
        out = []
        for s in self.sections:
            pages = self._pages.get(s.id)
            if pages:
                lo = min(pages + ([s.pages[0]] if s.pages else []))
                out.append(Section(s.id, s.parent, s.title, s.level, (lo, max(pages))))
            else:
                out.append(s)
        return out


_SENTENCE = re.compile(r"(?<=[.!?])[\"”’)]?\s+(?=[A-Z(“\"$])")


def chunk_passages(text: str, section: str | None, ordinal: int, page: int | None = None,
                   max_sentences: int = 3, max_chars: int = 700) -> list[Passage]:
    """Split one paragraph into passages of up to three sentences, never across the paragraph."""
    if len(text) <= max_chars:
        sentences = [text] if text.count(". ") < max_sentences else _SENTENCE.split(text)
    else:
        sentences = _SENTENCE.split(text)
    out: list[Passage] = []
    buf: list[str] = []
    size = 0
    for s in sentences:
        if buf and (len(buf) >= max_sentences or size + len(s) > max_chars):
            out.append(Passage(short_hash(section, ordinal, len(out)), section, " ".join(buf), page))
            buf, size = [], 0
        buf.append(s)
        size += len(s) + 1
    if buf:
        out.append(Passage(short_hash(section, ordinal, len(out)), section, " ".join(buf), page))
    return out
