"""The HTTP application: health, metrics, the API docs, and (in later modules) the API and the page."""

from __future__ import annotations

import html
import time
from http import HTTPStatus
from typing import Any

import asyncpg
from litestar import Litestar, MediaType, Request, Response, get
from litestar.datastructures import State
from litestar.di import Provide
from litestar.exceptions import HTTPException, ValidationException
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import JsonRenderPlugin, OpenAPIRenderPlugin

from services.access import authorize, provide_access
from services.database import schema_status
from services.sse import GrantWatch, open_streams
from services.sqlfiles import query
from services.uploads import MULTIPART_SLACK, InFlight

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


_SOURCES = {"query": "query parameter", "path": "path parameter", "header": "header", "cookie": "cookie",
            "body": "body"}


def _reason(exc: HTTPException) -> str:
    if not (isinstance(exc, ValidationException) and isinstance(exc.extra, list) and exc.extra):
        return str(exc.detail)
    said = []
    for e in exc.extra:
        if not isinstance(e, dict):
            continue
        source = str(getattr(e.get("source"), "value", e.get("source") or "body"))
        where = _SOURCES.get(source, source) + (f" {e['key']!r}" if e.get("key") else "")
        said.append(f"{where}: {e.get('message', 'invalid')}")
    return "; ".join(said) or str(exc.detail)


def _refusal(request: Request[object, object, State], exc: Exception) -> Response[dict[str, object]]:
    """Every 4xx/5xx the app raises, as JSON with ``error`` (the status in words) and ``reason``
    (what was wrong, in full); ``detail`` and ``extra`` stay for older clients."""
    if not isinstance(exc, HTTPException):
        exc = HTTPException(status_code=500, detail="Internal Server Error")
    status = exc.status_code
    detail = str(exc.detail)
    extra: Any = exc.extra
    if status == 413 and (not detail or detail == "Request Entity Too Large"):
        # litestar's own refusal at the body size says only "too large"
        limit = request.app.state.core.settings.max_upload_bytes
        detail = f"the request body is over the upload limit of {limit} bytes (TICKMARK_MAX_UPLOAD_MB)"
        extra = extra or {"limit_bytes": limit}
    body: dict[str, object] = {"status_code": status, "error": HTTPStatus(status).phrase.lower(),
                               "reason": detail if status == 413 else _reason(exc), "detail": detail}
    if extra:
        body["extra"] = extra
    return Response(body, status_code=status, headers=exc.headers)


class LocalDocs(OpenAPIRenderPlugin):
    """The API reference as one self-contained page that reads ``openapi.json``: nothing is
    loaded from anywhere else, so it works offline."""

    def __init__(self) -> None:
        super().__init__(path="/", favicon="", style="")

    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        title = html.escape(str(openapi_schema.get("info", {}).get("title", "API")))
        return _DOCS_PAGE.replace("{title}", title).replace("{json}", html.escape(self.get_openapi_json_route(request))
                                                             ).encode()


_DOCS_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title} API</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:60rem;padding:0 1rem;color:#222}
h1{font-size:1.4rem} .op{border:1px solid #ddd;border-radius:6px;margin:.6rem 0;padding:.5rem .8rem}
.m{display:inline-block;min-width:4.2rem;font-weight:700;text-transform:uppercase}
.get{color:#0a6} .post{color:#06c} .delete{color:#c33} .put,.patch{color:#a60}
code,pre{font-family:ui-monospace,monospace;font-size:12.5px} pre{background:#f6f6f6;padding:.5rem;overflow:auto}
small{color:#666}
</style></head><body>
<h1>{title} API</h1>
<p>The machine-readable schema is <a href="{json}"><code>{json}</code></a>.</p>
<div id="ops">Loading…</div>
<script>
fetch("{json}").then(r => r.json()).then(spec => {
  const out = document.getElementById("ops"); out.textContent = "";
  const text = (tag, value, cls) => { const e = document.createElement(tag); e.textContent = value;
                                      if (cls) e.className = cls; return e; };
  for (const [path, item] of Object.entries(spec.paths || {})) {
    for (const [method, op] of Object.entries(item)) {
      if (typeof op !== "object" || !op.responses) continue;
      const box = document.createElement("details"); box.className = "op";
      const head = document.createElement("summary");
      head.append(text("span", method, "m " + method), text("code", path), " ", text("small", op.summary || ""));
      box.append(head);
      if (op.description) box.append(text("p", op.description));
      const params = (op.parameters || []).map(p => `${p.in} ${p.name}${p.required ? " (required)" : ""}`);
      if (params.length) box.append(text("p", "Parameters: " + params.join(", ")));
      box.append(text("p", "Responses: " + Object.keys(op.responses).join(", ")));
      box.append(text("pre", JSON.stringify(op, null, 2)));
      out.append(box);
    }
  }
}).catch(err => { document.getElementById("ops").textContent = "Could not read the schema: " + err; });
</script></body></html>
"""


def build_app(core: object, route_handlers: list[object] | None = None) -> Litestar:
    """The litestar app over an already-built ``Core`` (see services.bootstrap)."""
    settings = getattr(core, "settings", None)
    max_upload = getattr(settings, "max_upload_bytes", 100 * 1024 * 1024)
    return Litestar(
        route_handlers=[healthz, metrics, *(route_handlers or [])],
        state=State({
            "core": core,
            "grants": GrantWatch(getattr(core, "pool", None), getattr(settings, "grant_recheck_seconds", 2.0)),
            "uploads": InFlight(getattr(settings, "upload_inflight_bytes", 4 * max_upload)),
        }),
        # Every /api/ route: path parameters checked, the token resolved, the room it names
        # checked, `access` injected.
        guards=[authorize],
        dependencies={"access": Provide(provide_access, sync_to_thread=False)},
        exception_handlers={HTTPException: _refusal},
        request_max_body_size=max_upload + MULTIPART_SLACK,
        openapi_config=OpenAPIConfig(title="Tickmark", version="0.1.0", path="/schema",
                                     render_plugins=[LocalDocs(), JsonRenderPlugin()]),
    )
