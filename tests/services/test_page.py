"""The page module's own reads: PDF crops with the cited box drawn, and where files may come from."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest
from litestar.exceptions import HTTPException, NotFoundException

from services.page import _parse_bbox, _room_file, render_crop
from tests.browser.room_files import write_room

CUSTOMERS_CELL = (330.0, 141.25, 360.58, 154.99)


def _pdf(tmp_path: Path) -> bytes:
    write_room(tmp_path / "room")
    return (tmp_path / "room" / "acme-key-metrics-2024.pdf").read_bytes()


def test_a_crop_is_a_band_of_the_page_around_the_box_with_the_box_drawn_in_red(tmp_path: Path) -> None:
    png = render_crop(_pdf(tmp_path), 1, CUSTOMERS_CELL)
    pix = pymupdf.Pixmap(png)
    scale = 144 / 72
    assert pix.width == round(612 * scale)
    assert pix.height < 792 * scale / 2, "a band around the cell, not the whole page"
    # The box's left edge, 3pt outside the cell, is drawn in red.
    x, y = round((CUSTOMERS_CELL[0] - 3) * scale), pix.height // 2
    red, green, blue = pix.pixel(x, y)[:3]
    assert red > 150 and green < 90 and blue < 90, (red, green, blue)


def test_without_a_box_the_whole_page_is_rendered(tmp_path: Path) -> None:
    pix = pymupdf.Pixmap(render_crop(_pdf(tmp_path), 1, None))
    assert (pix.width, pix.height) == (round(612 * 96 / 72), round(792 * 96 / 72))


def test_a_page_past_the_end_is_an_index_error(tmp_path: Path) -> None:
    with pytest.raises(IndexError):
        render_crop(_pdf(tmp_path), 2, CUSTOMERS_CELL)


@pytest.mark.parametrize("text", ["1,2,3", "a,b,c,d", "10,10,5,20", "10,20,30,20"])
def test_a_malformed_bbox_is_a_client_error(text: str) -> None:
    with pytest.raises(HTTPException) as raised:
        _parse_bbox(text)
    assert raised.value.status_code == 400


def test_files_are_read_only_from_inside_their_room(tmp_path: Path) -> None:
    write_room(tmp_path / "rooms" / "acme")
    (tmp_path / "rooms" / "other").mkdir()
    (tmp_path / "rooms" / "other" / "secret.pdf").write_bytes(b"%PDF")
    assert _room_file(tmp_path / "rooms", "acme", "acme-key-metrics-2024.pdf").is_file()
    with pytest.raises(NotFoundException):
        _room_file(tmp_path / "rooms", "acme", "../other/secret.pdf")
    with pytest.raises(NotFoundException):
        _room_file(tmp_path / "rooms", "acme", "missing.pdf")
