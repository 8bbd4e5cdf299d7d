// The puzzle page: a click on one of the solver's pieces, then on where it goes, sends the try
// through the page's move form (the form itself, with its list of moves, is the way without a
// script). The legal moves are the form's choices; a click elsewhere picks again.
import { markSquares } from './board_hints.js';

const board = document.getElementById('puzzle-board');
const form = document.getElementById('puzzle-move');
const choice = document.getElementById('puzzle-move-choice');

if (board && form && choice) {
  const legal = [...choice.options].map((o) => o.value);
  let picked = null;

  const pick = (name) => {
    board.querySelector('g.hints')?.replaceChildren();
    const moves = legal.filter((m) => m.startsWith(`${name}-`));
    picked = moves.length ? name : null;
    board.dataset.picked = picked ?? '';
    if (picked) {
      markSquares(board, [name], 'picked');
      markSquares(board, moves.map((m) => m.split('-')[1]), 'dest');
    }
  };

  board.addEventListener('pointerdown', (e) => {
    const sq = e.target.closest('rect[data-sq]');
    if (!sq) return;
    const mv = `${picked}-${sq.dataset.sq}`;
    if (picked && legal.includes(mv)) {
      choice.value = mv;
      form.requestSubmit();
    } else {
      pick(sq.dataset.sq);
    }
  });
}
