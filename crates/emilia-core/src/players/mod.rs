//! Built-in baseline players: the opponents that measure Emilia without any other program.
//!
//! `random` and `greedy` are the floor. The four classic players (`squares`, `quadrant`,
//! `kukreja`, `phased`) reproduce typical student and hobby programs: each is a minimax or
//! alpha-beta searcher with the hand-made evaluation and weights of its write-up.
//!
//! | player | board sizes | search |
//! |---|---|---|
//! | `random` | 6, 8, 10, 12 | uniform over legal moves |
//! | `greedy` | 6, 8, 10, 12 | most discs flipped, ties at random |
//! | `squares` | 8 (its square table is 8x8) | alpha-beta, fixed depth (default 5) |
//! | `quadrant` | 8 (its quadrant table is 4x4) | plain minimax, deepening while time allows |
//! | `kukreja` | 6, 8, 10, 12 (no per-size weights) | alpha-beta, depth up to 6 |
//! | `phased` | 6, 8, 10, 12 (weights per size) | alpha-beta, deepening, transposition table |
//!
//! On a size a player does not support it plays a random legal move and logs a warning;
//! front-ends should refuse such a board first (see [`BaselinePlayer::supports`]).

mod features;
mod greedy;
mod kukreja;
mod phased;
mod quadrant;
mod random;
mod search;
mod squares;

use std::time::Duration;

use crate::platform::Instant;

use crate::board::{Move, Position};
use crate::rng::Rng;
use crate::search::time::{self, Margins};
use crate::search::Limits;

pub(crate) use greedy::Greedy;
pub(crate) use kukreja::Kukreja;
pub(crate) use phased::Phased;
pub(crate) use quadrant::Quadrant;
pub(crate) use random::RandomPlayer;
pub(crate) use squares::Squares;

/// Names of the baseline players, as `setoption player NAME` and `--player NAME` take them.
pub(crate) const NAMES: [&str; 6] = [
    "random", "greedy", "squares", "quadrant", "kukreja", "phased",
];

/// The move a baseline player chose, with what its search saw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Choice {
    /// The move; `Move::Pass` when the mover has no legal move.
    pub(crate) mv: Move,
    /// The player's own evaluation for the mover, in its own units.
    pub(crate) score: i32,
    /// Depth of the last finished search iteration, in plies (0 for players that do not
    /// search).
    pub(crate) depth: u32,
    /// Positions visited.
    pub(crate) nodes: u64,
}

/// A baseline player: picks a move for the side to move within the limits.
pub(crate) trait BaselinePlayer: Send {
    /// The player's name, one of [`NAMES`].
    fn name(&self) -> &'static str;
    /// Whether the player knows how to play on a board of side `size`.
    fn supports(&self, size: usize) -> bool;
    /// Picks a move for the side to move of `position`.
    fn choose(&mut self, position: &Position, limits: &Limits) -> Choice;
}

/// Creates the baseline player `name`; `seed` makes random choices repeatable.
pub(crate) fn create(name: &str, seed: u64) -> Result<Box<dyn BaselinePlayer>, String> {
    Ok(match name.to_ascii_lowercase().as_str() {
        "random" => Box::new(RandomPlayer::new(seed)),
        "greedy" => Box::new(Greedy::new(seed)),
        "squares" => Box::new(Squares::new(seed)),
        "quadrant" => Box::new(Quadrant::new(seed)),
        "kukreja" => Box::new(Kukreja::new(seed)),
        "phased" => Box::new(Phased::new(seed)),
        _ => {
            return Err(format!(
                "unknown player '{name}': choose emilia or one of {}",
                NAMES.join(", ")
            ))
        }
    })
}

/// When a player's search must stop: the target of the time manager's plan for `limits`
/// (players do not decide when to start an iteration, so they stop at the target and play
/// the last finished one), the hard deadline of a fixed move time, or `default` from now
/// when no limit bounds the time.
pub(crate) fn deadline(position: &Position, limits: &Limits, default: Duration) -> Instant {
    let (_, _, empties) = position.board.counts();
    let plan = time::plan(limits, empties, position.size(), &Margins::DEFAULT);
    let budget = plan.soft.or(plan.hard).unwrap_or(default);
    let now = Instant::now();
    now.checked_add(budget)
        .unwrap_or(now + Duration::from_secs(86_400))
}

/// A random legal move, for positions a player cannot evaluate.
pub(crate) fn random_move(position: &Position, rng: &mut Rng) -> Choice {
    let moves = position.legal_moves();
    Choice {
        mv: if moves.is_empty() {
            Move::Pass
        } else {
            moves[rng.below(moves.len())]
        },
        score: 0,
        depth: 0,
        nodes: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Color, SIZES};

    /// Plays one whole game between two players from the start, checks every move, and
    /// returns Black's final margin.
    fn play_game(
        black: &mut dyn BaselinePlayer,
        white: &mut dyn BaselinePlayer,
        size: usize,
        depth: u32,
    ) -> i32 {
        let limits = Limits {
            depth: Some(depth),
            move_time: Some(Duration::from_millis(200)),
            ..Limits::default()
        };
        let mut game = crate::game::Game::standard(size).unwrap();
        let played = game.play_out(|position| {
            let choice = match position.to_move {
                Color::Black => black.choose(position, &limits),
                Color::White => white.choose(position, &limits),
            };
            Ok(choice.mv)
        });
        if let Err(e) = played {
            let offender = match game.position().to_move {
                Color::Black => black.name(),
                Color::White => white.name(),
            };
            panic!("{offender} on {size}x{size}: {e}");
        }
        game.score_for_black()
    }

    #[test]
    fn every_player_finishes_games_with_legal_moves_on_its_sizes() {
        for name in NAMES {
            for size in SIZES {
                let mut black = create(name, 1).unwrap();
                if !black.supports(size) {
                    continue;
                }
                let mut white = create("random", 2).unwrap();
                play_game(black.as_mut(), white.as_mut(), size, 2);
                play_game(white.as_mut(), black.as_mut(), size, 2);
            }
        }
    }

    #[test]
    fn classic_players_beat_random_at_depth_three() {
        // An evaluation with its sign flipped, or a search that minimises for the wrong
        // side, would lose these games.
        for name in ["squares", "quadrant", "kukreja", "phased"] {
            let mut wins = 0;
            for seed in 0..3 {
                let mut player = create(name, seed).unwrap();
                let mut random = create("random", 100 + seed).unwrap();
                wins += u32::from(play_game(player.as_mut(), random.as_mut(), 8, 3) > 0);
                wins += u32::from(play_game(random.as_mut(), player.as_mut(), 8, 3) < 0);
            }
            assert!(wins >= 5, "{name} won {wins} of 6 against random");
        }
    }

    #[test]
    fn unknown_players_are_named_in_the_error() {
        let error = create("alphazero", 0).err().unwrap();
        assert!(
            error.contains("alphazero") && error.contains("greedy"),
            "{error}"
        );
        assert_eq!(create("GREEDY", 0).unwrap().name(), "greedy");
    }
}
