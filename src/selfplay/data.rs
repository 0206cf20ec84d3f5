//! Training data by self-play: games the engine plays against itself, each labelled with
//! its final result, written in independent chunks so that a run can stop and resume and
//! spread over many machines.
//!
//! A game starts from an opening (a line of a list such as the XOT openings, then a few
//! uniformly random moves), continues with moves from a short fixed-depth search (chosen at
//! random among the moves scored within a margin of the best), and from a given number of
//! empty squares on is played by the exact endgame solver. So every position from the
//! solver's first on is labelled with its exact value (perfect play keeps the value), and
//! the earlier ones with the result of the game played from them.
//!
//! # File format
//!
//! A chunk is a text file of one game a line; lines starting with `#` are comments (the
//! first records the settings that made it). A game line has four fields separated by
//! spaces, and a fifth off 8x8:
//!
//! ```text
//! f5f6e6f4e3c5c4e7c6e2...b8a8 -6 10 20
//! e7f5g4...l12a1 14 6 14 12
//! ```
//!
//! the transcript from the standard start (passes implicit; rows 10 to 12 take two digits),
//! Black's final disc difference (empty squares to the winner), the number of opening
//! moves at the start of the transcript that were not chosen by search, the number of
//! empty squares from which the solver played (every position with at most that many
//! empties has the final result as its exact value), and on boards other than 8x8 the
//! board's side (6, 10 or 12).
//!
//! Chunks made since search scores were recorded carry a sixth field (the board's side is
//! then written on 8x8 too): the score of the best move at every position where the search
//! chose the move, in hundredths of a disc for the side to move, comma-separated, in the
//! order of those positions (after the opening moves, before the solver's first):
//!
//! ```text
//! d5d6g7...a1 2 6 16 10 -12,40,-388,...
//! ```
//!
//! # Reproducibility
//!
//! Game `g` of chunk `c` depends only on the settings, the seed, `c` and `g`: each game
//! starts from a cleared transposition table, searches have fixed depths and no time
//! limits, and its random choices come from a generator seeded by `(seed, c, g)`. Any
//! machine can make any chunk, and a chunk made twice is the same file.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};

use emilia_core::board::{mix64, Color, Move, Position, Square};
use emilia_core::engine::Source;
use emilia_core::game::{ChooseError, Game};
use emilia_core::rng::Rng;
use emilia_core::search::Limits;
use emilia_core::{Config, Engine};

/// How games are played.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Side of the board: 6, 8, 10 or 12.
    pub size: usize,
    /// Depth of the search that chooses the moves before the solver takes over.
    pub depth: u32,
    /// Moves whose search score is within this many discs of the best are equally likely.
    pub margin: f64,
    /// The solver plays every move from this many empty squares on.
    pub solve_empties: u32,
    /// Uniformly random moves after the opening line.
    pub random_moves: u32,
    /// Games a chunk.
    pub games_per_chunk: usize,
    /// Seed of every random choice.
    pub seed: u64,
    /// Transposition table of each engine, MiB.
    pub hash_mib: usize,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            size: 8,
            depth: 6,
            margin: 1.0,
            solve_empties: 20,
            random_moves: 2,
            games_per_chunk: 500,
            seed: 1,
            hash_mib: 16,
        }
    }
}

/// One self-play game, as a line of a chunk file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelledGame {
    /// Side of the board.
    pub size: usize,
    /// Moves from the standard start, as square indices (a1 = 0, row-major on the board's
    /// side; passes left out).
    pub moves: Vec<usize>,
    /// Black's final disc difference, empty squares to the winner.
    pub black_result: i32,
    /// Moves at the start that came from the opening (line and random moves).
    pub opening_moves: u32,
    /// The solver played from this many empties on.
    pub solved_from: u32,
    /// The search score (hundredths of a disc, for the mover) of each position where the
    /// search chose the move, in order; empty in chunks made before scores were recorded.
    pub search_scores: Vec<i32>,
}

impl LabelledGame {
    /// The game's line in a chunk file (without the newline).
    pub fn to_line(&self) -> String {
        let mut line = String::with_capacity(3 * self.moves.len() + 16);
        for &m in &self.moves {
            let _ = write!(line, "{}", Square::from_index(m, self.size));
        }
        let _ = write!(
            line,
            " {} {} {}",
            self.black_result, self.opening_moves, self.solved_from
        );
        if self.size != 8 || !self.search_scores.is_empty() {
            let _ = write!(line, " {}", self.size);
        }
        for (i, score) in self.search_scores.iter().enumerate() {
            let _ = write!(line, "{}{score}", if i == 0 { ' ' } else { ',' });
        }
        line
    }

    /// Reads a game line, checking that the moves are legal, that the game is over at the
    /// end and that the result is the final position's.
    pub fn parse_line(line: &str) -> Result<LabelledGame> {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let (moves, result, opening, solved, size, scores) = match fields[..] {
            [moves, result, opening, solved] => (moves, result, opening, solved, "8", None),
            [moves, result, opening, solved, size] => (moves, result, opening, solved, size, None),
            [moves, result, opening, solved, size, scores] => {
                (moves, result, opening, solved, size, Some(scores))
            }
            _ => bail!(
                "expected '<transcript> <result> <opening moves> <solved from> [<board side> \
                 [<search scores>]]'"
            ),
        };
        let number = |text: &str, what: &str| -> Result<i64> {
            text.parse().map_err(|_| anyhow!("'{text}' is no {what}"))
        };
        let black_result = number(result, "result")? as i32;
        let opening_moves = u32::try_from(number(opening, "move count")?)?;
        let solved_from = u32::try_from(number(solved, "number of empties")?)?;
        let size = number(size, "board side")? as usize;
        let start = Position::start(size)?;
        let (end, played) = start
            .play_transcript(moves)
            .map_err(|e| anyhow!("the transcript: {e}"))?;
        let mut squares = Vec::with_capacity(played.len());
        for mv in played {
            if let Move::Play(square) = mv {
                squares.push(square.row() * size + square.col());
            }
        }
        if !end.is_game_over() {
            bail!("the game is not over at the end of the transcript");
        }
        let final_black = end.final_score_for(Color::Black);
        if final_black != black_result {
            bail!("result {black_result}, but the final position gives {final_black}");
        }
        if opening_moves as usize > squares.len() {
            bail!("more opening moves than moves");
        }
        let search_scores = match scores {
            None => Vec::new(),
            Some(text) => text
                .split(',')
                .map(|s| s.parse().map_err(|_| anyhow!("'{s}' is no search score")))
                .collect::<Result<Vec<i32>>>()?,
        };
        if search_scores.len() > squares.len() - opening_moves as usize {
            bail!("more search scores than searched moves");
        }
        Ok(LabelledGame {
            size,
            moves: squares,
            black_result,
            opening_moves,
            solved_from,
            search_scores,
        })
    }
}

/// An engine for one worker of a run: no opening book (every move is searched, so games
/// vary with their seeds), and one thread, since the run spreads its games over the cores.
pub fn worker_engine(hash_mib: usize) -> Engine {
    let mut engine = Engine::new(Config {
        hash_mib,
        book: Source::Off,
        ..Config::default()
    })
    .unwrap_or_else(|e| panic!("{e}"));
    engine
        .set_option("threads", "1")
        .expect("one thread is a valid option");
    engine
}

/// The generator of game `game` of chunk `chunk`.
fn game_rng(seed: u64, chunk: u64, game: u64) -> Rng {
    Rng::new(mix64(mix64(seed ^ 0x5E1F_91A7) ^ chunk.wrapping_mul(0x9E37_79B9_7F4A_7C15)) ^ game)
}

/// Plays one game with `engine` from one of `openings` (transcripts from the start).
pub fn play_game(
    engine: &mut Engine,
    settings: &Settings,
    openings: &[Vec<usize>],
    rng: &mut Rng,
) -> Result<LabelledGame> {
    engine.clear_hash();
    let size = settings.size;
    let start = Position::start(size)?;
    let line = match openings.len() {
        0 => &[][..],
        n => &openings[rng.below(n)][..],
    };
    let mut opening = line.iter();
    let mut random_moves = settings.random_moves;
    let mut opening_moves = 0;
    let depth = Limits {
        depth: Some(settings.depth.max(1)),
        ..Limits::default()
    };
    let margin = (settings.margin * 100.0).round() as i32;
    let mut search_scores = Vec::new();
    // The opening's moves, then the random ones, then the engine's; the game loop plays
    // the forced passes.
    let mut game = Game::new(start);
    game.play_out(|position| -> Result<Move, ChooseError> {
        if let Some(&index) = opening.next() {
            opening_moves += 1;
            return Ok(Move::Play(Square::from_index(index, size)));
        }
        if random_moves > 0 {
            random_moves -= 1;
            opening_moves += 1;
            let legal = position.legal_moves();
            return Ok(legal[rng.below(legal.len())]);
        }
        let (_, _, empties) = position.board.counts();
        if empties <= settings.solve_empties {
            let report = engine.solve(position, &Limits::default(), &mut |_| {});
            if !report.exact {
                return Err("the solver did not finish".into());
            }
            return Ok(report.best);
        }
        let scores = engine.hint(position, usize::MAX, &depth, &mut |_, _| {});
        let best = scores
            .first()
            .ok_or_else(|| anyhow!("no move scored"))?
            .score;
        search_scores.push(best.hundredths());
        let near: Vec<Move> = scores
            .iter()
            .filter(|s| s.score.hundredths() >= best.hundredths() - margin)
            .map(|s| s.mv)
            .collect();
        Ok(near[rng.below(near.len())])
    })?;
    let moves = game
        .plies()
        .iter()
        .filter_map(|ply| match ply.mv {
            Move::Play(square) => Some(square.row() * size + square.col()),
            Move::Pass => None,
        })
        .collect();
    Ok(LabelledGame {
        size,
        moves,
        black_result: game.score_for_black(),
        opening_moves,
        solved_from: settings.solve_empties,
        search_scores,
    })
}

/// Reads a list of openings for boards of side `size`, one transcript a line (`#` starts a
/// comment line).
pub fn parse_openings(text: &str, size: usize) -> Result<Vec<Vec<usize>>> {
    let start = Position::start(size)?;
    let mut openings = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (_, moves) = start
            .play_transcript(line)
            .map_err(|e| anyhow!("opening line {}: {e}", n + 1))?;
        openings.push(
            moves
                .iter()
                .filter_map(|m| match m {
                    Move::Play(sq) => Some(sq.row() * size + sq.col()),
                    Move::Pass => None,
                })
                .collect(),
        );
    }
    Ok(openings)
}

/// The file of chunk `chunk` of a run with `settings` (its seed and board size).
pub fn chunk_path(dir: &Path, settings: &Settings, chunk: u64) -> PathBuf {
    let (seed, size) = (settings.seed, settings.size);
    if size == 8 {
        dir.join(format!("selfplay-s{seed}-c{chunk:06}.games"))
    } else {
        dir.join(format!("selfplay-{size}x{size}-s{seed}-c{chunk:06}.games"))
    }
}

/// Plays the games of chunk `chunk` and returns the file's text.
pub fn make_chunk(
    engine: &mut Engine,
    settings: &Settings,
    openings: &[Vec<usize>],
    chunk: u64,
    mut after_game: impl FnMut(&LabelledGame),
    stop: &AtomicBool,
) -> Result<Option<String>> {
    let mut text = format!(
        "# emilia selfplay: size {} seed {} chunk {chunk} games {} depth {} margin {} solve {} \
         random-moves {} openings {}\n",
        settings.size,
        settings.seed,
        settings.games_per_chunk,
        settings.depth,
        settings.margin,
        settings.solve_empties,
        settings.random_moves,
        openings.len()
    );
    for game in 0..settings.games_per_chunk {
        if stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let mut rng = game_rng(settings.seed, chunk, game as u64);
        let played = play_game(engine, settings, openings, &mut rng)
            .with_context(|| format!("chunk {chunk}, game {game}"))?;
        after_game(&played);
        text.push_str(&played.to_line());
        text.push('\n');
    }
    Ok(Some(text))
}

/// Progress of a run, as reported to its caller.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Chunks of the run already on disk before it started (skipped).
    pub skipped: usize,
    /// Chunks finished by this run.
    pub chunks_done: usize,
    /// Chunks this run has to make.
    pub chunks_todo: usize,
    /// Games and positions played by this run.
    pub games: u64,
    /// Positions (moves played) of those games.
    pub positions: u64,
    /// Time since the run started.
    pub elapsed: Duration,
}

impl Progress {
    /// Positions a second.
    pub fn rate(&self) -> f64 {
        self.positions as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// Estimated time to the end, from the games played so far.
    pub fn remaining(&self, games_per_chunk: usize) -> Option<Duration> {
        if self.games == 0 {
            return None;
        }
        let total = (self.chunks_todo * games_per_chunk) as f64;
        let per_game = self.elapsed.as_secs_f64() / self.games as f64;
        Some(Duration::from_secs_f64(
            (total - self.games as f64).max(0.0) * per_game,
        ))
    }
}

/// Makes chunks `chunks` in `dir` on `threads` threads, each with its own
/// engine; chunks already there are skipped. Each chunk is written under a temporary name
/// and renamed when complete, so an interrupted run leaves only whole chunks.
/// `report` is called about every `every` and at the end.
pub fn run(
    dir: &Path,
    settings: &Settings,
    openings: &[Vec<usize>],
    chunks: std::ops::Range<u64>,
    threads: usize,
    every: Duration,
    report: &mut dyn FnMut(&Progress),
) -> Result<Progress> {
    if settings.games_per_chunk == 0 {
        bail!("chunks of 0 games");
    }
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let count = chunks.end.saturating_sub(chunks.start) as usize;
    let todo: Vec<u64> = chunks
        .filter(|&c| !chunk_path(dir, settings, c).exists())
        .collect();
    let skipped = count - todo.len();
    let next = AtomicUsize::new(0);
    let games = AtomicU64::new(0);
    let positions = AtomicU64::new(0);
    let done = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let failure: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    let start = Instant::now();
    let progress = || Progress {
        skipped,
        chunks_done: done.load(Ordering::Relaxed),
        chunks_todo: todo.len(),
        games: games.load(Ordering::Relaxed),
        positions: positions.load(Ordering::Relaxed),
        elapsed: start.elapsed(),
    };
    let workers = threads.clamp(1, todo.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                let mut engine = worker_engine(settings.hash_mib);
                while !stop.load(Ordering::Relaxed) {
                    let Some(&chunk) = todo.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        break;
                    };
                    let result = make_chunk(
                        &mut engine,
                        settings,
                        openings,
                        chunk,
                        |game| {
                            games.fetch_add(1, Ordering::Relaxed);
                            positions.fetch_add(game.moves.len() as u64, Ordering::Relaxed);
                        },
                        &stop,
                    )
                    .and_then(|text| match text {
                        Some(text) => write_chunk(&chunk_path(dir, settings, chunk), &text),
                        None => Ok(()),
                    });
                    match result {
                        Ok(()) => {
                            done.fetch_add(1, Ordering::Relaxed);
                        }
                        Err(e) => {
                            stop.store(true, Ordering::Relaxed);
                            failure
                                .lock()
                                .unwrap_or_else(|p| p.into_inner())
                                .get_or_insert(e);
                        }
                    }
                }
            });
        }
        let mut last = Instant::now();
        while done.load(Ordering::Relaxed) < todo.len() && !stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(50));
            if last.elapsed() >= every {
                last = Instant::now();
                report(&progress());
            }
        }
    });
    if let Some(e) = failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    let last = progress();
    report(&last);
    Ok(last)
}

/// Writes `text` to `path` whole or not at all ([`crate::files::write_whole`]).
fn write_chunk(path: &Path, text: &str) -> Result<()> {
    crate::files::write_whole(path, text.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))
}

/// Chunk files named by `paths`: files as given, directories searched (not recursively)
/// for `.games` files, in name order.
pub fn game_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    crate::files::named_files(paths, "games", ".games files")
}

/// Reads every game of a chunk file.
pub fn read_games(path: &Path) -> Result<Vec<LabelledGame>> {
    let text = emilia_core::files::read_text(path, crate::files::TRAINING_GAMES)?;
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|(n, line)| {
            LabelledGame::parse_line(line).with_context(|| format!("{}:{}", path.display(), n + 1))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quick() -> Settings {
        Settings {
            depth: 2,
            solve_empties: 10,
            games_per_chunk: 3,
            hash_mib: 1,
            ..Settings::default()
        }
    }

    #[test]
    fn games_are_legal_finished_and_reproducible() {
        let openings = parse_openings("f5f6e6f4e3c5c4e7\nf5d6c3d3c4f4c5b3\n", 8).unwrap();
        let settings = quick();
        let mut engine = worker_engine(1);
        let mut lines = Vec::new();
        for game in 0..4 {
            let mut rng = game_rng(settings.seed, 7, game);
            let played = play_game(&mut engine, &settings, &openings, &mut rng).unwrap();
            assert_eq!(played.opening_moves, 10);
            let line = played.to_line();
            // The line reads back, replays legally and its result is the final position's.
            assert_eq!(LabelledGame::parse_line(&line).unwrap(), played);
            lines.push(line);
        }
        // Another engine, with its own history, plays the same games.
        let mut other = worker_engine(1);
        for (game, line) in lines.iter().enumerate().rev() {
            let mut rng = game_rng(settings.seed, 7, game as u64);
            let again = play_game(&mut other, &settings, &openings, &mut rng).unwrap();
            assert_eq!(&again.to_line(), line);
        }
        // Different games differ.
        assert_ne!(lines[0], lines[1]);
    }

    #[test]
    fn the_solved_part_of_a_game_is_perfect_play() {
        // From the solver's first position on, every position's exact value is the result.
        let openings = parse_openings("f5d6c3d3c4f4c5b3", 8).unwrap();
        let settings = quick();
        let mut engine = worker_engine(1);
        let played = play_game(&mut engine, &settings, &openings, &mut game_rng(3, 0, 0)).unwrap();
        let (positions, _) = crate::train::games::replay(&played.moves).unwrap();
        let mut solver = emilia_core::endgame::Solver::new(1);
        let mut checked = 0;
        for p in positions
            .iter()
            .filter(|p| p.empties() <= settings.solve_empties)
        {
            let value = solver
                .solve_exact(&emilia_core::board::AnyBoard::Eight(p.board))
                .score;
            let black = if p.black_to_move { value } else { -value };
            assert_eq!(black, played.black_result);
            checked += 1;
        }
        assert!(checked >= 8, "{checked}");
    }

    #[test]
    fn games_on_other_sizes_read_back_and_end_in_perfect_play() {
        for size in [6, 10, 12] {
            let settings = Settings {
                size,
                random_moves: 4,
                ..quick()
            };
            let mut engine = worker_engine(1);
            let mut rng = game_rng(2, 0, size as u64);
            let played = play_game(&mut engine, &settings, &[], &mut rng).unwrap();
            assert_eq!((played.size, played.opening_moves), (size, 4));
            let line = played.to_line();
            let fields: Vec<&str> = line.split(' ').collect();
            assert_eq!(fields[4], size.to_string(), "{line}");
            assert_eq!(LabelledGame::parse_line(&line).unwrap(), played);
            // A line from before search scores were recorded reads with none.
            let without_scores = &line[..line.rfind(' ').unwrap()];
            let old = LabelledGame::parse_line(without_scores).unwrap();
            assert!(old.search_scores.is_empty() && old.moves == played.moves);
            // Without its board side the line is an 8x8 game, which it is not.
            let as_eight = &without_scores[..without_scores.rfind(' ').unwrap()];
            assert!(LabelledGame::parse_line(as_eight).is_err());
            // The first position the solver played has the game's result as its value, and
            // every move before it after the opening has its search score.
            let mut position = Position::start(size).unwrap();
            let mut first_searched = None;
            for (k, &m) in played.moves.iter().enumerate() {
                if position.board.counts().2 <= settings.solve_empties {
                    assert_eq!(played.search_scores.len(), k - 4, "{size}x{size}");
                    break;
                }
                if !position.board.has_moves() {
                    position = position.play(Move::Pass).unwrap();
                }
                if k == 4 {
                    first_searched = Some(position);
                }
                position = position
                    .play(Move::Play(Square::from_index(m, size)))
                    .unwrap();
            }
            // The first search ran on a cleared table, so a fresh one scores it the same.
            let mut fresh = worker_engine(1);
            let limits = emilia_core::search::Limits {
                depth: Some(settings.depth),
                ..Default::default()
            };
            let scores = fresh.hint(
                &first_searched.unwrap(),
                usize::MAX,
                &limits,
                &mut |_, _| {},
            );
            assert_eq!(scores[0].score.hundredths(), played.search_scores[0]);
            if !position.board.has_moves() && !position.is_game_over() {
                position = position.play(Move::Pass).unwrap();
            }
            let solved = engine.solve(
                &position,
                &emilia_core::search::Limits::default(),
                &mut |_| {},
            );
            assert!(solved.exact);
            let black = match position.to_move {
                Color::Black => solved.score,
                Color::White => -solved.score,
            };
            assert_eq!(
                black.hundredths(),
                100 * played.black_result,
                "{size}x{size}"
            );
        }
    }

    #[test]
    fn damaged_lines_are_refused() {
        let openings = parse_openings("f5f6e6f4e3c5c4e7", 8).unwrap();
        let mut engine = worker_engine(1);
        let played = play_game(&mut engine, &quick(), &openings, &mut game_rng(1, 1, 1)).unwrap();
        let line = played.to_line();
        let (moves, rest) = line.split_once(' ').unwrap();
        // A wrong result, a game cut short, an illegal move, a missing field.
        let wrong = format!(
            "{moves} {} {}",
            played.black_result + 2,
            &rest[rest.find(' ').unwrap() + 1..]
        );
        assert!(LabelledGame::parse_line(&wrong).is_err());
        let short = format!("{} {rest}", &moves[..moves.len() - 2]);
        assert!(LabelledGame::parse_line(&short).is_err());
        assert!(LabelledGame::parse_line(&format!("a1{line}")).is_err());
        assert!(LabelledGame::parse_line(moves).is_err());
        assert!(parse_openings("f5f5", 8).is_err());
        // Search scores that are not numbers, or more of them than searched moves.
        let fields: Vec<&str> = line.split(' ').collect();
        let head = fields[..5].join(" ");
        assert_eq!(fields[4], "8");
        assert!(LabelledGame::parse_line(&format!("{head} 12,x")).is_err());
        let searched = played.moves.len() - played.opening_moves as usize;
        let too_many = vec!["0"; searched + 1].join(",");
        assert!(LabelledGame::parse_line(&format!("{head} {too_many}")).is_err());
        let enough = vec!["0"; searched].join(",");
        assert!(LabelledGame::parse_line(&format!("{head} {enough}")).is_ok());
    }

    #[test]
    fn a_run_skips_finished_chunks_and_writes_whole_files() {
        let dir = std::env::temp_dir().join(format!("emilia-selfplay-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let openings = parse_openings("f5f6e6f4e3c5c4e7", 8).unwrap();
        let settings = Settings {
            games_per_chunk: 2,
            ..quick()
        };
        let every = Duration::from_secs(3600);
        let first = run(&dir, &settings, &openings, 4..6, 2, every, &mut |_| {}).unwrap();
        assert_eq!((first.skipped, first.chunks_done, first.games), (0, 2, 4));
        let made = chunk_path(&dir, &settings, 5);
        let text = std::fs::read_to_string(&made).unwrap();
        // A rerun over a wider range makes only the missing chunk; the others stay as made.
        let second = run(&dir, &settings, &openings, 3..6, 1, every, &mut |_| {}).unwrap();
        assert_eq!(
            (second.skipped, second.chunks_done, second.games),
            (2, 1, 2)
        );
        assert_eq!(std::fs::read_to_string(&made).unwrap(), text);
        let files = game_files(std::slice::from_ref(&dir)).unwrap();
        assert_eq!(files.len(), 3);
        let games: usize = files.iter().map(|f| read_games(f).unwrap().len()).sum();
        assert_eq!(games, 6);
        assert!(!dir.read_dir().unwrap().any(|e| e
            .unwrap()
            .path()
            .extension()
            .is_some_and(|x| x == "tmp" || x == "partial")));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
