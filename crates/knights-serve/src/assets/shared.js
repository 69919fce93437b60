// What every panel shares: the API helper, messages, words, the board
// fields, and the server's facts (`state.info`). Everything goes through the
// JSON API (docs/http-api.md).

export const $ = id => document.getElementById(id);

// Calls the API; resolves to the JSON answer, or rejects with the server's sentence.
export async function api(path, options = {}) {
  const response = await fetch(path, options);
  const text = await response.text();
  let body = null;
  try { body = JSON.parse(text); } catch { body = { error: text }; }
  if (!response.ok) {
    const e = new Error(body.error || `${response.status}`);
    e.status = response.status;
    throw e;
  }
  return body;
}

export function say(id, text, ok = false) {
  const m = $(id);
  m.textContent = text;
  m.classList.toggle('ok', ok);
}

// "a" or "an" before `word` (the page's words: kinds, algorithm names).
export function article(word) {
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}

// `n` and the noun, singular or plural: "1 cycle", "8 cycles".
export function plural(n, noun) {
  return `${n} ${noun}${+n === 1 ? '' : 's'}`;
}

export function boardOf(prefix) {
  return `${$(prefix + '-rows').value}x${$(prefix + '-cols').value}`;
}

// A shape's fields of a request from a panel's inputs (PREFIX-rows, -cols,
// -holes, -wrap, -leaper): { board, holes?, wrap?, leaper? }, by the
// request's own names; the server reads and checks them.
export function shapeOf(prefix) {
  const shape = { board: boardOf(prefix) };
  for (const key of ['holes', 'leaper']) {
    const v = $(`${prefix}-${key}`).value.trim();
    if (v !== '') shape[key] = v;
  }
  const wrap = $(`${prefix}-wrap`).value;
  if (wrap !== 'none') shape.wrap = wrap;
  return shape;
}

// A compact tour ({start, moves}) back to [r, c] squares, by the move table.
export function decodeMoves(tour, moves) {
  // A closed tour's moves include the one back to the start: leave it out.
  const n = tour.rows * tour.cols;
  const path = new Array(n);
  let [r, c] = tour.start;
  path[0] = [r, c];
  for (let i = 0; i + 1 < n; i++) {
    const [dr, dc] = moves[tour.moves.charCodeAt(i) - 48];
    r += dr; c += dc;
    path[i + 1] = [r, c];
  }
  return path;
}

// The page's state: the server's facts, and the number of a tour's first
// square (`base`: 0 as the command line's `--base` by default, or 1).
export const state = { info: null, base: 0 };

// Share links (share.js): a panel tells that its state changed, `fresh` for
// a new board or run (a new history entry), else a change in place.
export function changed(tab, fresh) {
  document.dispatchEvent(new CustomEvent('knights:state', { detail: { tab, fresh } }));
}

// A form field's value as a link keeps it: a checkbox's as true or false.
const valueOf = e => e.type === 'checkbox' ? e.checked : e.value;
// Its value as the page first had it (the HTML's default).
function defaultOf(e) {
  if (e.type === 'checkbox') return e.defaultChecked;
  if (e.tagName === 'SELECT') {
    const o = [...e.options].find(x => x.defaultSelected) || e.options[0];
    return o ? o.value : '';
  }
  return e.defaultValue;
}

// The fields `keys` (ids `prefix-KEY`) that differ from their defaults, as
// { KEY: value }; those in `always` are kept even at their default.
export function saveFields(prefix, keys, always = []) {
  const out = {};
  for (const k of keys) {
    const e = $(`${prefix}-${k}`);
    const v = valueOf(e);
    if (always.includes(k) || v !== defaultOf(e)) out[k] = v;
  }
  return out;
}

// Sets the fields `keys` from a link's state: a key it leaves out gets the
// field's default. A select keeps its default when the link names no option of it.
export function restoreFields(prefix, keys, obj) {
  for (const k of keys) {
    const e = $(`${prefix}-${k}`);
    const v = obj[k] ?? defaultOf(e);
    if (e.type === 'checkbox') e.checked = v === true || v === '1';
    else if (e.tagName === 'SELECT' && ![...e.options].some(o => o.value === String(v))) e.value = defaultOf(e);
    else e.value = String(v);
  }
}
