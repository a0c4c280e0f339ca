// The deck view: each slide as an image with a tick mark at every claim's figure, in the verdict's
// colour and glyph, and every discarded figure dimmed with the reason on hover. It shares one
// selection with the card list; marks arrive as the run's events do.

import { ApiError, getJSON, urls } from "./api.js";
import { h, replaceChildren } from "./dom.js";
import { VERDICT_GLYPHS, VERDICT_LABELS } from "./format.js";

const RELOAD_AFTER_MS = 300;
const EAGER_SLIDES = 3;

function pct(value, total) {
  return `${((100 * value) / total).toFixed(3)}%`;
}

export class DeckView {
  constructor(runId, { onSelect, onOpen, onNumbers }) {
    this.runId = runId;
    this.onSelect = onSelect;
    this.onOpen = onOpen;
    this.onNumbers = onNumbers;
    this.claims = new Map();
    this.marks = new Map();
    this.slides = new Map();
    this.filter = "all";
    this.selected = null;
    this.layout = null;
    this.reloadTimer = null;
    this.loading = null;
    this.status = h("p", { class: "deck-status muted", role: "status" }, "Drawing the deck…");
    this.pages = h("div", { class: "deck-pages" });
    this.legend = h("p", { class: "deck-legend" },
      ["supported", "contradicted", "different-basis", "no-evidence"].map((verdict) =>
        h("span", { class: `legend-item legend-item--${verdict}` },
          h("span", { class: "legend-glyph", "aria-hidden": "true" }, VERDICT_GLYPHS[verdict]), VERDICT_LABELS[verdict])),
      h("span", { class: "legend-item legend-item--discard" },
        h("span", { class: "legend-glyph", "aria-hidden": "true" }), "Not checked"));
    this.el = h("section", { class: "deck", "aria-label": "Deck, with a mark at every claim" },
      this.legend, this.status, this.pages);
  }

  /** Fetch the deck's pages and the places of its claims; resolves false when the deck cannot be drawn. */
  load() {
    this.loading = (async () => {
      try {
        this.layout = await getJSON(urls.runDeck(this.runId));
      } catch (error) {
        this.status.textContent = error instanceof ApiError && error.status === 409
          ? `The deck cannot be drawn: ${error.message}`
          : `The deck could not be loaded: ${error.message}`;
        return false;
      }
      this.status.hidden = true;
      this.el.dataset.rendered = String(this.layout.rendered);
      this.buildSlides();
      this.placeMarks();
      return true;
    })();
    return this.loading;
  }

  /** Fetch the places again: claims extracted after the first read, or discards after the run.
   * At most one fetch is waiting at a time; events arriving meanwhile ride on it rather than
   * pushing it back, so marks land while the run is still streaming. */
  reload() {
    if (this.reloadTimer) return;
    this.reloadTimer = setTimeout(async () => {
      await this.loading;
      try {
        this.layout = await getJSON(urls.runDeck(this.runId));
      } catch { return; /* the marks already drawn stand */ } finally { this.reloadTimer = null; }
      this.placeMarks();
    }, RELOAD_AFTER_MS);
  }

  buildSlides() {
    const { pages, rendered, deck } = this.layout;
    const name = deck.split("/").pop();
    replaceChildren(this.pages, pages.map((page) => {
      const layer = h("div", { class: "slide-marks" });
      const frame = h("div", { class: "slide-frame", style: `aspect-ratio: ${page.width} / ${page.height}` },
        h("img", {
          src: urls.runDeckPage(this.runId, page.page),
          alt: `Slide ${page.page} of ${name}${rendered ? " (a text rendering of the slide)" : ""}`,
          loading: page.page <= EAGER_SLIDES ? "eager" : "lazy", decoding: "async",
        }),
        layer);
      const figure = h("figure", { class: "slide", "data-page": page.page },
        frame, h("figcaption", {}, `Slide ${page.page}`, h("span", { class: "slide-count muted" })));
      this.slides.set(page.page, { figure, layer, page, count: figure.querySelector(".slide-count") });
      return figure;
    }));
  }

  placeMarks() {
    const numbers = new Map();
    for (const slide of this.slides.values()) slide.layer.replaceChildren();
    this.marks.clear();
    const unplaced = new Map();
    for (const mark of this.layout.marks) {
      const slide = this.slides.get(mark.page);
      numbers.set(mark.claim_id, mark.n);
      if (!slide) continue;
      const el = this.markElement(mark, slide.page, unplaced);
      slide.layer.append(el);
      this.marks.set(mark.claim_id, { el, mark });
      this.paint(mark.claim_id);
    }
    for (const discard of this.layout.discarded) {
      const slide = this.slides.get(discard.page);
      if (slide) slide.layer.append(this.discardElement(discard, slide.page, unplaced));
    }
    this.countSlides();
    this.applyFilter();
    if (this.selected) this.marks.get(this.selected)?.el.classList.add("is-selected");
    this.onNumbers?.(numbers);
  }

  countSlides() {
    const marks = [...this.marks.values()].map(({ mark }) => mark.page);
    for (const slide of this.slides.values()) {
      const claims = marks.filter((page) => page === slide.page.page).length;
      const skipped = this.layout.discarded.filter((d) => d.page === slide.page.page).length;
      slide.count.textContent = ` · ${claims} claim${claims === 1 ? "" : "s"}`
        + (skipped ? `, ${skipped} not checked` : "");
    }
  }

  position(el, box, page, unplaced) {
    if (box) {
      const [x0, y0, x1, y1] = box;
      Object.assign(el.style, { left: pct(x0, page.width), top: pct(y0, page.height),
                                width: pct(x1 - x0, page.width), height: pct(y1 - y0, page.height) });
      if (x1 / page.width > 0.9) el.classList.add("mark--badge-left");
    } else {
      // Not found on the page: stacked down the slide's right edge, still visible and clickable.
      const index = unplaced.get(page.page) ?? 0;
      unplaced.set(page.page, index + 1);
      el.classList.add("mark--unplaced");
      el.style.top = `${6 + index * 26}px`;
    }
  }

  markElement(mark, page, unplaced) {
    const el = h("button", {
      type: "button", class: "mark", "data-claim-id": mark.claim_id, "data-n": mark.n,
      onclick: (event) => { this.select(mark.claim_id); this.onSelect?.(mark.claim_id, { from: "deck" }); this.onOpen?.(mark.claim_id, event.currentTarget); },
      // The verdict is the mark's description, not its name: a control named "Contradicted" is
      // the verdict filter's, and a mark per claim must not answer to it.
      "aria-describedby": `mark-verdict-${mark.claim_id}`,
    }, h("span", { class: "mark-badge", "aria-hidden": "true" },
      h("span", { class: "mark-glyph" }), h("span", { class: "mark-n" }, String(mark.n))),
    h("span", { class: "visually-hidden", id: `mark-verdict-${mark.claim_id}` }));
    this.position(el, mark.box, page, unplaced);
    return el;
  }

  discardElement(discard, page, unplaced) {
    const why = `Not checked: ${discard.why}`;
    const el = h("span", {
      class: "discard", tabindex: "0", role: "note", title: `${why}\n“${discard.text}”`,
      "aria-label": `${why}: “${discard.text}”`, "data-why": discard.why,
    }, h("span", { class: "discard-tip", "aria-hidden": "true" }, h("strong", {}, "Not checked: "), discard.why));
    this.position(el, discard.box, page, unplaced);
    return el;
  }

  /** A claim was extracted or decided: its mark takes the verdict's colour and glyph. A claim the
   * last read of the places did not have is marked at once on its own box, then placed (and
   * numbered) by the next read. */
  update(claim) {
    this.claims.set(claim.id, { ...(this.claims.get(claim.id) || {}), ...claim });
    if (!this.layout) return;
    if (!this.marks.has(claim.id)) {
      const slide = this.slides.get(claim.page);
      if (slide) {
        const mark = { claim_id: claim.id, page: claim.page, n: "", box: claim.bbox || null };
        const el = this.markElement(mark, slide.page, new Map());
        el.classList.add("is-provisional");
        slide.layer.append(el);
        this.marks.set(claim.id, { el, mark });
        this.countSlides();
        this.applyFilter();
      }
      this.reload();
    }
    this.paint(claim.id);
  }

  paint(claimId) {
    const entry = this.marks.get(claimId);
    if (!entry) return;
    const claim = this.claims.get(claimId) || {};
    const verdict = claim.verdict || "pending";
    const { el, mark } = entry;
    const was = el.dataset.verdict;
    el.dataset.verdict = verdict;
    el.querySelector(".mark-glyph").textContent = VERDICT_GLYPHS[verdict] ?? "•";
    const name = mark.n ? `Claim ${mark.n}` : "Claim";
    el.setAttribute("aria-label", `${name}, slide ${mark.page}: “${claim.text ?? ""}”`);
    el.lastElementChild.textContent = `${VERDICT_LABELS[verdict] ?? verdict}. `
      + (claim.citations?.length ? "Opens its evidence." : "Shows its card.");
    el.title = `${mark.n ? `#${mark.n} ` : ""}${VERDICT_LABELS[verdict] ?? verdict}${claim.reason ? `: ${claim.reason}` : ""}`;
    if (was && was !== verdict && verdict !== "pending") {
      el.classList.remove("is-new");
      void el.offsetWidth; // restart the arrival animation
      el.classList.add("is-new");
    }
  }

  select(claimId, { scroll = false } = {}) {
    if (this.selected) this.marks.get(this.selected)?.el.classList.remove("is-selected");
    this.selected = claimId;
    const entry = this.marks.get(claimId);
    if (!entry) return;
    entry.el.classList.add("is-selected");
    if (scroll) entry.el.scrollIntoView({ block: "center", inline: "nearest", behavior: "smooth" });
  }

  setFilter(verdict) {
    this.filter = verdict;
    this.applyFilter();
  }

  applyFilter() {
    for (const [claimId, { el }] of this.marks) {
      const verdict = this.claims.get(claimId)?.verdict || "pending";
      el.hidden = this.filter !== "all" && verdict !== this.filter;
    }
  }
}
