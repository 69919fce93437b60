// The Puzzle panel: a knight's-tour clue puzzle (docs/formats.md,
// "Puzzles") to number by hand. The server makes puzzles (GET
// /api/puzzle), reads pasted ones, gives deductions and says whether a grid
// is solved (POST /api/solve, the library's solver and checker); this
// module draws, takes numbers by click, keys or the number field, and
// points out plain conflicts as they are typed (a number twice, one out of
// range, consecutive numbers not a move apart), each said in words.
import { $, api, article, say, saveFields, restoreFields, changed as sharedChanged } from './shared.js';
import { svgBoard, el, squareName } from './board.js';
import { showMagic } from './magic.js';

// The panel's state: the puzzle (`pz`: rows, cols, closed, base, holes,
// wrap, leaper, given), the player's numbers, the undo history, the
// chosen square, the number being typed and the deduction shown.
const q = {
  pz: null, placed: new Map(), history: [], cursor: 0, typing: null,
  deduction: null, controller: null, b: null, solution: null, solved: false,
};
window.knightsPuzzle = q; // for the browser tests and the curious

const FIELDS = ['rows', 'cols', 'difficulty', 'seed', 'symmetric'];
const changed = fresh => sharedChanged('puzzle', fresh);
const name = s => squareName(Math.floor(s / q.pz.cols), s % q.pz.cols, q.pz.rows, q.pz.cols);
const cells = () => q.pz.rows * q.pz.cols - q.pz.holes.size;
const top = () => q.pz.base + cells() - 1;

function tell(text, ok = true) { say('puzzle-message', text, ok); }

function thinking(on) {
  $('puzzle-thinking').hidden = !on;
  $('puzzle-board').setAttribute('aria-busy', on ? 'true' : 'false');
}

// A puzzle from its JSON form (the server's answer, or pasted JSON).
function fromJson(j) {
  const cols = j.cols;
  return { rows: j.rows, cols, closed: !!j.closed, base: j.base ?? 1,
    holes: new Set((j.holes || []).map(([r, c]) => r * cols + c)),
    wrap: j.wrap || 'none', leaper: j.leaper || [1, 2],
    given: new Map(j.clues.map(([r, c, n]) => [r * cols + c, n])) };
}

// A puzzle from its text form (already read by the server, so well formed).
function fromText(text) {
  const lines = text.split('\n').map(l => l.trim()).filter(l => l !== '');
  const words = lines[0].split(/\s+/);
  const [rows, cols] = words[1].split('x').map(Number);
  const j = { rows, cols: cols ?? rows, closed: words.includes('closed'), holes: [], clues: [] };
  for (const w of words.slice(2)) {
    const [k, v] = w.split('=');
    if (k === 'base') j.base = +v;
    if (k === 'wrap') j.wrap = v;
    if (k === 'leaper') j.leaper = v.split(',').map(Number);
  }
  lines.slice(1).forEach((line, r) => line.split(/\s+/).forEach((t, c) => {
    if (t === '#') j.holes.push([r, c]);
    else if (t !== '.') j.clues.push([r, c, +t]);
  }));
  return fromJson(j);
}

// The puzzle's header line, and a grid of it with `numbers` written in.
function header(pz) {
  let h = `puzzle ${pz.rows}x${pz.cols} ${pz.closed ? 'closed' : 'open'}`;
  if (pz.base === 0) h += ' base=0';
  if (pz.wrap !== 'none') h += ` wrap=${pz.wrap}`;
  const [a, b] = pz.leaper;
  if (!(Math.min(a, b) === 1 && Math.max(a, b) === 2)) h += ` leaper=${a},${b}`;
  return h;
}
function gridText(pz, numbers) {
  const rows = [];
  for (let r = 0; r < pz.rows; r++) {
    const row = [];
    for (let c = 0; c < pz.cols; c++) {
      const s = r * pz.cols + c;
      row.push(pz.holes.has(s) ? '#' : numbers.has(s) ? String(numbers.get(s)) : '.');
    }
    rows.push(row.join(' '));
  }
  return `${header(pz)}\n${rows.join('\n')}\n`;
}
const numbers = () => new Map([...q.pz.given, ...q.placed]);
const puzzleText = () => gridText(q.pz, q.pz.given);
const progressText = () => gridText(q.pz, numbers());

// Whether t is a move of the puzzle's leaper from s (on its wrapped edges).
function isMove(s, t) {
  const { rows, cols, wrap, leaper: [a, b] } = q.pz;
  const [r1, c1, r2, c2] = [Math.floor(s / cols), s % cols, Math.floor(t / cols), t % cols];
  const d = (x, y, n, wraps) => {
    const v = Math.abs(x - y);
    return wraps ? Math.min(v, n - v) : v;
  };
  const dr = d(r1, r2, rows, wrap === 'rows' || wrap === 'both');
  const dc = d(c1, c2, cols, wrap === 'cols' || wrap === 'both');
  return (dr === a && dc === b) || (dr === b && dc === a);
}

// What is plainly wrong with the numbers so far: [{ squares, text }].
function conflicts() {
  const out = [];
  const at = new Map();
  for (const [s, n] of numbers()) {
    if (n < q.pz.base || n > top()) out.push({ squares: [s], text: `${n} on ${name(s)} is out of range: the numbers go from ${q.pz.base} to ${top()}.` });
    at.set(n, [...(at.get(n) || []), s]);
  }
  for (const [n, where] of at) if (where.length > 1)
    out.push({ squares: where, text: `${n} is on ${where.length} squares (${where.map(name).join(', ')}); each number goes on one.` });
  const pairs = [...at.keys()].filter(n => at.has(n + 1)).map(n => [n, n + 1]);
  if (q.pz.closed && at.has(q.pz.base) && at.has(top()) && cells() > 2) pairs.push([top(), q.pz.base]);
  for (const [m, n] of pairs) {
    const [s, t] = [at.get(m), at.get(n)];
    if (s.length === 1 && t.length === 1 && !isMove(s[0], t[0]))
      out.push({ squares: [s[0], t[0]], text: `${m} on ${name(s[0])} and ${n} on ${name(t[0])} are not a move apart.` });
  }
  return out;
}

// Draws the empty board of the puzzle.
function drawBoard() {
  const { rows, cols } = q.pz;
  q.b = svgBoard($('puzzle-board'), rows, cols);
  const svg = q.b.svg;
  svg.setAttribute('role', 'group');
  svg.setAttribute('aria-label', `the puzzle, ${rows}x${cols}: arrow keys choose a square, digits number it`);
  for (const rect of svg.querySelectorAll('rect.sq')) {
    const s = +rect.dataset.r * cols + +rect.dataset.c;
    rect.dataset.s = s;
    rect.setAttribute('role', 'button');
    rect.setAttribute('tabindex', '-1');
    if (q.pz.holes.has(s)) rect.classList.add('hole');
  }
  q.cursor = [...Array(rows * cols).keys()].find(s => !q.pz.holes.has(s) && !q.pz.given.has(s)) ?? 0;
}

// Shows the numbers, the chosen square, the conflicts and the deduction.
function render() {
  if (!q.b) return;
  const found = conflicts();
  const wrong = new Set(found.flatMap(x => x.squares));
  const g = q.b.g;
  const labels = q.b.layer('labels');
  labels.replaceChildren();
  const text = (s, words, cls) => {
    const t = el('text', { x: g.x(s % q.pz.cols), y: g.y(Math.floor(s / q.pz.cols)), 'font-size': g.cell * 0.4,
      'text-anchor': 'middle', 'dominant-baseline': 'central', class: cls, 'aria-hidden': 'true' }, labels);
    t.textContent = words;
  };
  const d = q.deduction;
  for (const rect of q.b.svg.querySelectorAll('rect.sq')) {
    const s = +rect.dataset.s;
    const given = q.pz.given.get(s), mine = q.placed.get(s);
    rect.classList.toggle('given', given !== undefined);
    rect.classList.toggle('mine', mine !== undefined);
    rect.classList.toggle('conflict', wrong.has(s));
    rect.classList.toggle('deduced', !!d && d.s === s);
    rect.classList.toggle('chosen', s === q.cursor);
    rect.setAttribute('tabindex', s === q.cursor ? '0' : '-1');
    let label = name(s);
    if (q.pz.holes.has(s)) label += ', hole';
    else if (given !== undefined) label += `, given ${given}`;
    else if (mine !== undefined) label += `, ${mine}`;
    else label += ', blank';
    if (wrong.has(s)) label += ', conflict';
    if (d && d.s === s) label += `, deduction ${d.n}`;
    rect.setAttribute('aria-label', label);
    if (given !== undefined) text(s, String(given), 'given');
    else if (mine !== undefined) text(s, String(mine), wrong.has(s) ? 'mine wrong' : 'mine');
    else if (d && d.s === s) text(s, `${d.n}?`, 'deduced');
  }
  $('puzzle-conflicts').replaceChildren(...found.map(x => {
    const li = document.createElement('li');
    li.textContent = x.text;
    return li;
  }));
  const filled = numbers().size;
  $('puzzle-about').textContent = `${q.pz.rows}x${q.pz.cols} ${q.pz.closed ? 'closed' : 'open'}, ${q.pz.given.size} given, ${filled} of ${cells()} numbered`;
  $('puzzle-undo').disabled = q.history.length === 0;
  $('puzzle-place').disabled = !d;
  const chosen = q.placed.get(q.cursor) ?? q.pz.given.get(q.cursor);
  if (document.activeElement !== $('puzzle-number')) $('puzzle-number').value = chosen ?? '';
  $('puzzle-number').max = top();
  magicLine();
}

// A solved puzzle on a board without holes says its tour's line sums when
// they are semimagic or magic (the tour numbered from 1 in its order).
function magicLine() {
  const { rows, cols, base, holes } = q.pz;
  let path = null;
  if (q.solved && holes.size === 0) {
    path = new Array(rows * cols).fill(null);
    for (const [s, n] of numbers()) path[n - base] = [Math.floor(s / cols), s % cols];
    if (path.length !== rows * cols || path.some(x => x === null)) path = null;
  }
  showMagic('puzzle-magic', rows, cols, path, base);
}

// Sets square s to n (null clears it), kept for undo unless `quiet`.
function put(s, n, quiet = false) {
  if (!q.pz || q.pz.holes.has(s)) return false;
  if (q.pz.given.has(s)) { tell(`${name(s)} is given: its number is fixed.`, false); return false; }
  if (!quiet) q.history.push({ s, before: q.placed.get(s) ?? null });
  if (n === null) q.placed.delete(s); else q.placed.set(s, n);
  if (q.deduction && q.deduction.s === s) q.deduction = null;
  q.solved = false;
  delete $('puzzle-board').dataset.solved;
  changed(false);
  return true;
}

function undo() {
  q.typing = null;
  const last = q.history.pop();
  if (!last) return;
  if (last.before === null) q.placed.delete(last.s); else q.placed.set(last.s, last.before);
  q.cursor = last.s;
  changed(false);
  render();
  tell(`Undone: ${name(last.s)} is ${last.before === null ? 'blank' : last.before} again.`);
}

// A digit typed on the chosen square: a number of several digits is typed
// digit by digit (one undo step), a fresh one starts past the largest.
function digit(k) {
  const s = q.cursor;
  let t = q.typing;
  if (!t || t.s !== s || +(t.digits + k) > top()) {
    if (q.pz.given.has(s)) return tell(`${name(s)} is given: its number is fixed.`, false);
    t = q.typing = { s, before: q.placed.get(s) ?? null, digits: '' };
    q.history.push({ s, before: t.before });
  }
  t.digits += k;
  put(s, +t.digits, true);
  render();
}

// The server's answer to a step from the grid as it is (null when refused).
async function step(more = {}) {
  if (q.controller) q.controller.abort();
  const controller = q.controller = new AbortController();
  thinking(true);
  try {
    const body = { puzzle: puzzleText(), progress: progressText(), step: true, ...more };
    return await api('/api/solve', { method: 'POST', signal: controller.signal,
      headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  } catch (err) {
    if (err.name !== 'AbortError') tell(err.message, false);
    return null;
  } finally {
    if (controller === q.controller) { q.controller = null; thinking(false); }
  }
}

async function deduce() {
  if (!q.pz) return;
  q.typing = null;
  const wrong = conflicts();
  if (wrong.length) return tell(`First mend what is wrong: ${wrong[0].text}`, false);
  const a = await step();
  if (!a) return;
  q.deduction = null;
  if (a.outcome === 'deduction') {
    const [r, c, n] = a.at;
    q.deduction = { s: r * q.pz.cols + c, n, reason: a.reason };
    q.cursor = q.deduction.s;
    tell(`Deduction: ${n} goes on ${name(q.deduction.s)}: ${a.reason}. Press p or "Place it" to place it.`);
  } else if (a.outcome === 'solved') tell('Every square is numbered: the puzzle is solved.');
  else if (a.outcome === 'contradiction') tell(`Something is wrong: ${a.reason}.`, false);
  else tell('No deduction found within the solver\'s budget.', false);
  render();
}

function place() {
  const d = q.deduction;
  if (!d) return tell('No deduction to place: ask for one first.', false);
  put(d.s, d.n);
  q.cursor = d.s;
  render();
  tell(`Placed ${d.n} on ${name(d.s)}.`);
}

async function check() {
  if (!q.pz) return;
  q.typing = null;
  const wrong = conflicts();
  if (wrong.length) return tell(`Not solved: ${wrong.map(x => x.text).join(' ')}`, false);
  const a = await step();
  if (!a) return;
  const blank = cells() - numbers().size;
  if (a.outcome === 'solved') {
    q.solved = true;
    $('puzzle-board').dataset.solved = 'yes';
    magicLine();
    tell(`Solved! Every number is right: a ${q.pz.closed ? 'closed' : 'open'} tour of ${cells()} squares.`);
  } else if (a.outcome === 'contradiction') tell(`Not solved: ${a.reason}.`, false);
  else tell(`Nothing wrong so far; ${blank} ${blank === 1 ? 'square is' : 'squares are'} still blank.`, false);
}

// Shows puzzle `pz` with the player's numbers `placed` (a Map).
function load(pz, placed = new Map()) {
  q.pz = pz;
  q.placed = new Map([...placed].filter(([s]) => !pz.given.has(s) && !pz.holes.has(s) && s < pz.rows * pz.cols)); q.history = []; q.typing = null; q.deduction = null; q.solved = false;
  delete $('puzzle-board').dataset.solved;
  $('puzzle-rows').value = pz.rows; $('puzzle-cols').value = pz.cols;
  drawBoard();
  render();
}

async function newPuzzle() {
  const params = new URLSearchParams({ board: `${$('puzzle-rows').value}x${$('puzzle-cols').value}`,
    difficulty: $('puzzle-difficulty').value, seed: $('puzzle-seed').value || '0' });
  if ($('puzzle-symmetric').checked) params.set('symmetric', 'true');
  thinking(true);
  tell('Making a puzzle with exactly one solution…');
  try {
    const a = await api(`/api/puzzle?${params}`);
    load(fromJson(a.puzzle.json));
    q.solution = a.solution;
    changed(true);
    tell(`${article(a.difficulty).replace(/^a/, 'A')} ${a.difficulty} puzzle (seed ${a.seed}): ${q.pz.given.size} squares given, one solution. Choose a square and type its number.`);
  } catch (err) {
    tell(err.message, false);
  } finally { thinking(false); }
}

// Opens a puzzle's text or JSON: the server reads it (its sentence when it
// is no puzzle), then the page shows it.
async function openText(text, placed = new Map()) {
  try {
    await api('/api/solve', { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ puzzle: text, step: true, 'max-nodes': 1 }) });
  } catch (err) {
    tell(`This puzzle cannot be opened: ${err.message}`, false);
    return false;
  }
  const t = text.trim();
  load(t.startsWith('{') ? fromJson(JSON.parse(t)) : fromText(t), placed);
  q.solution = null;
  return true;
}

async function openBox() {
  const file = $('puzzle-file').files[0];
  const text = file ? await file.text() : $('puzzle-text').value;
  if (text.trim() === '') return tell('Paste a puzzle or choose a puzzle file first.', false);
  if (await openText(text)) { changed(true); tell(`Puzzle opened: ${q.pz.given.size} squares given.`); }
}

// The arrows choose a square; digits number it; Enter ends a number,
// Escape takes it back, Backspace removes a digit, Delete clears.
function boardKeys(ev) {
  if (!q.pz || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const steps = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  const s = q.cursor;
  if (/^[0-9]$/.test(ev.key)) digit(ev.key);
  else if (ev.key === 'Enter') { q.typing = null; render(); }
  else if (ev.key === 'Escape') {
    const t = q.typing;
    if (t && t.s === s) { q.history.pop(); put(s, t.before, true); q.typing = null; render(); }
  } else if (ev.key === 'Backspace' && q.typing && q.typing.s === s) {
    q.typing.digits = q.typing.digits.slice(0, -1);
    put(s, q.typing.digits === '' ? null : +q.typing.digits, true);
    render();
  } else if (ev.key === 'Backspace' || ev.key === 'Delete') {
    q.typing = null;
    if (q.placed.has(s) && put(s, null)) render();
  } else if (steps[ev.key]) {
    q.typing = null;
    const [dr, dc] = steps[ev.key];
    const r = Math.min(q.pz.rows - 1, Math.max(0, Math.floor(s / q.pz.cols) + dr));
    const c = Math.min(q.pz.cols - 1, Math.max(0, s % q.pz.cols + dc));
    choose(r * q.pz.cols + c);
  } else return;
  ev.preventDefault();
}

function choose(s) {
  q.cursor = s;
  render();
  const rect = q.b && q.b.svg.querySelector(`rect.sq[data-s='${s}']`);
  if (rect) rect.focus();
}

// d deduction, p place it, c check, u undo: anywhere in the panel but its fields.
function panelKeys(ev) {
  if (!$('panel-puzzle').classList.contains('on') || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.target.closest('input, select, textarea')) return;
  const keys = { d: deduce, p: place, c: check, u: undo };
  if (keys[ev.key]) { ev.preventDefault(); keys[ev.key](); }
}

// The number field (a phone's keypad): its value goes on the chosen square.
function numberField() {
  if (!q.pz) return;
  const v = $('puzzle-number').value.trim();
  q.typing = null;
  if (put(q.cursor, v === '' ? null : +v)) render();
}

export function initPuzzle() {
  $('puzzle-form').addEventListener('submit', ev => { ev.preventDefault(); newPuzzle(); });
  $('puzzle-open').addEventListener('click', openBox);
  $('puzzle-deduce').addEventListener('click', deduce);
  $('puzzle-place').addEventListener('click', place);
  $('puzzle-check').addEventListener('click', check);
  $('puzzle-undo').addEventListener('click', undo);
  $('puzzle-number').addEventListener('change', numberField);
  $('puzzle-board').addEventListener('click', ev => {
    const rect = ev.target.closest('rect.sq');
    if (rect && q.pz) { q.typing = null; choose(+rect.dataset.s); }
  });
  $('puzzle-board').addEventListener('keydown', boardKeys);
  document.addEventListener('keydown', panelKeys);
  $('puzzle-undo').disabled = true;
}

// R,C,N triples joined by dots, and back.
const triples = m => [...m].map(([s, n]) => `${Math.floor(s / q.pz.cols)},${s % q.pz.cols},${n}`).join('.');
function fromTriples(text, what) {
  if (!text) return [];
  return text.split('.').map(t => {
    const m = /^(\d+),(\d+),(\d+)$/.exec(t);
    if (!m) throw new Error(`"${t}" in ${what} is not ROW,COL,NUMBER`);
    return [+m[1], +m[2], +m[3]];
  });
}

// The panel's state for a share link (docs/formats.md, "Share links"), and back.
export const share = {
  save() {
    const o = saveFields('puzzle', FIELDS, ['rows', 'cols']);
    if (!q.pz) return o;
    const pz = q.pz;
    Object.assign(o, { board: `${pz.rows}x${pz.cols}`, kind: pz.closed ? 'closed' : 'open', clues: triples(pz.given) });
    if (pz.base === 0) o.base = 0;
    if (pz.wrap !== 'none') o.wrap = pz.wrap;
    if (header(pz).includes('leaper=')) o.leaper = pz.leaper.join(',');
    if (pz.holes.size) o.holes = [...pz.holes].map(s => `${Math.floor(s / pz.cols)},${s % pz.cols}`).join('.');
    if (q.placed.size) o.progress = triples(q.placed);
    return o;
  },
  async restore(o) {
    restoreFields('puzzle', FIELDS, o);
    if (!o.board) {
      q.pz = null; q.b = null; q.placed = new Map(); q.history = [];
      $('puzzle-board').replaceChildren();
      $('puzzle-conflicts').replaceChildren();
      $('puzzle-about').textContent = 'No puzzle yet.';
      return;
    }
    const [rows, cols] = String(o.board).split('x').map(Number);
    const holes = (o.holes ? o.holes.split('.') : []).map(h => h.split(',').map(Number));
    const j = { rows, cols: cols ?? rows, closed: o.kind === 'closed', base: o.base === undefined ? 1 : +o.base,
      holes, clues: fromTriples(o.clues, 'clues') };
    if (o.wrap) j.wrap = o.wrap;
    if (o.leaper) j.leaper = o.leaper.split(',').map(Number);
    const placed = new Map(fromTriples(o.progress, 'progress').map(([r, c, n]) => [r * j.cols + c, n]));
    if (!await openText(JSON.stringify(j), placed)) throw new Error('its puzzle is not one this page can open');
    tell(`Shared puzzle opened: ${q.pz.given.size} given, ${q.placed.size} numbered by the player.`);
  },
};
