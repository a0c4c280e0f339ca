// The rooms list, and one room: drop a deck, see its documents parse live, get back to past runs.

import { getJSON, subscribe, uploadDeck, urls } from "./api.js";
import { announce, h, replaceChildren } from "./dom.js";
import { VERDICTS, VERDICT_GLYPHS, VERDICT_LABELS, formatTime } from "./format.js";
import { changeBanners } from "./changes.js";

const DECK_TYPES = ".pdf,.pptx,.md,.markdown,.txt";
const STATUS_LABELS = { parsed: "Parsed", failed: "Failed", pending: "Parsing", removed: "Removed" };

export function roomsView(main, setCrumbs) {
  setCrumbs([["Rooms", null]]);
  document.title = "Rooms · Tickmark";
  const list = h("div", { class: "room-list" }, h("p", { class: "muted" }, "Loading rooms…"));
  replaceChildren(main,
    h("div", { class: "page-head" }, h("div", {}, h("h1", { tabindex: "-1" }, "Deal rooms"),
      h("p", { class: "subtitle" }, "Each room is a folder of filings; decks dropped into a room are checked against it."))),
    list);
  getJSON(urls.rooms()).then((body) => {
    const rooms = (Array.isArray(body) ? body : body.rooms || []).map((r) => (typeof r === "string" ? { name: r } : r));
    if (!rooms.length) {
      replaceChildren(list, h("p", { class: "empty" }, "No rooms yet. Add a folder under the rooms directory (TICKMARK_ROOMS)."));
      return;
    }
    replaceChildren(list, h("ul", { class: "rooms" }, rooms.map((room) => {
      const name = room.name ?? room.room;
      const facts = roomFacts(room);
      return h("li", {}, h("a", { class: "room-link", href: `#/rooms/${encodeURIComponent(name)}` },
        h("span", { class: "room-name" }, name),
        facts ? h("span", { class: "room-facts" }, facts) : null));
    })));
  }).catch((error) => replaceChildren(list, h("p", { class: "problem", role: "alert" }, `Rooms could not be loaded: ${error.message}`)));
  return () => {};
}

function roomFacts(room) {
  const bits = [];
  const count = (key, word) => {
    if (typeof room[key] === "number") bits.push(`${room[key]} ${word}${room[key] === 1 ? "" : "s"}`);
  };
  count("filings_parsed", "filing");
  if (room.decks) count("decks", "deck");
  if (room.filings_pending) bits.push(`${room.filings_pending} parsing`);
  if (room.filings_failed) bits.push(`${room.filings_failed} failed`);
  if (room.watched === false) bits.push("uploads only");
  return bits.join(" · ");
}

export function roomView(main, room, setCrumbs) {
  setCrumbs([["Rooms", "#/"], [room, null]]);
  document.title = `${room} · Tickmark`;
  const streams = [];
  const documentsBody = h("tbody", {}, h("tr", {}, h("td", { colspan: "5", class: "muted" }, "Loading documents…")));
  const runsList = h("div", {}, h("p", { class: "muted" }, "Loading runs…"));
  const banners = h("div", { class: "banners", "aria-live": "polite" });
  const showChange = changeBanners(banners);
  const uploadStatus = h("p", { class: "upload-status", role: "status" });
  const input = h("input", { type: "file", id: "deck-file", class: "visually-hidden", accept: DECK_TYPES,
                             onchange: () => input.files[0] && send(input.files[0]) });
  const dropzone = h("div", { class: "dropzone" },
    h("p", { class: "dropzone-title" }, "Drop a deck here to check it against this room"),
    h("p", { class: "muted" }, "PDF, PowerPoint, Markdown or text"),
    input,
    h("label", { for: "deck-file", class: "button button--primary" }, "Choose a deck…"),
    uploadStatus);

  for (const type of ["dragenter", "dragover"]) {
    dropzone.addEventListener(type, (event) => { event.preventDefault(); dropzone.classList.add("is-over"); });
  }
  for (const type of ["dragleave", "drop"]) {
    dropzone.addEventListener(type, () => dropzone.classList.remove("is-over"));
  }
  dropzone.addEventListener("drop", (event) => {
    event.preventDefault();
    const file = event.dataTransfer?.files?.[0];
    if (file) send(file);
  });

  async function send(file) {
    uploadStatus.textContent = `Uploading ${file.name}…`;
    dropzone.classList.add("is-busy");
    try {
      const { runId } = await uploadDeck(room, file);
      announce(`${file.name} uploaded; verification started.`);
      location.hash = `#/runs/${runId}`;
    } catch (error) {
      uploadStatus.textContent = `${file.name} could not be uploaded: ${error.message}`;
      uploadStatus.classList.add("problem");
    } finally {
      dropzone.classList.remove("is-busy");
      input.value = "";
    }
  }

  replaceChildren(main,
    h("div", { class: "page-head" }, h("div", {}, h("h1", { tabindex: "-1" }, room),
      h("p", { class: "subtitle" }, "Deal room"))),
    banners,
    dropzone,
    h("div", { class: "room-columns" },
      h("section", { "aria-labelledby": "documents-heading" },
        h("h2", { id: "documents-heading" }, "Documents"),
        h("div", { class: "table-scroll" }, h("table", { class: "documents" },
          h("thead", {}, h("tr", {}, ["Document", "Status", "Entity", "Periods", "Parsed"].map((t) => h("th", { scope: "col" }, t)))),
          documentsBody))),
      h("section", { "aria-labelledby": "runs-heading" },
        h("h2", { id: "runs-heading" }, "Recent runs"),
        runsList)));

  async function loadDocuments() {
    try {
      const body = await getJSON(urls.roomDocuments(room));
      const documents = (Array.isArray(body) ? body : body.documents || []).filter((d) => d.kind !== "deck");
      replaceChildren(documentsBody, documents.length ? documents.map(documentRow)
        : h("tr", {}, h("td", { colspan: "5", class: "muted" }, "No filings in this room yet.")));
    } catch (error) {
      replaceChildren(documentsBody, h("tr", {}, h("td", { colspan: "5", class: "problem" }, `Documents could not be loaded: ${error.message}`)));
    }
  }

  async function loadRuns() {
    try {
      const runs = await getJSON(urls.roomRuns(room));
      replaceChildren(runsList, runs.length ? h("ul", { class: "runs" }, runs.map(runItem))
        : h("p", { class: "muted" }, "No decks checked in this room yet."));
    } catch {
      replaceChildren(runsList, h("p", { class: "muted" }, "Runs are not available."));
    }
  }

  let reloadTimer = null;
  function reloadSoon() {
    // A folder copied into the room fires one event per file; read the list once they settle.
    clearTimeout(reloadTimer);
    reloadTimer = setTimeout(() => { loadDocuments(); loadRuns(); }, 250);
  }

  let stopped = false;
  function watch(after) {
    if (stopped) return;
    streams.push(subscribe(urls.roomEvents(room, after), {
      "document.parsed": (event) => { reloadSoon(); announce(`${event.path} parsed.`); },
      "document.failed": (event) => { reloadSoon(); announce(`${event.path} failed: ${event.reason}.`); },
      "verdict.changed": (change) => { reloadSoon(); showChange(change); },
      "run.finished": reloadSoon,
    }));
  }

  // Note where the log stands before reading the lists, then stream only what comes after:
  // nothing is missed between the two, and old changes are not replayed as fresh banners.
  getJSON(urls.eventHead()).then(({ head }) => watch(head), () => watch(0)).finally(() => {
    loadDocuments();
    loadRuns();
  });
  return () => { stopped = true; clearTimeout(reloadTimer); streams.forEach((s) => s.close()); };
}

function documentRow(doc) {
  const status = doc.status || "pending";
  const error = doc.error_reason || doc.error?.reason;
  const detail = doc.error_detail || doc.error?.detail;
  return h("tr", { "data-status": status },
    h("th", { scope: "row", class: "doc-path" }, doc.path,
      doc.format ? h("span", { class: "doc-format" }, doc.format) : null),
    h("td", {}, h("span", { class: `status status--${status}` }, STATUS_LABELS[status] ?? status),
      error ? h("p", { class: "doc-error" }, h("strong", {}, error), detail ? `: ${detail}` : "") : null),
    h("td", {}, doc.entity || h("span", { class: "muted" }, "—")),
    h("td", {}, (doc.periods || []).join(", ") || h("span", { class: "muted" }, "—")),
    h("td", { class: "nowrap" }, formatTime(doc.parsed_at) || h("span", { class: "muted" }, "—")));
}

function runItem(run) {
  const counts = run.counts || {};
  return h("li", {}, h("a", { class: "run-link", href: `#/runs/${run.id}` },
    h("span", { class: "run-deck" }, run.deck_path.split("/").pop()),
    h("span", { class: "run-meta" }, `#${run.id} · ${formatTime(run.created_at)} · ${run.trigger === "reverify" ? "re-verified" : run.status}`),
    h("span", { class: "run-counts" }, VERDICTS.filter((v) => counts[v]).map((v) =>
      h("span", { class: `mini mini--${v}`, title: VERDICT_LABELS[v] }, VERDICT_GLYPHS[v], " ", counts[v],
        h("span", { class: "visually-hidden" }, ` ${VERDICT_LABELS[v]}`))))));
}
