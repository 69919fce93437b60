// The algorithm theatre: Warnsdorff, backtracking and the neural network
// step by step, from the server's step streams.
import { $, api, say, article, boardOf, state, changed, saveFields, restoreFields } from './shared.js';
import { squareAt, svgBoard, points, el } from './board.js';

// The theatre's fields a share link keeps (ids `theatre-KEY`).
const FIELDS = ['rows', 'cols', 'algorithm', 'kind', 'tie', 'seed', 'speed'];

// The theatre's share link (share.js): set by initTheatre.
export const share = { save: () => ({}), restore: () => {} };

export function initTheatre() {
  const th = { start: null, timer: null, source: null, paused: false, steps: null, i: 0, tick: null };
  const ties = $('theatre-tie');
  for (const t of state.info.ties) {
    const o = document.createElement('option'); o.value = t.name; o.textContent = t.name; o.title = t.about;
    ties.appendChild(o);
  }
  const size = () => [+$('theatre-rows').value, +$('theatre-cols').value];
  const empty = () => { const [r, c] = size(); if (r * c <= 400 && r > 0 && c > 0) th.b = svgBoard($('theatre-board'), r, c); };
  const log = text => { $('theatre-log').textContent = text; };
  const halt = () => {
    clearInterval(th.timer); th.timer = null;
    if (th.source) { th.source.close(); th.source = null; }
  };
  const delay = () => 1000 / +$('theatre-speed').value;

  // Draws a path, marks and candidate labels on the theatre board.
  const draw = (path, extra = {}) => {
    const b = th.b, g = b.g;
    for (const n of ['paths', 'marks', 'labels']) b.layer(n).replaceChildren();
    el('polyline', { points: points(g, path), fill: 'none', stroke: '#243b53', 'stroke-width': g.cell / 12 }, b.layer('paths'));
    path.forEach(([r, c], i) => {
      const t = el('text', { x: g.x(c), y: g.y(r), 'font-size': g.cell * 0.3, 'text-anchor': 'middle',
        'dominant-baseline': 'central', fill: '#52606d', class: 'num' }, b.layer('labels'));
      t.textContent = i + state.base;
    });
    for (const [r, c, fill] of extra.marks || [])
      el('rect', { x: c * g.cell + 1, y: r * g.cell + 1, width: g.cell - 2, height: g.cell - 2, fill, opacity: 0.55 }, b.layer('marks'));
    for (const [r, c, text] of extra.labels || []) {
      const t = el('text', { x: g.x(c), y: g.y(r), 'font-size': g.cell * 0.45, 'text-anchor': 'middle',
        'dominant-baseline': 'central', fill: '#9b2c2c', 'font-weight': 'bold', class: 'degree' }, b.layer('labels'));
      t.textContent = text;
    }
    if (path.length) {
      const [r, c] = path[path.length - 1];
      el('circle', { cx: g.x(c), cy: g.y(r), r: g.cell * 0.2, fill: '#f0b429', stroke: '#243b53' }, b.layer('labels'));
    }
  };

  // Warnsdorff: the server's replay, shown one step at a time.
  const warnStep = () => {
    const w = th.steps;
    if (!w || th.i > w.steps.length) return halt();
    const path = w.squares.slice(0, th.i + 1);
    const step = w.steps[th.i];
    if (!step) { draw(path); const kind = w.closed ? 'closed' : 'open';
      log(`Done: ${article(kind)} ${kind} tour of ${w.rows}x${w.cols}.`); th.i++; return halt(); }
    const least = Math.min(...step.candidates.map(c => c.degree));
    draw(path, {
      marks: step.candidates.map(c => [c.square[0], c.square[1], c.square[0] === step.chosen[0] && c.square[1] === step.chosen[1] ? '#48bb78' : (c.degree === least ? '#f6e05e' : '#feb2b2')]),
      labels: step.candidates.map(c => [c.square[0], c.square[1], String(c.degree)]),
    });
    log(`Step ${th.i + state.base}: candidates ${step.candidates.map(c => `(${c.square}) ${c.degree}`).join(', ')}; took (${step.chosen}).` +
      (step.tie ? `\nTie: ${step.tie}` : '\nNo tie: one square has the fewest onward moves.'));
    th.i++;
  };

  // Neural network: the rounds, the edges on drawn.
  const neuralStep = () => {
    const n = th.steps;
    if (th.i > n.rounds.length) return halt();
    if (th.i > 0) for (const e of n.rounds[th.i - 1]) th.on.has(e) ? th.on.delete(e) : th.on.add(e);
    const b = th.b, g = b.g;
    for (const l of ['paths', 'labels', 'marks']) b.layer(l).replaceChildren();
    for (const e of th.on) {
      const [[r1, c1], [r2, c2]] = n.edges[e];
      el('line', { x1: g.x(c1), y1: g.y(r1), x2: g.x(c2), y2: g.y(r2), stroke: '#2b6cb0', 'stroke-width': g.cell / 16 }, b.layer('paths'));
    }
    const done = th.i === n.rounds.length;
    log(`Round ${th.i} of ${n.rounds.length}: ${th.on.size} edges on` + (th.i > 0 ? `, ${n.rounds[th.i - 1].length} switched` : ' (random start)') +
      (done ? (n.tourney ? '\nThe network rests: every square has two edges, a tourney.' : n.rested ? '\nThe network rests, but not every square has two edges: the paper restarts it.' : '\nThe round budget ran out.') : ''));
    th.i++;
  };

  // Backtracking and the hybrid: a live stream of squares entered and left.
  const stream = q => {
    let path = [], retreats = 0, last = null;
    th.source = new EventSource('/api/theatre/search?' + q);
    th.source.addEventListener('steps', ev => {
      if (th.paused) return;
      const d = JSON.parse(ev.data);
      for (const [sign, r, c] of d.steps) {
        if (sign === '+') path.push([r, c]); else { path.pop(); retreats++; last = [r, c]; }
      }
      draw(path, { marks: last ? [[last[0], last[1], '#fc8181']] : [] });
      log(`Nodes: ${d.nodes}   depth: ${d.depth}   retreats: ${retreats}` + (last ? `\nLast retreat from (${last})` : ''));
      $('theatre-board').dataset.nodes = d.nodes;
    });
    th.source.addEventListener('done', ev => {
      const d = JSON.parse(ev.data);
      th.source.close(); th.source = null;
      if (d.squares) draw(d.squares);
      log(`${d.found ? 'Found' : 'No tour'}: ${d.message}. Nodes: ${d.nodes}, retreats seen: ${retreats}.`);
    });
    th.source.onerror = () => { if (th.source) { th.source.close(); th.source = null; } };
  };

  // Runs the form's algorithm; `pauseAt`: a replay's step to stop at (a link's).
  const run = async pauseAt => {
    halt(); empty(); th.paused = false; th.ran = true;
    const algorithm = $('theatre-algorithm').value;
    const q = new URLSearchParams({ board: boardOf('theatre'), seed: $('theatre-seed').value || '0' });
    if (algorithm !== 'neural') q.set('kind', $('theatre-kind').value);
    if (th.start && algorithm !== 'neural') q.set('start', th.start.join(','));
    say('theatre-message', '', true);
    try {
      if (algorithm === 'warnsdorff') {
        q.set('tie', ties.value);
        th.steps = await api('/api/theatre/warnsdorff?' + q); th.i = 0; th.tick = warnStep;
      } else if (algorithm === 'neural') {
        th.steps = await api('/api/theatre/neural?' + q); th.i = 0; th.on = new Set(th.steps.initial); th.tick = neuralStep;
      } else {
        q.delete('seed');
        q.set('algorithm', algorithm); q.set('rate', $('theatre-speed').value);
        th.tick = null;
        return stream(q);
      }
      th.tick();
      if (pauseAt !== undefined) {
        const last = th.tick === warnStep ? th.steps.steps.length : th.steps.rounds.length;
        while (th.i < Math.min(pauseAt, last + 1)) th.tick();
        th.paused = true;
        return;
      }
      th.timer = setInterval(() => th.tick && th.tick(), delay());
    } catch (err) { say('theatre-message', err.message); }
  };
  $('theatre-form').addEventListener('submit', async ev => {
    ev.preventDefault();
    await run();
    changed('theatre', true);
  });
  $('theatre-form').addEventListener('change', () => changed('theatre', false));
  $('theatre-pause').addEventListener('click', () => {
    if (th.timer) { clearInterval(th.timer); th.timer = null; th.paused = true; }
    else if (th.tick) { th.paused = false; th.timer = setInterval(() => th.tick(), delay()); }
    else th.paused = !th.paused;
    changed('theatre', false);
  });
  $('theatre-next').addEventListener('click', () => {
    if (th.timer) { clearInterval(th.timer); th.timer = null; }
    if (th.tick) { th.paused = true; th.tick(); }
    changed('theatre', false);
  });
  $('theatre-board').addEventListener('click', ev => {
    const [r, c] = size();
    const sq = squareAt($('theatre-board'), ev, r, c);
    if (!sq) return;
    th.start = sq; $('theatre-start').textContent = sq.join(',');
    halt(); empty(); th.ran = false;
    draw([], { marks: [[sq[0], sq[1], '#f6ad55']] });
    changed('theatre', false);
  });
  for (const id of ['theatre-rows', 'theatre-cols']) $(id).addEventListener('change', () => { th.start = null; $('theatre-start').textContent = 'anywhere'; th.ran = false; empty(); });
  empty();

  share.save = () => {
    const s = saveFields('theatre', FIELDS, ['rows', 'cols']);
    if (th.start) s.start = th.start.join(',');
    if (th.ran) s.go = 1;
    // A replay paused (or stepped): its step; a live search has none.
    if (th.ran && th.tick && !th.timer) s.step = th.i;
    return s;
  };
  share.restore = async s => {
    halt(); th.ran = false; th.tick = null;
    restoreFields('theatre', FIELDS, s);
    const m = /^(\d+),(\d+)$/.exec(s.start || '');
    th.start = m ? [+m[1], +m[2]] : null;
    $('theatre-start').textContent = th.start ? th.start.join(',') : 'anywhere';
    empty();
    if (s.go === '1') await run(/^\d+$/.test(s.step || '') ? +s.step : undefined);
  };
}
