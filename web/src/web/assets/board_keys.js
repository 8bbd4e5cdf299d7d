// The board by keyboard alone: the board takes the focus (Tab to it), the arrow keys move a
// cursor from square to square as the board is drawn (flipped too), and Enter or Space acts on
// the square under it as a click does: the first picks a piece and shows its destinations, the
// second plays the move. A line for screen readers says where the cursor is and what is there.
// The board is redrawn after every move: the cursor and the focus are put back on the new one.
const area = document.getElementById('board-area');
const board = () => area?.querySelector('svg.board');
let cursor = null;
let active = false;
let said = null; // the screen readers' line

function note(id, text, live) {
  const p = document.createElement('p');
  p.className = 'sr';
  p.id = id;
  p.textContent = text;
  if (live) p.setAttribute('aria-live', 'polite');
  area.append(p);
  return p;
}

function firstSquare() {
  let legal = [];
  try { legal = JSON.parse(document.getElementById('live')?.dataset.legal || '[]'); } catch { legal = []; }
  if (legal.length) return legal[0].split('-')[0];
  return board().querySelector('g.piece.king')?.dataset.at || board().querySelector('rect[data-sq]')?.dataset.sq;
}

function draw() {
  const svg = board();
  const sq = svg?.querySelector(`rect[data-sq="${cursor}"]`);
  svg?.querySelector('rect.key-cursor')?.remove();
  if (!sq) return;
  const mark = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
  for (const a of ['x', 'y', 'width', 'height']) mark.setAttribute(a, sq.getAttribute(a));
  mark.setAttribute('class', 'key-cursor');
  mark.setAttribute('pointer-events', 'none');
  svg.append(mark);
  area.dataset.cursor = cursor;
  const piece = svg.querySelector(`g.piece[data-at="${cursor}"]`);
  const what = piece ? [...piece.classList].find((c) => c !== 'piece') : 'empty';
  const target = svg.querySelector(`g.hints .dest[data-hint="${cursor}"]`) ? ', a destination' : '';
  said.textContent = `${cursor}: ${what}${target}`;
}

function prepare() {
  const svg = board();
  if (!svg) return;
  svg.setAttribute('tabindex', '0');
  svg.setAttribute('aria-describedby', 'board-keys');
  svg.setAttribute('aria-keyshortcuts', 'ArrowUp ArrowDown ArrowLeft ArrowRight Enter Space');
  if (!active) return;
  if (!svg.querySelector(`rect[data-sq="${cursor}"]`)) cursor = firstSquare();
  draw();
  if (!document.activeElement || document.activeElement === document.body) svg.focus();
}

/** The square `dx` columns and `dy` rows away on the screen, if there is one. */
function neighbour(dx, dy) {
  const sq = board().querySelector(`rect[data-sq="${cursor}"]`);
  if (!sq) return cursor;
  const w = +sq.getAttribute('width');
  const x = +sq.getAttribute('x') + dx * w;
  const y = +sq.getAttribute('y') + dy * w;
  return board().querySelector(`rect[data-sq][x="${x}"][y="${y}"]`)?.dataset.sq ?? cursor;
}

function act() {
  const sq = board().querySelector(`rect[data-sq="${cursor}"]`);
  if (!sq) return;
  // As a click: game.js picks on pointerdown; the pointerup, at no square, ends no drag.
  sq.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
  sq.dispatchEvent(new PointerEvent('pointerup', { bubbles: true, clientX: -1, clientY: -1 }));
  draw();
}

const STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

if (area) {
  note('board-keys', 'On the board: the arrow keys move from square to square; Enter or Space picks the piece there, then its destination.', false);
  said = note('board-cursor', '', true);
  area.addEventListener('keydown', (e) => {
    if (e.target !== board() || e.altKey || e.ctrlKey || e.metaKey) return;
    const step = STEPS[e.key];
    if (!step && e.key !== 'Enter' && e.key !== ' ') return;
    // The page's own arrow keys replay the moves: not while the board has the focus.
    e.preventDefault();
    e.stopPropagation();
    if (!active || !cursor) { active = true; cursor ??= firstSquare(); }
    if (step) { cursor = neighbour(...step); draw(); } else act();
  });
  area.addEventListener('focusin', (e) => { if (e.target === board()) { active = true; cursor ??= firstSquare(); draw(); } });
  area.addEventListener('pointerdown', (e) => { if (e.isTrusted) active = false; });
  document.addEventListener('board-shown', prepare);
  prepare();
}
