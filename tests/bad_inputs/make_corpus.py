"""Generate the corpus of broken and hostile files: ``python tests/bad_inputs/make_corpus.py DIR``.

Each entry is (file name, kind, what it is). Everything is generated here, so the corpus costs
nothing in the repository; the 200 MB file is sparse, so it costs nothing on disk either.
"""

from __future__ import annotations

import io
import sys
import zipfile
from pathlib import Path

import pymupdf

__all__ = ["CORPUS", "make_corpus"]


def _pdf(text: str = "Revenue was $10.0 million.") -> bytes:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), text)
    return doc.tobytes()


def _encrypted_pdf() -> bytes:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "Confidential revenue $5.0 million")
    return doc.tobytes(encryption=pymupdf.PDF_ENCRYPT_AES_256, owner_pw="owner", user_pw="secret")


def _pages_bomb(count: int = 100_000) -> bytes:
    """A page tree claiming 100,000 pages that all point at one page object: tiny on disk."""
    kids = " ".join("3 0 R" for _ in range(count))
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Count {count} /Kids [{kids}] >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
    ]
    return _raw_pdf(objects)


def _nested_pdf(depth: int = 100_000) -> bytes:
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Count 1 /Kids [3 0 R] >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Nest " + "[" * depth + "]" * depth + " >>",
    ]
    return _raw_pdf(objects)


def _raw_pdf(objects: list[str]) -> bytes:
    out = io.BytesIO()
    out.write(b"%PDF-1.7\n")
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(f"{i} 0 obj\n{body}\nendobj\n".encode())
    xref = out.tell()
    out.write(f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode())
    for off in offsets:
        out.write(f"{off:010d} 00000 n \n".encode())
    out.write(f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode())
    return out.getvalue()


def _image_only_pdf() -> bytes:
    doc = pymupdf.open()
    page = doc.new_page()
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 200, 100), False)
    pix.set_rect(pix.irect, (200, 30, 30))
    page.insert_image(pymupdf.Rect(72, 72, 472, 272), pixmap=pix)
    return doc.tobytes()


def _zip_bomb_pptx() -> bytes:
    """A PPTX whose one slide inflates from ~200 KB to 1 GB."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        z.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>')
        with z.open("ppt/slides/slide1.xml", "w", force_zip64=True) as f:
            chunk = b" " * (1 << 20)
            for _ in range(1024):
                f.write(chunk)
    return out.getvalue()


def _pptx_not_a_zip() -> bytes:
    return b"PK\x03\x04 this is not really a zip archive" + b"\x00" * 64


def _docx_as_pptx() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        z.writestr("word/document.xml", "<w:document/>")
    return out.getvalue()


def _billion_laughs() -> bytes:
    lol = ['<!ENTITY lol0 "lol">'] + [f'<!ENTITY lol{i} "' + f"&lol{i - 1};" * 10 + '">' for i in range(1, 10)]
    return (
        '<?xml version="1.0"?>\n<!DOCTYPE xbrl [' + "".join(lol) + "]>\n"
        '<xbrli:xbrl xmlns:xbrli="http://www.xbrl.org/2003/instance"><note>&lol9;</note></xbrli:xbrl>'
    ).encode()


def _external_entity() -> bytes:
    return (
        '<?xml version="1.0"?>\n<!DOCTYPE xbrl [<!ENTITY secret SYSTEM "file:///etc/passwd">]>\n'
        '<xbrli:xbrl xmlns:xbrli="http://www.xbrl.org/2003/instance"><note>&secret;</note></xbrli:xbrl>'
    ).encode()


def _nested_html(depth: int = 100_000) -> bytes:
    return ("<html><body>" + "<div>" * depth + "Revenue $1" + "</div>" * depth + "</body></html>").encode()


def _nested_tables(depth: int = 2_000) -> bytes:
    return ("<html><body>" + "<table><tr><td>" * depth + "1" + "</td></tr></table>" * depth + "</body></html>").encode()


def _wide_table(columns: int = 100_000) -> bytes:
    return ("<html><body><table><tr>" + "<td>1</td>" * columns + "</tr></table></body></html>").encode()


_LATIN1_HTML = (
    "<html><head><title>Résumé financier</title></head><body><p>Chiffre d'affaires — exercice clos</p>"
    "<table><tr><td>Revenue</td><td>€ 1.234</td></tr></table></body></html>"
).encode("latin-1", errors="replace")

CORPUS: list[tuple[str, str, object, str]] = [
    # (file name, filing or deck, content or a function making it, "fail" or "parse"): a file
    # with a wrong extension or a legacy encoding but real content should parse, not fail.
    ("empty.html", "filing", b"", "fail"),
    ("empty.pdf", "filing", b"", "fail"),
    ("empty.xml", "filing", b"", "fail"),
    ("empty.md", "filing", b"", "fail"),
    ("empty-deck.pdf", "deck", b"", "fail"),
    ("empty-deck.pptx", "deck", b"", "fail"),
    ("truncated.pdf", "filing", lambda: _pdf()[: len(_pdf()) // 2], "fail"),
    ("truncated-deck.pdf", "deck", lambda: _pdf("Revenue of $4.2B")[:300], "fail"),
    ("encrypted.pdf", "filing", _encrypted_pdf, "fail"),
    ("encrypted-deck.pdf", "deck", _encrypted_pdf, "fail"),
    ("hundred-thousand-pages.pdf", "filing", _pages_bomb, "fail"),
    ("hundred-thousand-pages-deck.pdf", "deck", _pages_bomb, "fail"),
    ("deeply-nested-objects.pdf", "filing", _nested_pdf, "fail"),
    ("image-only.pdf", "filing", _image_only_pdf, "fail"),
    ("image-only-deck.pdf", "deck", _image_only_pdf, "fail"),
    ("nested-tags.html", "filing", _nested_html, "fail"),
    ("nested-tables.html", "filing", _nested_tables, "fail"),
    ("wide-table.html", "filing", _wide_table, "fail"),
    ("billion-laughs.xml", "filing", _billion_laughs, "fail"),
    ("external-entity.xml", "filing", _external_entity, "fail"),
    ("latin-1.html", "filing", _LATIN1_HTML, "parse"),
    ("utf-16.html", "filing", _LATIN1_HTML.decode("latin-1").encode("utf-16"), "parse"),
    ("two-hundred-megabytes.html", "filing", "sparse:200", "fail"),
    ("png-named.pdf", "filing", b"\x89PNG\r\n\x1a\n" + b"\x00" * 512, "fail"),
    ("pdf-named.html", "filing", _pdf, "parse"),
    ("random-bytes.html", "filing", bytes(range(256)) * 64, "fail"),
    ("nul-bytes.html", "filing", b"<html>\x00\x00<body>\x00Revenue\x00</body></html>", "fail"),
    ("script-only.html", "filing", b"<html><script>" + b"var a=1;" * 10_000 + b"</script></html>", "fail"),
    ("one-long-line.md", "filing", b"Revenue " * 1_000_000, "parse"),
    ("zip-bomb.pptx", "deck", _zip_bomb_pptx, "fail"),
    ("not-a-zip.pptx", "deck", _pptx_not_a_zip, "fail"),
    ("docx-named.pptx", "deck", _docx_as_pptx, "fail"),
    ("random-deck.pdf", "deck", bytes(range(256)) * 16, "fail"),
]


def make_corpus(folder: Path) -> list[tuple[Path, str]]:
    """Write every corpus file into ``folder``; returns (path, kind) pairs."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for name, kind, content, _ in CORPUS:
        path = folder / name
        if content == "sparse:200":
            with path.open("wb") as f:
                f.write(b"<html>")
                f.truncate(200 * 1024 * 1024)
        else:
            data = content() if callable(content) else content
            path.write_bytes(data)  # type: ignore[arg-type]
        out.append((path, kind))
    return out


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "bad-inputs")
    for path, kind in make_corpus(target):
        print(f"{kind:<7} {path.stat().st_size:>11,} {path.name}")
