"""Pictures and files from Python: ``to_png``, ``to_gif``, ``save`` (the
format from the extension, as ``knights tour -o FILE``), the refusals, and
``_repr_png_`` for notebooks. PNG and GIF are read with the standard
library only."""

from __future__ import annotations

import json
import os
import re
import struct
from pathlib import Path

import pytest

import knights

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(png: bytes) -> tuple[int, int]:
    """The width and height in a PNG's header (IHDR, the first chunk)."""
    assert png.startswith(PNG_SIGNATURE), png[:8]
    assert png[12:16] == b"IHDR"
    return struct.unpack(">II", png[16:24])


def svg_size(svg: str) -> tuple[int, int]:
    """The width and height of an SVG's root element, in pixels."""
    root = re.search(r"<svg[^>]*>", svg)
    assert root, svg[:80]
    width = re.search(r' width="(\d+)"', root.group(0))
    height = re.search(r' height="(\d+)"', root.group(0))
    assert width and height, root.group(0)
    return int(width.group(1)), int(height.group(1))


def _skip_sub_blocks(gif: bytes, at: int) -> int:
    """The position after a chain of data sub-blocks (size byte, then that
    many bytes; a size of 0 ends the chain)."""
    while True:
        size = gif[at]
        at += 1
        if size == 0:
            return at
        at += size


def gif_frames(gif: bytes) -> tuple[int, bool]:
    """The number of images of a GIF (image descriptors, each walked past
    with its colour table and data), and whether it loops (the NETSCAPE2.0
    application extension), read by the GIF89a layout."""
    assert gif[:6] == b"GIF89a", gif[:6]
    packed = gif[10]
    at = 13
    if packed & 0x80:  # a global colour table of 2^(n+1) RGB entries
        at += 3 * (2 << (packed & 0x07))
    frames, loops = 0, False
    while True:
        block = gif[at]
        if block == 0x3B:  # trailer
            assert at == len(gif) - 1, "bytes after the trailer"
            return frames, loops
        if block == 0x21:  # extension: label, then sub-blocks
            label = gif[at + 1]
            if label == 0xFF and gif[at + 3 : at + 14] == b"NETSCAPE2.0":
                loops = True
            at = _skip_sub_blocks(gif, at + 2)
        elif block == 0x2C:  # image descriptor: 9 bytes, maybe a local table
            packed = gif[at + 9]
            at += 10
            if packed & 0x80:
                at += 3 * (2 << (packed & 0x07))
            at = _skip_sub_blocks(gif, at + 1)  # after the LZW code size
            frames += 1
        else:
            raise AssertionError(f"unknown GIF block 0x{block:02x} at {at}")


@pytest.fixture(scope="module")
def tour8() -> knights.Tour:
    return knights.tour("8x8")


def test_a_png_file_is_the_picture_the_svg_draws_at_its_size(tmp_path: Path, tour8):
    target = tmp_path / "t.png"
    assert tour8.save(target) is None
    png = target.read_bytes()
    assert png_size(png) == svg_size(tour8.to_svg())
    assert png == tour8.to_png()
    tour8.save(str(tmp_path / "T.PNG"))  # a str, and the extension in any case
    assert (tmp_path / "T.PNG").read_bytes() == png
    assert sorted(os.listdir(tmp_path)) == ["T.PNG", "t.png"]


def test_a_gif_file_draws_the_tour_a_frame_a_step(tmp_path: Path, tour8):
    open_tour = knights.tour("8x8", kind="open")
    open_tour.save(tmp_path / "open.gif")
    gif = (tmp_path / "open.gif").read_bytes()
    assert gif_frames(gif) == (64, True)
    assert gif == open_tour.to_gif()  # a second drawing, the same bytes
    # A closed tour's closing move may have a frame of its own
    # (docs/formats.md, "Pictures").
    frames, loops = gif_frames(knights.tour("6x6", kind="closed").to_gif())
    assert frames in (36, 37) and loops


def test_the_same_tour_gives_the_same_bytes(tour8):
    # (The GIF's second drawing is in the test above.)
    assert tour8.to_png() == knights.tour("8x8").to_png()


def test_the_extension_chooses_the_format(tmp_path: Path, tour8):
    cases = {
        "t.svg": lambda b: b.startswith(b"<svg") and b"<animate" not in b,
        "t.json": lambda b: knights.Tour.from_json(b) == tour8,
        "t.txt": lambda b: b.decode() == str(tour8) + "\n",
        "t.moves": lambda b: knights.read(b) == tour8,
        "no-extension": lambda b: b.decode() == str(tour8) + "\n",
    }
    for name, good in cases.items():
        tour8.save(tmp_path / name)
        assert good((tmp_path / name).read_bytes()), name
    tour8.save(tmp_path / "a.svg", format="animated-svg")
    assert b"<animate" in (tmp_path / "a.svg").read_bytes()
    tour8.save(tmp_path / "j.txt", format="json")
    assert json.loads((tmp_path / "j.txt").read_text())["rows"] == 8
    tour8.save(tmp_path / "plain", format="png")
    assert (tmp_path / "plain").read_bytes() == tour8.to_png()


def test_a_save_replaces_a_file_whole(tmp_path: Path, tour8):
    target = tmp_path / "t.png"
    target.write_bytes(b"old")
    target.chmod(0o600)
    tour8.save(target)
    assert target.read_bytes() == tour8.to_png()
    assert target.stat().st_mode & 0o777 == 0o600  # a replaced file keeps its permissions
    tour8.save(tmp_path / "new.png")
    assert (tmp_path / "new.png").stat().st_mode & 0o044  # a new one is readable
    assert sorted(os.listdir(tmp_path)) == ["new.png", "t.png"]  # no temporary file left


def test_a_save_through_a_symbolic_link_writes_its_target(tmp_path: Path, tour8):
    (tmp_path / "pictures").mkdir()
    link = tmp_path / "t.png"
    link.symlink_to(Path("pictures") / "tour.png")  # dangling: made by the save
    tour8.save(link)
    assert link.is_symlink()
    assert (tmp_path / "pictures" / "tour.png").read_bytes() == tour8.to_png()
    tour8.save(link, format="png")  # and replaced, the link kept
    assert link.is_symlink() and sorted(os.listdir(tmp_path / "pictures")) == ["tour.png"]


def test_refusals_name_what_would_do_and_write_nothing(tmp_path: Path, tour8):
    refusals = [
        (
            lambda: tour8.save(tmp_path / "t.xyz"),
            "ends in .xyz, but Tour.save writes no XYZ files. Name the file .txt (a "
            "numbered grid), .json (JSON), .moves (a move list), .svg (an SVG picture), "
            ".png (a PNG picture) or .gif (an animated GIF), or give it no extension and "
            "choose with format= ('grid', 'json', 'moves', 'svg', 'animated-svg', 'png', 'gif')",
        ),
        (
            lambda: tour8.save(tmp_path / "t.bmp", format="bmp"),
            "format='bmp' is not a format of Tour.save; give 'grid', 'json', 'moves', "
            "'svg', 'animated-svg', 'png' or 'gif'",
        ),
        (
            lambda: tour8.save(tmp_path / "t.json", format="svg"),
            "ends in .json, but format='svg' writes an SVG picture; name the file .svg, "
            "or leave out format to write JSON",
        ),
        (
            lambda: tour8.save(tmp_path / "t.gif", format="png"),
            "ends in .gif, but format='png' writes a PNG picture; name the file .png",
        ),
    ]
    for save, sentence in refusals:
        with pytest.raises(knights.BadInputError) as e:
            save()
        assert isinstance(e.value, ValueError)
        assert sentence in str(e.value)
    with pytest.raises(knights.FileError):
        tour8.save(tmp_path / "no-such-folder" / "t.png")
    # A refused save leaves an existing file as it was.
    kept = tmp_path / "kept.json"
    kept.write_text("kept")
    with pytest.raises(knights.BadInputError):
        tour8.save(kept, format="png")
    assert kept.read_text() == "kept"
    assert os.listdir(tmp_path) == ["kept.json"]


def test_a_tourney_saves_as_png_and_its_gif_is_refused(tmp_path: Path):
    t = knights.tourney("8x8")
    t.save(tmp_path / "t.png")
    png = (tmp_path / "t.png").read_bytes()
    assert png == t.to_png()
    assert png_size(png) == svg_size(t.to_svg())
    t.save(tmp_path / "t.json")
    assert knights.read((tmp_path / "t.json").read_text()) == t
    t.save(tmp_path / "t.svg")
    assert (tmp_path / "t.svg").read_text().startswith("<svg")
    t.save(tmp_path / "t.txt")  # a tourney's grid is its move list
    assert knights.read((tmp_path / "t.txt").read_text()) == t
    for save in (
        lambda: t.save(tmp_path / "t.gif"),
        lambda: t.save(tmp_path / "x", format="gif"),
    ):
        with pytest.raises(knights.BadInputError) as e:
            save()
        assert "a tourney (a set of cycles) has no one order of steps" in str(e.value)
        assert "format='png' or 'svg'" in str(e.value)
    assert not hasattr(t, "to_gif")
    assert sorted(os.listdir(tmp_path)) == ["t.json", "t.png", "t.svg", "t.txt"]


def test_a_notebook_gets_png_as_well_as_svg(tour8):
    png = tour8._repr_png_()
    assert isinstance(png, bytes) and png == tour8.to_png()
    t = knights.tourney("6x6")
    assert t._repr_png_() == t.to_png()


def test_a_big_board_shows_its_repr_instead_of_a_picture(monkeypatch, tour8):
    monkeypatch.setattr(knights, "SVG_MAX_SQUARES", 63)
    assert tour8._repr_png_() is None and tour8._repr_svg_() is None
    assert knights.tour("7x9", kind="open")._repr_png_() is not None
