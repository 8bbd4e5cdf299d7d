// The game page: move by clicking or dragging (legal destinations shown), or by typing in the
// move box; the opponent's moves arrive live (Server-Sent Events); step through the moves with
// the buttons or the arrow keys; flip the board. The server draws every board: this script only
// asks for the fragment of a ply and swaps it in.
import { localTimes } from './common.js';

const main = document.querySelector('[data-game]');
const game = main.dataset.game;
const csrf = document.querySelector('meta[name=csrf]')?.content ?? '';
const area = document.getElementById('board-area');
const error = document.getElementById('move-error');
let flip = false;
let picked = null;
let dragFrom = null;
/** The ply shown while replaying; null follows the game live. */
let replayPly = null;

const live = () => document.getElementById('live');
const legal = () => {
  try { return JSON.parse(live().dataset.legal || '[]'); } catch { return []; }
};

async function show(ply) {
  const q = new URLSearchParams();
  if (ply !== null) q.set('ply', ply);
  if (flip) q.set('flip', '1');
  const r = await fetch(`/games/${game}/board?${q}`);
  if (r.ok) swap(await r.text());
}

function swap(html) {
  const t = document.createElement('template');
  t.innerHTML = html.trim();
  const before = live().dataset;
  const same = `${before.ply}/${before.lastPly}`;
  const kept = picked;
  live().replaceWith(t.content.firstElementChild);
  picked = null;
  // A redraw of the same position (a live event for a draw offer, a resync) keeps the piece
  // the player had picked.
  if (kept && `${live().dataset.ply}/${live().dataset.lastPly}` === same) pick(kept);
  localTimes(live());
  document.dispatchEvent(new CustomEvent('board-shown'));
}

function square(name) {
  return live().querySelector(`rect[data-sq="${name}"]`);
}

function mark(names, cls) {
  const hints = live().querySelector('g.hints');
  for (const name of names) {
    const sq = square(name);
    if (!sq) continue;
    const w = +sq.getAttribute('width');
    const c = document.createElementNS('http://www.w3.org/2000/svg', cls === 'dest' ? 'circle' : 'rect');
    if (cls === 'dest') {
      c.setAttribute('cx', +sq.getAttribute('x') + w / 2);
      c.setAttribute('cy', +sq.getAttribute('y') + w / 2);
      c.setAttribute('r', w / 6);
    } else {
      for (const a of ['x', 'y', 'width', 'height']) c.setAttribute(a, sq.getAttribute(a));
    }
    c.setAttribute('class', cls);
    c.dataset.hint = name;
    hints.append(c);
  }
}

function pick(name) {
  const hints = live().querySelector('g.hints');
  if (hints) hints.replaceChildren();
  const moves = legal().filter((m) => m.startsWith(`${name}-`));
  picked = moves.length && live().dataset.playing === 'true' ? name : null;
  if (picked) {
    mark([name], 'picked');
    mark(moves.map((m) => m.split('-')[1]), 'dest');
  }
}

function choose(name) {
  if (picked && legal().includes(`${picked}-${name}`)) play(`${picked}-${name}`);
  else pick(name);
}

async function play(text) {
  error.textContent = '';
  const body = new URLSearchParams({ move: text, ply: live().dataset.lastPly });
  const r = await fetch(`/games/${game}/move${flip ? '?flip=1' : ''}`, {
    method: 'POST', body, headers: { 'x-csrf-token': csrf },
  });
  if (r.redirected) {
    // The session ended (signed out elsewhere, expired): the page says how to sign in again.
    window.location.reload();
    return;
  }
  const answer = await r.text();
  if (r.ok) {
    replayPly = null;
    swap(answer);
    document.getElementById('move-text').value = '';
  } else {
    error.textContent = answer;
    pick('');
  }
}

const squareAt = (e) => document.elementFromPoint(e.clientX, e.clientY)?.closest?.('rect[data-sq]');

area.addEventListener('pointerdown', (e) => {
  const sq = e.target.closest('rect[data-sq]');
  if (!sq || replayPly !== null) return;
  dragFrom = sq.dataset.sq;
  choose(dragFrom);
});
area.addEventListener('pointerup', (e) => {
  const sq = squareAt(e);
  if (sq && dragFrom && picked === dragFrom && sq.dataset.sq !== dragFrom) choose(sq.dataset.sq);
  dragFrom = null;
});

document.getElementById('move-form')?.addEventListener('submit', (e) => {
  e.preventDefault();
  const text = document.getElementById('move-text').value.trim();
  if (text) play(text);
});

function step(to) {
  const last = +live().dataset.lastPly;
  const at = +live().dataset.ply;
  const ply = { first: 0, prev: Math.max(0, at - 1), next: Math.min(last, at + 1), last }[to];
  replayPly = ply === last ? null : ply;
  show(replayPly);
}
main.addEventListener('click', (e) => {
  const b = e.target.closest('button[data-step]');
  if (b) step(b.dataset.step);
  if (e.target.closest('#flip')) { flip = !flip; show(replayPly); }
});
document.addEventListener('keydown', (e) => {
  if (e.target.closest('input, textarea, select') || e.altKey || e.ctrlKey || e.metaKey) return;
  const to = { ArrowLeft: 'prev', ArrowRight: 'next', Home: 'first', End: 'last' }[e.key];
  if (to) { e.preventDefault(); step(to); }
});

// Live: any event of this game redraws the current position (unless replaying).
const events = new EventSource(`/games/${game}/live`);
events.onmessage = () => { if (replayPly === null) show(null); };
// Whatever happened before the stream opened (or while it reconnected) is caught up at once.
events.onopen = async () => {
  if (replayPly === null) await show(null);
  main.dataset.live = 'open';
};
events.onerror = () => { main.dataset.live = 'reconnecting'; };
