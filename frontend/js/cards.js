// One card per claim: created when the claim is extracted, filled in when its verdict arrives.

import { h, replaceChildren } from "./dom.js";
import { ROLE_LABELS, VERDICT_GLYPHS, VERDICT_LABELS, formatTime, formatValue, unitOf } from "./format.js";

const CURRENCY_SIGNS = { USD: "$", EUR: "€", GBP: "£", JPY: "¥" };

export function badge(verdict) {
  return h("span", { class: `badge badge--${verdict}` },
    h("span", { class: "badge-glyph", "aria-hidden": "true" }, VERDICT_GLYPHS[verdict] ?? "•"),
    VERDICT_LABELS[verdict] ?? verdict);
}

/** The claim sentence with the printed figure marked, so the eye lands on the number checked. */
function claimSentence(claim) {
  const text = claim.text || "";
  const at = claim.printed ? text.indexOf(claim.printed) : -1;
  if (at < 0) return [text];
  return [text.slice(0, at), h("mark", { class: "figure" }, claim.printed), text.slice(at + claim.printed.length)];
}

export class ClaimCard {
  constructor(claim, { onCitation, onSelect, runId }) {
    this.claim = { ...claim };
    this.verdict = "pending";
    this.onCitation = onCitation;
    this.runId = runId;
    this.number = null;
    this.history = [];
    // Focusable from script only: next/previous claim moves focus here without adding tab stops.
    this.el = h("article", { class: "card", "data-verdict": "pending", "data-claim-id": claim.id,
                             "aria-labelledby": `claim-${claim.id}`, tabindex: "-1" });
    this.el.addEventListener("click", (event) => {
      if (!event.target.closest("button, a, summary, input")) onSelect?.(this.claim.id, { from: "cards" });
    });
    this.render();
  }

  /** The claim's number: the one beside its mark on the slide and in the tickmarked PDF. */
  setNumber(n) {
    if (this.number === n) return;
    this.number = n;
    this.numberEl.textContent = n ? `#${n}` : "";
  }

  setSelected(selected) {
    this.el.classList.toggle("is-selected", selected);
    if (selected) this.el.setAttribute("aria-current", "true");
    else this.el.removeAttribute("aria-current");
  }

  /** The claim's verdicts across the runs of this deck (oldest first), shown once one has changed. */
  setHistory(entries) {
    this.history = entries || [];
    this.historyEl.replaceWith(this.renderHistory());
  }

  /** A rule finished for this claim while its verdict is still out. */
  ruleEvaluated(rule, outcome, detail) {
    if (this.verdict !== "pending") return;
    this.progress.textContent = `${rule}: ${outcome}${detail ? ` — ${detail}` : ""}`;
  }

  /** The verdict arrived: `result` is the claim in the `tickmark verify --json` shape. */
  decide(result) {
    // The extracted claim carries unit and currency; the verdict body does not, so keep both.
    this.claim = { ...this.claim, ...result };
    this.verdict = result.verdict;
    this.render();
  }

  markChanged(change) {
    this.el.append(h("p", { class: "card-changed" },
      h("strong", {}, "Changed on re-verification: "),
      `${VERDICT_LABELS[change.before] ?? change.before} → ${VERDICT_LABELS[change.after] ?? change.after}. `,
      change.run_id ? h("a", { href: `#/runs/${change.run_id}` }, `Open run #${change.run_id}`) : null));
  }

  render() {
    const c = this.claim;
    this.el.dataset.verdict = this.verdict;
    const facets = [c.metric?.replace(/^label:/, "").replaceAll("_", " "), c.period, c.basis].filter(Boolean);
    this.progress = h("p", { class: "card-progress" }, "Waiting for the rules…");
    replaceChildren(this.el,
      h("header", { class: "card-head" },
        badge(this.verdict),
        h("span", { class: "card-page" }, this.numberEl = h("span", { class: "card-number" }, this.number ? `#${this.number}` : ""),
          ` Page ${c.page}`)),
      h("h3", { class: "claim-text", id: `claim-${c.id}` }, claimSentence(c)),
      facets.length ? h("p", { class: "facets" }, facets.map((f) => h("span", { class: "facet" }, f))) : null,
      this.verdict === "pending" ? this.progress : this.renderVerdict(),
      this.renderHistory());
  }

  renderHistory() {
    const entries = this.history;
    // Re-verifications that left the verdict as it was add nothing to read on the card.
    if (!entries.some((e) => e.before) && new Set(entries.map((e) => e.verdict)).size < 2) {
      this.historyEl = h("div", { class: "history", hidden: true });
      return this.historyEl;
    }
    const label = (v) => VERDICT_LABELS[v] ?? v;
    this.historyEl = h("div", { class: "history" },
      h("p", { class: "history-title" }, "History"),
      h("ol", { class: "history-list" }, entries.map((e) => {
        const current = e.run_id === this.runId;
        const why = e.trigger === "reverify"
          ? (e.cause_document ? `after ${e.cause_document} changed` : "re-verification")
          : e.trigger;
        return h("li", { class: `history-entry${current ? " is-current" : ""}`, "data-run-id": e.run_id },
          h("span", { class: `history-verdict history-verdict--${e.verdict}` }, label(e.verdict)),
          e.before ? h("span", { class: "history-was" }, ` (was ${label(e.before)})`) : null,
          " · ",
          current ? h("span", {}, `run #${e.run_id} (this run)`) : h("a", { href: `#/runs/${e.run_id}` }, `run #${e.run_id}`),
          ` · ${why} · `,
          h("time", { datetime: e.changed_at || e.finished_at || e.created_at },
            formatTime(e.changed_at || e.finished_at || e.created_at)));
      })));
    return this.historyEl;
  }

  renderVerdict() {
    const c = this.claim;
    const unit = unitOf(c);
    const currency = CURRENCY_SIGNS[c.currency] ?? "$";
    const compared = [
      ["Claimed", c.printed || formatValue(c.claimed, unit, { currency })],
      ["Found", formatValue(c.found, unit, { currency })],
      ["Tolerance", c.tolerance ? formatValue(c.tolerance, unit, { currency, signed: true }) : "—"],
    ];
    return [
      h("p", { class: "reason" }, c.reason),
      h("dl", { class: "compare" },
        compared.map(([term, value]) => h("div", {}, h("dt", {}, term), h("dd", {}, value)))),
      this.renderCitations(),
      c.trace?.length ? h("details", { class: "trace" },
        h("summary", {}, "How this was decided"),
        h("ol", {}, c.trace.map((step) => h("li", { class: `trace-step trace-step--${step.outcome}` },
          h("span", { class: "trace-rule" }, step.rule),
          h("span", { class: "trace-outcome" }, step.outcome),
          h("span", { class: "trace-detail" }, step.detail))))) : null,
    ];
  }

  renderCitations() {
    const citations = this.claim.citations || [];
    if (!citations.length) return h("p", { class: "no-citations" }, "No citation: nothing in the room matched.");
    return h("ul", { class: "citations", "aria-label": "Citations" }, citations.map((citation) =>
      h("li", {}, h("button", {
        type: "button",
        class: "citation",
        onclick: (event) => this.onCitation(citation, this.claim, event.currentTarget),
      },
      h("span", { class: "citation-role" }, ROLE_LABELS[citation.role] ?? citation.role),
      h("span", { class: "citation-doc" }, citation.document, citation.page ? `, page ${citation.page}` : ""),
      h("span", { class: "citation-printed" }, citation.as_printed),
      h("span", { class: "visually-hidden" }, ". Open evidence")))));
  }
}
