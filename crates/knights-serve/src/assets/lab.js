// The tourney lab: tourneys, join, shatter and obfuscate, with the
// relative-move statistics before and after.
import { $, api, say, plural, boardOf, state, changed, saveFields, restoreFields } from './shared.js';
import { svgBoard, points, colour, el } from './board.js';


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

// The lab's fields a share link keeps (ids `lab-KEY`).
const FIELDS = ['rows', 'cols', 'generator', 'seed', 'rails', 'shatters'];

// The lab's share link (share.js): set by initLab.
export const share = { save: () => ({}), restore: () => {} };

export function initLab() {
  // `ops`: what was done to the tourney since it was made, as a link keeps
  // it (`join:SEED`, `shatter:SEED`, `obfuscate:SEED:SHATTERS`).
  const lab = { current: null, ops: [], made: false };
  const gens = $('lab-generator');
  for (const gen of state.info.generators) {
    const o = document.createElement('option'); o.value = gen.name; o.textContent = gen.name; o.title = gen.about;
    gens.appendChild(o);
  }
  const fileOf = x => JSON.stringify(x.cycles ? { rows: x.rows, cols: x.cols, cycles: x.cycles } : { rows: x.rows, cols: x.cols, closed: x.closed, squares: x.squares });
  const seed = () => +($('lab-seed').value || '0');
  const show = (host, x, opts = {}) => x.cycles ? drawCycles(host, x.rows, x.cols, x.cycles, opts) : drawCycles(host, x.rows, x.cols, [x.squares], opts);
  const freq = s => s.relative_frequencies;

  // The tourney's download links (`q` its query), or none: they describe
  // the tourney as made, so they go once a join, shatter or obfuscation
  // changes it.
  const offer = q => {
    for (const f of ['png', 'svg']) {
      const a = $('lab-dl-' + f);
      if (q) {
        const l = new URLSearchParams(q); l.set('format', f);
        a.href = '/api/tourney?' + l;
        a.download = `tourney-${q.get('board')}.${f}`;
      } else a.removeAttribute('href');
    }
    $('lab-downloads').hidden = !q;
  };
  // Forgets the tourney and everything drawn from it.
  const clearLab = () => {
    offer(null);
    lab.current = null; lab.ops = []; lab.made = false;
    for (const id of ['lab-board', 'lab-after', 'lab-chart']) $(id).replaceChildren();
    $('lab-before-title').textContent = 'Before';
    $('lab-after-title').textContent = 'After';
  };
  const make = async () => {
    clearInterval(lab.timer);
    lab.ops = []; lab.made = true;
    const q = new URLSearchParams({ board: boardOf('lab'), algorithm: gens.value, seed: seed() });
    try {
      const t = await api('/api/tourney?' + q);
      lab.current = t;
      show($('lab-board'), t, { rails: $('lab-rails').checked ? t.rails : null });
      $('lab-after').replaceChildren(); $('lab-chart').replaceChildren();
      $('lab-before-title').textContent = `Tourney by ${t.algorithm}: ${plural(t.cycles.length, 'cycle')}` + (t.rails ? `, ${plural(t.rails.length, 'rail')}` : '');
      $('lab-after-title').textContent = '';
      offer(q);
      say('lab-message', `A tourney of ${t.rows}x${t.cols} with ${plural(t.cycles.length, 'cycle')}; each cycle has its own colour, rails are shaded.`, true);
    } catch (err) {
      clearLab();
      lab.made = true;
      say('lab-message', err.message);
    }
  };
  $('lab-form').addEventListener('submit', async ev => {
    ev.preventDefault();
    await make();
    changed('lab', true);
  });
  $('lab-form').addEventListener('change', () => changed('lab', false));
  $('lab-rails').addEventListener('change', () => { if (lab.current && lab.current.cycles) show($('lab-board'), lab.current, { rails: $('lab-rails').checked ? lab.current.rails : null }); });

  // Joins the cycles into one closed tour, rail by rail (at once when `instant`).
  const join = async (seedUsed, instant) => {
    if (!lab.current) return say('lab-message', 'Make a tourney first.');
    clearInterval(lab.timer);
    try {
      // The cycles before are the ones sent (the answer's own count is taken
      // after the steps below have joined them).
      const before = lab.current.cycles ? lab.current.cycles.length : 1;
      const j = await api('/api/join?steps=true', { method: 'POST', body: JSON.stringify({ cover: fileOf(lab.current), seed: seedUsed }) });
      const steps = j.steps || [];
      let i = instant ? steps.length : 0;
      $('lab-after-title').textContent = 'Joining';
      const frame = () => {
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
          lab.ops.push(`join:${seedUsed}`);
          offer(null);
          if (!instant) changed('lab', false);
        }
      };
      if (instant) frame(); else lab.timer = setInterval(frame, 400);
    } catch (err) { say('lab-message', err.message); }
  };
  $('lab-join').addEventListener('click', () => join(seed(), false));

  // `request` is the job's request beside the cover; `op` the lab.ops entry.
  const beforeAfter = async (path, request, title, op) => {
    if (!lab.current) return say('lab-message', 'Make a tourney first.');
    clearInterval(lab.timer);
    try {
      const before = lab.current;
      const statsBefore = await api('/api/stats', { method: 'POST', body: fileOf(before) });
      const after = await api(path, { method: 'POST', body: JSON.stringify({ cover: fileOf(before), ...request }) });
      show($('lab-board'), before);
      show($('lab-after'), after);
      $('lab-before-title').textContent = 'Before';
      $('lab-after-title').textContent = title(after);
      chart($('lab-chart'), freq(statsBefore), freq(after.stats), 'Relative moves (frequency of each turn between consecutive moves)');
      lab.current = after;
      lab.ops.push(op);
      offer(null);
      say('lab-message', '', true);
    } catch (err) { say('lab-message', err.message); }
  };
  const shatter = s => beforeAfter('/api/shatter', { seed: s }, a => `Shattered: ${plural(a.rails_switched, 'rail')} switched, ${plural(a.cycles.length, 'cycle')}`, `shatter:${s}`);
  const obfuscate = (s, n) => beforeAfter('/api/obfuscate', { seed: s, shatters: n }, () => `Obfuscated: ${plural(n, 'shatter')}, joined again into one closed tour`, `obfuscate:${s}:${n}`);
  $('lab-shatter').addEventListener('click', async () => { await shatter(seed()); changed('lab', false); });
  $('lab-obfuscate').addEventListener('click', async () => { await obfuscate(seed(), +($('lab-shatters').value || '16')); changed('lab', false); });

  share.save = () => {
    const s = saveFields('lab', FIELDS, ['rows', 'cols']);
    if (lab.made) s.go = 1;
    if (lab.ops.length) s.ops = lab.ops.join(',');
    return s;
  };
  share.restore = async s => {
    clearInterval(lab.timer);
    restoreFields('lab', FIELDS, s);
    clearLab();
    say('lab-message', '', true);
    if (s.go !== '1') return;
    await make();
    for (const op of (s.ops || '').split(',').filter(o => o)) {
      const [name, a, b] = op.split(':');
      if (!/^\d+$/.test(a || '')) throw new Error(`the lab's step "${op}" has no seed`);
      if (name === 'join') await join(+a, true);
      else if (name === 'shatter') await shatter(+a);
      else if (name === 'obfuscate' && /^\d+$/.test(b || '')) await obfuscate(+a, +b);
      else throw new Error(`the lab's step "${op}" is not join:SEED, shatter:SEED or obfuscate:SEED:SHATTERS`);
    }
  };
}
