//! `emilia tune`: fits the classic evaluation's weights to self-play games and checks the
//! fit in a match against the current weights.

use anyhow::{bail, Result};
use std::time::Duration;

use super::args::Args;
use super::output::{out, outln};
use crate::selfplay::{play_match, xot_openings, Player};
use emilia_core::board::{Move, Position};
use emilia_core::eval::features::features;
use emilia_core::eval::{ClassicWeights, CLASSIC_WEIGHTS};
use emilia_core::game::Game;
use emilia_core::rng::Rng;
use emilia_core::score;
use emilia_core::search::Limits;
use emilia_core::training::{fit, rms_error, weights_table, Sample};
use emilia_core::with_board;

const HELP: &str = "\
Usage: emilia tune [--games N] [--depth D] [--noise P] [--ridge R] [--verify G] [--ms T]
       emilia tune mpc --games <wtb file or directory>... [options]   (see tune mpc --help)

Plays N self-play games (default 1000) from XOT openings at fixed depth D (default 4),
with a random move instead of the engine's at rate P (default 0.05) for variety, labels
every position with its game's final disc difference, and fits the classic weights by
least squares (ridge R, default 0.01). Prints the weight table and its error on held-out
games, then plays G verification games (default 0) from XOT openings, new weights
against the current ones, at T ms a move (default 0: at depth D).
";

/// Runs `emilia tune`.
pub(crate) fn run(args: &[String]) -> Result<()> {
    let args = Args::parse(
        args,
        &[
            ("games", 1),
            ("depth", 1),
            ("noise", 1),
            ("ridge", 1),
            ("verify", 1),
            ("ms", 1),
        ],
    )?;
    if args.flag("help") {
        out!("{HELP}")?;
        return Ok(());
    }
    args.reject_unknown_flags(&[])?;
    let games: usize = args.get("games", 1000)?;
    let depth: u32 = args.get("depth", 4)?;
    let noise: f64 = args.get("noise", 0.05)?;
    let ridge: f64 = args.get("ridge", 0.01)?;
    let verify: usize = args.get("verify", 0)?;
    let ms: u64 = args.get("ms", 0)?;
    if games < 10 {
        bail!("--games {games}: at least 10 are needed to fit");
    }

    let samples = self_play_samples(games, depth, noise);
    // Every tenth game is held out to measure the fit.
    let (train, test): (Vec<_>, Vec<_>) = samples.into_iter().partition(|(game, _)| game % 10 != 0);
    let train: Vec<Sample> = train.into_iter().map(|(_, s)| s).collect();
    let test: Vec<Sample> = test.into_iter().map(|(_, s)| s).collect();
    let Some(weights) = fit(&train, ridge) else {
        bail!("the fit failed: too few or too similar positions");
    };
    outln!(
        "tune: {} training and {} held-out positions from {games} games at depth {depth}",
        train.len(),
        test.len()
    )?;
    outln!(
        "tune: rms error, held out: current weights {:.2} discs, fitted {:.2} discs",
        rms_error(&CLASSIC_WEIGHTS, &test),
        rms_error(&weights, &test)
    )?;
    outln!("{}", weights_table(&weights))?;

    if verify > 0 {
        let limits = if ms > 0 {
            Limits {
                move_time: Some(Duration::from_millis(ms)),
                ..Limits::default()
            }
        } else {
            Limits {
                depth: Some(depth),
                ..Limits::default()
            }
        };
        let mut fitted = weighted_player(&weights, limits.clone());
        let mut current = weighted_player(&CLASSIC_WEIGHTS, limits);
        let openings = xot_openings(verify.div_ceil(2));
        let score = play_match(&openings, &mut fitted, &mut current, &mut |_, _| {});
        outln!("tune: fitted vs current weights: {score}")?;
    }
    Ok(())
}

fn weighted_player(weights: &ClassicWeights, limits: Limits) -> Player {
    let mut player = Player::engine(&[], limits, 16);
    if let Player::Engine { engine, .. } = &mut player {
        engine.set_classic_weights(weights);
    }
    player
}

/// Plays `games` self-play games and returns (game number, sample) for every position.
fn self_play_samples(games: usize, depth: u32, noise: f64) -> Vec<(usize, Sample)> {
    let openings = xot_openings(usize::MAX);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut engine = Player::engine(&[], limits, 16);
    let mut samples = Vec::new();
    for game in 0..games {
        let mut player = NoisyPlayer {
            inner: &mut engine,
            random: Player::Random(Rng::new(0x5EED_0000 + game as u64)),
            noise,
            rng: Rng::new(0xDEC0_DE00 + game as u64 * 7919),
        };
        let opening = &openings[game % openings.len()];
        let played = play_game_with(opening, &mut player);
        let end = played.position();
        // Every position where a side moved or passed.
        for position in &played.positions()[..played.plies().len()] {
            let (_, _, empties) = position.board.counts();
            let squares = position.size() * position.size();
            let stage = ((squares - 4) as f64 - empties as f64) / (squares - 4) as f64;
            samples.push((
                game,
                Sample {
                    features: with_board!(&position.board, b => features(b)),
                    stage,
                    target: f64::from(score::from_discs(end.final_score_for(position.to_move))),
                },
            ));
        }
        if (game + 1) % 100 == 0 {
            log::info!("tune: {} games played", game + 1);
        }
    }
    samples
}

/// The engine, replaced by a random move at a given rate.
struct NoisyPlayer<'a> {
    inner: &'a mut Player,
    random: Player,
    noise: f64,
    rng: Rng,
}

impl NoisyPlayer<'_> {
    fn choose(&mut self, position: &Position) -> Move {
        if self.rng.unit() < self.noise {
            self.random.choose(position)
        } else {
            self.inner.choose(position)
        }
    }
}

/// One self-play game: the same noisy player moves for both sides. An illegal move (a
/// bug) ends it where it was made.
fn play_game_with(start: &Position, player: &mut NoisyPlayer) -> Game {
    let mut game = Game::new(*start);
    if let Err(e) = game.play_out(|position| Ok(player.choose(position))) {
        log::error!("{e} in {}", game.position());
    }
    game
}
