// Counting: exact counts as server jobs, with progress and cancelling.
import { $, api, say, plural, boardOf, state, changed, saveFields, restoreFields } from './shared.js';

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
// Where a running count is: the square of its phase ("square 12 of 30
// (bottom part), 4,100 frontier states"), or after its last square the
// join ("join: 1,200 of 5,000 bottom states joined").
function runningAt(v) {
  if (v.phase === 'join') return `join: ${v.joined ?? 0} of ${plural(v.to_join ?? 0, 'bottom state')} joined`;
  const phase = v.phase && v.phase !== 'squares' ? ` (${v.phase})` : '';
  return `square ${v.step} of ${v.steps}${phase}, ${plural(v.states, 'frontier state')}`;
}

// The time left in the whole count, once the server can tell it.
function timeLeft(v) {
  if (typeof v.seconds_left !== 'number') return 'estimating the time left';
  const s = v.seconds_left;
  return `about ${s < 90 ? `${s.toFixed(0)} s` : s < 5400 ? `${(s / 60).toFixed(1)} min` : `${(s / 3600).toFixed(1)} h`} left`;
}

export function countStatus(v, cancelledByUser, limitSeconds) {
  const known = v.known ? ` Published: ${v.known.count} (${v.known.source})${v.count !== undefined ? (v.count === v.known.count ? ' — agrees.' : ' — DIFFERS.') : '.'}` : '';
  const base = `${v.kind.charAt(0).toUpperCase()}${v.kind.slice(1)} tours of ${v.board}: `;
  const at = v.steps ? `square ${v.step} of ${v.steps}` : 'its start';
  const after = `after ${v.elapsed.toFixed(1)} s`;
  let text;
  if (v.state === 'running' && !v.steps) text = `starting, ${v.elapsed.toFixed(1)} s.`;
  else if (v.state === 'running') text = `${runningAt(v)}, ${v.elapsed.toFixed(1)} s, ${timeLeft(v)}.`;
  else if (v.state === 'done' && v.prefixes) text = `${v.count} on the whole board, every prefix's count in the table below (in ${v.elapsed.toFixed(2)} s).`;
  else if (v.state === 'done') text = `${v.count} (in ${v.elapsed.toFixed(2)} s).`;
  else if (v.state === 'cancelled' && cancelledByUser) text = `cancelled at ${at}, ${after}.`;
  else if (v.state === 'cancelled') text = `stopped at ${at}, ${after}: the server stops a count after ${limitSeconds} s.`;
  else text = v.state + (v.error ? ': ' + v.error : '');
  return base + text + known;
}

// The count's fields a share link keeps (ids `count-KEY`).
const FIELDS = ['rows', 'cols', 'kind', 'of'];

// The count's share link (share.js): set by initCount. A link of a count
// started counts again when it is opened.
export const share = { save: () => ({}), restore: () => {} };

export function initCount() {
  const c = { id: null, source: null, cancelled: false };
  const cap = state.info.limits.count_squares;
  $('count-cap').textContent = describeCountCap(cap, state.info.limits.count_seconds);
  for (const id of ['count-rows', 'count-cols']) $(id).max = String(cap);
  const table = $('count-known');
  const head = table.insertRow(); for (const h of ['board', 'kind', 'published count', 'source']) { const th = document.createElement('th'); th.textContent = h; head.appendChild(th); }
  for (const k of state.info.known_counts) {
    const row = table.insertRow();
    for (const v of [`${k.rows}x${k.cols}`, k.kind, k.count, k.source]) row.insertCell().textContent = v;
    if (k.rows * k.cols > cap) { row.classList.add('over'); row.title = `over this server's cap of ${plural(cap, 'square')}`; }
  }
  if (table.querySelector('tr.over')) table.createCaption().textContent = "Published counts (the grey boards are over this server's cap)";
  // A sweep's counts, one row a prefix: the board of each length, or the
  // number of cells.
  const showPrefixes = v => {
    const t = $('count-prefixes');
    t.replaceChildren();
    t.hidden = !v.prefixes;
    if (!v.prefixes) return;
    const head = t.insertRow();
    for (const h of [v.answer && v.answer.of === 'all-cells' ? 'first cells' : 'board', 'count']) { const th = document.createElement('th'); th.textContent = h; head.appendChild(th); }
    for (const [prefix, n] of v.prefixes) { const row = t.insertRow(); row.insertCell().textContent = prefix; row.insertCell().textContent = n; }
  };
  const render = v => {
    // A join fills the bar again, by the states it has joined.
    const joining = v.state === 'running' && v.phase === 'join';
    $('count-progress').max = Math.max(1, joining ? v.to_join : v.steps); $('count-progress').value = joining ? v.joined : v.step;
    $('count-status').textContent = countStatus(v, c.cancelled, state.info.limits.count_seconds);
    $('count-status').dataset.state = v.state;
    if (v.state !== 'running') say('count-message', '', true);
    if (v.state === 'done') showPrefixes(v);
  };
  const finish = () => { if (c.source) { c.source.close(); c.source = null; } $('count-cancel').disabled = true; $('count-start').disabled = false; };
  const start = async () => {
    finish();
    c.id = null; c.cancelled = false; c.asked = true;
    $('count-progress').value = 0;
    $('count-status').textContent = 'Starting…';
    delete $('count-status').dataset.state;
    showPrefixes({});
    try {
      const q = new URLSearchParams({ board: boardOf('count'), kind: $('count-kind').value, of: $('count-of').value });
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
  };
  $('count-form').addEventListener('submit', async ev => {
    ev.preventDefault();
    await start();
    changed('count', true);
  });
  $('count-form').addEventListener('change', () => { c.asked = false; changed('count', false); });

  share.save = () => {
    const s = saveFields('count', FIELDS, ['rows', 'cols']);
    if (c.asked) s.go = 1;
    return s;
  };
  share.restore = async s => {
    finish();
    c.asked = false;
    restoreFields('count', FIELDS, s);
    if (s.go === '1') { await start(); c.asked = true; }
  };
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
