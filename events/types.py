"""Every event on the bus: one msgspec tagged union, the contract between services.

The tag (``type``) is the event name everywhere: the ``event`` table, the NOTIFY routing,
the SSE ``event:`` field and webhook payloads.
"""

from __future__ import annotations

from typing import Any, Union

import msgspec

__all__ = [
    "ClaimExtracted",
    "DeckSubmitted",
    "DocumentChanged",
    "DocumentFailed",
    "DocumentParsed",
    "EVENT_TYPES",
    "Event",
    "FactsUpdated",
    "RuleEvaluated",
    "RunFinished",
    "VerdictChanged",
    "VerdictReached",
    "WebhookDelivered",
    "WebhookFailed",
    "decode_event",
    "encode_event",
    "event_type",
]


class _Base(msgspec.Struct, tag_field="type", kw_only=True, omit_defaults=True):
    room: str | None = None
    run_id: int | None = None


class DocumentChanged(_Base, tag="document.changed"):
    path: str
    sha256: str
    size: int
    document_id: int | None = None
    removed: bool = False


class DocumentParsed(_Base, tag="document.parsed"):
    document_id: int
    path: str
    format: str
    entity: str | None
    sections: int
    tables: int
    facts: int
    passages: int
    elapsed_ms: float
    cached: bool = False


class DocumentFailed(_Base, tag="document.failed"):
    path: str
    reason: str
    detail: str
    document_id: int | None = None


class FactsUpdated(_Base, tag="facts.updated"):
    document_id: int
    entity: str | None
    metrics: list[str]
    periods: list[str]
    superseded_document_id: int | None = None


class DeckSubmitted(_Base, tag="deck.submitted"):
    path: str
    trigger: str
    document_id: int | None = None


class ClaimExtracted(_Base, tag="claim.extracted"):
    claim_id: str
    page: int
    text: str
    claim: dict[str, Any]


class RuleEvaluated(_Base, tag="rule.evaluated"):
    claim_id: str
    rule: str
    outcome: str
    detail: str


class VerdictReached(_Base, tag="verdict.reached"):
    claim_id: str
    verdict: str
    reason: str
    result: dict[str, Any]


class VerdictChanged(_Base, tag="verdict.changed"):
    claim_id: str
    text: str
    before: str
    after: str
    reason: str
    cause_document: str | None = None
    previous_run_id: int | None = None


class RunFinished(_Base, tag="run.finished"):
    counts: dict[str, int]
    elapsed_ms: float
    status: str = "finished"
    error: str | None = None
    discarded: int = 0


class WebhookDelivered(_Base, tag="webhook.delivered"):
    webhook_id: int
    delivery_id: int
    status_code: int
    attempts: int


class WebhookFailed(_Base, tag="webhook.failed"):
    webhook_id: int
    delivery_id: int
    error: str
    attempts: int
    will_retry: bool


Event = Union[
    DocumentChanged,
    DocumentParsed,
    DocumentFailed,
    FactsUpdated,
    DeckSubmitted,
    ClaimExtracted,
    RuleEvaluated,
    VerdictReached,
    VerdictChanged,
    RunFinished,
    WebhookDelivered,
    WebhookFailed,
]

EVENT_TYPES: dict[str, type] = {t.__struct_config__.tag: t for t in Event.__args__}  # type: ignore[attr-defined]

_encoder = msgspec.json.Encoder(decimal_format="string")
_decoder = msgspec.json.Decoder(Event)


def encode_event(event: Event) -> bytes:
    return _encoder.encode(event)


def decode_event(body: bytes | str) -> Event:
    return _decoder.decode(body)


def event_type(event: Event) -> str:
    return type(event).__struct_config__.tag  # type: ignore[attr-defined, return-value]
