// Share links: each panel's state in the URL fragment, versioned so old
// links keep opening (docs/formats.md, "Share links"), and the browser's
// history: a new entry per new board or panel, the rest kept up to date in
// place. Panels register here (`registerPanel`) with their `share` object
// ({ save() -> flat object, restore(obj) }) and tell changes by the event
// `knights:state` ({ tab, fresh }).
import { $, say } from './shared.js';

const VERSION = 1;
const panels = new Map();
let showTab = () => {};
// While a link is being opened the panels' own events must not write history.
let restoring = false;

export function registerPanel(name, share) {
  panels.set(name, share);
}

// A value as it goes in the fragment: percent-encoded, but the characters
// a fragment may hold as they are (`,` `:` `/` `@`) stay readable.
const enc = v => encodeURIComponent(String(v)).replace(/%2C/gi, ',').replace(/%3A/gi, ':')
  .replace(/%2F/gi, '/').replace(/%40/g, '@');

// The fragment (without `#`) of panel `tab` in state `obj`: `v1/tour?board=8x8&seed=3`.
// Empty, null and undefined values are left out; booleans are 1 and 0.
export function encode(tab, obj) {
  const parts = [];
  for (const [k, v] of Object.entries(obj || {})) {
    if (v === null || v === undefined || v === '') continue;
    parts.push(`${enc(k)}=${enc(v === true ? 1 : v === false ? 0 : v)}`);
  }
  return `v${VERSION}/${tab}` + (parts.length ? '?' + parts.join('&') : '');
}

// Version 1: `v1/TAB?key=value&...`, values percent-encoded. Every value
// comes back as text.
function decodeV1(rest) {
  const m = /^([a-z]+)(?:\?(.*))?$/.exec(rest);
  if (!m) throw new Error('the link names no panel');
  const state = {};
  for (const part of (m[2] || '').split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    if (eq < 1) throw new Error(`"${part}" is not key=value`);
    state[decodeURIComponent(part.slice(0, eq))] = decodeURIComponent(part.slice(eq + 1));
  }
  return { tab: m[1], state };
}

// One decoder per version, each giving the current form: a new version adds
// its decoder and keeps the old ones (translating their keys if they change).
const decoders = { 1: decodeV1 };

// The fragment `hash` (with or without `#`) as { tab, state }; throws with a
// sentence when it is not a link this page can open.
export function decode(hash) {
  const text = hash.replace(/^#/, '');
  const m = /^v(\d+)\/(.*)$/s.exec(text);
  if (!m) throw new Error('it does not start with a version such as v1/');
  const decoder = decoders[+m[1]];
  if (!decoder) throw new Error(`its version v${m[1]} is newer than this page (which opens v1 to v${VERSION})`);
  const link = decoder(m[2]);
  if (!panels.has(link.tab)) throw new Error(`it names no panel of this page ("${link.tab}")`);
  return link;
}

// A square list as text and back: `2,3.4,4.6,5` (row,col pairs joined by
// dots), for panels that share a path of squares.
export const pathToText = path => path.map(([r, c]) => `${r},${c}`).join('.');
export function pathFromText(text) {
  if (!text) return [];
  return text.split('.').map(sq => {
    const m = /^(\d+),(\d+)$/.exec(sq);
    if (!m) throw new Error(`"${sq}" is not a square ROW,COL`);
    return [+m[1], +m[2]];
  });
}

function currentTab() {
  const on = document.querySelector('#tabs button.on');
  return on ? on.dataset.panel : null;
}

// Writes panel `tab`'s state into the URL: a new history entry when fresh.
function record(tab, fresh) {
  const share = panels.get(tab);
  if (!share || restoring) return;
  const hash = '#' + encode(tab, share.save());
  if (hash === location.hash) return;
  if (fresh) history.pushState(null, '', hash);
  else history.replaceState(null, '', hash);
}

// Opens the link in the URL: its tab shown and its panel restored. A link
// that cannot be opened leaves the default page and says why. No link at
// all is the page as it first opens: on a step back (`back`) to that entry,
// the first panel at its defaults.
async function open(back) {
  if (location.hash === '' || location.hash === '#') {
    if (back !== true || !panels.size) return;
    const [tab, share] = panels.entries().next().value;
    showTab(tab);
    restoring = true;
    try { await share.restore({}); } finally { restoring = false; }
    return;
  }
  let link;
  try {
    link = decode(location.hash);
  } catch (err) {
    history.replaceState(null, '', location.pathname + location.search);
    say('share-message', `This link cannot be opened (${err.message}); here is the default page.`);
    return;
  }
  say('share-message', '', true);
  showTab(link.tab);
  const share = panels.get(link.tab);
  // The panel already shows this state (a step back to another tab): nothing to redo.
  if (encode(link.tab, share.save()) === location.hash.slice(1)) return;
  restoring = true;
  try {
    await share.restore(link.state);
  } catch (err) {
    say('share-message', `This link cannot be opened (${err.message}).`);
  } finally {
    restoring = false;
  }
  document.body.dataset.restored = location.hash;
}

async function copyLink() {
  const tab = currentTab();
  if (tab && panels.has(tab)) record(tab, false);
  try {
    await navigator.clipboard.writeText(location.href);
    say('share-message', 'Link copied.', true);
  } catch {
    say('share-message', `Copy this link: ${location.href}`, true);
  }
}

// Starts the links: `show(tab)` shows a tab (app.js's), and the tabs' clicks
// become new history entries. Resolves once the link in the URL is open.
export async function initShare(show) {
  showTab = show;
  document.addEventListener('knights:state', ev => record(ev.detail.tab, ev.detail.fresh));
  for (const b of document.querySelectorAll('#tabs button'))
    b.addEventListener('click', () => record(b.dataset.panel, true));
  window.addEventListener('popstate', () => open(true));
  $('share-copy').addEventListener('click', copyLink);
  await open();
}
