"""A tour drawn move by move in a notebook: :meth:`Tour.animate` gives an
:class:`Animation`, whose HTML is the tour's animated SVG picture (the
library's, drawn with SMIL) with a knight that jumps from square to square
and a few controls: play and pause, a move back or on, a slider over the
moves and the speed. It is self-contained: no file, font or script is
fetched from anywhere. The controls are a little inline JavaScript; where a
page runs none (an untrusted notebook, a viewer that strips scripts) the
picture still draws itself once, and the controls stay hidden.

A notebook shows the animation of a tour of at most
:attr:`Animation.MAX_SQUARES` squares, and the tour's still picture above
that (as the tour itself shows; nothing above ``SVG_MAX_SQUARES``);
:meth:`Animation.to_html` and :meth:`Animation.save` make it for any size.

>>> import knights
>>> a = knights.tour("5x5", seed=1).animate()
>>> a
<knights.Animation of <knights.Tour 5x5 open, 25 squares from (0, 0) to (...)>>
>>> html = a._repr_html_()
>>> html.startswith('<div class="knights-animation"'), "<script>" in html
(True, True)
"""

from __future__ import annotations

import os
import re
import uuid
from pathlib import Path
from typing import Any, Dict, List, Optional, Union

from . import _native
from ._errors import FileError
from ._native import Tour

__all__ = ["Animation", "animate"]

#: The knight's mark: the library's colour of the knight on a partial path.
_KNIGHT = "#1f77b4"

#: The controls, shown by the script (hidden where no script runs).
_CONTROLS = """<div class="knights-controls" style="display:none;margin-top:4px">
<button type="button" class="knights-back" title="one move back"
 aria-label="one move back">&#9664;</button>
<button type="button" class="knights-play" style="min-width:4.5em">Pause</button>
<button type="button" class="knights-on" title="one move on"
 aria-label="one move on">&#9654;</button>
<input type="range" class="knights-slider" min="0" max="{steps}" value="0"
 aria-label="move" style="vertical-align:middle">
<select class="knights-speed" aria-label="speed">
<option value="0.5">0.5&#215;</option><option value="1" selected>1&#215;</option>
<option value="2">2&#215;</option><option value="4">4&#215;</option>
</select>
<span class="knights-label" style="margin-left:0.5em"></span>
</div>"""

#: The script: it takes the picture over from its SMIL animation (removed,
#: so that the script alone says what is drawn) and shows move ``k`` by
#: setting the line's dash offset, the step numbers' visibility and the
#: knight's place.
_SCRIPT = """<script>
(function () {
  var root = document.getElementById("%(id)s");
  if (!root || root.getAttribute("data-ready")) { return; }
  root.setAttribute("data-ready", "1");
  var steps = %(steps)d, msPerMove = %(ms).3f;
  var svg = root.querySelector("svg");
  var knight = svg.querySelector(".knights-knight");
  var line = svg.querySelector("[stroke-dashoffset]");
  var numbers = svg.querySelectorAll("text");
  var xs = knight.querySelector("animate[attributeName=cx]").getAttribute("values").split(";");
  var ys = knight.querySelector("animate[attributeName=cy]").getAttribute("values").split(";");
  var gone = svg.querySelectorAll("animate, set");
  for (var i = 0; i < gone.length; i++) { gone[i].parentNode.removeChild(gone[i]); }
  var controls = root.querySelector(".knights-controls");
  var play = root.querySelector(".knights-play");
  var slider = root.querySelector(".knights-slider");
  var speed = root.querySelector(".knights-speed");
  var label = root.querySelector(".knights-label");
  var step = 0, playing = false, t0 = 0, k0 = 0;
  function show(k) {
    step = k;
    if (line) { line.setAttribute("stroke-dashoffset", String(steps - k)); }
    for (var i = 0; i < numbers.length; i++) {
      numbers[i].setAttribute("visibility", i <= k ? "visible" : "hidden");
    }
    knight.setAttribute("cx", xs[k]);
    knight.setAttribute("cy", ys[k]);
    slider.value = String(k);
    label.textContent = "move " + k + " of " + steps + ", knight on (" +
      (Number(ys[k]) - 1) / 2 + ", " + (Number(xs[k]) - 1) / 2 + ")";
  }
  function stop() { playing = false; play.textContent = "Play"; }
  function frame() {
    if (!playing) { return; }
    var now = Date.now();
    var k = Math.min(steps, k0 + Math.floor((now - t0) * Number(speed.value) / msPerMove));
    if (k !== step) { show(k); }
    if (k >= steps) { stop(); return; }
    var next = t0 + (k + 1 - k0) * msPerMove / Number(speed.value);
    window.setTimeout(frame, Math.max(15, next - now));
  }
  function start() {
    if (step >= steps) { show(0); }
    playing = true; play.textContent = "Pause";
    t0 = Date.now(); k0 = step;
    window.setTimeout(frame, 15);
  }
  play.onclick = function () { if (playing) { stop(); } else { start(); } };
  function go(k) { stop(); show(Math.max(0, Math.min(steps, k))); }
  root.querySelector(".knights-back").onclick = function () { go(step - 1); };
  root.querySelector(".knights-on").onclick = function () { go(step + 1); };
  slider.oninput = function () { go(Number(slider.value)); };
  speed.onchange = function () { t0 = Date.now(); k0 = step; };
  controls.style.display = "";
  show(0);
  if (steps > 0) { start(); } else { stop(); }
})();
</script>"""


def _unique_ids(svg: str, suffix: str) -> str:
    """``svg`` with each ``id`` (and every reference to it) made unique to
    this picture, so that two pictures on one page never take each other's
    pattern or clip path."""
    for name in set(re.findall(r'\bid="([^"]+)"', svg)):
        svg = svg.replace(f'id="{name}"', f'id="{name}-{suffix}"')
        svg = svg.replace(f"url(#{name})", f"url(#{name}-{suffix})")
        svg = svg.replace(f'href="#{name}"', f'href="#{name}-{suffix}"')
    return svg


def _knight(svg: str, squares: List[Any], steps: int, seconds: float) -> str:
    """The knight's mark on the first square, with its SMIL jumps: on square
    ``k`` from the moment the line reaches it (``k`` of ``steps`` moves)."""
    mark = re.search(r'<circle [^>]*?\br="([0-9.]+)"[^>]*?stroke-width="([0-9.]+)"', svg)
    radius, rim = (float(mark.group(1)), mark.group(2)) if mark else (0.6, "0.1")
    xs = ";".join(str(2 * c + 1) for _, c in squares)
    ys = ";".join(str(2 * r + 1) for r, _ in squares)
    times = ";".join(f"{k / max(steps, 1):.7f}" for k in range(len(squares)))
    (r0, c0) = squares[0]
    animate = (
        '<animate attributeName="{}" values="{}" keyTimes="{}" calcMode="discrete" '
        f'dur="{seconds:.2f}s" fill="freeze"/>'
    )
    return (
        f'<circle class="knights-knight" cx="{2 * c0 + 1}" cy="{2 * r0 + 1}" '
        f'r="{1.2 * radius:.3f}" fill="{_KNIGHT}" stroke="white" stroke-width="{rim}">'
        "<title>knight</title>"
        + animate.format("cx", xs, times)
        + animate.format("cy", ys, times)
        + "</circle>\n"
    )


#: Bytes a square of the tour takes while the HTML is made: the list of
#: squares, the picture and its copies, the knight's values as strings.
_BYTES_PER_SQUARE = 400


def _html(tour: Tour) -> str:
    """The animation's HTML: the picture, the controls and the script. A
    tour whose HTML would not fit in this machine's memory is refused
    (``MemoryError``) before it is made."""
    _native.ensure_fits(
        f"the animation of this {tour.board} tour", len(tour) * _BYTES_PER_SQUARE
    )
    suffix = uuid.uuid4().hex[:12]
    squares: List[Any] = tour.squares
    if tour.closed and len(squares) > 1:
        squares.append(squares[0])
    steps = len(squares) - 1
    svg = _unique_ids(tour.to_svg(animate=True), suffix)
    found = re.search(r'dur="([0-9.]+)s"', svg)
    seconds = float(found.group(1)) if found else 4.0
    knight = _knight(svg, squares, steps, seconds)
    # Over the line and the marks, under the step numbers (when drawn).
    at = svg.find("<g font-family=")
    at = at if at >= 0 else svg.rfind("</svg>")
    svg = svg[:at] + knight + svg[at:]
    root = f"knights-animation-{suffix}"
    return (
        f'<div class="knights-animation" id="{root}" style="display:inline-block;'
        f'font-family:sans-serif;font-size:13px">\n{svg}'
        + _CONTROLS.format(steps=steps)
        + "\n"
        + _SCRIPT % {"id": root, "steps": steps, "ms": 1000.0 * seconds / max(steps, 1)}
        + "\n</div>"
    )


class Animation:
    """A tour drawn move by move, for a notebook (:meth:`Tour.animate`
    makes one): shown as HTML, the tour's animated picture with a knight
    and controls, on tours of at most :attr:`MAX_SQUARES` squares, and as
    the tour's still picture above that.

    >>> a = Animation(tour("6x6", kind="closed"))
    >>> a.tour.closed, a.to_html().count("<svg")
    (True, 1)
    >>> sorted(a._repr_mimebundle_())
    ['text/html']
    >>> sorted(Animation(tour("120x120"))._repr_mimebundle_())
    ['image/png', 'image/svg+xml']
    """

    __slots__ = ("_tour",)

    MAX_SQUARES = 10_000
    """Above this many squares a notebook shows the tour's still picture
    instead of its animation (whose HTML takes some 35 bytes a square);
    :meth:`to_html` and :meth:`save` still make any size."""

    def __init__(self, tour: Tour) -> None:
        if not isinstance(tour, Tour):
            raise TypeError(f"an Animation is of a Tour, not {type(tour).__name__}")
        self._tour = tour

    @property
    def tour(self) -> Tour:
        """The tour drawn."""
        return self._tour

    def to_html(self) -> str:
        """The animation as an HTML fragment (a ``<div>`` with the picture,
        its controls and their script), for a page or a notebook, on a
        tour of any size; every call gives its elements new ids, so that
        fragments never clash on one page."""
        return _html(self._tour)

    def save(self, path: Union[str, "os.PathLike[str]"]) -> None:
        """Saves the animation as a web page of its own (HTML, UTF-8) to
        ``path``: through a temporary file in its folder, renamed over it,
        so the file is written whole or not at all. A file that cannot be
        written raises :class:`FileError` (an ``OSError``)."""
        target = Path(path)
        title = f"{self._tour.kind} knight's tour on {self._tour.board}"
        page = (
            '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f"<title>{title}</title>\n</head>\n<body>\n{self.to_html()}\n</body>\n</html>\n"
        )
        folder = target.resolve().parent
        temporary = folder / f".{target.name}.{uuid.uuid4().hex[:12]}.tmp"
        try:
            # Created afresh (never over another file), with the usual
            # permissions of a new file (0666 less the umask).
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            with open(fd, "w", encoding="utf-8") as f:
                f.write(page)
            os.replace(temporary, target)
        except OSError as e:
            if temporary.exists():
                temporary.unlink()
            error = FileError(f"could not write {str(target)!r}: {e.strerror or e}")
            error.errno = e.errno
            raise error from e

    def _shown(self) -> bool:
        return self._tour.rows * self._tour.cols <= self.MAX_SQUARES

    def _repr_html_(self) -> Optional[str]:
        """The notebook's HTML: :meth:`to_html`, or nothing on a board of
        more than :attr:`MAX_SQUARES` squares."""
        return self.to_html() if self._shown() else None

    def _repr_mimebundle_(
        self, include: Any = None, exclude: Any = None
    ) -> Dict[str, Any]:
        """What a notebook shows: the HTML, or above :attr:`MAX_SQUARES`
        squares the tour's still picture as
        SVG and PNG (nothing above ``SVG_MAX_SQUARES``, as for the tour)."""
        if self._shown():
            return {"text/html": self.to_html()}
        from . import SVG_MAX_SQUARES

        if self._tour.rows * self._tour.cols > SVG_MAX_SQUARES:
            return {}
        return {"image/svg+xml": self._tour.to_svg(), "image/png": self._tour.to_png()}

    def __repr__(self) -> str:
        return f"<knights.Animation of {self._tour!r}>"


def animate(self: Tour) -> Animation:
    """The tour drawn move by move, for a notebook: an :class:`Animation`,
    which a notebook shows as the tour's animated picture with a knight and
    controls (play, pause, a move back or on, a slider, the speed), as
    self-contained HTML; ``to_html()`` and ``save("tour.html")`` give it
    for a page.

    >>> html = tour("8x8", seed=1).animate().to_html()
    >>> html.count("<svg"), html.count('class="knights-knight"')
    (1, 1)
    """
    return Animation(self)


for _public in (Animation, animate):
    _public.__module__ = "knights"
del _public
