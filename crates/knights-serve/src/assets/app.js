// The page: tabs, and each panel (one module each) started once the
// server's facts are in. This module only wires.
import { $, api, state } from './shared.js';
import { initPlay, share as playShare } from './play.js';
import { initPuzzle, share as puzzleShare } from './puzzle.js';
import { initTour, share as tourShare } from './tour.js';
import { initWorksheet } from './worksheet.js';
import { initTheatre, share as theatreShare } from './theatre.js';
import { initLab, share as labShare } from './lab.js';
import { initCipher, share as cipherShare } from './cipher.js';
import { initCount, share as countShare } from './count.js';
import { initShare, registerPanel } from './share.js';

// The step base: every panel numbers steps from state.base, and redraws
// on the event `knights-base`.
function base() {
  const choice = $('page-base');
  choice.value = String(state.base);
  choice.addEventListener('change', () => {
    state.base = +choice.value;
    document.dispatchEvent(new Event('knights-base'));
  });
}

// Shows the panel `name` and marks its tab.
function showTab(name) {
  for (const x of document.querySelectorAll('#tabs button')) {
    x.classList.toggle('on', x.dataset.panel === name);
    x.setAttribute('aria-pressed', String(x.dataset.panel === name));
  }
  for (const p of document.querySelectorAll('.panel')) p.classList.toggle('on', p.id === 'panel-' + name);
}

function tabs() {
  for (const b of document.querySelectorAll('#tabs button')) b.addEventListener('click', () => showTab(b.dataset.panel));
}

async function main() {
  tabs();
  base();
  try {
    state.info = await api('/api/info');
  } catch (err) {
    document.body.textContent = 'The server did not answer: ' + err.message;
    return;
  }
  initPlay();
  initPuzzle();
  initTour();
  initWorksheet();
  initTheatre();
  initLab();
  initCipher();
  initCount();
  registerPanel('play', playShare);
  registerPanel('puzzle', puzzleShare);
  registerPanel('tour', tourShare);
  registerPanel('theatre', theatreShare);
  registerPanel('lab', labShare);
  registerPanel('cipher', cipherShare);
  registerPanel('count', countShare);
  await initShare(showTab);
  document.body.dataset.ready = 'yes';
}

main();
