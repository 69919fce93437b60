// The Tour panel's worksheet: a printable page of boards to find a tour on
// by hand (GET /api/sheet, docs/http-api.md), made from the panel's fields,
// and its solution page. "Print worksheet" puts the pages, as inline SVG,
// into a part of the page that only print shows (style.css, @media print)
// and opens the browser's print dialog.
import { $, shapeOf } from './shared.js';

// The sheet's query from the Tour panel's fields (its start from the
// explorer's state); the server reads and checks them.
function sheetQuery() {
  const q = new URLSearchParams({ ...shapeOf('tour'), kind: $('tour-kind').value,
    algorithm: $('tour-algorithm').value, seed: $('tour-seed').value || '0',
    copies: $('sheet-copies').value || '1' });
  const start = window.knightsTour && window.knightsTour.start;
  if (start) q.set('start', start.join(','));
  if ($('tour-end').value.trim() !== '') q.set('end', $('tour-end').value.trim());
  for (const input of document.querySelectorAll('#tour-options [data-option]'))
    if (input.value !== '') q.set(input.dataset.option, input.value);
  return q;
}

// The SVG text of one page, or the server's sentence as an error.
async function page(q) {
  const response = await fetch('/api/sheet?' + q);
  const text = await response.text();
  if (!response.ok) {
    let sentence = text;
    try { sentence = JSON.parse(text).error || text; } catch { /* the text as it is */ }
    throw new Error(sentence);
  }
  return text;
}

// Keeps the download links on the current fields.
function links() {
  const q = sheetQuery();
  for (const f of ['svg', 'png']) {
    const l = new URLSearchParams(q); l.set('format', f);
    $('sheet-' + f).href = '/api/sheet?' + l;
    $('sheet-' + f).download = `sheet-${q.get('board')}.${f}`;
  }
}

async function print() {
  const q = sheetQuery();
  const message = $('sheet-message');
  message.textContent = 'Making the worksheet…';
  try {
    const pages = [await page(q)];
    if ($('sheet-solution').checked) {
      const s = new URLSearchParams(q); s.set('solution', 'true'); s.set('path', 'true');
      pages.push(await page(s));
    }
    const box = $('print-sheet');
    box.replaceChildren();
    for (const svg of pages) {
      const sheet = document.createElement('div');
      sheet.className = 'print-page';
      const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
      sheet.appendChild(document.importNode(doc.documentElement, true));
      box.appendChild(sheet);
    }
    box.dataset.pages = String(pages.length);
    message.textContent = '';
    document.body.classList.add('print-sheet');
    window.print();
  } catch (err) {
    message.textContent = err.message;
  }
}

export function initWorksheet() {
  $('sheet-print').addEventListener('click', print);
  window.addEventListener('afterprint', () => document.body.classList.remove('print-sheet'));
  for (const id of ['sheet-svg', 'sheet-png']) $(id).addEventListener('pointerdown', links);
  for (const id of ['sheet-svg', 'sheet-png']) $(id).addEventListener('focus', links);
  $('tour-form').addEventListener('input', links);
  links();
}
