// The Play panel: a person plays a tour on any board the explorer takes.
// Every judgement (the legal moves, whether a finish is left, the hints,
// the win) is the server's (POST /api/position, the library's one checker
// and oracle); this module only draws, asks and tells. Requests never block
// the page: a newer one aborts the one in flight.
import { $, api, say, plural, shapeOf, state, changed as sharedChanged } from './shared.js';
import { pathToText, pathFromText } from './share.js';
import { svgBoard, el, points, squareName } from './board.js';
import { showMagic } from './magic.js';

const MAX_SQUARES = 4096; // the most squares the panel draws (64x64)
// An answer after a move takes the server's default node budget (so that
// the next move comes quickly); a hint asked for where that budget did not
// decide searches ten times longer.
const HINT_NODES = 300000;

// The panel's state; `answer` is the server's answer for `path`, once in.
const p = {
  shape: null, goal: 'either', end: '', level: 'medium',
  rows: 0, cols: 0, holes: new Set(), drawn: '',
  path: [], redo: [], answer: null, hinted: null, cursor: 0,
  t0: 0, t1: 0, controller: null, b: null,
};
window.knightsPlay = p; // for the browser tests and the curious

const name = s => squareName(Math.floor(s / p.cols), s % p.cols, p.rows, p.cols);
const rc = s => `${Math.floor(s / p.cols)},${s % p.cols}`;
const current = () => p.answer && p.answer.path.length === p.path.length
  && p.answer.path.every((s, i) => s === p.path[i]) ? p.answer : null;

const changed = fresh => sharedChanged('play', fresh);

function tell(text, ok = true) { say('play-message', text, ok); }

function thinking(on) {
  $('play-thinking').hidden = !on;
  $('play-board').setAttribute('aria-busy', on ? 'true' : 'false');
}

// Asks the server about the path (with every legal move judged when
// `hints`; with a larger budget when a hint is `asked` for); resolves to the answer, or null when a newer request took over
// or the server refused (then its sentence is shown).
async function ask(hints, asked = false) {
  if (p.controller) p.controller.abort();
  const controller = new AbortController();
  p.controller = controller;
  const body = { ...p.shape, path: p.path.map(rc), kind: p.goal, hints };
  if (asked) body['max-nodes'] = HINT_NODES;
  if (p.end) body.end = p.end;
  thinking(true);
  try {
    const a = await api('/api/position', { method: 'POST', signal: controller.signal,
      headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    if (controller !== p.controller) return null;
    a.judged = hints;
    a.asked = asked;
    p.answer = a;
    return a;
  } catch (err) {
    if (err.name !== 'AbortError' && controller === p.controller) tell(err.message, false);
    return null;
  } finally {
    if (controller === p.controller) { p.controller = null; thinking(false); }
  }
}

// Draws the empty board of the answer (when its shape changed).
function drawBoard(a) {
  const key = `${a.rows}x${a.cols}:${a.holes.join(',')}`;
  if (key === p.drawn) return;
  p.drawn = key;
  p.rows = a.rows; p.cols = a.cols; p.holes = new Set(a.holes);
  const host = $('play-board');
  p.b = svgBoard(host, a.rows, a.cols);
  const { svg, g } = p.b;
  const m = g.cell * 0.5;
  svg.setAttribute('viewBox', `${-m} 0 ${g.width + m} ${g.height + m}`);
  svg.setAttribute('role', 'group');
  svg.setAttribute('aria-label', `the board, ${a.rows}x${a.cols}: arrow keys move the cursor, Enter plays its square`);
  const coords = el('g', { class: 'coords', 'aria-hidden': 'true' }, svg);
  const size = g.cell * 0.3;
  const algebraic = a.cols <= 26;
  for (let r = 0; r < a.rows; r++) {
    const t = el('text', { x: -m / 2, y: g.y(r), 'font-size': size, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, coords);
    t.textContent = algebraic ? String(a.rows - r) : String(r);
  }
  for (let c = 0; c < a.cols; c++) {
    const t = el('text', { x: g.x(c), y: g.height + m / 2, 'font-size': size, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, coords);
    t.textContent = algebraic ? String.fromCharCode(97 + c) : String(c);
  }
  for (const rect of svg.querySelectorAll('rect.sq')) {
    const s = +rect.dataset.r * a.cols + +rect.dataset.c;
    rect.dataset.s = s;
    rect.setAttribute('role', 'button');
    rect.setAttribute('tabindex', '-1');
    if (p.holes.has(s)) rect.classList.add('hole');
  }
  p.line = el('polyline', { class: 'play-line', fill: 'none', 'stroke-width': Math.max(1, g.cell / 22) }, p.b.layer('paths'));
  p.cursor = [...Array(a.rows * a.cols).keys()].find(s => !p.holes.has(s)) ?? 0;
}

// Shows the path and what the level allows of the answer.
function render() {
  if (!p.b) return;
  const a = current();
  const visited = new Map(p.path.map((s, i) => [s, i]));
  const onward = new Map();
  if (a && a.judged) for (const h of a.hints) onward.set(h.square, h.onward);
  const legal = new Set(a && p.level !== 'hard' ? a['legal-moves'] : []);
  const last = p.path[p.path.length - 1];
  for (const rect of p.b.svg.querySelectorAll('rect.sq')) {
    const s = +rect.dataset.s;
    const at = visited.get(s);
    rect.classList.toggle('visited', at !== undefined);
    rect.classList.toggle('now', s === last);
    rect.classList.toggle('legal', legal.has(s));
    rect.classList.toggle('hinted', s === p.hinted);
    rect.setAttribute('tabindex', s === p.cursor ? '0' : '-1');
    let label = name(s);
    if (p.holes.has(s)) label += ', hole';
    else if (at !== undefined) label += `, step ${at + state.base}${s === last ? ', the knight' : ''}`;
    else if (legal.has(s)) label += ', legal move' + (p.level === 'easy' && onward.has(s) ? `, ${plural(onward.get(s), 'onward move')}` : '');
    if (s === p.hinted) label += ', hint';
    rect.setAttribute('aria-label', label);
  }
  const g = p.b.g;
  // A closed tour's line goes back to its start.
  const drawn = a && a.finished === 'closed' ? [...p.path, p.path[0]] : p.path;
  p.line.setAttribute('points', points(g, drawn.map(s => [Math.floor(s / p.cols), s % p.cols])));
  const labels = p.b.layer('labels');
  labels.replaceChildren();
  const big = p.rows * p.cols > 1024;
  const text = (s, words, cls) => {
    const t = el('text', { x: g.x(s % p.cols), y: g.y(Math.floor(s / p.cols)), 'font-size': g.cell * 0.34,
      'text-anchor': 'middle', 'dominant-baseline': 'central', class: cls, 'aria-hidden': 'true' }, labels);
    t.textContent = words;
  };
  if (!big) for (const [s, i] of visited) text(s, String(i + state.base), s === last ? 'num now' : 'num');
  if (p.level === 'easy' && !big) for (const [s, n] of onward) text(s, String(n), 'onward');
  $('play-moves').textContent = `Moves: ${Math.max(0, p.path.length - 1)}`;
  // A finished tour that is semimagic or magic says its line sums.
  const whole = a && a.won && p.holes.size === 0 ? p.path.map(s => [Math.floor(s / p.cols), s % p.cols]) : null;
  showMagic('play-magic', p.rows, p.cols, whole, state.base);
  $('play-undo').disabled = p.path.length === 0;
  $('play-redo').disabled = p.redo.length === 0;
}

// What the new answer means, said in the live region.
function announce(a) {
  if (a.won) {
    p.t1 = p.t1 || performance.now();
    const kind = a.finished === 'closed' ? 'A closed tour' : 'An open tour';
    tell(`${kind}! You visited all ${p.path.length} squares in ${clock()}.`);
    $('play-board').dataset.won = a.finished;
    return;
  }
  delete $('play-board').dataset.won;
  const last = p.path.length ? `${name(p.path[p.path.length - 1])}, step ${p.path.length - 1 + state.base}. ` : '';
  if (a.finished) return tell(`${last}Every square is visited, as ${a.finished === 'open' ? 'an open' : 'a closed'} tour, but not the goal: ${a.reason || 'the tour does not end where asked'}.`, false);
  if (a['legal-moves'].length === 0) {
    p.t1 = p.t1 || performance.now();
    return tell(`${last}Dead end: ${a.reason || 'no legal move is left'}.`, false);
  }
  if (p.level === 'easy' && a.verdict === 'not-finishable')
    return tell(`${last}Warning: no finish from here: ${a.reason}.`, false);
  tell(p.path.length ? `${last}${plural(a['legal-moves'].length, 'legal move')}.` : 'Pick a square to start.');
}

function clock() {
  const ms = p.t0 ? (p.t1 || performance.now()) - p.t0 : 0;
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

// The path changed: ask, then draw and tell.
async function update() {
  p.hinted = null;
  if (p.path.length === 0) { p.t0 = 0; p.t1 = 0; }
  else if (!p.t0) p.t0 = performance.now();
  render();
  const a = await ask(p.level === 'easy');
  if (!a) return;
  drawBoard(a);
  render();
  announce(a);
}

function move(s) {
  const a = current();
  if (!a) return tell('Thinking: wait for the answer before the next move.', false);
  if (a.won) return;
  if (!a['legal-moves'].includes(s)) {
    const from = p.path.length ? ` from ${name(p.path[p.path.length - 1])}` : '';
    return tell(`${name(s)} is not a legal move${from}.`, false);
  }
  p.path.push(s);
  p.redo = [];
  p.cursor = s;
  changed(false);
  return update();
}

function undo() {
  if (!p.path.length) return;
  p.redo.push(p.path.pop());
  p.t1 = 0;
  changed(false);
  return update();
}

function redo() {
  if (!p.redo.length) return;
  p.path.push(p.redo.pop());
  changed(false);
  return update();
}

function restart() {
  p.path = []; p.redo = [];
  changed(false);
  return update();
}

async function hint() {
  let a = current();
  // An answer after a move (the default budget) serves when it decided.
  const decided = a && a.judged && (a.won || a.verdict === 'not-finishable' || a.hints.some(h => h.status === 'safe'));
  if (!decided && !(a && a.asked)) a = await ask(true, true);
  if (!a) return;
  drawBoard(a);
  render();
  if (a.won) return announce(a);
  const safe = a.hints.find(h => h.status === 'safe');
  const next = safe ? safe.square : a.verdict === 'finishable' && a.completion.length ? a.completion[0] : null;
  if (next !== null) {
    p.hinted = next;
    render();
    const after = safe ? ` (${plural(safe.onward, 'onward move')} from there)` : '';
    tell(`Hint: ${name(next)} keeps a finish${after}.`);
  } else if (a.verdict === 'not-finishable') {
    tell(`No finish from here: ${a.reason}.`, false);
  } else {
    tell('No hint: the search ran out of its budget before it found a finish or a proof that there is none.', false);
  }
}

// Saves a PNG of the played path as the server draws it (POST
// /api/picture, the library's picture of a partial path): fetched, then
// downloaded through a blob URL. A refusal's sentence is told.
async function savePicture() {
  if (!p.shape) return;
  const body = { ...p.shape, path: p.path.map(rc), format: 'png' };
  try {
    const response = await fetch('/api/picture', { method: 'POST',
      headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    if (!response.ok) {
      const text = await response.text();
      let message = `the picture was refused (${response.status})`;
      try { message = JSON.parse(text).error || message; } catch { /* not JSON: the status says it */ }
      return tell(message, false);
    }
    const url = URL.createObjectURL(await response.blob());
    const a = document.createElement('a');
    a.href = url;
    a.download = `play-${p.shape.board}.png`;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
  } catch (err) { tell(err.message, false); }
}

// Starts a new board from the form (or from a shared state's path).
async function newBoard(path = []) {
  const rows = +$('play-rows').value, cols = +$('play-cols').value;
  if (!(rows * cols > 0)) return tell('Give the board at least one row and one column.', false);
  if (rows * cols > MAX_SQUARES) return tell(`The Play panel draws boards of at most ${MAX_SQUARES} squares (such as 64x64); ${rows}x${cols} has ${rows * cols}.`, false);
  p.shape = shapeOf('play');
  p.goal = $('play-kind').value;
  p.end = $('play-end').value.trim();
  p.level = $('play-level').value;
  p.rows = rows; p.cols = cols;
  p.path = path.map(([r, c]) => r * cols + c);
  p.redo = []; p.t0 = 0; p.t1 = 0; p.answer = null;
  await update();
}

// The cursor moves by the arrow keys; Enter or Space plays its square.
function boardKeys(ev) {
  const steps = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (ev.key === 'Enter' || ev.key === ' ') {
    ev.preventDefault();
    move(p.cursor);
  } else if (steps[ev.key]) {
    ev.preventDefault();
    const [dr, dc] = steps[ev.key];
    const r = Math.min(p.rows - 1, Math.max(0, Math.floor(p.cursor / p.cols) + dr));
    const c = Math.min(p.cols - 1, Math.max(0, p.cursor % p.cols + dc));
    p.cursor = r * p.cols + c;
    render();
    const rect = p.b && p.b.svg.querySelector(`rect.sq[data-s='${p.cursor}']`);
    if (rect) rect.focus();
  }
}

// Undo (Backspace, u), redo (y), restart (r), hint (h) anywhere in the
// panel but its text fields.
function panelKeys(ev) {
  if (!$('panel-play').classList.contains('on') || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.target.closest('input, select, textarea')) return;
  const keys = { Backspace: undo, u: undo, y: redo, r: restart, h: hint };
  if (keys[ev.key]) { ev.preventDefault(); keys[ev.key](); }
}

export function initPlay() {
  $('play-form').addEventListener('submit', ev => { ev.preventDefault(); newBoard(); changed(true); });
  $('play-undo').addEventListener('click', undo);
  $('play-redo').addEventListener('click', redo);
  $('play-restart').addEventListener('click', restart);
  $('play-hint').addEventListener('click', hint);
  $('play-save').addEventListener('click', savePicture);
  $('play-level').addEventListener('change', () => {
    p.level = $('play-level').value;
    changed(false);
    const a = current();
    if (p.level === 'easy' && a && !a.judged) update(); else render();
  });
  $('play-board').addEventListener('click', ev => {
    const rect = ev.target.closest('rect.sq');
    if (rect) { p.cursor = +rect.dataset.s; move(+rect.dataset.s); }
  });
  $('play-board').addEventListener('keydown', boardKeys);
  document.addEventListener('keydown', panelKeys);
  document.addEventListener('knights-base', render);
  setInterval(() => { $('play-time').textContent = `Time: ${clock()}`; }, 500);
  return newBoard();
}

// The panel's state for a share link, and back.
export const share = {
  save() {
    const o = { ...p.shape, kind: p.goal, level: p.level, path: pathToText(p.path.map(s => [Math.floor(s / p.cols), s % p.cols])) };
    if (p.end) o.end = p.end;
    return o;
  },
  restore(o) {
    const [rows, cols] = String(o.board || '8x8').split('x');
    $('play-rows').value = rows; $('play-cols').value = cols ?? rows;
    $('play-holes').value = o.holes || '';
    $('play-leaper').value = o.leaper || '';
    $('play-wrap').value = o.wrap || 'none';
    $('play-kind').value = o.kind || 'either';
    $('play-end').value = o.end || '';
    $('play-level').value = o.level || 'medium';
    return newBoard(pathFromText(o.path));
  },
};
