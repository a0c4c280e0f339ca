"""The HTTP application: health, metrics and (in later modules) the API and the page."""

from __future__ import annotations

import time

import asyncpg
from litestar import Litestar, MediaType, Request, Response, get
from litestar.datastructures import State
from litestar.di import Provide
from litestar.openapi import OpenAPIConfig

from services.access import authorize, provide_access
from services.database import schema_status
from services.sse import open_streams
from services.sqlfiles import query

__all__ = ["build_app"]

_STARTED = time.time()


@get("/healthz", media_type=MediaType.JSON)
async def healthz(state: State) -> Response[dict[str, object]]:
    """Database reachable, migrations applied, and how far the bus lags behind the event log."""
    core = state.core
    body: dict[str, object] = {}
    healthy = True
    try:
        async with core.pool.acquire(timeout=5) as conn:
            applied, known = await schema_status(conn)
            log_head = int(await conn.fetchval(query("last_event_id")))
        body["database"] = "ok"
        body["migrations"] = {"applied": applied, "known": known}
        healthy &= applied == known
        body["bus"] = {
            "log_head": log_head,
            "process_head": core.bus.head,
            "lag": max(0, log_head - core.bus.head) if core.bus.head else 0,
            "listening": core.bus.listening,
        }
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError) as exc:
        healthy = False
        body["database"] = f"unreachable: {exc}"
    body["status"] = "ok" if healthy else "degraded"
    return Response(body, status_code=200 if healthy else 503)


@get("/metrics", media_type="text/plain; version=0.0.4")
async def metrics(state: State) -> str:
    """Prometheus text format, read from the tables so every process reports the same truth."""
    core = state.core
    lines = [
        "# HELP tickmark_uptime_seconds Seconds since this process started.",
        "# TYPE tickmark_uptime_seconds gauge",
        f"tickmark_uptime_seconds {time.time() - _STARTED:.1f}",
    ]
    async with core.pool.acquire() as conn:
        log_head = int(await conn.fetchval(query("last_event_id")))
        grouped = {
            "tickmark_documents": ("status", await conn.fetch(query("metrics_documents"))),
            "tickmark_runs": ("status", await conn.fetch(query("metrics_runs"))),
            "tickmark_verdicts": ("verdict", await conn.fetch(query("metrics_verdicts"))),
            "tickmark_webhook_deliveries": ("status", await conn.fetch(query("metrics_deliveries"))),
        }
        jobs = await conn.fetch(query("metrics_jobs"))
        facts = int(await conn.fetchval(query("metrics_facts")))
    for name, (label, rows) in grouped.items():
        lines += [f"# HELP {name} Rows by {label}.", f"# TYPE {name} gauge"]
        lines += [f'{name}{{{label}="{r[label]}"}} {r["n"]}' for r in rows]
    lines += ["# HELP tickmark_jobs Queue jobs by entrypoint and status.", "# TYPE tickmark_jobs gauge"]
    lines += [f'tickmark_jobs{{entrypoint="{r["entrypoint"]}",status="{r["status"]}"}} {r["n"]}' for r in jobs]
    lines += [
        "# HELP tickmark_facts Current facts in the store.",
        "# TYPE tickmark_facts gauge",
        f"tickmark_facts {facts}",
        "# HELP tickmark_event_log_head Highest event id in the log.",
        "# TYPE tickmark_event_log_head gauge",
        f"tickmark_event_log_head {log_head}",
        "# HELP tickmark_bus_lag_events Events in the log this process has not yet fanned out.",
        "# TYPE tickmark_bus_lag_events gauge",
        f"tickmark_bus_lag_events {max(0, log_head - core.bus.head) if core.bus.head else 0}",
        "# HELP tickmark_sse_streams SSE responses this process is streaming.",
        "# TYPE tickmark_sse_streams gauge",
        f"tickmark_sse_streams {open_streams()}",
        "# HELP tickmark_bus_delivered_total Events handed to in-process subscribers.",
        "# TYPE tickmark_bus_delivered_total counter",
        f"tickmark_bus_delivered_total {core.bus.delivered}",
    ]
    return "\n".join(lines) + "\n"


def _too_large(request: Request[object, object, State], exc: Exception) -> Response[dict[str, object]]:
    """413 as JSON that names the limit: litestar's own refusal (at the body size) says only "too large"."""
    limit = request.app.state.core.settings.max_upload_bytes
    detail = getattr(exc, "detail", "")
    if not detail or detail == "Request Entity Too Large":
        detail = f"the request body is over the upload limit of {limit} bytes (TICKMARK_MAX_UPLOAD_MB)"
    extra = getattr(exc, "extra", None) or {"limit_bytes": limit}
    return Response({"status_code": 413, "detail": detail, "extra": extra}, status_code=413)


def build_app(core: object, route_handlers: list[object] | None = None) -> Litestar:
    """The litestar app over an already-built ``Core`` (see services.bootstrap)."""
    settings = getattr(core, "settings", None)
    return Litestar(
        route_handlers=[healthz, metrics, *(route_handlers or [])],
        state=State({"core": core}),
        # Every /api/ route: the token resolved, the room it names checked, `access` injected.
        guards=[authorize],
        dependencies={"access": Provide(provide_access, sync_to_thread=False)},
        exception_handlers={413: _too_large},
        request_max_body_size=getattr(settings, "max_upload_bytes", 100 * 1024 * 1024),
        openapi_config=OpenAPIConfig(title="Tickmark", version="0.1.0", path="/schema"),
    )
