"""BM25 over filing passages in a tantivy index on disk.

tantivy allows one writer per index across processes (LockBusy otherwise), so a writer is
taken per batch, committed, its merge threads awaited, and dropped; a busy lock is retried.
Readers reload after each commit to see it.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Iterable
from pathlib import Path

import tantivy

from parsers.model import Passage
from verdicts.model import PassageHit

__all__ = ["PassageIndex"]

log = logging.getLogger(__name__)
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9&'-]+|\d[\d,.]*")


def _schema() -> tantivy.Schema:
    sb = tantivy.SchemaBuilder()
    sb.add_text_field("room", stored=True, tokenizer_name="raw")
    sb.add_integer_field("document_id", stored=True, indexed=True, fast=True)
    sb.add_text_field("path", stored=True, tokenizer_name="raw")
    sb.add_text_field("section", stored=True, tokenizer_name="raw")
    sb.add_integer_field("page", stored=True)
    sb.add_text_field("text", stored=True, tokenizer_name="en_stem")
    return sb.build()


class PassageIndex:
    """Passages of every room's current filings, searchable by room."""

    def __init__(self, path: Path) -> None:
        path.mkdir(parents=True, exist_ok=True)
        self._schema = _schema()
        self._index = tantivy.Index(self._schema, path=str(path))
        self._lock = threading.Lock()

    def _write(self, fn) -> None:  # type: ignore[no-untyped-def]
        with self._lock:
            for attempt in range(50):
                try:
                    writer = self._index.writer(heap_size=50_000_000, num_threads=1)
                    break
                except ValueError as exc:  # LockBusy: another process is writing
                    if "lock" not in str(exc).lower() or attempt == 49:
                        raise
                    time.sleep(0.1)
            fn(writer)
            writer.commit()
            writer.wait_merging_threads()
            self._index.reload()

    def replace_document(self, room: str, document_id: int, path: str, passages: Iterable[Passage],
                         *, drop: Iterable[int] = ()) -> int:
        """Index ``passages`` for a document version, dropping earlier copies and ``drop`` ids."""
        items = list(passages)

        def write(writer: tantivy.IndexWriter) -> None:
            for old in (document_id, *drop):
                writer.delete_documents_by_term("document_id", old)
            for p in items:
                writer.add_document(
                    tantivy.Document(room=room, document_id=document_id, path=path,
                                     section=p.section or "", page=p.page or 0, text=p.text)
                )

        self._write(write)
        return len(items)

    def remove_documents(self, document_ids: Iterable[int]) -> None:
        ids = list(document_ids)
        if ids:
            self._write(lambda w: [w.delete_documents_by_term("document_id", i) for i in ids])

    def search(self, room: str, text: str, limit: int = 10) -> list[PassageHit]:
        words = [w for w in _WORD.findall(text) if len(w) > 1]
        if not words:
            return []
        terms = " ".join(f'"{w}"' if not w[0].isalpha() else w for w in words)
        try:
            query = self._index.parse_query(terms, ["text"])
        except ValueError:
            return []
        scoped = tantivy.Query.boolean_query(
            [
                (tantivy.Occur.Must, query),
                (tantivy.Occur.Must, tantivy.Query.term_query(self._schema, "room", room)),
            ]
        )
        searcher = self._index.searcher()
        hits = []
        for score, address in searcher.search(scoped, limit).hits:
            doc = searcher.doc(address)
            hits.append(
                PassageHit(
                    document=doc["path"][0],
                    section=doc["section"][0] or None,
                    text=doc["text"][0],
                    page=doc["page"][0] or None,
                    score=float(score),
                )
            )
        return hits
