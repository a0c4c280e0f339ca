// The HTTP API the page reads (services/api.py and services/page.py); one place for every URL.

const TOKEN_KEY = "tickmark.token";

/** The room token this browser holds (set in the header's field), or "" in open mode. */
export function token() {
  return localStorage.getItem(TOKEN_KEY) || "";
}

export function setToken(value) {
  if (value) localStorage.setItem(TOKEN_KEY, value.trim());
  else localStorage.removeItem(TOKEN_KEY);
}

/** For what cannot send headers (EventSource, <img>, download links): the token as a query parameter. */
function withToken(url) {
  const held = token();
  return held ? url + (url.includes("?") ? "&" : "?") + `token=${encodeURIComponent(held)}` : url;
}

function headers(extra = {}) {
  const held = token();
  return held ? { ...extra, Authorization: `Bearer ${held}` } : extra;
}

export const urls = {
  rooms: () => "/api/rooms",
  roomDocuments: (room) => `/api/rooms/${encodeURIComponent(room)}/documents`,
  roomRuns: (room) => `/api/rooms/${encodeURIComponent(room)}/runs`,
  roomEvents: (room, after) => `/api/rooms/${encodeURIComponent(room)}/events` + (after ? `?after=${after}` : ""),
  eventHead: () => "/api/events/head",
  uploadDeck: (room) => `/api/rooms/${encodeURIComponent(room)}/decks`,
  run: (id) => `/api/runs/${id}`,
  runEvents: (id) => `/api/runs/${id}/events`,
  exportCsv: (id) => withToken(`/api/runs/${id}/export.csv`),
  exportXlsx: (id) => withToken(`/api/runs/${id}/export.xlsx`),
  exportPdf: (id) => withToken(`/api/runs/${id}/export.pdf`),
  runDeck: (id) => `/api/runs/${id}/deck`,
  runDeckPage: (id, page) => withToken(`/api/runs/${id}/deck/pages/${page}/image`),
  runHistory: (id) => `/api/runs/${id}/history`,
  table: (documentId, tableId) => `/api/documents/${documentId}/tables/${encodeURIComponent(tableId)}`,
  pageImage: (documentId, page, bbox) => withToken(
    `/api/documents/${documentId}/pages/${page}/image` + (bbox ? `?bbox=${bbox.map((n) => n.toFixed(2)).join(",")}` : "")),
};

export class ApiError extends Error {
  constructor(status, detail) {
    super(detail || `HTTP ${status}`);
    this.status = status;
  }
}

async function failure(response) {
  let detail = response.statusText;
  try {
    const body = await response.json();
    detail = body.reason || body.detail || body.error?.detail || body.error || detail;
  } catch { /* not JSON: keep the status text */ }
  return new ApiError(response.status, typeof detail === "string" ? detail : JSON.stringify(detail));
}

export async function getJSON(url) {
  const response = await fetch(url, { headers: headers({ Accept: "application/json" }) });
  if (!response.ok) throw await failure(response);
  return response.json();
}

export async function uploadDeck(room, file) {
  const form = new FormData();
  form.append("file", file, file.name);
  const response = await fetch(urls.uploadDeck(room), { method: "POST", body: form, headers: headers() });
  if (!response.ok) throw await failure(response);
  const body = await response.json();
  return { runId: body.run_id ?? body.id, eventsUrl: body.events_url ?? body.events };
}

/** Listen to an SSE stream; `handlers` maps event types to functions of the decoded payload.
 * EventSource reconnects by itself and resends Last-Event-ID, so nothing is lost on a blip. */
export function subscribe(url, handlers, { onError } = {}) {
  const source = new EventSource(withToken(url));
  for (const [type, handle] of Object.entries(handlers)) {
    source.addEventListener(type, (message) => handle(JSON.parse(message.data), message.lastEventId));
  }
  if (onError) source.addEventListener("error", () => onError(source));
  return source;
}
