// The algorithm theatre, the tourney lab, the cipher and counting.
import { $, api, say, boardOf, state, article, plural } from './app.js';
import { svgBoard, squareAt, points, colour, el, TourView } from './board.js';

// ---- Algorithm theatre ---------------------------------------------------

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
      t.textContent = i + 1;
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
    log(`Step ${th.i + 1}: candidates ${step.candidates.map(c => `(${c.square}) ${c.degree}`).join(', ')}; took (${step.chosen}).` +
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

  $('theatre-form').addEventListener('submit', async ev => {
    ev.preventDefault();
    halt(); empty(); th.paused = false;
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
      th.timer = setInterval(() => th.tick && th.tick(), delay());
    } catch (err) { say('theatre-message', err.message); }
  });
  $('theatre-pause').addEventListener('click', () => {
    if (th.timer) { clearInterval(th.timer); th.timer = null; th.paused = true; }
    else if (th.tick) { th.paused = false; th.timer = setInterval(() => th.tick(), delay()); }
    else th.paused = !th.paused;
  });
  $('theatre-next').addEventListener('click', () => { if (th.timer) { clearInterval(th.timer); th.timer = null; } if (th.tick) th.tick(); });
  $('theatre-board').addEventListener('click', ev => {
    const [r, c] = size();
    const sq = squareAt($('theatre-board'), ev, r, c);
    if (!sq) return;
    th.start = sq; $('theatre-start').textContent = sq.join(',');
    halt(); empty();
    draw([], { marks: [[sq[0], sq[1], '#f6ad55']] });
  });
  for (const id of ['theatre-rows', 'theatre-cols']) $(id).addEventListener('change', () => { th.start = null; $('theatre-start').textContent = 'anywhere'; empty(); });
  empty();
}

// ---- Tourney lab -----------------------------------------------------------

// Draws cycles (each its own colour) and optionally rails and one highlighted rail.
function drawCycles(host, rows, cols, cycles, opts = {}) {
  const b = svgBoard(host, rows, cols), g = b.g;
  if (opts.rails) for (const rail of opts.rails) {
    el('polygon', { points: points(g, [rail[0], rail[1], rail[3], rail[2]]), fill: '#f6e05e', opacity: 0.25, stroke: 'none', class: 'rail' }, b.layer('marks'));
  }
  cycles.forEach((cycle, i) => {
    el('polygon', { points: points(g, cycle), fill: 'none', stroke: colour(i), 'stroke-width': g.cell / 12, 'stroke-linejoin': 'round', class: 'cycle' }, b.layer('paths'));
  });
  if (opts.highlight) {
    el('polygon', { points: points(g, [opts.highlight[0], opts.highlight[1], opts.highlight[3], opts.highlight[2]]), fill: 'none', stroke: '#000', 'stroke-width': g.cell / 8, 'stroke-dasharray': '3 2' }, b.layer('labels'));
  }
}

// A bar chart of relative-move frequencies, before (grey) and after (orange).
function chart(host, before, after, title) {
  host.replaceChildren();
  const W = 720, H = 220, svg = el('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': title }, host);
  const t = el('text', { x: 10, y: 18, 'font-size': 14 }, svg); t.textContent = title;
  const max = Math.max(...before, ...(after || []), 0.01);
  const bw = (W - 40) / 8;
  for (let k = 0; k < 8; k++) {
    const x = 20 + k * bw;
    const bar = (v, dx, fill) => { const h = (H - 60) * v / max; el('rect', { x: x + dx, y: H - 30 - h, width: bw * 0.38, height: h, fill }, svg); };
    bar(before[k], 4, '#9aa5b1');
    if (after) bar(after[k], bw * 0.42, '#c05621');
    const l = el('text', { x: x + bw / 2, y: H - 12, 'font-size': 12, 'text-anchor': 'middle' }, svg); l.textContent = `move ${k}`;
  }
  const legend = el('text', { x: W - 10, y: 18, 'font-size': 12, 'text-anchor': 'end' }, svg);
  legend.textContent = after ? 'grey: before, orange: after' : '';
}

export function initLab() {
  const lab = { current: null };
  const gens = $('lab-generator');
  for (const gen of state.info.generators) {
    const o = document.createElement('option'); o.value = gen.name; o.textContent = gen.name; o.title = gen.about;
    gens.appendChild(o);
  }
  const bodyOf = x => JSON.stringify(x.cycles ? { rows: x.rows, cols: x.cols, cycles: x.cycles } : { rows: x.rows, cols: x.cols, closed: x.closed, squares: x.squares });
  const show = (host, x, opts = {}) => x.cycles ? drawCycles(host, x.rows, x.cols, x.cycles, opts) : drawCycles(host, x.rows, x.cols, [x.squares], opts);
  const freq = s => s.relative_frequencies;

  // Forgets the tourney and everything drawn from it.
  const clearLab = () => {
    lab.current = null;
    for (const id of ['lab-board', 'lab-after', 'lab-chart']) $(id).replaceChildren();
    $('lab-before-title').textContent = 'Before';
    $('lab-after-title').textContent = 'After';
  };
  $('lab-form').addEventListener('submit', async ev => {
    ev.preventDefault();
    clearInterval(lab.timer);
    const q = new URLSearchParams({ board: boardOf('lab'), generator: gens.value, seed: $('lab-seed').value || '0' });
    try {
      const t = await api('/api/tourney?' + q);
      lab.current = t;
      show($('lab-board'), t, { rails: $('lab-rails').checked ? t.rails : null });
      $('lab-after').replaceChildren(); $('lab-chart').replaceChildren();
      $('lab-before-title').textContent = `Tourney by ${t.generator}: ${plural(t.cycles.length, 'cycle')}` + (t.rails ? `, ${plural(t.rails.length, 'rail')}` : '');
      $('lab-after-title').textContent = '';
      say('lab-message', `A tourney of ${t.rows}x${t.cols} with ${plural(t.cycles.length, 'cycle')}; each cycle has its own colour, rails are shaded.`, true);
    } catch (err) {
      clearLab();
      say('lab-message', err.message);
    }
  });
  $('lab-rails').addEventListener('change', () => { if (lab.current && lab.current.cycles) show($('lab-board'), lab.current, { rails: $('lab-rails').checked ? lab.current.rails : null }); });

  $('lab-join').addEventListener('click', async () => {
    if (!lab.current) return say('lab-message', 'Make a tourney first.');
    clearInterval(lab.timer);
    try {
      // The cycles before are the ones sent (the answer's own count is taken
      // after the steps below have joined them).
      const before = lab.current.cycles ? lab.current.cycles.length : 1;
      const j = await api('/api/join?steps=true&seed=' + ($('lab-seed').value || '0'), { method: 'POST', body: bodyOf(lab.current) });
      const steps = j.steps || [];
      let i = 0;
      $('lab-after-title').textContent = 'Joining';
      lab.timer = setInterval(() => {
        if (i < steps.length) {
          drawCycles($('lab-after'), j.tour.rows, j.tour.cols, steps[i].cycles, { highlight: steps[i].rail });
          $('lab-after-title').textContent = `Rail ${i + 1} of ${steps.length} switched: ${plural(steps[i].cycles.length, 'cycle')} left`;
          i++;
        } else {
          clearInterval(lab.timer);
          show($('lab-after'), j.tour);
          const rest = steps.length && steps[steps.length - 1].cycles.length === 1 ? '' : ", the library's join finished the rest";
          $('lab-after-title').textContent = `Joined: one closed tour (${plural(before, 'cycle')} before; ${plural(steps.length, 'rail')} switched one by one${rest})`;
          lab.current = j.tour;
        }
      }, 400);
    } catch (err) { say('lab-message', err.message); }
  });

  const beforeAfter = async (path, title) => {
    if (!lab.current) return say('lab-message', 'Make a tourney first.');
    clearInterval(lab.timer);
    try {
      const before = lab.current;
      const statsBefore = await api('/api/stats', { method: 'POST', body: bodyOf(before) });
      const after = await api(path, { method: 'POST', body: bodyOf(before) });
      show($('lab-board'), before);
      show($('lab-after'), after);
      $('lab-before-title').textContent = 'Before';
      $('lab-after-title').textContent = title(after);
      chart($('lab-chart'), freq(statsBefore), freq(after.stats), 'Relative moves (frequency of each turn between consecutive moves)');
      lab.current = after;
      say('lab-message', '', true);
    } catch (err) { say('lab-message', err.message); }
  };
  $('lab-shatter').addEventListener('click', () => beforeAfter('/api/shatter?seed=' + ($('lab-seed').value || '0'), a => `Shattered: ${plural(a.switched, 'rail')} switched, ${plural(a.cycles.length, 'cycle')}`));
  $('lab-obfuscate').addEventListener('click', () => beforeAfter(`/api/obfuscate?seed=${$('lab-seed').value || '0'}&shatters=${$('lab-shatters').value || '16'}`, () => `Obfuscated: ${plural($('lab-shatters').value, 'shatter')}, joined again into one closed tour`));
}

// ---- Cipher -------------------------------------------------------------------

export function initCipher() {
  const view = new TourView($('cipher-board'));
  const lay = (key, text) => {
    // The first block of the text, written row by row, read along the tour.
    view.show({ rows: key.rows, cols: key.cols, path: key.squares, closed: false, lines: true, numbers: false });
    if (key.rows * key.cols > 1024) return;
    const b = view.b, g = b.g;
    const chars = [...text];
    for (let i = 0; i < key.rows * key.cols && i < chars.length; i++) {
      const r = Math.floor(i / key.cols), c = i % key.cols;
      const t = el('text', { x: g.x(c), y: g.y(r), 'font-size': g.cell * 0.5, 'text-anchor': 'middle', 'dominant-baseline': 'central', fill: '#9b2c2c', class: 'letter' }, b.layer('labels'));
      t.textContent = chars[i] === ' ' ? '␣' : chars[i];
    }
  };
  const run = async (path, from, to) => {
    try {
      const body = JSON.stringify({ key: $('cipher-key').value, text: $(from).value, mode: $('cipher-mode').value });
      const r = await api(path, { method: 'POST', body });
      $(to).value = r.text;
      const plain = path.endsWith('encrypt') ? $(from).value : r.text;
      lay(r.key, plain);
      $('cipher-result').textContent = (path.endsWith('encrypt') ? 'Enciphered' : 'Deciphered') +
        ` with a tour of ${r.key.rows}x${r.key.cols}${r.key.spec ? ' (' + r.key.spec + ')' : ''}: the text is written row by row and read along the tour.`;
      say('cipher-message', '', true);
    } catch (err) {
      // The drawing and its caption belong to the last good key: gone.
      $('cipher-board').replaceChildren();
      $('cipher-result').textContent = '';
      say('cipher-message', err.message);
    }
  };
  $('cipher-encrypt').addEventListener('click', () => run('/api/encrypt', 'cipher-plain', 'cipher-secret'));
  $('cipher-decrypt').addEventListener('click', () => run('/api/decrypt', 'cipher-secret', 'cipher-plain'));
}

// ---- Counting -------------------------------------------------------------------

// What the server's cap on counted boards allows, in boards a person knows:
// "Boards of up to 48 squares: 6x8 and 6x6 fit, 7x7 (49 squares) does not."
export function describeCountCap(cap, seconds) {
  const side = Math.floor(Math.sqrt(cap));
  const fits = [];
  if (side >= 1 && Math.floor(cap / side) > side) fits.push(`${side}x${Math.floor(cap / side)}`);
  if (side >= 1) fits.push(`${side}x${side}`);
  const over = side + 1;
  return `Boards of up to ${plural(cap, 'square')}` +
    (fits.length ? `: ${fits.join(' and ')} ${fits.length > 1 ? 'fit' : 'fits'}, ${over}x${over} (${plural(over * over, 'square')}) does not` : '') +
    `; at most ${seconds} s a count. The count runs on the server.`;
}

// The status line of a count's status `v` (docs/http-api.md). Where a count
// stopped is told in the progress's own squares (step of steps, the total
// the progress bar shows), not by the engine's message, which may count the
// squares of one part of the board.
export function countStatus(v, cancelledByUser, limitSeconds) {
  const known = v.known ? ` Published: ${v.known.count} (${v.known.source})${v.count !== undefined ? (v.count === v.known.count ? ' — agrees.' : ' — DIFFERS.') : '.'}` : '';
  const base = `${v.kind.charAt(0).toUpperCase()}${v.kind.slice(1)} tours of ${v.board}: `;
  const at = v.steps ? `square ${v.step} of ${v.steps}` : 'its start';
  const after = `after ${v.elapsed.toFixed(1)} s`;
  let text;
  if (v.state === 'running' && !v.steps) text = `starting, ${v.elapsed.toFixed(1)} s.`;
  else if (v.state === 'running') text = `${at}, ${plural(v.states, 'frontier state')}, ${v.elapsed.toFixed(1)} s.`;
  else if (v.state === 'done') text = `${v.count} (in ${v.elapsed.toFixed(2)} s).`;
  else if (v.state === 'cancelled' && cancelledByUser) text = `cancelled at ${at}, ${after}.`;
  else if (v.state === 'cancelled') text = `stopped at ${at}, ${after}: the server stops a count after ${limitSeconds} s.`;
  else text = v.state + (v.error ? ': ' + v.error : '');
  return base + text + known;
}

export function initCount() {
  const c = { id: null, source: null, cancelled: false };
  const cap = state.info.limits.count_squares;
  $('count-cap').textContent = describeCountCap(cap, state.info.limits.count_seconds);
  for (const id of ['count-rows', 'count-cols']) $(id).max = String(cap);
  const table = $('count-known');
  const head = table.insertRow(); for (const h of ['board', 'kind', 'published count', 'source']) { const th = document.createElement('th'); th.textContent = h; head.appendChild(th); }
  for (const k of state.info.known_counts) {
    const row = table.insertRow();
    for (const v of [k.board, k.kind, k.count, k.source]) row.insertCell().textContent = v;
    const [rows, cols] = k.board.split('x').map(Number);
    if (rows * cols > cap) { row.classList.add('over'); row.title = `over this server's cap of ${plural(cap, 'square')}`; }
  }
  if (table.querySelector('tr.over')) table.createCaption().textContent = "Published counts (the grey boards are over this server's cap)";
  const render = v => {
    $('count-progress').max = Math.max(1, v.steps); $('count-progress').value = v.step;
    $('count-status').textContent = countStatus(v, c.cancelled, state.info.limits.count_seconds);
    $('count-status').dataset.state = v.state;
    if (v.state !== 'running') say('count-message', '', true);
  };
  const finish = () => { if (c.source) { c.source.close(); c.source = null; } $('count-cancel').disabled = true; $('count-start').disabled = false; };
  $('count-form').addEventListener('submit', async ev => {
    ev.preventDefault();
    finish();
    c.id = null; c.cancelled = false;
    $('count-progress').value = 0;
    $('count-status').textContent = 'Starting…';
    delete $('count-status').dataset.state;
    try {
      const q = new URLSearchParams({ board: boardOf('count'), kind: $('count-kind').value });
      const v = await api('/api/count?' + q, { method: 'POST' });
      c.id = v.id; render(v);
      $('count-cancel').disabled = false; $('count-start').disabled = true;
      say('count-message', '', true);
      c.source = new EventSource(`/api/count/${v.id}/events`);
      c.source.addEventListener('progress', e => render(JSON.parse(e.data)));
      c.source.addEventListener('done', e => { render(JSON.parse(e.data)); finish(); });
      // The stream ended without its last event: ask for the status once.
      c.source.onerror = async () => {
        finish();
        if ($('count-status').dataset.state !== 'running') return;
        try { render(await api(`/api/count/${v.id}`)); } catch (err) { say('count-message', err.message); }
      };
    } catch (err) {
      $('count-status').textContent = 'No count running.';
      say('count-message', err.message);
    }
  });
  $('count-cancel').addEventListener('click', async () => {
    if (!c.id) return;
    c.cancelled = true;
    // Said before the request: the job's last event (which clears it) may
    // come before the request's answer.
    say('count-message', 'Cancelling…', true);
    try {
      await api(`/api/count/${c.id}`, { method: 'DELETE' });
    } catch (err) { say('count-message', err.message); }
  });
  // Leaving or reloading the page cancels its running count: only DELETE
  // cancels, and no one could see or stop the count any more.
  window.addEventListener('pagehide', () => {
    if (c.id && $('count-status').dataset.state === 'running') {
      fetch(`/api/count/${c.id}`, { method: 'DELETE', keepalive: true });
    }
  });
}
