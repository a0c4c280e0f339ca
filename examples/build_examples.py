"""Build the example room and deck from NVIDIA's public FY2025 figures.

    python examples/build_examples.py

Writes ``examples/room/`` (an excerpt of the FY2025 10-K income statement and of the Q4 FY2025
earnings release, as HTML) and ``examples/decks/nvidia-fy2025-highlights.pdf`` (a four-slide
deck whose claims exercise every verdict). The figures are NVIDIA's as filed with the SEC
(10-K for the fiscal year ended January 26, 2025; the release of February 26, 2025); the deck
deliberately misstates some of them. The generated files are committed, so the README's first
command runs without this script.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf

HERE = Path(__file__).resolve().parent

# (label, FY2025, FY2024) in millions except per-share amounts, from the 10-K's statement.
INCOME_STATEMENT = [
    ("Revenue", "130,497", "60,922"),
    ("Cost of revenue", "32,639", "16,621"),
    ("Gross profit", "97,858", "44,301"),
    ("Research and development", "12,914", "8,675"),
    ("Sales, general and administrative", "3,491", "2,654"),
    ("Total operating expenses", "16,405", "11,329"),
    ("Operating income", "81,453", "32,972"),
    ("Net income", "72,880", "29,760"),
]
PER_SHARE = [("Basic", "2.97", "1.21"), ("Diluted", "2.94", "1.19")]

TEN_K = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>NVIDIA Corporation Form 10-K (excerpt)</title></head>
<body>
<p style="text-align:center"><b>UNITED STATES SECURITIES AND EXCHANGE COMMISSION</b></p>
<p style="text-align:center"><b>FORM 10-K</b></p>
<p>ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934</p>
<p>For the fiscal year ended January 26, 2025</p>
<p style="text-align:center"><b>NVIDIA CORPORATION</b></p>
<p style="text-align:center">(Exact name of registrant as specified in its charter)</p>
<p><b>Part II</b></p>
<p><b>Item 8. Financial Statements and Supplementary Data</b></p>
<p style="text-align:center"><b>NVIDIA Corporation and Subsidiaries</b></p>
<p style="text-align:center"><b>Consolidated Statements of Income</b></p>
<p style="text-align:center">(In millions, except per share data)</p>
<table>
<tr><td></td><td colspan="3" style="text-align:center"><b>Year Ended</b></td></tr>
<tr><td></td><td><b>Jan 26, 2025</b></td><td></td><td><b>Jan 28, 2024</b></td></tr>
{rows}
<tr><td>Net income per share:</td><td></td><td></td><td></td></tr>
{per_share}
</table>
<p>This excerpt reproduces figures from NVIDIA's Form 10-K for the fiscal year ended January 26, 2025.</p>
</body></html>
"""

RELEASE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>NVIDIA Announces Financial Results for Fourth Quarter and Fiscal 2025</title></head>
<body>
<h1>NVIDIA Announces Financial Results for Fourth Quarter and Fiscal 2025</h1>
<p>SANTA CLARA, Calif., Feb. 26, 2025 &mdash; NVIDIA (NASDAQ: NVDA) today reported revenue for the fourth
quarter ended January 26, 2025, of $39.3 billion, up 12% from the previous quarter and up 78% from a year ago.</p>
<p>For fiscal 2025, revenue was $130.5 billion, up 114% from a year ago.</p>
<p><b>Summary of Fiscal 2025 Results</b></p>
<p>(In millions, except earnings per share)</p>
<table>
<tr><td></td><td><b>FY25</b></td><td><b>FY24</b></td></tr>
<tr><td>GAAP gross margin</td><td>75.0%</td><td>72.7%</td></tr>
<tr><td>Non-GAAP gross margin</td><td>75.5%</td><td>73.8%</td></tr>
<tr><td>GAAP diluted earnings per share</td><td>$2.94</td><td>$1.19</td></tr>
<tr><td>Non-GAAP diluted earnings per share</td><td>$2.99</td><td>$1.30</td></tr>
</table>
</body></html>
"""

SLIDES = [
    ("NVIDIA Corporation", ["Investor highlights", "Fiscal year ended January 26, 2025"]),
    ("FY2025 Financial Highlights", [
        "Revenue of $130.5B",
        "Revenue up 114% year over year",
        "Gross margin of 75.0%",
        "Net income of $72.9M",
        "Operating income of $32.97B",
    ]),
    ("FY2025 Per-Share Results", [
        "Diluted EPS of $2.99",
        "Basic EPS of $2.97",
    ]),
    ("Longer View", [
        "FY2021 revenue of $16.7B",
        "The world's leading accelerated computing platform",
        "We expect revenue to reach $200B in FY2027",
    ]),
]


def build_room(room: Path) -> None:
    room.mkdir(parents=True, exist_ok=True)
    rows = "\n".join(
        f"<tr><td>{label}</td><td>{'$ ' if i in (0, 7) else ''}{cur}</td><td></td><td>{'$ ' if i in (0, 7) else ''}{prev}</td></tr>"
        for i, (label, cur, prev) in enumerate(INCOME_STATEMENT)
    )
    per_share = "\n".join(
        f"<tr><td>{label}</td><td>$ {cur}</td><td></td><td>$ {prev}</td></tr>" for label, cur, prev in PER_SHARE
    )
    (room / "nvda-10-K-FY2025-excerpt.html").write_text(TEN_K.replace("{rows}", rows).replace("{per_share}", per_share))
    (room / "nvda-Q4-FY2025-release-excerpt.html").write_text(RELEASE)


def build_deck(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = pymupdf.open()
    for number, (title, bullets) in enumerate(SLIDES, start=1):
        page = doc.new_page(width=960, height=540)
        page.insert_text((48, 80), title, fontsize=30)
        y = 150
        for bullet in bullets:
            page.insert_text((64, y), bullet, fontsize=20)
            y += 44
        page.insert_text((880, 515), str(number), fontsize=10)
    doc.save(path, garbage=3, deflate=True)


if __name__ == "__main__":
    build_room(HERE / "room")
    build_deck(HERE / "decks" / "nvidia-fy2025-highlights.pdf")
    print(f"wrote {HERE / 'room'} and {HERE / 'decks'}")
