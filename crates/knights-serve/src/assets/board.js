// Drawing boards: SVG for small boards (every square an element, numbers as
// text), a canvas for large ones (up to 1000x1000; numbers hidden).

const NS = 'http://www.w3.org/2000/svg';
export const SVG_MAX = 1024; // squares drawn as SVG; larger boards use a canvas
const PX = 720; // the drawing's width in its own units

export const COLOURS = ['#e6194b', '#3cb44b', '#4363d8', '#f58231', '#911eb4', '#46a0a0', '#f032e6',
  '#9a8b00', '#800000', '#008080', '#000075', '#808000', '#aa6e28', '#e6a0be', '#5a5a5a', '#2e8b57'];

export function colour(i) {
  if (i < COLOURS.length) return COLOURS[i];
  return `hsl(${(i * 137.5) % 360}, 65%, 45%)`;
}

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// The geometry of a board of rows x cols drawn PX wide.
export function geometry(rows, cols) {
  const cell = PX / Math.max(rows, cols);
  return { rows, cols, cell, width: cell * cols, height: cell * rows,
    x: c => (c + 0.5) * cell, y: r => (r + 0.5) * cell };
}

// A fresh SVG board in `host`: the squares (class "sq", data-r, data-c) and
// layers "paths", "marks", "labels" on top. Returns { svg, g, layer(name) }.
export function svgBoard(host, rows, cols) {
  host.replaceChildren();
  const g = geometry(rows, cols);
  const svg = el('svg', { viewBox: `0 0 ${g.width} ${g.height}`, role: 'img',
    'aria-label': `a ${rows}x${cols} board` }, host);
  const squares = el('g', {}, svg);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) {
    el('rect', { x: c * g.cell, y: r * g.cell, width: g.cell, height: g.cell, class: 'sq',
      'data-r': r, 'data-c': c, fill: (r + c) % 2 ? '#cbd2d9' : '#f5f7fa' }, squares);
  }
  const layers = {};
  for (const name of ['marks', 'paths', 'labels']) layers[name] = el('g', { class: name }, svg);
  return { svg, g, layer: name => layers[name], el };
}

export { el };

// The square under a click on `host`'s drawing, as [r, c], or null.
export function squareAt(host, event, rows, cols) {
  const box = (host.querySelector('svg, canvas') || host).getBoundingClientRect();
  const g = geometry(rows, cols);
  const scale = box.width / g.width;
  const c = Math.floor((event.clientX - box.left) / scale / g.cell);
  const r = Math.floor((event.clientY - box.top) / scale / g.cell);
  return r >= 0 && r < rows && c >= 0 && c < cols ? [r, c] : null;
}

// A path as an SVG polyline's points.
export function points(g, path, from = 0, to = path.length) {
  let s = '';
  for (let i = from; i < to; i++) s += `${g.x(path[i][1]).toFixed(1)},${g.y(path[i][0]).toFixed(1)} `;
  return s;
}

// Draws a tour (or its first `upto + 1` squares) in `host`.
// opts: { rows, cols, path, closed, lines, numbers, upto, start, base }
export class TourView {
  constructor(host) { this.host = host; this.opts = null; }

  show(opts) {
    this.opts = opts;
    const { rows, cols } = opts;
    this.big = rows * cols > SVG_MAX;
    if (this.big) this.makeCanvas(); else this.makeSvg();
    this.drawn = -1;
    this.update(opts.upto ?? (opts.path ? opts.path.length - 1 : -1));
  }

  makeSvg() {
    const { rows, cols } = this.opts;
    this.b = svgBoard(this.host, rows, cols);
    const g = this.b.g;
    this.line = el('polyline', { fill: 'none', stroke: '#486581', 'stroke-opacity': 0.75, 'stroke-width': Math.max(1, g.cell / 22),
      'stroke-linejoin': 'round', class: 'tour-line' }, this.b.layer('paths'));
    this.closing = el('line', { stroke: '#486581', 'stroke-opacity': 0.75, 'stroke-width': Math.max(1, g.cell / 22),
      'stroke-dasharray': '4 3', visibility: 'hidden' }, this.b.layer('paths'));
    this.labels = [];
    this.knight = el('circle', { r: g.cell * 0.22, fill: '#f0b429', stroke: '#243b53',
      'stroke-width': 2, visibility: 'hidden', class: 'knight-mark' }, this.b.layer('labels'));
    for (const [r, c] of this.opts.holes || [])
      el('rect', { x: c * g.cell, y: r * g.cell, width: g.cell, height: g.cell, fill: '#243b53', class: 'hole' }, this.b.layer('marks'));
    if (this.opts.start) this.markStart(this.opts.start);
  }

  markStart([r, c]) {
    if (this.big || !this.b) return;
    const g = this.b.g;
    el('rect', { x: c * g.cell + 2, y: r * g.cell + 2, width: g.cell - 4, height: g.cell - 4,
      fill: 'none', stroke: '#c05621', 'stroke-width': 3, class: 'start-mark' }, this.b.layer('marks'));
  }

  makeCanvas() {
    const { rows, cols } = this.opts;
    this.host.replaceChildren();
    const canvas = document.createElement('canvas');
    const side = Math.min(2000, Math.max(720, Math.max(rows, cols)));
    const cell = side / Math.max(rows, cols);
    canvas.width = Math.round(cell * cols);
    canvas.height = Math.round(cell * rows);
    this.host.appendChild(canvas);
    this.ctx = canvas.getContext('2d');
    this.cell = cell;
    this.clearCanvas();
  }

  clearCanvas() {
    const { rows, cols } = this.opts;
    const ctx = this.ctx;
    ctx.fillStyle = '#f5f7fa';
    ctx.fillRect(0, 0, ctx.canvas.width, ctx.canvas.height);
    if (this.cell >= 4) {
      ctx.fillStyle = '#cbd2d9';
      for (let r = 0; r < rows; r++) for (let c = (r + 1) % 2; c < cols; c += 2)
        ctx.fillRect(c * this.cell, r * this.cell, this.cell, this.cell);
    }
    this.drawn = -1;
  }

  // Shows the first upto + 1 squares of the path.
  update(upto) {
    const o = this.opts;
    if (!o || !o.path) return;
    const n = o.path.length;
    upto = Math.max(-1, Math.min(n - 1, upto));
    this.upto = upto;
    if (this.big) return this.updateCanvas(upto);
    const g = this.b.g;
    this.line.setAttribute('points', o.lines ? points(g, o.path, 0, upto + 1) : '');
    const whole = upto === n - 1;
    if (o.closed && whole && o.lines && n > 1) {
      const [a, b] = [o.path[n - 1], o.path[0]];
      for (const [k, v] of Object.entries({ x1: g.x(a[1]), y1: g.y(a[0]), x2: g.x(b[1]), y2: g.y(b[0]) }))
        this.closing.setAttribute(k, v);
      this.closing.setAttribute('visibility', 'visible');
    } else this.closing.setAttribute('visibility', 'hidden');
    // Numbers: one text per visited square, from the page's step base.
    const layer = this.b.layer('labels');
    const want = o.numbers ? upto + 1 : 0;
    while (this.labels.length > want) this.labels.pop().remove();
    while (this.labels.length < want) {
      const i = this.labels.length;
      const [r, c] = o.path[i];
      const t = el('text', { x: g.x(c), y: g.y(r), 'font-size': g.cell * (n > 99 ? 0.28 : 0.34),
        stroke: '#ffffff', 'stroke-width': g.cell / 18, 'paint-order': 'stroke', 'font-weight': 600,
        'text-anchor': 'middle', 'dominant-baseline': 'central', class: 'num', 'data-r': r, 'data-c': c,
        fill: i === 0 ? '#c05621' : '#102a43' }, null);
      t.textContent = String(i + (o.base ?? 0));
      layer.insertBefore(t, this.knight);
      this.labels.push(t);
    }
    if (upto >= 0 && upto < n - 1) {
      const [r, c] = o.path[upto];
      this.knight.setAttribute('cx', g.x(c));
      this.knight.setAttribute('cy', g.y(r));
      this.knight.setAttribute('visibility', 'visible');
    } else this.knight.setAttribute('visibility', 'hidden');
  }

  updateCanvas(upto) {
    const o = this.opts;
    if (upto < this.drawn) this.clearCanvas();
    const ctx = this.ctx, cell = this.cell, path = o.path;
    ctx.strokeStyle = '#243b53';
    ctx.lineWidth = Math.max(0.6, cell / 10);
    ctx.beginPath();
    const from = Math.max(0, this.drawn);
    ctx.moveTo((path[from][1] + 0.5) * cell, (path[from][0] + 0.5) * cell);
    for (let i = from + 1; i <= upto; i++) ctx.lineTo((path[i][1] + 0.5) * cell, (path[i][0] + 0.5) * cell);
    if (o.lines) ctx.stroke();
    this.drawn = upto;
    const [r, c] = path[Math.max(0, upto)];
    ctx.fillStyle = '#c05621';
    ctx.fillRect(c * cell, r * cell, Math.max(2, cell), Math.max(2, cell));
  }
}

// A square's name for people: algebraic as in chess (the file a letter from
// the left, the rank counted from the bottom: c3) on boards of at most 26
// columns, else "row R, column C" (the ROW,COL numbers the requests take).
export function squareName(r, c, rows, cols) {
  if (cols <= 26) return `${String.fromCharCode(97 + c)}${rows - r}`;
  return `row ${r}, column ${c}`;
}
