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
