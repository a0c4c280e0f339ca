// How verdicts and figures read on screen.

export const VERDICTS = ["supported", "contradicted", "different-basis", "no-evidence"];

export const VERDICT_LABELS = {
  supported: "Supported",
  contradicted: "Contradicted",
  "different-basis": "Different basis",
  "no-evidence": "No evidence",
  pending: "Checking",
};

// A glyph beside the word so the verdict never rests on colour alone.
export const VERDICT_GLYPHS = {
  supported: "✓",
  contradicted: "✕",
  "different-basis": "≈",
  "no-evidence": "?",
  pending: "…",
};

export const ROLE_LABELS = {
  evidence: "Evidence",
  numerator: "Numerator",
  denominator: "Denominator",
  current: "Current period",
  prior: "Prior period",
  "other-basis": "Other basis",
  "other-period": "Other period",
  superseded: "Superseded",
};

/** The claim's unit, from the extracted claim when we have it, else read off the printed figure. */
export function unitOf(claim) {
  if (claim.unit) return claim.unit;
  const printed = claim.printed || "";
  if (printed.includes("%")) return "percent";
  if (/[$€£¥]/.test(printed)) return "USD";
  if (/x\s*$/i.test(printed)) return "multiple";
  return "count";
}

function trim(number, maxDigits) {
  return number.toLocaleString("en-US", { maximumFractionDigits: maxDigits, minimumFractionDigits: 0 });
}

const SCALES = [[1e12, "T"], [1e9, "B"], [1e6, "M"], [1e3, "K"]];

/** A decimal string in base units ("5.012E+9") as a person would print it ("$5.012B"). */
export function formatValue(text, unit, { currency = "$", signed = false } = {}) {
  if (text === null || text === undefined || text === "") return "—";
  const n = Number(text);
  if (!Number.isFinite(n)) return String(text);
  const sign = n < 0 ? "−" : signed ? "±" : "";
  const abs = Math.abs(n);
  switch (unit) {
    case "percent": return `${sign}${trim(abs, 2)}${signed ? " pt" : "%"}`;
    case "pp": return `${sign}${trim(abs, 2)} pp`;
    case "bp": return `${sign}${trim(abs, 1)} bp`;
    case "multiple": return `${sign}${trim(abs, 2)}x`;
    case "USD/share": return `${sign}${currency}${trim(abs, 2)}`;
    case "USD": case "currency": {
      for (const [size, suffix] of SCALES) {
        if (abs >= size) return `${sign}${currency}${trim(abs / size, 3)}${suffix}`;
      }
      return `${sign}${currency}${trim(abs, 2)}`;
    }
    default: return `${sign}${trim(abs, 2)}`;
  }
}

export function formatTime(iso) {
  if (!iso) return "";
  const when = new Date(iso);
  return when.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}
