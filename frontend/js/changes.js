// Banners for verdict.changed: one per re-verification run, listing every verdict it flipped.

import { h } from "./dom.js";
import { VERDICT_LABELS } from "./format.js";

export function changeBanners(container) {
  const byRun = new Map();

  return function show(change) {
    let banner = byRun.get(change.run_id);
    if (!banner) {
      const count = h("strong", {});
      const list = h("ul", { class: "banner-list" });
      const el = h("div", { class: "banner banner--change", "data-run-id": change.run_id },
        h("p", { class: "banner-title" }, count,
          change.cause_document ? ` after ${change.cause_document} changed.` : ".",
          change.run_id ? h("a", { href: `#/runs/${change.run_id}` }, `Open run #${change.run_id}`) : null),
        list);
      banner = { el, count, list, flips: 0 };
      byRun.set(change.run_id, banner);
      container.append(el);
    }
    banner.flips += 1;
    banner.count.textContent = `A re-verification changed ${banner.flips} verdict${banner.flips === 1 ? "" : "s"}`;
    banner.list.append(h("li", {},
      `“${change.text}”: `,
      h("span", { class: "flip" }, `${VERDICT_LABELS[change.before] ?? change.before} → ${VERDICT_LABELS[change.after] ?? change.after}`)));
  };
}
