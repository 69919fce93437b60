"""Tour.animate(): a tour drawn move by move as self-contained HTML for a
notebook, bounded in size, with the still picture above the bound."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import knights


def knight_values(html: str, attribute: str) -> list:
    found = re.search(rf'<animate attributeName="{attribute}" values="([^"]*)"', html)
    assert found, attribute
    return found.group(1).split(";")


def test_a_tour_animates_as_html():
    t = knights.tour("8x8", kind="closed", seed=1)
    a = t.animate()
    assert isinstance(a, knights.Animation) and a.tour == t
    assert repr(a) == f"<knights.Animation of {t!r}>"
    html = a._repr_html_()
    assert html is not None and html == html.strip()
    assert html.startswith('<div class="knights-animation"') and html.endswith("</div>")
    assert html.count("<svg") == 1 and html.count("<script>") == 1
    assert 'class="knights-controls"' in html and "display:none" in html


def test_the_knight_jumps_to_every_square_in_order():
    for t in (knights.tour("6x6", kind="closed"), knights.tour("5x5", kind="open", seed=2)):
        html = t.animate().to_html()
        xs, ys = knight_values(html, "cx"), knight_values(html, "cy")
        squares = t.squares + ([t.start] if t.closed else [])
        assert [(int(y) // 2, int(x) // 2) for x, y in zip(xs, ys)] == squares
        times = [float(k) for k in re.search(r'keyTimes="([^"]*)"', html).group(1).split(";")]
        assert times[0] == 0.0 and times[-1] == 1.0 and times == sorted(set(times))
        steps = len(squares) - 1
        assert f"var steps = {steps}," in html and f'max="{steps}"' in html


def test_the_line_is_the_librarys_animated_picture():
    t = knights.tour("5x5", seed=1)
    html = t.animate().to_html()
    # One line, drawn by its dash offset (which the script sets move by move).
    assert len(re.findall(r"stroke-dashoffset=", html)) == 1
    assert '<animate attributeName="stroke-dashoffset"' in html
    # Step numbers on a small board, one per square, in the tour's order.
    numbers = re.findall(r"<text [^>]*>(\d+)<set", html)
    assert [int(n) for n in numbers] == list(range(1, 26))


def test_wrapped_tours_leapers_and_a_single_square_animate():
    torus = knights.tour("4x4", kind="closed", wrap="both").animate().to_html()
    assert len(re.findall(r"stroke-dashoffset=", torus)) == 1
    assert knights.tour("10x10", leaper=(2, 3)).animate().to_html().count("<svg") == 1
    one = knights.tour("1x1").animate().to_html()
    assert "var steps = 0," in one and knight_values(one, "cx") == ["1"]


def test_ids_are_unique_to_each_fragment_and_every_reference_resolves():
    t = knights.tour("6x6", wrap="rows")
    first, second = t.animate().to_html(), t.animate().to_html()
    ids = [re.findall(r'\bid="([^"]+)"', h) for h in (first, second)]
    assert ids[0] and not set(ids[0]) & set(ids[1])
    for html, defined in zip((first, second), ids):
        assert len(defined) == len(set(defined))
        for ref in re.findall(r"url\(#([^)]+)\)", html) + re.findall(r'href="#([^"]+)"', html):
            assert ref in defined
        root = re.match(r'<div class="knights-animation" id="([^"]+)"', html).group(1)
        assert f'document.getElementById("{root}")' in html


def test_nothing_is_fetched_from_anywhere():
    html = knights.tour("8x8").animate().to_html()
    assert not re.search(r"\bsrc=|@import|url\((?!#)|href=\"(?!#)", html)
    # The one URL is the SVG namespace, which is a name, never fetched.
    assert re.findall(r"https?://[^\"' ]+", html) == ["http://www.w3.org/2000/svg"]
    assert "fetch(" not in html and "XMLHttpRequest" not in html and "import(" not in html


def test_a_notebook_shows_the_animation_up_to_the_bound_and_the_picture_above():
    assert knights.Animation.MAX_SQUARES == 10_000
    small = knights.tour("100x100").animate()
    bundle = small._repr_mimebundle_()
    assert list(bundle) == ["text/html"]
    # Bounded: some 35 bytes a square at the bound.
    assert len(bundle["text/html"]) < 40 * 100 * 100
    big = knights.tour("101x100").animate()
    assert big._repr_html_() is None
    bundle = big._repr_mimebundle_()
    assert sorted(bundle) == ["image/png", "image/svg+xml"]
    assert bundle["image/svg+xml"] == big.tour.to_svg()
    assert bundle["image/png"][:8] == b"\x89PNG\r\n\x1a\n"
    huge = knights.tour("501x500").animate()
    assert huge._repr_mimebundle_() == {} and huge._repr_html_() is None
    # to_html still makes any size.
    assert big.to_html().count("<svg") == 1


def test_the_bound_can_be_set(monkeypatch):
    monkeypatch.setattr(knights.Animation, "MAX_SQUARES", 24)
    a = knights.tour("5x5").animate()
    assert a._repr_html_() is None and "image/svg+xml" in a._repr_mimebundle_()
    assert knights.tour("4x6").animate()._repr_html_() is not None


def test_a_tour_keeps_its_own_pictures_in_a_notebook():
    t = knights.tour("5x5")
    assert not hasattr(t, "_repr_html_") and not hasattr(t, "_repr_mimebundle_")
    assert t._repr_svg_() == t.to_svg() and t._repr_png_() == t.to_png()
    assert repr(t).startswith("<knights.Tour 5x5 open, 25 squares from ")


def test_save_writes_a_page_whole(tmp_path: Path):
    path = tmp_path / "tour.html"
    knights.tour("6x6", kind="closed").animate().save(path)
    page = path.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and '<meta charset="utf-8">' in page
    assert "<title>closed knight's tour on 6x6</title>" in page
    assert page.count('<div class="knights-animation"') == 1
    assert [p.name for p in tmp_path.iterdir()] == ["tour.html"]
    assert path.stat().st_mode & 0o444 == 0o444
    knights.tour("5x5").animate().save(str(path))
    assert "open knight's tour on 5x5" in path.read_text(encoding="utf-8")


def test_save_to_a_folder_that_does_not_exist_is_a_file_error(tmp_path: Path):
    with pytest.raises(knights.FileError) as e:
        knights.tour("5x5").animate().save(tmp_path / "missing" / "tour.html")
    assert isinstance(e.value, OSError) and e.value.errno == 2
    assert "missing" in str(e.value)


def test_an_animation_is_of_a_tour():
    with pytest.raises(TypeError, match="not Tourney"):
        knights.Animation(knights.tourney("8x8"))  # type: ignore[arg-type]
