//! Iterative-deepening principal-variation search.
//!
//! - Negamax alpha-beta with a null window for all but the first move of a node, a
//!   transposition table, null-move pruning, reverse futility pruning near the leaves and
//!   late-move reductions for quiet moves.
//! - Tafl "checks": a side whose king has an open line wins on the spot if it is to move; an
//!   attacker facing an open line is never left to stand pat (the search extends), and only
//!   blocks or a capture of the king are tried at the horizon.
//! - Quiescence: captures, landings that may take the king, and king moves that open a line.
//! - Scores of won games count the plies to the end, so the shortest win is preferred.
//! - Lazy SMP on more than one thread: helper threads run the same iterative deepening on the
//!   same position, at staggered depths, sharing only the transposition table; the first
//!   thread to finish ends every thread's search, and the deepest completed iteration answers.

use std::sync::Arc;
use std::sync::atomic::Ordering as AtomicOrdering;
use std::time::Instant;

use crate::capture::Captures;
use crate::game::Game;
use crate::movegen;
use crate::moves::Move;
use crate::outcome::Outcome;
use crate::position::Position;
use crate::referee;
use crate::rules::Rules;
use crate::side::{Piece, Side};

use super::clock::{Clock, SmpShared};
use super::eval::{Evaluator, Lines};
use super::limits::SearchLimits;
use super::ordering::{
    CAPTURE, Ordering, ScoredMove, TABLE_MOVE, THREAT, capture_squares, escape_paths,
    king_can_escape, king_capture_squares, lines_towards, paths_to,
};
use super::repetition::RepetitionTracker;
use super::result::SearchResult;
use super::rng::SplitMix;
use super::tt::{Bound, Entry, SharedTable};
use super::{MATE, MATE_BOUND};

const MAX_PLY: usize = 96;
const INFINITY: i32 = MATE + 1;
/// Quiescence plies in which the defenders may look for king moves that open a line.
const QUIET_THREAT_PLIES: i32 = 2;

/// A search engine that keeps its transposition table, killers and history between searches.
pub struct Searcher {
    table: Arc<SharedTable>,
    main: Worker,
    /// The helper threads' own state, kept like the main thread's (made when first needed).
    helpers: Vec<Worker>,
}

/// What one search thread keeps to itself: killers, history and its move lists.
struct Worker {
    ordering: Ordering,
    lists: Vec<Vec<ScoredMove>>,
}

impl Worker {
    fn new() -> Worker {
        Worker {
            ordering: Ordering::new(MAX_PLY),
            lists: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(256)).collect(),
        }
    }
}

/// One search with a fresh table of `limits.table_mib` MiB (deterministic under a node budget
/// on one thread).
pub fn search(game: &Game, limits: &SearchLimits) -> Option<SearchResult> {
    // The table's allocation (tens of milliseconds for 64 MiB) counts against the budget.
    let started = Instant::now();
    Searcher::new(limits.table_mib).search_since(game, limits, started)
}

impl Searcher {
    /// A searcher with its own table of `table_mib` MiB.
    pub fn new(table_mib: usize) -> Searcher {
        Searcher::with_table(Arc::new(SharedTable::new(table_mib)))
    }

    /// A searcher using a table that other searchers may share.
    pub fn with_table(table: Arc<SharedTable>) -> Searcher {
        Searcher {
            table,
            main: Worker::new(),
            helpers: Vec::new(),
        }
    }

    pub fn table(&self) -> &Arc<SharedTable> {
        &self.table
    }

    /// Forgets what earlier searches learnt (for reproducible results).
    pub fn clear(&mut self) {
        self.table.clear();
        self.main.ordering = Ordering::new(MAX_PLY);
        for helper in &mut self.helpers {
            helper.ordering = Ordering::new(MAX_PLY);
        }
    }

    /// The best move of the side to move, or `None` if the game is over.
    pub fn search(&mut self, game: &Game, limits: &SearchLimits) -> Option<SearchResult> {
        self.search_since(game, limits, Instant::now())
    }

    fn search_since(
        &mut self,
        game: &Game,
        limits: &SearchLimits,
        started: Instant,
    ) -> Option<SearchResult> {
        if game.is_over() {
            return None;
        }
        let root = *game.position();
        self.table.new_search();
        let threads = limits.thread_count();
        if threads == 1 {
            let clock = Clock::start_at(limits, started);
            let mut ctx = Context::new(game, limits, &self.table, &mut self.main, clock, (0, 1));
            return ctx.iterate(&root, limits);
        }
        while self.helpers.len() < threads - 1 {
            self.helpers.push(Worker::new());
        }
        let Searcher {
            table,
            main,
            helpers,
        } = self;
        let table: &SharedTable = table;
        let smp = Arc::new(SmpShared::default());
        std::thread::scope(|scope| {
            // A helper the system refuses to start is left out: fewer threads, same answer.
            let handles: Vec<_> = helpers[..threads - 1]
                .iter_mut()
                .enumerate()
                .filter_map(|(i, worker)| {
                    let smp = Arc::clone(&smp);
                    std::thread::Builder::new()
                        .name(format!("search helper {}", i + 1))
                        .spawn_scoped(scope, move || {
                            let clock = Clock::helper(limits, started, Arc::clone(&smp));
                            let mut ctx =
                                Context::new(game, limits, table, worker, clock, (i + 1, threads));
                            let result = ctx.iterate(&root, limits);
                            // A helper ends only when stopped, or when it has proved a forced
                            // result (or run out of plies): the search is then done.
                            smp.done.store(true, AtomicOrdering::Relaxed);
                            (result, ctx.nodes)
                        })
                        .ok()
                })
                .collect();
            let clock = Clock::start_at(limits, started).with_smp(Arc::clone(&smp));
            let mut ctx = Context::new(game, limits, table, main, clock, (0, threads));
            let mut best = ctx.iterate(&root, limits);
            smp.done.store(true, AtomicOrdering::Relaxed);
            let mut nodes = ctx.nodes;
            for handle in handles {
                // A helper that panicked leaves the main thread's answer, which is complete.
                let Ok((result, helper_nodes)) = handle.join() else {
                    continue;
                };
                nodes += helper_nodes;
                // The deepest completed iteration wins, the main thread's on a tie (a
                // helper that went on past a depth limit may answer a deeper one). The weaker
                // levels' random choice is the main thread's alone.
                if let (Some(candidate), Some(current)) = (result, best.as_ref())
                    && limits.random_margin <= 0
                    && candidate.depth > current.depth
                {
                    best = Some(candidate);
                }
            }
            best.map(|mut result| {
                result.nodes = nodes;
                result.elapsed = started.elapsed();
                result
            })
        })
    }
}

struct RootMove {
    mv: Move,
    piece: Piece,
    score: i32,
    /// The score is exact (not only a bound) in the last completed iteration.
    exact: bool,
}

struct Context<'a> {
    rules: &'a Rules,
    eval: Evaluator,
    clock: Clock,
    nodes: u64,
    table: &'a SharedTable,
    ordering: &'a mut Ordering,
    lists: &'a mut Vec<Vec<ScoredMove>>,
    repetition: RepetitionTracker,
    /// 0 for the main thread; helpers are 1, 2, ... of `threads` (see `search_root`).
    thread: usize,
    threads: usize,
}

/// The score of a finished game for the side to move in it, `ply` plies from the root.
#[inline]
fn outcome_score(outcome: &Outcome, to_move: Side, ply: i32) -> i32 {
    match outcome.winner() {
        None => 0,
        Some(winner) if winner == to_move => MATE - ply,
        Some(_) => -(MATE - ply),
    }
}

impl<'a> Context<'a> {
    fn new(
        game: &'a Game,
        limits: &SearchLimits,
        table: &'a SharedTable,
        worker: &'a mut Worker,
        clock: Clock,
        (thread, threads): (usize, usize),
    ) -> Context<'a> {
        let rules = game.rules();
        worker.ordering.age();
        Context {
            rules,
            eval: match limits.weights {
                Some(weights) => Evaluator::with_weights(rules, weights),
                None => Evaluator::new(rules),
            },
            clock,
            nodes: 0,
            table,
            ordering: &mut worker.ordering,
            lists: &mut worker.lists,
            repetition: RepetitionTracker::new(game),
            thread,
            threads,
        }
    }

    /// Copy-make: the position after `mv`, its captures and any game end; counts the node.
    #[inline]
    fn play(
        &mut self,
        position: &Position,
        mv: Move,
        piece: Piece,
    ) -> (Position, Captures, Option<Outcome>) {
        let mut child = *position;
        let mut captures = Captures::default();
        let outcome = referee::apply(self.rules, &mut child, mv, piece, &mut captures);
        self.nodes += 1;
        (child, captures, outcome)
    }

    fn iterate(&mut self, root: &Position, limits: &SearchLimits) -> Option<SearchResult> {
        let mut moves = Vec::new();
        for (from, piece) in root.movers(root.side_to_move()) {
            movegen::for_each_destination(self.rules, root, from, piece, |to| {
                moves.push(RootMove {
                    mv: Move::new(from, to),
                    piece,
                    score: -INFINITY,
                    exact: false,
                });
            });
        }
        if moves.is_empty() {
            return None;
        }
        if moves.iter().any(|m| !limits.excluded.contains(&m.mv)) {
            moves.retain(|m| !limits.excluded.contains(&m.mv));
        }
        // A move that wins at once is played at once, whatever the budget.
        for m in &moves {
            let mut child = *root;
            let mut captures = Captures::default();
            if let Some(outcome) =
                referee::apply(self.rules, &mut child, m.mv, m.piece, &mut captures)
                && outcome.winner() == Some(root.side_to_move())
            {
                return Some(SearchResult {
                    best_move: m.mv,
                    score: MATE - 1,
                    mate_in: Some(1),
                    depth: 1,
                    nodes: moves.len() as u64,
                    elapsed: self.clock.elapsed(),
                    pv: vec![m.mv],
                });
            }
        }
        self.order_root(root, &mut moves);
        // A depth limit bounds the main thread only: helpers go on deeper, so that under a
        // depth limit they are still ahead of it, filling the table, until it is done.
        let depth_limit = if self.thread == 0 { limits.depth } else { None };
        let max_depth = depth_limit
            .unwrap_or(MAX_PLY as u32 - 4)
            .clamp(1, MAX_PLY as u32 - 4);
        // Helpers only fill the table: exact scores within a margin are the main thread's job.
        let margin = if self.thread == 0 {
            limits.random_margin.max(0)
        } else {
            0
        };
        let mut best_index = 0;
        let mut best_score = -INFINITY;
        let mut depth_done = 0;
        for depth in 1..=max_depth as i32 {
            if depth > 1 && !self.clock.may_start_iteration() {
                break;
            }
            // Lazy SMP: a depth another thread has completed is left out.
            if depth < max_depth as i32 && self.clock.completed_elsewhere() >= depth as u32 {
                continue;
            }
            self.clock.start_iteration(depth as u32);
            let (completed, iteration_best) = self.search_root(root, &mut moves, depth, margin);
            if !completed && self.clock.abandoned() {
                // Another thread completed this depth first: on to the next, with the best
                // move it left in the table tried first.
                self.table_move_first(root, &mut moves);
                continue;
            }
            if completed {
                depth_done = depth as u32;
                self.clock.completed(depth_done);
                let best = iteration_best.unwrap_or(0);
                best_score = moves[best].score;
                // Best first, then the others by score: the next iteration's order.
                let chosen = moves.remove(best);
                moves.insert(0, chosen);
                moves[1..].sort_by_key(|m| std::cmp::Reverse(m.score));
                best_index = 0;
                if best_score.abs() > MATE_BOUND && margin == 0 {
                    break;
                }
            } else {
                // A better first move found in the unfinished iteration is still better.
                if let Some(i) = iteration_best
                    && moves[i].score > best_score
                {
                    best_index = i;
                    best_score = moves[i].score;
                }
                break;
            }
        }
        if depth_done == 0 && best_score == -INFINITY {
            // Not even one iteration: the ordering's first move is the best guess.
            best_score = self.eval.evaluate(self.rules, root);
        }
        if margin > 0 && depth_done > 0 && best_score.abs() < MATE_BOUND {
            let candidates: Vec<usize> = (0..moves.len())
                .filter(|&i| moves[i].exact && moves[i].score >= best_score - margin)
                .collect();
            if !candidates.is_empty() {
                let mut rng = SplitMix::new(limits.seed ^ root.hash());
                best_index = candidates[rng.below(candidates.len())];
            }
        }
        let chosen = &moves[best_index];
        let score = if best_index == 0 {
            best_score
        } else {
            chosen.score.max(-INFINITY + 1)
        };
        let pv = self.principal_variation(root, chosen.mv, chosen.piece, depth_done.max(1));
        let mate_in = (score.abs() > MATE_BOUND).then(|| {
            let plies = MATE - score.abs();
            if score > 0 { plies } else { -plies }
        });
        Some(SearchResult {
            best_move: chosen.mv,
            score,
            mate_in,
            depth: depth_done,
            nodes: self.nodes,
            elapsed: self.clock.elapsed(),
            pv,
        })
    }

    /// Brings the table's move for the root (another thread's latest best) to the front.
    fn table_move_first(&self, root: &Position, moves: &mut [RootMove]) {
        let Some(best) = self.table.probe(root.hash(), 0).and_then(|e| e.mv) else {
            return;
        };
        if let Some(i) = moves.iter().position(|m| m.mv == best) {
            moves[..=i].rotate_right(1);
        }
    }

    /// Table move, then captures and threats, then history.
    fn order_root(&mut self, root: &Position, moves: &mut [RootMove]) {
        let entry = self.table.probe(root.hash(), 0);
        let captures = capture_squares(self.rules, root);
        for m in moves.iter_mut() {
            m.score = if entry.is_some_and(|e| e.mv == Some(m.mv)) {
                TABLE_MOVE
            } else if captures.contains(m.mv.to) {
                CAPTURE
            } else {
                self.ordering.history(root.side_to_move(), m.mv)
            };
        }
        moves.sort_by_key(|m| std::cmp::Reverse(m.score));
    }

    /// One iteration over the root moves. Returns whether it completed, and the index of the
    /// best move it established.
    fn search_root(
        &mut self,
        root: &Position,
        moves: &mut [RootMove],
        depth: i32,
        margin: i32,
    ) -> (bool, Option<usize>) {
        let side = root.side_to_move();
        let mut alpha = -INFINITY;
        let beta = INFINITY;
        let mut best: Option<usize> = None;
        // Lazy SMP: after the first move (which sets alpha), helper k of n starts k/n of the
        // way down the list, so that threads on the same depth search different moves first
        // and each finds the others' refutations in the table when it gets there.
        let count = moves.len();
        let offset = if self.thread == 0 || count < 3 {
            0
        } else {
            self.thread * (count - 1) / self.threads.max(1)
        };
        for k in 0..count {
            let i = if k == 0 || offset == 0 {
                k
            } else {
                1 + (k - 1 + offset) % (count - 1)
            };
            let (mv, piece) = (moves[i].mv, moves[i].piece);
            let (child, _, outcome) = self.play(root, mv, piece);
            let outcome = outcome.or_else(|| self.repetition.outcome(child.hash(), side));
            let (score, exact) = match outcome {
                Some(outcome) => (-outcome_score(&outcome, child.side_to_move(), 1), true),
                None => {
                    // Moves within the random margin of the best get exact scores.
                    let floor = if best.is_none() {
                        -INFINITY
                    } else {
                        (alpha - margin).max(-INFINITY)
                    };
                    self.repetition.push(child.hash());
                    let mut score = if best.is_none() {
                        -self.negamax(&child, depth - 1, -beta, -floor, 1, true, true)
                    } else {
                        -self.negamax(&child, depth - 1, -floor - 1, -floor, 1, false, true)
                    };
                    if best.is_some() && score > floor && !self.clock.stopped() {
                        score = -self.negamax(&child, depth - 1, -beta, -floor, 1, true, true);
                    }
                    self.repetition.pop();
                    (score, score > floor)
                }
            };
            if self.clock.stopped() {
                return (false, best);
            }
            moves[i].score = score;
            moves[i].exact = exact;
            if best.is_none() || score > alpha {
                alpha = alpha.max(score);
                best = Some(i);
                self.table.store(
                    root.hash(),
                    0,
                    Entry {
                        mv: Some(mv),
                        score,
                        depth,
                        bound: Bound::Lower,
                    },
                );
            }
        }
        (true, best)
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        position: &Position,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: i32,
        is_pv: bool,
        allow_null: bool,
    ) -> i32 {
        if self.clock.must_stop(self.nodes) {
            return 0;
        }
        let side = position.side_to_move();
        // A king with an open line, his side to move: won next move.
        if side == Side::Defenders && king_can_escape(self.rules, position) {
            return MATE - ply - 1;
        }
        alpha = alpha.max(-(MATE - ply));
        beta = beta.min(MATE - ply - 1);
        if alpha >= beta {
            return alpha;
        }
        let threatened = match side {
            Side::Attackers => king_can_escape(self.rules, position),
            Side::Defenders => position.king_awaits_rescue(),
        };
        if depth <= 0 {
            if !threatened || ply as usize >= MAX_PLY - 2 {
                return self.quiesce(position, alpha, beta, ply, 0);
            }
            depth = 1;
        }
        if ply as usize >= MAX_PLY - 2 {
            return self.eval.evaluate(self.rules, position);
        }
        let key = position.hash();
        let entry = self.table.probe(key, ply);
        let table_move = entry.and_then(|e| e.mv);
        if let Some(e) = entry
            && !is_pv
            && e.depth >= depth
        {
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => e.score >= beta,
                Bound::Upper => e.score <= alpha,
            };
            if cut {
                return e.score;
            }
        }
        // A king one move from a square where no single move stops him (beside a corner, or
        // on two open lines): the attackers must see to it, so none of the pruning below that
        // trusts the static evaluation, and their answers are not reduced.
        let lines = self.eval.lines(self.rules, position);
        let decisive = if side == Side::Attackers && !threatened {
            self.eval.decisive_routes(self.rules, position, &lines)
        } else {
            crate::bitboard::Bitboard::EMPTY
        };
        let pressed = threatened || !decisive.is_empty();
        if !is_pv && !pressed && beta.abs() < MATE_BOUND {
            let static_eval = self.eval.evaluate_with(self.rules, position, &lines);
            // Reverse futility: far above beta near the leaves.
            if depth <= 2 && static_eval - 150 * depth >= beta {
                return static_eval;
            }
            if allow_null && depth >= 3 && static_eval >= beta {
                let mut null = *position;
                null.set_side_to_move(side.opponent());
                let reduction = 2 + depth / 4;
                let score = -self.negamax(
                    &null,
                    depth - 1 - reduction,
                    -beta,
                    -beta + 1,
                    ply + 1,
                    false,
                    false,
                );
                if self.clock.stopped() {
                    return 0;
                }
                if score >= beta && score < MATE_BOUND {
                    return beta;
                }
            }
        }

        let mut list = std::mem::take(&mut self.lists[ply as usize]);
        self.generate(
            position,
            &mut list,
            table_move,
            ply as usize,
            (threatened, &decisive),
            &lines,
        );
        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        for i in 0..list.len() {
            pick_best(&mut list, i);
            let ScoredMove {
                mv,
                piece,
                score: order,
            } = list[i];
            let (child, captures, outcome) = self.play(position, mv, piece);
            let outcome = outcome.or_else(|| self.repetition.outcome(child.hash(), side));
            let score = match outcome {
                Some(outcome) => -outcome_score(&outcome, child.side_to_move(), ply + 1),
                None => {
                    self.repetition.push(child.hash());
                    let quiet = order < THREAT && captures.is_empty();
                    let score = if i == 0 {
                        -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, is_pv, true)
                    } else {
                        let reduction = if quiet && !pressed && depth >= 3 && i >= 3 {
                            1 + i32::from(depth >= 6 && i >= 12)
                        } else {
                            0
                        };
                        let mut s = -self.negamax(
                            &child,
                            depth - 1 - reduction,
                            -alpha - 1,
                            -alpha,
                            ply + 1,
                            false,
                            true,
                        );
                        if s > alpha && reduction > 0 {
                            s = -self.negamax(
                                &child,
                                depth - 1,
                                -alpha - 1,
                                -alpha,
                                ply + 1,
                                false,
                                true,
                            );
                        }
                        if s > alpha && s < beta && is_pv {
                            s = -self.negamax(
                                &child,
                                depth - 1,
                                -beta,
                                -alpha,
                                ply + 1,
                                true,
                                true,
                            );
                        }
                        s
                    };
                    self.repetition.pop();
                    score
                }
            };
            if self.clock.stopped() {
                self.lists[ply as usize] = list;
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        if order < THREAT && captures.is_empty() {
                            self.ordering.reward(side, mv, ply as usize, depth);
                        }
                        break;
                    }
                }
            }
        }
        self.lists[ply as usize] = list;
        if best_move.is_none() {
            // No legal move: the side to move loses.
            return -(MATE - ply);
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.table.store(
            key,
            ply,
            Entry {
                mv: best_move,
                score: best_score,
                depth,
                bound,
            },
        );
        best_score
    }

    /// Every move of the side to move, scored for ordering.
    fn generate(
        &self,
        position: &Position,
        list: &mut Vec<ScoredMove>,
        table_move: Option<Move>,
        ply: usize,
        (threatened, decisive): (bool, &crate::bitboard::Bitboard),
        lines: &Lines,
    ) {
        list.clear();
        let side = position.side_to_move();
        let captures = capture_squares(self.rules, position);
        let (threat_squares, threat_piece) = match side {
            Side::Attackers => {
                let mut squares = king_capture_squares(self.rules, position);
                if let Some(king) = position.king() {
                    if threatened {
                        squares = squares.union(&escape_paths(self.rules, position, king));
                    }
                    if !decisive.is_empty() {
                        squares = squares.union(&paths_to(self.rules, position, king, decisive));
                    }
                }
                (squares, Piece::Attacker)
            }
            Side::Defenders => {
                // King moves onto an open line, and those that threaten to reach a decisive
                // square next (g3-b3 with b1 and b11 both in reach): never reduced.
                let decisive = self.eval.decisive_from(lines);
                let squares = if decisive.is_empty() {
                    lines.open
                } else {
                    lines
                        .open
                        .union(&lines_towards(self.rules, position, &decisive).0)
                };
                (squares, Piece::King)
            }
        };
        let killers = self.ordering.killers(ply);
        for (from, piece) in position.movers(side) {
            movegen::for_each_destination(self.rules, position, from, piece, |to| {
                let mv = Move::new(from, to);
                let score = if Some(mv) == table_move {
                    TABLE_MOVE
                } else if captures.contains(to) {
                    CAPTURE
                } else if piece == threat_piece && threat_squares.contains(to) {
                    THREAT
                } else if killers[0] == Some(mv) {
                    THREAT - 1
                } else if killers[1] == Some(mv) {
                    THREAT - 2
                } else {
                    self.ordering.history(side, mv).min(THREAT - 3)
                };
                list.push(ScoredMove { mv, piece, score });
            });
        }
    }

    /// Captures and threats only, standing pat on the evaluation unless a threat must be met.
    fn quiesce(
        &mut self,
        position: &Position,
        mut alpha: i32,
        beta: i32,
        ply: i32,
        qply: i32,
    ) -> i32 {
        if self.clock.must_stop(self.nodes) {
            return 0;
        }
        let side = position.side_to_move();
        let king_open = king_can_escape(self.rules, position);
        if side == Side::Defenders && king_open {
            return MATE - ply - 1;
        }
        // Attackers facing an open line must block (or take the king); a captured king must
        // be rescued: no standing pat then.
        let must_answer = (side == Side::Attackers && king_open)
            || (side == Side::Defenders && position.king_awaits_rescue());
        // The attackers facing a king one move from a decisive square: standing pat is worth
        // no more than letting the defenders move (a null move), which shows whether the
        // threat is real (a king who would be taken there is no threat).
        let lines = self.eval.lines(self.rules, position);
        let decisive = if side == Side::Attackers && !king_open && ply as usize + 4 < MAX_PLY {
            self.eval.decisive_routes(self.rules, position, &lines)
        } else {
            crate::bitboard::Bitboard::EMPTY
        };
        let mut best = -INFINITY;
        if !must_answer {
            let mut stand = self.eval.evaluate_with(self.rules, position, &lines);
            // Only worth asking when the evaluation alone would stand pat or raise alpha.
            if !decisive.is_empty() && stand > alpha {
                let mut null = *position;
                null.set_side_to_move(side.opponent());
                let threat = -self.quiesce(&null, -beta, -alpha, ply + 1, qply + 1);
                if self.clock.stopped() {
                    return 0;
                }
                stand = stand.min(threat);
            }
            if stand >= beta || ply as usize >= MAX_PLY - 2 {
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
        } else if ply as usize >= MAX_PLY - 2 {
            return self.eval.evaluate_with(self.rules, position, &lines);
        }
        let captures = capture_squares(self.rules, position);
        let wanted = match side {
            Side::Attackers => {
                let mut wanted = captures.union(&king_capture_squares(self.rules, position));
                if let Some(king) = position.king() {
                    if king_open {
                        wanted = wanted.union(&escape_paths(self.rules, position, king));
                    }
                    if !decisive.is_empty() {
                        wanted = wanted.union(&paths_to(self.rules, position, king, &decisive));
                    }
                }
                wanted
            }
            Side::Defenders => captures,
        };
        // The defenders' king moves: in the first plies onto open lines and onto forks (two
        // decisive squares in reach, no single move stops both); at any ply onto a decisive
        // square (the attackers must then answer at once or lose, so such a line ends within
        // a few plies).
        let open = if side == Side::Defenders && !position.king_awaits_rescue() {
            let decisive = self.eval.decisive_from(&lines);
            if qply >= QUIET_THREAT_PLIES {
                decisive
            } else if decisive.is_empty() {
                lines.open
            } else {
                lines
                    .open
                    .union(&lines_towards(self.rules, position, &decisive).1)
            }
        } else {
            crate::bitboard::Bitboard::EMPTY
        };
        let rescue = side == Side::Defenders && position.king_awaits_rescue();
        let mut list = std::mem::take(&mut self.lists[ply as usize]);
        list.clear();
        if rescue {
            for (from, piece) in position.movers(side) {
                movegen::for_each_destination(self.rules, position, from, piece, |to| {
                    list.push(ScoredMove {
                        mv: Move::new(from, to),
                        piece,
                        score: if captures.contains(to) {
                            CAPTURE
                        } else {
                            THREAT
                        },
                    });
                });
            }
        } else {
            // Only moves onto the wanted squares: found by looking outwards from each.
            let targets = wanted.union(&captures);
            moves_onto(self.rules, position, &targets, |mv, piece| {
                let score = if captures.contains(mv.to) {
                    CAPTURE
                } else {
                    THREAT
                };
                list.push(ScoredMove { mv, piece, score });
            });
            if let Some(king) = position.king()
                && !open.is_empty()
            {
                movegen::for_each_destination(self.rules, position, king, Piece::King, |to| {
                    if open.contains(to) && !targets.contains(to) {
                        list.push(ScoredMove {
                            mv: Move::new(king, to),
                            piece: Piece::King,
                            score: THREAT,
                        });
                    }
                });
            }
        }
        for i in 0..list.len() {
            pick_best(&mut list, i);
            let ScoredMove {
                mv,
                piece,
                score: order,
            } = list[i];
            let (child, taken, outcome) = self.play(position, mv, piece);
            let score = match outcome {
                Some(outcome) => -outcome_score(&outcome, child.side_to_move(), ply + 1),
                None => {
                    if order == CAPTURE && taken.is_empty() && !must_answer && piece != Piece::King
                    {
                        // The quick test was wrong: not a capture after all.
                        continue;
                    }
                    -self.quiesce(&child, -beta, -alpha, ply + 1, qply + 1)
                }
            };
            if self.clock.stopped() {
                self.lists[ply as usize] = list;
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.lists[ply as usize] = list;
        if best == -INFINITY {
            // A threat with no answer among the moves tried: lost next move.
            return -(MATE - ply - 1);
        }
        best
    }

    /// The best move followed by the table's moves, as far as they stay legal and the game goes on.
    fn principal_variation(
        &self,
        root: &Position,
        mv: Move,
        piece: Piece,
        depth: u32,
    ) -> Vec<Move> {
        let mut pv = vec![mv];
        let mut position = *root;
        let mut captures = Captures::default();
        if referee::apply(self.rules, &mut position, mv, piece, &mut captures).is_some() {
            return pv;
        }
        let mut seen = vec![root.hash(), position.hash()];
        while pv.len() < depth as usize {
            let Some(next) = self.table.probe(position.hash(), 0).and_then(|e| e.mv) else {
                break;
            };
            let Ok(piece) = movegen::check_move(self.rules, &position, next) else {
                break;
            };
            pv.push(next);
            let mut captures = Captures::default();
            if referee::apply(self.rules, &mut position, next, piece, &mut captures).is_some()
                || seen.contains(&position.hash())
            {
                break;
            }
            seen.push(position.hash());
        }
        pv
    }
}

/// Calls `f` with every legal move of the side to move onto one of the `targets` squares.
fn moves_onto(
    rules: &Rules,
    position: &Position,
    targets: &crate::bitboard::Bitboard,
    mut f: impl FnMut(Move, Piece),
) {
    let dim = position.dim();
    let side = position.side_to_move();
    for to in targets.squares() {
        if position.is_occupied(to) {
            continue;
        }
        for dir in crate::square::Direction::ALL {
            let mut sq = to;
            while let Some(next) = sq.step(dir, dim) {
                sq = next;
                if position.is_occupied(sq) {
                    break;
                }
            }
            if sq == to {
                continue;
            }
            if let Some(piece) = position.piece_at(sq)
                && piece.side() == side
            {
                let mv = Move::new(sq, to);
                if movegen::check_move(rules, position, mv).is_ok() {
                    f(mv, piece);
                }
            }
        }
    }
}

/// Selection sort step: brings the best-scored remaining move to `i`.
#[inline]
fn pick_best(list: &mut [ScoredMove], i: usize) {
    let mut best = i;
    for j in i + 1..list.len() {
        if list[j].score > list[best].score {
            best = j;
        }
    }
    list.swap(i, best);
}
