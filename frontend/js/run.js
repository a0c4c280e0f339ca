// The run view: the deck with a tick mark at every claim beside the verdict cards (two views of
// one run, one selection), counters, progress, filters, exports, keyboard moves, each claim's
// history, and a banner when a later re-verification flips one of this run's verdicts.

import { getJSON, subscribe, urls } from "./api.js";
import { ClaimCard } from "./cards.js";
import { changeBanners } from "./changes.js";
import { DeckView } from "./deck.js";
import { announce, h, replaceChildren } from "./dom.js";
import { openEvidence } from "./evidence.js";
import { VERDICTS, VERDICT_GLYPHS, VERDICT_LABELS } from "./format.js";

const ANNOUNCE_EVERY_MS = 4000;

export function runView(main, runId, setCrumbs) {
  const cards = new Map();
  const streams = [];
  let filter = "all";
  let selected = null;
  let history = {};
  let finished = false;
  let room = null;
  let lastAnnounced = 0;

  const title = h("h1", { tabindex: "-1" }, `Run #${runId}`);
  const subtitle = h("p", { class: "subtitle" }, "Loading…");
  const banners = h("div", { class: "banners", "aria-live": "polite" });
  const bar = h("div", { class: "progress-fill" });
  const progress = h("div", { class: "progress", role: "progressbar", "aria-label": "Claims checked",
                              "aria-valuemin": "0", "aria-valuemax": "0", "aria-valuenow": "0" }, bar);
  const progressText = h("p", { class: "progress-text" }, "Reading the deck…");
  const counterValues = {};
  const counters = h("dl", { class: "counters" }, VERDICTS.map((verdict) => {
    counterValues[verdict] = h("dd", { "data-counter": verdict }, "0");
    return h("div", { class: `counter counter--${verdict}` },
      h("dt", {}, h("span", { "aria-hidden": "true", class: "counter-glyph" }, VERDICT_GLYPHS[verdict]),
        VERDICT_LABELS[verdict]),
      counterValues[verdict]);
  }));
  const filterButtons = {};
  const filters = h("div", { class: "filters", role: "group", "aria-label": "Show claims by verdict" },
    ["all", ...VERDICTS].map((verdict) => {
      filterButtons[verdict] = h("button", {
        type: "button", class: "filter", "aria-pressed": String(verdict === "all"),
        onclick: () => setFilter(verdict),
      }, verdict === "all" ? "All" : VERDICT_LABELS[verdict], " ", h("span", { class: "filter-count" }, "0"));
      return filterButtons[verdict];
    }));
  const exports = h("div", { class: "exports" },
    h("a", { class: "button", href: urls.exportCsv(runId), download: `tickmark-run-${runId}.csv` }, "Export CSV"),
    h("a", { class: "button", href: urls.exportXlsx(runId), download: `tickmark-run-${runId}.xlsx` }, "Export XLSX"),
    h("a", { class: "button button--primary", href: urls.exportPdf(runId), download: `tickmark-run-${runId}.pdf`,
             "data-export": "pdf" },
      "Export tickmarked PDF"));
  const list = h("section", { class: "cards", "aria-label": "Claims", "aria-busy": "true" });
  const empty = h("p", { class: "empty", hidden: true }, "No claims with this verdict.");
  const deckView = new DeckView(runId, {
    onSelect: (claimId) => select(claimId, { from: "deck" }),
    onOpen: (claimId, opener) => openClaim(claimId, opener),
    onNumbers: (numbers) => { for (const [claimId, n] of numbers) cards.get(claimId)?.setNumber(n); },
  });
  const keys = h("p", { class: "keys muted", id: "run-keys" }, "Keys: ",
    h("kbd", {}, "j"), " / ", h("kbd", {}, "k"), " next and previous claim · ",
    h("kbd", {}, "o"), " open its evidence · ",
    h("kbd", {}, "1"), "–", h("kbd", {}, "4"), " show one verdict · ", h("kbd", {}, "0"), " all");
  const views = h("div", { class: "run-views" },
    h("div", { class: "pane pane--deck" }, deckView.el),
    h("div", { class: "pane pane--cards" }, list, empty));

  replaceChildren(main,
    h("div", { class: "page-head" }, h("div", {}, title, subtitle), exports),
    banners,
    h("section", { class: "summary", "aria-label": "Summary" }, counters, progress, progressText),
    h("div", { class: "run-tools" }, filters, keys), views);

  function onCitation(citation, claim, opener) {
    select(claim.id, { from: "cards" });
    openEvidence({ citation, claim, room, opener });
  }

  /** One selection for both views: the card and the mark of ``claimId``, each scrolled into view
   * unless the click came from that view. */
  function select(claimId, { from } = {}) {
    if (selected) cards.get(selected)?.setSelected(false);
    selected = claimId;
    const card = cards.get(claimId);
    card?.setSelected(true);
    deckView.select(claimId, { scroll: from !== "deck" });
    if (card && from !== "cards") card.el.scrollIntoView({ block: "nearest", behavior: "smooth" });
    if (card && from === "keys") card.el.focus({ preventScroll: true });
  }

  /** What a click on a mark does: the evidence view of its first citation, as its card's button would. */
  function openClaim(claimId, opener) {
    const card = cards.get(claimId);
    const citation = card?.claim.citations?.[0];
    if (citation) openEvidence({ citation, claim: card.claim, room, opener });
    else card?.el.focus({ preventScroll: true });
  }

  function visibleIds() {
    return [...list.querySelectorAll(".card:not([hidden])")].map((el) => el.dataset.claimId);
  }

  function move(step) {
    const ids = visibleIds();
    if (!ids.length) return;
    const at = ids.indexOf(selected);
    const next = at < 0 ? (step > 0 ? 0 : ids.length - 1) : Math.min(ids.length - 1, Math.max(0, at + step));
    select(ids[next], { from: "keys" });
  }

  function onKey(event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    if (document.getElementById("evidence").open) return;
    if (event.target.closest?.("input, textarea, select, [contenteditable]")) return;
    const onControl = event.target.closest?.("button, a, summary");
    const key = event.key;
    if (key === "j" || key === "n") move(1);
    else if (key === "k" || key === "p") move(-1);
    else if (key === "o" || (key === "Enter" && !onControl)) {
      if (!selected) return;
      openClaim(selected, cards.get(selected)?.el);
    } else if (key === "0") setFilter("all");
    else if (/^[1-4]$/.test(key)) setFilter(VERDICTS[Number(key) - 1]);
    else return;
    event.preventDefault();
  }
  document.addEventListener("keydown", onKey);

  function cardFor(claim) {
    let card = cards.get(claim.id);
    if (!card) {
      card = new ClaimCard(claim, { onCitation, onSelect: select, runId });
      cards.set(claim.id, card);
      list.append(card.el);
      if (history[claim.id]) card.setHistory(history[claim.id]);
    }
    deckView.update(claim);
    return card;
  }

  async function loadHistory() {
    try {
      history = await getJSON(urls.runHistory(runId));
    } catch { return; /* the cards stand without it */ }
    for (const [claimId, entries] of Object.entries(history)) cards.get(claimId)?.setHistory(entries);
  }

  function tally() {
    const counts = Object.fromEntries(VERDICTS.map((v) => [v, 0]));
    let decided = 0;
    for (const card of cards.values()) {
      if (card.verdict !== "pending") { counts[card.verdict] = (counts[card.verdict] ?? 0) + 1; decided += 1; }
    }
    return { counts, decided, total: cards.size };
  }

  function refresh() {
    const { counts, decided, total } = tally();
    for (const verdict of VERDICTS) counterValues[verdict].textContent = String(counts[verdict]);
    filterButtons.all.querySelector(".filter-count").textContent = String(total);
    for (const verdict of VERDICTS) filterButtons[verdict].querySelector(".filter-count").textContent = String(counts[verdict]);
    progress.setAttribute("aria-valuemax", String(total));
    progress.setAttribute("aria-valuenow", String(decided));
    bar.style.width = total ? `${(100 * decided) / total}%` : finished ? "100%" : "0";
    progressText.textContent = finished
      ? `Finished: ${total} claim${total === 1 ? "" : "s"} checked.`
      : total ? `${decided} of ${total} claims checked…` : "Reading the deck…";
    applyFilter();
    const now = Date.now();
    if (finished || now - lastAnnounced > ANNOUNCE_EVERY_MS) {
      lastAnnounced = now;
      announce(summarySentence(counts, decided, total, finished));
    }
  }

  function setFilter(verdict) {
    filter = verdict;
    for (const [key, button] of Object.entries(filterButtons)) button.setAttribute("aria-pressed", String(key === verdict));
    deckView.setFilter(verdict);
    applyFilter();
  }

  function applyFilter() {
    let shown = 0;
    for (const card of cards.values()) {
      const visible = filter === "all" || card.verdict === filter;
      card.el.hidden = !visible;
      shown += visible ? 1 : 0;
    }
    empty.hidden = shown > 0 || cards.size === 0;
  }

  function finish(status, error) {
    finished = true;
    deckView.reload();
    loadHistory();
    list.setAttribute("aria-busy", "false");
    if (status === "failed") {
      banners.append(h("div", { class: "banner banner--error", role: "alert" },
        h("strong", {}, "The deck could not be verified. "), error || ""));
    }
    refresh();
  }

  const showBanner = changeBanners(banners);
  function showChange(change) {
    showBanner(change);
    cards.get(change.claim_id)?.markChanged(change);
    loadHistory();
  }

  function renderResult(result) {
    for (const claim of result.claims || []) {
      const card = cardFor(claim);
      if (claim.verdict) { card.decide(claim); deckView.update(claim); }
    }
  }

  function streamRun() {
    const source = subscribe(urls.runEvents(runId), {
      "claim.extracted": (event) => { cardFor({ ...event.claim, metric: event.claim.metric || event.claim.label, id: event.claim_id, page: event.page, text: event.text }); refresh(); },
      "rule.evaluated": (event) => cards.get(event.claim_id)?.ruleEvaluated(event.rule, event.outcome, event.detail),
      "verdict.reached": (event) => { cardFor(event.result).decide(event.result); deckView.update(event.result); refresh(); },
      "run.finished": async (event) => {
        source.close();
        // The stored result is the record the exports and the API serve; settle on it.
        try { renderResult(await getJSON(urls.run(runId))); } catch { /* the streamed cards stand */ }
        finish(event.status, event.error);
      },
    });
    streams.push(source);
  }

  function watchRoom() {
    streams.push(subscribe(urls.roomEvents(room), {
      "verdict.changed": (change) => { if (change.previous_run_id === runId) showChange(change); },
    }));
  }

  (async () => {
    let run;
    try {
      run = await getJSON(urls.run(runId));
    } catch (error) {
      subtitle.textContent = "";
      banners.append(h("div", { class: "banner banner--error", role: "alert" }, `Run #${runId} could not be loaded: ${error.message}`));
      return;
    }
    room = run.room;
    const deck = (run.deck || run.deck_path || "").split("/").pop();
    title.textContent = deck || `Run #${runId}`;
    document.title = `${deck || `Run #${runId}`} · Tickmark`;
    replaceChildren(subtitle, `Run #${runId} in room ${room}${run.entity ? ` · ${run.entity}` : ""}`,
      run.trigger === "reverify" && run.baseline_run_id
        ? [" · re-verification of ", h("a", { href: `#/runs/${run.baseline_run_id}` }, `run #${run.baseline_run_id}`)]
        : null);
    setCrumbs([["Rooms", "#/"], [room, `#/rooms/${encodeURIComponent(room)}`], [`Run #${runId}`, null]]);
    deckView.load().then((drawn) => {
      if (drawn) return;
      views.classList.add("run-views--cards-only");
      // Without the deck's pages there is nothing to tickmark.
      exports.querySelector("[data-export=pdf]").hidden = true;
    });
    const status = run.status ?? (run.counts ? "finished" : "running");
    if (status === "finished" || status === "failed") {
      renderResult(run);
      finish(status, run.error?.detail ?? run.error);
    } else {
      streamRun();
    }
    watchRoom();
  })();

  return () => {
    streams.forEach((source) => source.close());
    document.removeEventListener("keydown", onKey);
  };
}

function summarySentence(counts, decided, total, finished) {
  const parts = VERDICTS.filter((v) => counts[v]).map((v) => `${counts[v]} ${VERDICT_LABELS[v].toLowerCase()}`);
  const head = finished ? `Verification finished: ${total} claims.` : `${decided} of ${total} claims checked.`;
  return parts.length ? `${head} ${parts.join(", ")}.` : head;
}
