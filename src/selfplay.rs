//! In-process games between players (engine settings or a random mover): the strength
//! measurements and the tuner's training games, without pipes or processes. The games are
//! played by the core's one game loop, [`Game::play_out`].

pub mod data;

use crate::referee::stats::{elo, format_elo};
use emilia_core::board::{BoardSize, Color, Move, Position};
use emilia_core::engine::Source;
use emilia_core::game::Game;
use emilia_core::rng::Rng;
use emilia_core::search::Limits;
use emilia_core::{Config, Engine};

/// Who chooses the moves for one side.
pub(crate) enum Player {
    /// The engine with its options, searching within `limits` each move.
    Engine {
        /// The engine (its transposition table persists over the match).
        engine: Box<Engine>,
        /// Limits of every search.
        limits: Limits,
    },
    /// Uniformly random legal moves from a reproducible generator.
    Random(Rng),
}

impl Player {
    /// An engine player with `options` (name, value pairs) and a `hash_mib` table.
    pub(crate) fn engine(options: &[(&str, &str)], limits: Limits, hash_mib: usize) -> Player {
        let mut engine = Box::new(
            Engine::new(Config {
                hash_mib,
                book: Source::Off,
                ..Config::default()
            })
            .unwrap_or_else(|e| panic!("{e}")),
        );
        // One thread unless asked: games then replay the same way.
        engine.set_option("threads", "1").expect("threads takes 1");
        for (name, value) in options {
            if let Err(e) = engine.set_option(name, value) {
                log::warn!("{e:#}");
            }
        }
        Player::Engine { engine, limits }
    }

    /// Chooses a move in `position`, which must not be over.
    pub(crate) fn choose(&mut self, position: &Position) -> Move {
        match self {
            Player::Engine { engine, limits } => engine.search(position, limits, &mut |_| {}).best,
            Player::Random(rng) => *rng.pick(&position.legal_moves()).unwrap_or(&Move::Pass),
        }
    }
}

/// A game of a match, with its result.
#[derive(Clone, Debug)]
pub(crate) struct MatchGame {
    /// The game as played; it stops before an illegal move.
    pub(crate) game: Game,
    /// Black's final disc difference, empties to the winner; a player that made an
    /// illegal move (a bug) loses by the whole board.
    pub(crate) black_discs: i32,
}

impl MatchGame {
    /// Final disc difference for `color`.
    pub(crate) fn score_for(&self, color: Color) -> i32 {
        match color {
            Color::Black => self.black_discs,
            Color::White => -self.black_discs,
        }
    }
}

/// Plays a game from `start` to the end. An illegal move from a player (a bug) loses: the
/// game stops and is scored as a wipe-out against the offender.
pub(crate) fn play_game(start: &Position, black: &mut Player, white: &mut Player) -> MatchGame {
    let mut game = Game::new(*start);
    let played = game.play_out(|position| {
        Ok(match position.to_move {
            Color::Black => black.choose(position),
            Color::White => white.choose(position),
        })
    });
    let black_discs = match played {
        Ok(()) => game.score_for_black(),
        Err(e) => {
            let position = game.position();
            log::error!("{e} in {position}");
            let board = (position.size() * position.size()) as i32;
            match position.to_move {
                Color::Black => -board,
                Color::White => board,
            }
        }
    };
    MatchGame { game, black_discs }
}

/// Wins, draws and losses of one player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct MatchScore {
    /// Games won.
    pub(crate) wins: u32,
    /// Games drawn.
    pub(crate) draws: u32,
    /// Games lost.
    pub(crate) losses: u32,
    /// Sum of final disc differences.
    pub(crate) discs: i64,
}

impl MatchScore {
    /// Adds a game that ended with disc difference `discs` for this player.
    pub(crate) fn add(&mut self, discs: i32) {
        match discs.signum() {
            1 => self.wins += 1,
            0 => self.draws += 1,
            _ => self.losses += 1,
        }
        self.discs += discs as i64;
    }

    /// Games played.
    pub(crate) fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points per game: 1 a win, 1/2 a draw.
    pub(crate) fn score(&self) -> f64 {
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games().max(1) as f64
    }
}

impl std::fmt::Display for MatchScore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "+{} ={} -{} of {}: score {:.1} %",
            self.wins,
            self.draws,
            self.losses,
            self.games(),
            100.0 * self.score()
        )?;
        if let Some(e) = elo(self.wins, self.draws, self.losses) {
            write!(
                f,
                ", Elo {} (95 %: {} to {})",
                format_elo(e.difference),
                format_elo(e.lower),
                format_elo(e.upper)
            )?;
        }
        write!(
            f,
            ", mean discs {:+.1}",
            self.discs as f64 / self.games().max(1) as f64
        )
    }
}

/// Plays each opening twice, `a` taking Black then White; `after_game` sees each game
/// with the disc difference for `a`. Returns `a`'s score.
pub(crate) fn play_match(
    openings: &[Position],
    a: &mut Player,
    b: &mut Player,
    after_game: &mut dyn FnMut(&Game, i32),
) -> MatchScore {
    let mut score = MatchScore::default();
    for opening in openings {
        for a_colour in [Color::Black, Color::White] {
            let played = match a_colour {
                Color::Black => play_game(opening, a, b),
                Color::White => play_game(opening, b, a),
            };
            let discs = played.score_for(a_colour);
            score.add(discs);
            after_game(&played.game, discs);
        }
    }
    score
}

/// The XOT openings shipped with Emilia: balanced eight-move starts, one transcript a line.
pub(crate) const XOT_OPENINGS: &str = include_str!("../data/xot-openings.txt");

/// The first `count` shipped XOT openings as positions.
pub(crate) fn xot_openings(count: usize) -> Vec<Position> {
    let start = Position::start_of(BoardSize::EIGHT);
    XOT_OPENINGS
        .lines()
        .filter(|l| !l.trim().is_empty())
        .filter_map(|line| start.play_transcript(line.trim()).ok().map(|(p, _)| p))
        .take(count)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_openings_are_legal_eight_move_starts() {
        let openings = xot_openings(usize::MAX);
        assert!(openings.len() >= 200);
        for p in &openings {
            let (b, w, e) = p.board.counts();
            assert_eq!((b + w, e), (12, 52));
        }
    }

    #[test]
    fn match_score_counts_and_reports() {
        let mut s = MatchScore::default();
        for d in [10, -4, 0, 2] {
            s.add(d);
        }
        assert_eq!((s.wins, s.draws, s.losses, s.discs), (2, 1, 1, 8));
        assert!((s.score() - 0.625).abs() < 1e-12);
        let text = s.to_string();
        assert!(
            text.starts_with("+2 =1 -1 of 4: score 62.5 %, Elo +88.7 (95 %: "),
            "{text}"
        );
        assert!(text.ends_with(", mean discs +2.0"), "{text}");
    }

    #[test]
    fn random_games_end_with_a_result() {
        let start = Position::start(6).unwrap();
        let mut a = Player::Random(Rng::new(1));
        let mut b = Player::Random(Rng::new(2));
        let played = play_game(&start, &mut a, &mut b);
        assert!(played.game.is_over());
        assert!(played.game.plies().len() >= 28);
        assert_eq!(played.black_discs, played.game.score_for_black());
    }
}
