"""Optional model pass: one OpenAI-compatible call per deck proposes claims; parsers.claims validates them.

Without ``TICKMARK_LLM_URL`` nothing here runs and extraction is deterministic. The model only
proposes where to look: a proposal whose number is not printed on its page is dropped and counted.
"""

from __future__ import annotations

import json

import httpx
import msgspec

from parsers.claims import Proposal, ProposalCheck, extract_claims, validate_proposals
from parsers.model import Deck, ParsedDeck
from services.settings import Settings

__all__ = ["CLAIM_SCHEMA", "LLMSettings", "extract_with_model", "propose_claims"]

CLAIM_SCHEMA: dict = {
    "type": "object",
    "properties": {
        "claims": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "page": {"type": "integer"},
                    "text": {"type": "string"},
                    "value": {"type": "string"},
                    "metric": {"type": "string"},
                    "period": {"type": "string"},
                },
                "required": ["page", "text", "value"],
            },
        }
    },
    "required": ["claims"],
}

_PROMPT = (
    "You list checkable financial figures in an investor deck. For every reported (not forecast) figure, "
    "give the page, the sentence or cell it is printed in, the number exactly as printed, the metric it "
    "measures and its period. Skip guidance, projections, superlatives, biographies, dates and page numbers. "
    "Answer only with JSON of the form {\"claims\": [...]}."
)


class LLMSettings(msgspec.Struct, frozen=True):
    """Where the model is and how it takes a JSON schema."""

    url: str
    model: str = "default"
    response_format: str = "json_schema"
    """``json_schema`` (vLLM, OpenAI) or ``json_object`` (llama.cpp: {"type": "json_object", "schema": ...})."""
    timeout_s: float = 120.0
    max_chars: int = 24_000

    @classmethod
    def from_settings(cls, settings: Settings) -> LLMSettings | None:
        """The model endpoint from Tickmark's settings, or None when no model is configured."""
        if not settings.llm_url:
            return None
        return cls(url=settings.llm_url.rstrip("/"), model=settings.llm_model,
                   response_format=settings.llm_response_format, timeout_s=settings.llm_timeout_s)


def _deck_text(deck: Deck, max_chars: int) -> str:
    parts = []
    for s in deck.slides:
        lines = [f"## page {s.page}: {s.title}", *(b.text for b in s.blocks)]
        lines += [" | ".join(row) for t in s.tables for row in t]
        parts.append("\n".join(lines))
    return "\n\n".join(parts)[:max_chars]


def _response_format(kind: str) -> dict:
    if kind == "json_object":
        return {"type": "json_object", "schema": CLAIM_SCHEMA}
    return {"type": "json_schema", "json_schema": {"name": "claims", "schema": CLAIM_SCHEMA, "strict": True}}


def propose_claims(deck: Deck, settings: LLMSettings, client: httpx.Client | None = None) -> list[Proposal]:
    """One chat-completions call for the whole deck; an unparseable answer proposes nothing."""
    body = {
        "model": settings.model,
        "temperature": 0,
        "messages": [
            {"role": "system", "content": _PROMPT},
            {"role": "user", "content": _deck_text(deck, settings.max_chars)},
        ],
        "response_format": _response_format(settings.response_format),
    }
    url = settings.url if settings.url.endswith("/chat/completions") else f"{settings.url}/v1/chat/completions"
    own = client is None
    client = client or httpx.Client(timeout=settings.timeout_s)
    try:
        r = client.post(url, json=body)
        r.raise_for_status()
        content = r.json()["choices"][0]["message"]["content"] or ""
    finally:
        if own:
            client.close()
    try:
        raw = json.loads(content)
    except json.JSONDecodeError:
        return []
    items = raw.get("claims", []) if isinstance(raw, dict) else []
    out = []
    for item in items:
        if not isinstance(item, dict):
            continue
        try:
            out.append(Proposal(page=int(item.get("page", 0)), text=str(item.get("text", "")),
                                value=str(item.get("value", "")), metric=str(item.get("metric", "") or ""),
                                period=str(item.get("period", "") or "")))
        except (TypeError, ValueError):
            continue
    return out


def extract_with_model(deck: Deck, settings: LLMSettings | None = None) -> tuple[ParsedDeck, ProposalCheck | None]:
    """Deterministic claims, plus the model's validated extras when a model is configured."""
    parsed = extract_claims(deck)
    if settings is None:
        return parsed, None
    check = validate_proposals(deck, propose_claims(deck, settings), parsed.claims)
    merged = msgspec.structs.replace(parsed, claims=parsed.claims + check.claims)
    return merged, check
