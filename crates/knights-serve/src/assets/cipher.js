// The knight's tour cipher: a tour as the key, the text laid along it.
import { $, api, say, changed, saveFields, restoreFields } from './shared.js';
import { TourView, el } from './board.js';

// The cipher's share link (share.js): the key and the mode; the texts only
// when the person ticks "Put the text in the link". Set by initCipher.
export const share = { save: () => ({}), restore: () => {} };

export function initCipher() {
  let did = null; // the last operation done: 'encrypt' or 'decrypt'
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
      const body = JSON.stringify({ key: $('cipher-key').value, text: $(from).value, classic: $('cipher-mode').value === 'classic' });
      const r = await api(path, { method: 'POST', body });
      $(to).value = r.text;
      const plain = path.endsWith('encrypt') ? $(from).value : r.text;
      lay(r.key, plain);
      $('cipher-result').textContent = (path.endsWith('encrypt') ? 'Enciphered' : 'Deciphered') +
        ` with a tour of ${r.key.rows}x${r.key.cols}${r.key.spec ? ' (' + r.key.spec + ')' : ''}: the text is written row by row and read along the tour.`;
      say('cipher-message', '', true);
      did = path.endsWith('encrypt') ? 'encrypt' : 'decrypt';
    } catch (err) {
      // The drawing and its caption belong to the last good key: gone.
      $('cipher-board').replaceChildren();
      $('cipher-result').textContent = '';
      say('cipher-message', err.message);
    }
  };
  const encrypt = () => run('/api/encrypt', 'cipher-plain', 'cipher-secret');
  const decrypt = () => run('/api/decrypt', 'cipher-secret', 'cipher-plain');
  $('cipher-encrypt').addEventListener('click', async () => { await encrypt(); changed('cipher', true); });
  $('cipher-decrypt').addEventListener('click', async () => { await decrypt(); changed('cipher', true); });
  $('cipher-form').addEventListener('change', () => changed('cipher', false));

  share.save = () => {
    const withText = $('cipher-text-in-link').checked;
    const s = saveFields('cipher', withText ? ['key', 'mode', 'plain', 'secret'] : ['key', 'mode']);
    if (withText) s.text = 1;
    if (did) s.did = did;
    return s;
  };
  share.restore = async s => {
    did = null;
    const withText = s.text === '1';
    $('cipher-text-in-link').checked = withText;
    restoreFields('cipher', ['key', 'mode', 'plain', 'secret'], s);
    $('cipher-board').replaceChildren();
    $('cipher-result').textContent = '';
    say('cipher-message', '', true);
    if (!withText) {
      // The sender's text stayed with the sender.
      $('cipher-plain').value = '';
      $('cipher-secret').value = '';
      if (s.did) say('cipher-message', 'The link holds the key, not the text: type a text and encrypt or decrypt it.', true);
      return;
    }
    if (s.did === 'encrypt') await encrypt();
    else if (s.did === 'decrypt') await decrypt();
  };
}
