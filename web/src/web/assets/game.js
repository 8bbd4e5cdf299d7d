// The game page: move by clicking or dragging (legal destinations shown), or by typing in the
// move box; the opponent's moves arrive live (Server-Sent Events); step through the moves with
// the buttons, the arrow keys, a click on a move or on the analysis chart; flip the board; ask
// for a computer analysis, whose panel comes back live when it is done. The server draws every
// board and the chart: this script only asks for the fragment of a ply (or the panel) and swaps
// it in.
import { localTimes } from './common.js';
// The board by keyboard alone (its own file).
import './board_keys.js';
// The picked piece and its destinations, drawn on the board (shared with the other board page).
import { markSquares } from './board_hints.js';

const main = document.querySelector('[data-game]');
const game = main.dataset.game;
const csrf = document.querySelector('meta[name=csrf]')?.content ?? '';
const area = document.getElementById('board-area');
const error = document.getElementById('move-error');
let flip = false;
/** The boards' theme: the page's `?theme=`, else the system's (a dark page gets dark boards). */
const theme = new URLSearchParams(window.location.search).get('theme')
  ?? (window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : null);
/** How boards are drawn here, as a fragment's query. */
function look() {
  const q = new URLSearchParams();
  if (flip) q.set('flip', '1');
  if (theme) q.set('theme', theme);
  return q;
}
let picked = null;
let dragFrom = null;
const live = () => document.getElementById('live');
/** The ply shown while replaying; null follows the game live. */
let replayPly = live().dataset.ply === live().dataset.lastPly ? null : +live().dataset.ply;
const legal = () => {
  try { return JSON.parse(live().dataset.legal || '[]'); } catch { return []; }
};

async function show(ply) {
  const q = look();
  if (ply !== null) q.set('ply', ply);
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
  // A game that ended while the page was open takes no more moves.
  document.getElementById('move-box')?.toggleAttribute('hidden', live().dataset.over === 'true');
  document.dispatchEvent(new CustomEvent('board-shown'));
}

const mark = (names, cls) => markSquares(live(), names, cls);

function pick(name) {
  const hints = live().querySelector('g.hints');
  if (hints) hints.replaceChildren();
  const moves = legal().filter((m) => m.startsWith(`${name}-`));
  picked = moves.length && live().dataset.playing === 'true' ? name : null;
  // A player who may not move now is told why, next to the board, instead of nothing.
  if (!picked && name && live().dataset.wait) error.textContent = live().dataset.wait;
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
  const r = await fetch(`/games/${game}/move?${look()}`, {
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
    error.scrollIntoView({ block: 'nearest' });
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

function goTo(ply) {
  const last = +live().dataset.lastPly;
  replayPly = ply >= last ? null : Math.max(0, ply);
  show(replayPly);
}

function step(to) {
  const last = +live().dataset.lastPly;
  const at = +live().dataset.ply;
  goTo({ first: 0, prev: at - 1, next: at + 1, last }[to]);
}

/** The ply under a click on the chart's plot. */
function plyAt(svg, e) {
  const p = svg.createSVGPoint();
  p.x = e.clientX;
  p.y = e.clientY;
  const at = p.matrixTransform(svg.getScreenCTM().inverse());
  return Math.min(+svg.dataset.plies, Math.round((at.x - svg.dataset.x0) / svg.dataset.dx));
}

main.addEventListener('click', (e) => {
  const b = e.target.closest('button[data-step]');
  if (b) step(b.dataset.step);
  if (e.target.closest('#flip')) { flip = !flip; show(replayPly); }
  const move = e.target.closest('ol.moves a');
  if (move) { e.preventDefault(); goTo(+move.dataset.ply); }
  const dot = e.target.closest('#analysis-chart .dot');
  if (dot) goTo(+dot.dataset.ply);
  else if (e.target.closest('#analysis-chart .hit')) goTo(plyAt(e.target.closest('svg'), e));
});
document.addEventListener('keydown', (e) => {
  const dot = e.target.closest?.('#analysis-chart .dot');
  if (dot && (e.key === 'Enter' || e.key === ' ')) { e.preventDefault(); goTo(+dot.dataset.ply); return; }
  if (e.target.closest('input, textarea, select') || e.altKey || e.ctrlKey || e.metaKey) return;
  const to = { ArrowLeft: 'prev', ArrowRight: 'next', Home: 'first', End: 'last' }[e.key];
  if (to) { e.preventDefault(); step(to); }
});

// The analysis: the chart's cursor follows the ply shown; the panel is swapped for the server's.
function placeCursor() {
  const svg = document.getElementById('analysis-chart');
  const cursor = document.getElementById('chart-cursor');
  if (!svg || !cursor) return;
  const x = (+svg.dataset.x0 + Math.min(+live().dataset.ply, +svg.dataset.plies) * svg.dataset.dx).toFixed(1);
  cursor.setAttribute('x1', x);
  cursor.setAttribute('x2', x);
}
document.addEventListener('board-shown', placeCursor);
placeCursor();

function swapAnalysis(html) {
  const t = document.createElement('template');
  t.innerHTML = html.trim();
  document.getElementById('analysis')?.replaceWith(t.content.firstElementChild);
  placeCursor();
}
async function showAnalysis() {
  const r = await fetch(`/games/${game}/analysis?${look()}`);
  if (r.ok) swapAnalysis(await r.text());
}
const analysisPending = () => document.querySelector('#analysis[data-status=queued], #analysis[data-status=running]');
// What the panel offers changes when the game ends (anyone signed in may then ask) and, after
// an analysis of a game against the AI, when the game goes on.
const offerChanges = (kind) => csrf && (kind === 'game_ended'
  || (kind === 'move_played' && document.querySelector('#analysis[data-status=done]')));

main.addEventListener('submit', async (e) => {
  if (e.target.id !== 'analysis-form' || e.defaultPrevented) return;
  e.preventDefault();
  document.getElementById('analysis-error').textContent = '';
  const action = new URL(e.target.action, window.location.href);
  for (const [k, v] of look()) action.searchParams.set(k, v);
  const r = await fetch(action, {
    method: 'POST', body: new URLSearchParams(new FormData(e.target)), headers: { 'x-csrf-token': csrf },
  });
  if (r.redirected) { window.location.reload(); return; }
  const answer = await r.text();
  if (r.ok) swapAnalysis(answer);
  else document.getElementById('analysis-error').textContent = answer;
});

// Live: any event of this game redraws the current position (unless replaying); a finished
// analysis redraws its panel and the marks of the moves.
const events = new EventSource(`/games/${game}/live`);
events.onmessage = (e) => {
  if (e.data === 'analysis_done' || e.data === 'resync') {
    showAnalysis();
    show(replayPly);
    return;
  }
  if (offerChanges(e.data)) showAnalysis();
  if (replayPly === null) show(null);
};
// Whatever happened before the stream opened (or while it reconnected) is caught up at once.
events.onopen = async () => {
  if (analysisPending()) showAnalysis();
  await show(replayPly);
  main.dataset.live = 'open';
};
events.onerror = () => { main.dataset.live = 'reconnecting'; };

// A waiting analysis moves up the queue, and starts, as other games' analyses end, which this
// game's stream does not carry: while it waits or runs, its panel is asked for again now and then.
const PENDING_REFRESH_MS = 4000;
(function refreshPending() {
  setTimeout(async () => {
    if (analysisPending() && !document.hidden) await showAnalysis().catch(() => {});
    refreshPending();
  }, PENDING_REFRESH_MS);
})();
