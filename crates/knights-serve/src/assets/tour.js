// The tour explorer: a tour of any board, drawn and stepped through.
import { $, api, say, article, boardOf, decodeMoves, shapeOf, state, changed, saveFields, restoreFields } from './shared.js';
import { TourView, squareAt } from './board.js';
import { showMagic, showSums } from './magic.js';

// The explorer's fields a share link keeps (ids `tour-KEY`); the algorithm's
// own options go as `opt.NAME`.
const FIELDS = ['rows', 'cols', 'kind', 'algorithm', 'seed', 'end', 'wrap', 'leaper', 'holes', 'lines', 'numbers'];

// The explorer's share link (share.js): set by initTour.
export const share = { save: () => ({}), restore: () => {} };

export function initTour() {
  const view = new TourView($('tour-board'));
  const t = { start: null, tour: null, path: null, upto: -1, playing: false, last: 0 };
  window.knightsTour = t; // for the browser tests and the curious

  const algorithms = $('tour-algorithm');
  for (const a of state.info.algorithms) {
    const o = document.createElement('option');
    o.value = a.name; o.textContent = a.name; o.title = a.about;
    algorithms.appendChild(o);
  }
  const optionInputs = () => {
    const a = state.info.algorithms.find(x => x.name === algorithms.value);
    const box = $('tour-options');
    box.replaceChildren();
    for (const name of a.options) {
      const label = document.createElement('label');
      label.textContent = name;
      let input;
      if (name === 'tie') {
        input = document.createElement('select');
        for (const tie of state.info.ties) {
          const o = document.createElement('option');
          o.value = tie.name; o.textContent = tie.name; o.title = tie.about;
          input.appendChild(o);
        }
      } else {
        input = document.createElement('input');
        input.type = 'number'; input.min = '1'; input.placeholder = 'default';
      }
      input.dataset.option = name;
      input.id = 'tour-opt-' + name;
      label.appendChild(input);
      box.appendChild(label);
    }
    $('tour-options').title = a.about;
  };
  algorithms.addEventListener('change', optionInputs);
  optionInputs();

  const drawEmpty = () => {
    const rows = +$('tour-rows').value, cols = +$('tour-cols').value;
    if (rows * cols > 0 && rows * cols <= state.info.limits.tour_squares) {
      view.show({ rows, cols, path: null, start: t.start });
    }
  };
  const query = () => {
    const q = new URLSearchParams({ ...shapeOf('tour'), kind: $('tour-kind').value,
      algorithm: algorithms.value, seed: $('tour-seed').value || '0' });
    if (t.start) q.set('start', t.start.join(','));
    if ($('tour-end').value.trim() !== '') q.set('end', $('tour-end').value.trim());
    for (const input of document.querySelectorAll('#tour-options [data-option]'))
      if (input.value !== '') q.set(input.dataset.option, input.value);
    return q;
  };
  // The download links: every file /api/tour makes (docs/http-api.md).
  // Files other than JSON have their own cap (tourney_squares); over it
  // their links are not offered.
  const FILES = { svg: '.svg', 'animated-svg': '-animated.svg', png: '.png', gif: '.gif', grid: '.txt' };
  const links = q => {
    const board = boardOf('tour');
    const [rows, cols] = board.split('x').map(Number);
    const files = rows * cols <= state.info.limits.tourney_squares;
    for (const [f, ext] of Object.entries(FILES)) {
      const l = new URLSearchParams(q); l.set('format', f);
      $('dl-' + f).href = '/api/tour?' + l;
      $('dl-' + f).download = `tour-${board}${ext}`;
      $('dl-' + f).hidden = !files;
    }
    $('dl-json').href = '/api/tour?' + q;
    $('dl-json').download = `tour-${board}.json`;
    $('tour-downloads').hidden = false;
  };
  // The existence answer for the kind asked; resolves to the reason when no
  // such tour exists (then the page does not ask for one).
  const existence = async () => {
    const q = query();
    const e = new URLSearchParams({ board: q.get('board'), kind: q.get('kind') });
    for (const k of ['start', 'end', 'wrap', 'leaper', 'holes']) if (q.has(k)) e.set(k, q.get(k));
    const where = [q.get('board'), ...['wrap', 'leaper'].filter(k => q.has(k)).map(k => `${k} ${q.get(k)}`),
      q.has('holes') ? 'with holes' : ''].filter(w => w).join(' ');
    try {
      const a = await api('/api/exists?' + e);
      const kind = a.kind === 'either' ? 'Tour' : `${a.kind.charAt(0).toUpperCase()}${a.kind.slice(1)} tour`;
      $('tour-exists').textContent = `${kind} on ${where}: ${a.answer} — ${a.reason}` + (a.theorem ? ` (${a.theorem})` : '');
      if (a.answer === 'no') return `No such tour on ${where}: ${a.reason}.`;
    } catch (err) { return err.message; }
    return null;
  };
  // Forgets the last tour: its drawing, message, counter and download links
  // go, so nothing on the page describes a tour that is not the current answer.
  const clearResult = () => {
    t.tour = null; t.path = null; t.asked = false;
    stop();
    say('tour-message', '');
    $('tour-board').replaceChildren();
    delete $('tour-board').dataset.squares;
    $('tour-at').textContent = '';
    showMagic('tour-magic', 0, 0, null);
    showSums('tour-sums', 0, 0, null);
    for (const f of ['json', ...Object.keys(FILES)]) $('dl-' + f).removeAttribute('href');
    $('tour-downloads').hidden = true;
    drawEmpty();
  };
  const showTour = () => {
    if (!t.path) return;
    view.show({ rows: t.tour.rows, cols: t.tour.cols, path: t.path, closed: t.tour.closed, holes: t.tour.holes,
      lines: $('tour-lines').checked, numbers: $('tour-numbers').checked, upto: t.upto, start: t.path[0], base: state.base });
    // A semimagic or magic tour says its line sums (boards with holes have none).
    const plain = !(t.tour.holes && t.tour.holes.length);
    showMagic('tour-magic', t.tour.rows, t.tour.cols, plain ? t.path : null, state.base);
    // Every row's and column's sum, on a square board without holes small enough to number.
    const small = t.tour.rows * t.tour.cols <= 1024;
    showSums('tour-sums', t.tour.rows, t.tour.cols, plain && small ? t.path : null);
  };

  // Asks for the tour of the form's fields and shows it.
  const ask = async () => {
    stop();
    const q = query();
    const t0 = performance.now();
    say('tour-message', 'Working…', true);
    const none = await existence();
    if (none) {
      clearResult();
      say('tour-message', none);
      return;
    }
    try {
      const compact = new URLSearchParams(q); compact.set('encoding', 'moves');
      const tour = await api('/api/tour?' + compact);
      t.tour = tour;
      // Boards with holes, wrapping or another leaper come as squares.
      t.path = tour.squares ? tour.squares : decodeMoves(tour, state.info.moves);
      t.upto = t.path.length - 1;
      const big = tour.rows * tour.cols > 1024;
      $('tour-numbers').disabled = big;
      showTour();
      links(q);
      t.ms = performance.now() - t0;
      const kind = tour.closed ? 'closed' : 'open';
      const a = article(kind);
      say('tour-message', `${a.charAt(0).toUpperCase()}${a.slice(1)} ${kind} tour of ${tour.rows}x${tour.cols} by ${tour.algorithm} (seed ${tour.seed}), drawn in ${Math.round(t.ms)} ms${big ? '; numbers are hidden on boards over 32x32' : ''}.`, true);
      $('tour-board').dataset.squares = String(t.path.length);
      $('tour-at').textContent = `${t.path.length} / ${t.path.length}`;
    } catch (err) {
      clearResult();
      say('tour-message', err.message);
    }
  };
  // `t.asked`: the form's tour (or the reason there is none) is shown.
  const generate = async () => { await ask(); t.asked = true; };
  $('tour-form').addEventListener('submit', async ev => {
    ev.preventDefault();
    await generate();
    changed('tour', true);
  });
  $('tour-form').addEventListener('change', () => changed('tour', false));

  for (const id of ['tour-rows', 'tour-cols']) $(id).addEventListener('change', () => { t.start = null; $('tour-start').textContent = 'anywhere'; clearResult(); });
  $('tour-board').addEventListener('click', ev => {
    const rows = t.path ? t.tour.rows : +$('tour-rows').value;
    const cols = t.path ? t.tour.cols : +$('tour-cols').value;
    const sq = squareAt($('tour-board'), ev, rows, cols);
    if (!sq) return;
    t.start = sq;
    $('tour-start').textContent = sq.join(',');
    clearResult();
    changed('tour', false);
  });
  $('tour-start-clear').addEventListener('click', () => { t.start = null; $('tour-start').textContent = 'anywhere'; clearResult(); changed('tour', false); });
  for (const id of ['tour-lines', 'tour-numbers']) $(id).addEventListener('change', showTour);
  document.addEventListener('knights-base', showTour);

  // Animation: animate / pause / step, speed in squares a second.
  const frame = now => {
    if (!t.playing) return;
    const speed = +$('tour-speed').value;
    const due = Math.floor((now - t.last) * speed / 1000);
    if (due > 0) {
      t.last = now;
      t.upto = Math.min(t.path.length - 1, t.upto + due);
      view.update(t.upto);
      $('tour-at').textContent = `${t.upto + 1} / ${t.path.length}`;
      if (t.upto >= t.path.length - 1) { stop(); changed('tour', false); return; }
    }
    requestAnimationFrame(frame);
  };
  function stop() { t.playing = false; $('tour-animate').textContent = 'Animate'; }
  $('tour-animate').addEventListener('click', () => {
    if (!t.path) return;
    if (t.playing) { stop(); changed('tour', false); return; }
    if (t.upto >= t.path.length - 1) { t.upto = 0; view.update(0); }
    t.playing = true; t.last = performance.now();
    $('tour-animate').textContent = 'Pause';
    requestAnimationFrame(frame);
  });
  $('tour-step').addEventListener('click', () => {
    if (!t.path) return;
    stop();
    t.upto = t.upto >= t.path.length - 1 ? 0 : t.upto + 1;
    view.update(t.upto);
    $('tour-at').textContent = `${t.upto + 1} / ${t.path.length}`;
    changed('tour', false);
  });
  drawEmpty();

  share.save = () => {
    const s = saveFields('tour', FIELDS, ['rows', 'cols']);
    for (const input of document.querySelectorAll('#tour-options [data-option]'))
      if (input.value !== '' && input.selectedIndex !== 0) s['opt.' + input.dataset.option] = input.value;
    if (t.start) s.start = t.start.join(',');
    if (t.asked) s.go = 1;
    if (t.path) {
      if (t.upto < t.path.length - 1) s.step = t.upto;
    }
    return s;
  };
  share.restore = async s => {
    stop();
    restoreFields('tour', FIELDS, s);
    // A shape beyond the rectangle is shown, not folded away.
    if (['end', 'wrap', 'leaper', 'holes'].some(k => s[k] !== undefined)) $('tour-beyond').open = true;
    optionInputs();
    for (const input of document.querySelectorAll('#tour-options [data-option]')) {
      const v = s['opt.' + input.dataset.option];
      if (v !== undefined) input.value = v;
    }
    const m = /^(\d+),(\d+)$/.exec(s.start || '');
    t.start = m ? [+m[1], +m[2]] : null;
    $('tour-start').textContent = t.start ? t.start.join(',') : 'anywhere';
    clearResult();
    if (s.go !== '1') return;
    await generate();
    if (t.path && s.step !== undefined && /^\d+$/.test(s.step)) {
      t.upto = Math.min(+s.step, t.path.length - 1);
      view.update(t.upto);
      $('tour-at').textContent = `${t.upto + 1} / ${t.path.length}`;
    }
  };
}
