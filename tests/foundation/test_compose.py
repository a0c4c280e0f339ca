"""compose.yaml, checked as data: no Docker engine runs here."""

from __future__ import annotations

from pathlib import Path

import yaml

COMPOSE = Path(__file__).resolve().parents[2] / "compose.yaml"


def load() -> dict:
    return yaml.safe_load(COMPOSE.read_text())


def test_compose_has_postgres_app_worker_and_an_optional_vllm():
    services = load()["services"]
    assert services["postgres"]["image"].startswith("postgres:18")
    assert services["app"]["command"][:2] == ["tickmark", "serve"]
    assert services["worker"]["command"] == ["tickmark", "worker"]
    assert services["vllm"]["profiles"] == ["llm"]
    assert "profiles" not in services["app"] and "profiles" not in services["worker"]


def test_app_and_worker_share_the_database_and_wait_for_it():
    services = load()["services"]
    for name in ("app", "worker"):
        env = services[name]["environment"]
        assert env["DATABASE_URL"].startswith("postgresql://")
        assert "@postgres:5432/" in env["DATABASE_URL"]
        assert services[name]["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert services["app"]["environment"]["DATABASE_URL"] == services["worker"]["environment"]["DATABASE_URL"]


def test_vllm_serves_an_open_weight_instruct_model():
    vllm = load()["services"]["vllm"]
    assert "vllm" in vllm["image"]
    model = vllm["command"][vllm["command"].index("--model") + 1]
    assert "Instruct" in model
