-- Private stays private (issue 44): the public read models are fed only by public games
-- played here. The explorer's and the balance's counts are made again from those games (the
-- migration's Rust counts them after this), the engine's cache of the explorer's positions is
-- emptied (a position searched only because a private game reached it says that one did), and
-- the puzzles mined from private games are deleted with their tries (the solvers' puzzle
-- ratings keep what those tries changed).
DELETE FROM explorer_moves;
DELETE FROM explorer_positions;
DELETE FROM explorer_balance;
DELETE FROM explorer_evaluations;
DELETE FROM puzzle_attempts
    WHERE puzzle_id IN (SELECT p.id FROM puzzles p JOIN games g ON g.id = p.game_id
                        WHERE g.private = TRUE);
DELETE FROM puzzles WHERE game_id IN (SELECT id FROM games WHERE private = TRUE);
