// The evidence dialog: the cited table as a grid with the cell, its row and its column marked,
// and for PDF sources the page region with the cell's box drawn by the server.

import { getJSON, urls } from "./api.js";
import { h, replaceChildren } from "./dom.js";
import { ROLE_LABELS } from "./format.js";

const SCALE_WORDS = { 3: "In thousands", 6: "In millions", 9: "In billions" };
const documentIdsByRoom = new Map();

/** The current document id for each path in the room; citations name documents by path. */
async function documentIdFor(room, path) {
  if (!documentIdsByRoom.has(room)) {
    documentIdsByRoom.set(room, getJSON(urls.roomDocuments(room)).then((body) => {
      const documents = Array.isArray(body) ? body : body.documents || [];
      const byPath = new Map();
      for (const doc of documents) {
        // Newest version wins when a path has several.
        const known = byPath.get(doc.path);
        if (!known || doc.id > known.id) byPath.set(doc.path, doc);
      }
      return byPath;
    }).catch((error) => { documentIdsByRoom.delete(room); throw error; }));
  }
  return (await documentIdsByRoom.get(room)).get(path);
}

export function openEvidence({ citation, claim, room, opener }) {
  const dialog = document.getElementById("evidence");
  const body = document.getElementById("evidence-body");
  const heading = document.getElementById("evidence-title");
  document.getElementById("evidence-role").textContent =
    `${ROLE_LABELS[citation.role] ?? citation.role} for “${claim.text}”`;
  heading.textContent = citation.document;
  document.getElementById("evidence-locator").textContent = citation.locator;
  replaceChildren(body, h("p", { class: "muted" }, "Loading the source…"));
  document.getElementById("evidence-close").onclick = () => dialog.close();
  dialog.addEventListener("close", () => opener?.focus(), { once: true });
  // Light dismiss: a click on the backdrop (the dialog element itself) closes it.
  dialog.onclick = (event) => { if (event.target === dialog) dialog.close(); };
  dialog.showModal();
  heading.focus();
  loadEvidence(body, citation, room);
}

async function loadEvidence(body, citation, room) {
  const parts = [h("p", { class: "printed-as" }, "Printed as ", h("strong", {}, citation.as_printed))];
  // A citation names the exact version it was read from; older results fall back to the path.
  let doc = citation.document_id ? { id: citation.document_id } : undefined;
  try {
    if (!doc && room) doc = await documentIdFor(room, citation.document);
  } catch (error) {
    parts.push(problem(`The room's documents could not be read: ${error.message}`));
  }
  if (!doc) {
    if (room) parts.push(problem(`${citation.document} is no longer in room ${room}.`));
    return replaceChildren(body, parts);
  }
  if (citation.page && citation.bbox && (doc.format === "pdf" || citation.document.toLowerCase().endsWith(".pdf"))) {
    parts.push(h("figure", { class: "page-crop" },
      h("img", { src: urls.pageImage(doc.id, citation.page, citation.bbox),
                 alt: `Page ${citation.page} of ${citation.document}, with ${citation.as_printed} boxed in red` }),
      h("figcaption", {}, `Page ${citation.page} of the PDF, as printed`)));
  }
  if (citation.table) {
    try {
      const table = await getJSON(urls.table(doc.id, citation.table));
      parts.push(grid(table.grid ?? table, citation));
    } catch (error) {
      parts.push(problem(`The table could not be loaded: ${error.message}`));
    }
  } else if (citation.section) {
    parts.push(h("p", { class: "muted" }, "Cited from the text of the filing, not a table."));
  }
  replaceChildren(body, parts);
  body.querySelector(".cited")?.scrollIntoView({ block: "center", inline: "center" });
}

function problem(text) {
  return h("p", { class: "problem", role: "alert" }, text);
}

/** Header rows from the columns' header paths, bottom-aligned, equal neighbours merged. */
function headerRows(columns, citedColumn) {
  const depth = Math.max(1, ...columns.map((c) => c.header.length));
  const rows = [];
  for (let level = 0; level < depth; level += 1) {
    const cells = [];
    columns.forEach((column, index) => {
      const pad = depth - column.header.length;
      const text = level >= pad ? column.header[level - pad] : "";
      const previous = cells[cells.length - 1];
      const isLast = level === depth - 1;
      if (!isLast && previous && previous.text === text && text) {
        previous.span += 1;
        previous.columns.push(index);
      } else {
        cells.push({ text, span: 1, columns: [index] });
      }
    });
    rows.push(h("tr", {},
      h("td", { class: "corner" }),
      cells.map((cell) => h("th", {
        scope: cell.span > 1 ? "colgroup" : "col",
        colspan: cell.span > 1 ? String(cell.span) : null,
        class: cell.columns.includes(citedColumn) ? "cited-axis" : null,
      }, cell.text))));
  }
  return rows;
}

function grid(table, citation) {
  const columns = table.columns || [];
  const scale = SCALE_WORDS[table.scale];
  return h("div", { class: "grid-wrap" },
    h("p", { class: "grid-title" }, table.title || "Table",
      scale ? h("span", { class: "muted" }, ` · ${scale}`) : null),
    h("div", { class: "grid-scroll", tabindex: "0", role: "region", "aria-label": `Table: ${table.title || "cited table"}` },
      h("table", { class: "grid" },
        h("thead", {}, headerRows(columns, citation.column)),
        h("tbody", {}, (table.rows || []).map((row, rowIndex) => {
          const citedRow = rowIndex === citation.row;
          const byColumn = new Map((row.cells || []).map((cell) => [cell.column, cell]));
          return h("tr", { class: citedRow ? "cited-row" : null },
            h("th", { scope: "row", class: citedRow ? "cited-axis" : null },
              row.group ? h("span", { class: "row-group" }, `${row.group} `) : null, row.label),
            columns.map((_, columnIndex) => {
              const cell = byColumn.get(columnIndex);
              const cited = citedRow && columnIndex === citation.column;
              return h("td", { class: cited ? "cited" : null, "aria-current": cited ? "true" : null },
                cited ? h("span", { class: "visually-hidden" }, "Cited: ") : null,
                cell?.text ?? "");
            }));
        })))));
}
