// The page: tabs, and each panel (one module each) started once the
// server's facts are in. This module only wires.
import { $, api, state } from './shared.js';
import { initPlay } from './play.js';
import { initTour } from './tour.js';
import { initTheatre } from './theatre.js';
import { initLab } from './lab.js';
import { initCipher } from './cipher.js';
import { initCount } from './count.js';

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

function tabs() {
  for (const b of document.querySelectorAll('#tabs button')) {
    b.addEventListener('click', () => {
      for (const x of document.querySelectorAll('#tabs button')) x.classList.toggle('on', x === b);
      for (const p of document.querySelectorAll('.panel')) p.classList.toggle('on', p.id === 'panel-' + b.dataset.panel);
    });
  }
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
  initTour();
  initTheatre();
  initLab();
  initCipher();
  initCount();
  document.body.dataset.ready = 'yes';
}

main();
