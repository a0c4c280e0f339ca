"""A run's verdicts as a spreadsheet: one row per claim, the cited source beside it."""

from __future__ import annotations

import csv
import io
from decimal import Decimal, InvalidOperation
from typing import Any

__all__ = ["COLUMNS", "rows_of", "to_csv", "to_xlsx"]

COLUMNS = ("claim_id", "page", "claim", "metric", "period", "basis", "printed", "claimed", "found", "tolerance",
           "verdict", "reason", "document", "location", "source_as_printed")


def _first_citation(claim: dict[str, Any]) -> dict[str, Any]:
    cites = claim.get("citations") or []
    return cites[0] if cites else {}


def _plain(number: str | None) -> str | None:
    # The contract keeps Decimal's own string ("4.2E+9"); a sheet wants 4200000000.
    if number is None:
        return None
    try:
        return format(Decimal(number), "f")
    except InvalidOperation:
        return number


def rows_of(result: dict[str, Any]) -> list[list[Any]]:
    """One row per claim of a run's contract JSON, in the order of ``COLUMNS``."""
    out = []
    for c in result.get("claims", []):
        cite = _first_citation(c)
        out.append([c.get("id"), c.get("page"), c.get("text"), c.get("metric"), c.get("period"), c.get("basis"),
                    c.get("printed"), _plain(c.get("claimed")), _plain(c.get("found")), _plain(c.get("tolerance")),
                    c.get("verdict") or "pending", c.get("reason"), cite.get("document"), cite.get("locator"),
                    cite.get("as_printed")])
    return out


def _cell(value: Any) -> Any:
    # Spreadsheet apps run cells that start with these as formulas; a deck's text must stay text.
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@") and not _numeric(value):
        return "'" + value
    return value


def _numeric(text: str) -> bool:
    try:
        float(text.replace(",", ""))
    except ValueError:
        return False
    return True


def to_csv(result: dict[str, Any]) -> bytes:
    buf = io.StringIO()
    writer = csv.writer(buf)
    writer.writerow(COLUMNS)
    for row in rows_of(result):
        writer.writerow(["" if v is None else _cell(v) for v in row])
    return buf.getvalue().encode("utf-8-sig")


def to_xlsx(result: dict[str, Any]) -> bytes:
    from openpyxl import Workbook
    from openpyxl.styles import Font

    wb = Workbook()
    ws = wb.active
    ws.title = "Verdicts"
    ws.append(list(COLUMNS))
    for cell in ws[1]:
        cell.font = Font(bold=True)
    for row in rows_of(result):
        ws.append([_cell(v) for v in row])
    ws.freeze_panes = "A2"
    for letter, width in zip("ABCDEFGHIJKLMNO", (9, 6, 60, 18, 11, 10, 12, 12, 12, 10, 16, 60, 28, 50, 16)):
        ws.column_dimensions[letter].width = width
    summary = wb.create_sheet("Run")
    for key in ("run_id", "room", "deck", "status", "entity", "elapsed_ms"):
        summary.append([key, str(result.get(key, "")) if result.get(key) is not None else ""])
    for verdict, n in (result.get("counts") or {}).items():
        summary.append([verdict, n])
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()
