// The HTTP API the page reads (services/api.py and services/page.py); one place for every URL.

export const urls = {
  rooms: () => "/api/rooms",
  roomDocuments: (room) => `/api/rooms/${encodeURIComponent(room)}/documents`,
  roomRuns: (room) => `/api/rooms/${encodeURIComponent(room)}/runs`,
  roomEvents: (room, after) => `/api/rooms/${encodeURIComponent(room)}/events` + (after ? `?after=${after}` : ""),
  eventHead: () => "/api/events/head",
  uploadDeck: (room) => `/api/rooms/${encodeURIComponent(room)}/decks`,
  run: (id) => `/api/runs/${id}`,
  runEvents: (id) => `/api/runs/${id}/events`,
  exportCsv: (id) => `/api/runs/${id}/export.csv`,
  exportXlsx: (id) => `/api/runs/${id}/export.xlsx`,
  table: (documentId, tableId) => `/api/documents/${documentId}/tables/${encodeURIComponent(tableId)}`,
  pageImage: (documentId, page, bbox) =>
    `/api/documents/${documentId}/pages/${page}/image` + (bbox ? `?bbox=${bbox.map((n) => n.toFixed(2)).join(",")}` : ""),
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
    detail = body.detail || body.error?.detail || body.error || detail;
  } catch { /* not JSON: keep the status text */ }
  return new ApiError(response.status, typeof detail === "string" ? detail : JSON.stringify(detail));
}

export async function getJSON(url) {
  const response = await fetch(url, { headers: { Accept: "application/json" } });
  if (!response.ok) throw await failure(response);
  return response.json();
}

export async function uploadDeck(room, file) {
  const form = new FormData();
  form.append("file", file, file.name);
  const response = await fetch(urls.uploadDeck(room), { method: "POST", body: form });
  if (!response.ok) throw await failure(response);
  const body = await response.json();
  return { runId: body.run_id ?? body.id, eventsUrl: body.events_url ?? body.events };
}

/** Listen to an SSE stream; `handlers` maps event types to functions of the decoded payload.
 * EventSource reconnects by itself and resends Last-Event-ID, so nothing is lost on a blip. */
export function subscribe(url, handlers, { onError } = {}) {
  const source = new EventSource(url);
  for (const [type, handle] of Object.entries(handlers)) {
    source.addEventListener(type, (message) => handle(JSON.parse(message.data), message.lastEventId));
  }
  if (onError) source.addEventListener("error", () => onError(source));
  return source;
}
