// One card per claim: created when the claim is extracted, filled in when its verdict arrives.

import { h, replaceChildren } from "./dom.js";
import { ROLE_LABELS, VERDICT_GLYPHS, VERDICT_LABELS, formatValue, unitOf } from "./format.js";

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
  constructor(claim, { onCitation }) {
    this.claim = { ...claim };
    this.verdict = "pending";
    this.onCitation = onCitation;
    this.el = h("article", { class: "card", "data-verdict": "pending", "data-claim-id": claim.id,
                             "aria-labelledby": `claim-${claim.id}` });
    this.render();
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
        h("span", { class: "card-page" }, `Page ${c.page}`)),
      h("h3", { class: "claim-text", id: `claim-${c.id}` }, claimSentence(c)),
      facets.length ? h("p", { class: "facets" }, facets.map((f) => h("span", { class: "facet" }, f))) : null,
      this.verdict === "pending" ? this.progress : this.renderVerdict());
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
