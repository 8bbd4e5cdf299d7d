// The hints drawn on a server-drawn board (`#live`'s svg): the picked piece's square and its
// legal destinations, in the board's `g.hints` layer. Shared by the game page and the
// analysis board.

/** Marks the squares `names` of `live`'s board: `picked` (a square's frame) or `dest` (a dot). */
export function markSquares(live, names, cls) {
  const hints = live.querySelector('g.hints');
  for (const name of names) {
    const sq = live.querySelector(`rect[data-sq="${name}"]`);
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
