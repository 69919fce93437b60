#!/usr/bin/env python3
"""Line plot (SVG) of time per square against board size from the output of
`knights bench --suite tourney`. Usage:

    target/release/knights bench --suite tourney 100x100 ... > bench.txt
    python3 docs/img/tourney_scaling.py bench.txt > docs/img/tourney_scaling.svg
"""
import math
import sys

COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]


def parse(lines):
    """{work: [(squares, board, ns per square)]}, CPU time when reported."""
    series = {}
    for line in lines:
        parts = line.split()
        if "ms" not in parts or "x" not in parts[0]:
            continue
        i = parts.index("ms")
        try:
            wall = float(parts[i + 1])
            cpu = float(parts[i + 2]) if len(parts) > i + 2 else wall
        except ValueError:
            continue
        if cpu == 0.0:
            continue  # too short for the CPU clock's resolution
        rows, cols = parts[0].split("x")
        work = " ".join(parts[1:i - 1])
        series.setdefault(work, []).append((int(rows) * int(cols), parts[0], cpu))
    return series


def main():
    series = parse(open(sys.argv[1]).read().splitlines())
    series.pop("warnsdorff tourney", None)  # a part of warnsdorff+join
    w, h, left, right, top, bottom = 720, 420, 70, 190, 30, 60
    xs = sorted({s for pts in series.values() for s, _, _ in pts})
    ymax = max(ns for pts in series.values() for _, _, ns in pts) * 1.1
    lx0, lx1 = math.log10(xs[0]), math.log10(xs[-1])

    def px(sq):
        return left + (math.log10(sq) - lx0) / (lx1 - lx0) * (w - left - right)

    def py(ns):
        return top + (1 - ns / ymax) * (h - top - bottom)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{w}" height="{h}" fill="white"/>',
           f'<text x="{left}" y="18" font-size="14">CPU time per square (ns), release, one thread</text>']
    step = 10 ** math.floor(math.log10(ymax / 5))
    step *= 2 if ymax / step > 10 else 1
    y = 0.0
    while y <= ymax:
        out.append(f'<line x1="{left}" x2="{w - right}" y1="{py(y):.1f}" y2="{py(y):.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{left - 6}" y="{py(y) + 4:.1f}" text-anchor="end">{y:g}</text>')
        y += step
    labels = {}
    for pts in series.values():
        for sq, name, _ in pts:
            labels[sq] = name
    for sq in xs:
        out.append(f'<line x1="{px(sq):.1f}" x2="{px(sq):.1f}" y1="{top}" y2="{h - bottom}" stroke="#eee"/>')
        out.append(f'<text x="{px(sq):.1f}" y="{h - bottom + 16}" text-anchor="middle">{labels[sq]}</text>')
    out.append(f'<text x="{(left + w - right) / 2}" y="{h - 16}" text-anchor="middle">board (log scale in squares)</text>')
    for i, (work, pts) in enumerate(series.items()):
        colour = COLOURS[i % len(COLOURS)]
        pts.sort()
        path = " ".join(f"{px(s):.1f},{py(ns):.1f}" for s, _, ns in pts)
        out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{path}"/>')
        for s, _, ns in pts:
            out.append(f'<circle cx="{px(s):.1f}" cy="{py(ns):.1f}" r="3" fill="{colour}"/>')
        ly = top + 10 + 20 * i
        out.append(f'<line x1="{w - right + 15}" x2="{w - right + 35}" y1="{ly}" y2="{ly}" stroke="{colour}" stroke-width="2"/>')
        out.append(f'<text x="{w - right + 40}" y="{ly + 4}">{work}</text>')
    out.append("</svg>")
    print("\n".join(out))


if __name__ == "__main__":
    main()
