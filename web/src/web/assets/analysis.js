// The analysis board: moves for both sides by click, drag or keyboard (the legal moves come
// with each position from the server, which decides every move); the move tree's links and
// the arrow keys step through it; each step asks the server for the changed part and puts the
// board's new address in the bar, so "Share" hands out exactly that address. "Engine" asks for
// the engine's line; its answer comes in parts (its place in line, then the line).
// A board from a finished game shows the game's notes on the move shown (part of each step).
// The board by keyboard alone (its own file).
import './board_keys.js';
// The picked piece and its destinations, drawn on the board (shared with the other board page).
import { markSquares } from './board_hints.js';

const main = document.querySelector('[data-analysis-board]');
const area = document.getElementById('board-area');
const error = document.getElementById('move-error');
const csrf = document.querySelector('meta[name=csrf]')?.content ?? '';
let flip = false;
/** The boards' theme: the page's `?theme=`, else the system's (a dark page gets dark boards). */
const theme = new URLSearchParams(window.location.search).get('theme')
  ?? (window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : null);
const live = () => document.getElementById('live');
const legal = () => {
  try { return JSON.parse(live().dataset.legal || '[]'); } catch { return []; }
};
let picked = null;
let dragFrom = null;
/** Counts the positions shown: an engine answer for an earlier one is dropped. */
let shown = 0;

/** The board's address with `extra` set (a move to play, another move to show), and the look. */
function query(extra) {
  const q = new URL(live().dataset.link, window.location.href).searchParams;
  for (const [k, v] of Object.entries(extra)) q.set(k, v);
  if (flip) q.set('flip', '1');
  if (theme) q.set('theme', theme);
  return q;
}

async function fetchPart(extra) {
  error.textContent = '';
  const r = await fetch(`/analysis/board?${query(extra)}`);
  const answer = await r.text();
  if (!r.ok) {
    error.textContent = answer;
    error.scrollIntoView({ block: 'nearest' });
    pick('');
    return;
  }
  const t = document.createElement('template');
  t.innerHTML = answer.trim();
  live().replaceWith(t.content.firstElementChild);
  picked = null;
  shown += 1;
  // The address names the board shown: reloading it, or sharing it, reopens this position.
  const link = new URL(live().dataset.link, window.location.href);
  if (theme && new URLSearchParams(window.location.search).has('theme')) link.searchParams.set('theme', theme);
  // A board planning a game's conditional moves stays one when reloaded.
  if (main.dataset.plan) link.searchParams.set('plan', main.dataset.plan);
  history.replaceState(null, '', link);
  document.getElementById('share-link').value = new URL(live().dataset.link, window.location.href).href;
  document.getElementById('engine-out')?.replaceChildren();
  document.querySelector('#tree .at')?.scrollIntoView({ block: 'nearest' });
  document.dispatchEvent(new CustomEvent('board-shown'));
}

const show = (at) => fetchPart({ at });
const play = (move) => fetchPart({ play: move });

const mark = (names, cls) => markSquares(live(), names, cls);

function pick(name) {
  live().querySelector('g.hints')?.replaceChildren();
  const moves = legal().filter((m) => m.startsWith(`${name}-`));
  picked = moves.length ? name : null;
  if (picked) {
    mark([name], 'picked');
    mark(moves.map((m) => m.split('-')[1]), 'dest');
  }
}

function choose(name) {
  if (picked && legal().includes(`${picked}-${name}`)) play(`${picked}-${name}`);
  else pick(name);
}

const squareAt = (e) => document.elementFromPoint(e.clientX, e.clientY)?.closest?.('rect[data-sq]');

area.addEventListener('pointerdown', (e) => {
  const sq = e.target.closest('rect[data-sq]');
  if (!sq) return;
  dragFrom = sq.dataset.sq;
  choose(dragFrom);
});
area.addEventListener('pointerup', (e) => {
  const sq = squareAt(e);
  if (sq && dragFrom && picked === dragFrom && sq.dataset.sq !== dragFrom) choose(sq.dataset.sq);
  dragFrom = null;
});

/** Back to the move before, on to the line's next move, the start, the end of this line. */
function step(to) {
  const d = live().dataset;
  const at = { first: '0', prev: d.parent, next: d.next, last: d.end }[to];
  if (at !== undefined && at !== d.at) show(at);
}

main.addEventListener('click', (e) => {
  const b = e.target.closest('button[data-step]');
  if (b) step(b.dataset.step);
  if (e.target.closest('#flip')) { flip = !flip; show(live().dataset.at); }
  const move = e.target.closest('#tree a.mv, #board-notes a.mv');
  if (move) { e.preventDefault(); show(move.dataset.at); }
  if (e.target.closest('#share')) share();
});
document.addEventListener('keydown', (e) => {
  if (e.target.closest('input, textarea, select') || e.altKey || e.ctrlKey || e.metaKey) return;
  const to = { ArrowLeft: 'prev', ArrowRight: 'next', Home: 'first', End: 'last' }[e.key];
  if (to) { e.preventDefault(); step(to); }
});

/** Shows the board's address, selected, and copies it where the browser allows. */
async function share() {
  const box = document.getElementById('share-box');
  const input = document.getElementById('share-link');
  const said = document.getElementById('share-said');
  input.value = new URL(live().dataset.link, window.location.href).href;
  box.hidden = false;
  input.focus();
  input.select();
  try {
    await navigator.clipboard.writeText(input.value);
    said.textContent = 'Link copied.';
  } catch {
    said.textContent = 'Copy the link above (it is selected).';
  }
}

// The engine: its answer's parts are separated by a marker line; the last whole part is shown.
const PART_END = '\n<!--part-->\n';
document.getElementById('engine-form')?.addEventListener('submit', async (e) => {
  e.preventDefault();
  const out = document.getElementById('engine-out');
  const button = e.target.querySelector('button');
  const body = query({});
  body.delete('flip');
  body.delete('theme');
  body.set('csrf', csrf);
  const asked = shown;
  out.textContent = 'Asking the engine…';
  button.disabled = true;
  try {
    const r = await fetch('/analysis/engine', { method: 'POST', body, headers: { 'x-csrf-token': csrf } });
    if (r.redirected) { window.location.reload(); return; }
    if (!r.ok) { out.innerHTML = ''; const p = document.createElement('p'); p.className = 'error'; p.textContent = await r.text(); out.append(p); return; }
    const reader = r.body.getReader();
    const decoder = new TextDecoder();
    let text = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (asked !== shown) { reader.cancel(); break; }
      text += decoder.decode(value, { stream: true });
      const parts = text.split(PART_END);
      if (parts.length > 1) {
        const t = document.createElement('template');
        t.innerHTML = parts[parts.length - 2].trim();
        out.replaceChildren(t.content);
      }
    }
  } catch {
    out.textContent = 'The engine\'s answer did not arrive; ask again.';
  } finally {
    button.disabled = false;
  }
});

// Conditional moves (a board opened with `plan=`): "Queue the line shown" sends the board's
// address (its line from the game's position now to the move shown); Delete drops one line.
// Each answer is the box again, or the refusal in words, shown in the box.
document.addEventListener('submit', async (e) => {
  const form = e.target.closest('#conditional form');
  if (!form) return;
  e.preventDefault();
  const box = document.getElementById('conditional');
  const body = form.id === 'plan-add' ? query({}) : new URLSearchParams();
  body.delete('flip');
  body.delete('theme');
  for (const [k, v] of new FormData(form)) body.set(k, v);
  for (const b of box.querySelectorAll('button')) b.disabled = true;
  try {
    const r = await fetch(form.action, { method: 'POST', body, headers: { 'x-csrf-token': csrf } });
    const answer = await r.text();
    if (!r.ok) {
      document.getElementById('plan-error').textContent = answer;
      return;
    }
    const t = document.createElement('template');
    t.innerHTML = answer.trim();
    box.replaceWith(t.content.firstElementChild);
    document.getElementById('conditional').dataset.done = String(Date.now());
  } catch {
    document.getElementById('plan-error').textContent = 'The answer did not arrive; try again.';
  } finally {
    for (const b of document.querySelectorAll('#conditional button')) b.disabled = false;
  }
});

// A page opened with a theme or flipped draws its first board so; otherwise the server's is kept.
if (theme && !new URLSearchParams(window.location.search).has('theme')) show(live().dataset.at);
