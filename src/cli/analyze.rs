//! `emilia analyze`: a game replayed move by move, each move's value against the best one,
//! the loss in discs, and on request an SVG chart of the score through the game.

use anyhow::{anyhow, bail, Context, Result};
use std::path::Path;
use std::time::Instant;

use super::args::Args;
use super::output::{note, out, outln};
use emilia_core::board::{BoardSize, Color, Move, Position};
use emilia_core::files::FileKind;
use emilia_core::formats::game_text::{self, GameTextError};
use emilia_core::formats::wthor::WthorFile;
use emilia_core::game::Game;
use emilia_core::score::Score;
use emilia_core::search::Limits;
use emilia_core::{Config, Engine};

const HELP: &str = "\
Usage: emilia analyze <game> [--game N] [--size N] [--depth D] [--exact E] [--book B]
                      [--threads N] [--svg FILE [--force]]

Replays a game and gives every move's value, the best move with its value, and the loss
in discs (best minus played, for the mover). Values are for the mover; the chart and the
last column are Black's view. The kind of a value: exact (perfect play), book (the
best value is the opening book's, as is the move played's when the book has it) or search.
A game that has not ended shows its disc count as unfinished.

  <game>          a GGF file, a WTHOR file (.wtb), a file holding a transcript, or a
                  transcript itself (f5d6c3d3c4...)
  --game N        the N-th game of a file holding several (default 1)
  --size N        board side of a transcript: 6, 8, 10 or 12 (default 8; GGF games say
                  their own, WTHOR games are 8x8)
  --depth D       midgame search depth of every move (default 10)
  --exact E       exact values (perfect play) from E empty squares on, 8x8 only
                  (default 18; 0 for none)
  --book B        the opening book on 8x8: on (built in, the default), off, or a book file
                  written by emilia book
  --threads N     search threads, or all (the default)
  --svg FILE      writes a chart of Black's score through the game, which a browser shows;
                  an existing FILE is replaced only with --force
";

/// One move of the game, analysed.
#[derive(Clone, Debug)]
pub(crate) struct MoveValue {
    /// Ply number, from 1.
    pub(crate) ply: usize,
    /// The mover.
    pub(crate) color: Color,
    /// The move played.
    pub(crate) played: Move,
    /// Its value for the mover.
    pub(crate) value: Score,
    /// The best move and its value for the mover.
    pub(crate) best: Move,
    pub(crate) best_value: Score,
    /// Whether the values are exact (perfect play).
    pub(crate) exact: bool,
    /// Whether the best value is the opening book's (so is the played move's, when the
    /// book has that move).
    pub(crate) book: bool,
    /// Empty squares before the move.
    pub(crate) empties: u32,
}

impl MoveValue {
    /// Discs the move gave away against the best one.
    pub(crate) fn loss(&self) -> Score {
        Score::from_hundredths((self.best_value.hundredths() - self.value.hundredths()).max(0))
    }

    /// Where the values come from: `exact`, `book` or `search`.
    pub(crate) fn kind(&self) -> &'static str {
        if self.exact {
            "exact"
        } else if self.book {
            "book"
        } else {
            "search"
        }
    }

    /// The value after the move, for Black.
    pub(crate) fn for_black(&self) -> Score {
        match self.color {
            Color::Black => self.value,
            Color::White => -self.value,
        }
    }
}

/// Runs `emilia analyze`.
pub(crate) fn run(args: &[String]) -> Result<()> {
    let args = Args::parse(
        args,
        &[
            ("game", 1),
            ("size", 1),
            ("depth", 1),
            ("exact", 1),
            ("book", 1),
            ("threads", 1),
            ("svg", 1),
        ],
    )?;
    if args.flag("help") {
        out!("{HELP}")?;
        return Ok(());
    }
    args.reject_unknown_flags(&["force"])?;
    let [source] = &args.positional[..] else {
        bail!("expected one game: a file or a transcript\n\n{HELP}");
    };
    let number: usize = args.get("game", 1)?;
    if number == 0 {
        bail!("--game counts from 1");
    }
    let depth: u32 = args.get("depth", 10)?;
    if !(1..=60).contains(&depth) {
        bail!("--depth {depth}: expected 1 to 60");
    }
    let exact: u32 = args.get("exact", 18)?;
    let svg = args.value("svg").map(Path::new);
    if let Some(path) = svg {
        super::output::refuse_existing(path, args.flag("force"))?;
    }
    let size = args
        .value("size")
        .map(|_| args.get("size", BoardSize::EIGHT).map(BoardSize::side))
        .transpose()?;
    let mut engine = Engine::new(Config::default())?;
    for option in ["book", "threads"] {
        if let Some(value) = args.value(option) {
            engine
                .set_option(option, value)
                .map_err(|e| anyhow!("--{option} {value}: {e}"))?;
        }
    }
    let game = read_game(source, number, size)?;
    let start = Instant::now();
    let values = analyse(&mut engine, &game, depth, exact, &mut |done, total| {
        note(&format!("analysed {done} of {total} moves"))
    });
    print_report(&game, &values, depth, exact)?;
    outln!("time: {:.1} s", start.elapsed().as_secs_f64())?;
    if let Some(path) = svg {
        crate::files::write_whole(path, chart(&game, &values).as_bytes())
            .with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

/// The game `source` names: the `number`-th of a GGF or WTHOR file, a file holding a
/// transcript, or a transcript.
/// `size` is that of a transcript (8 unless given); a game of another size is refused.
fn read_game(source: &str, number: usize, size: Option<usize>) -> Result<Game> {
    let game = read_any_game(source, number, size.unwrap_or(8))?;
    let played = game.position().size();
    match size {
        Some(size) if size != played => {
            bail!("--size {size}: the game is {played}x{played}")
        }
        _ => Ok(game),
    }
}

fn read_any_game(source: &str, number: usize, size: usize) -> Result<Game> {
    let path = Path::new(source);
    if std::fs::symlink_metadata(path).is_err() {
        return game_text::read_game(source, Some(size)).map_err(|e| {
            let shown = game_text::excerpt(source, 40);
            let hint = size_hint(&e);
            anyhow!("'{shown}' is neither a file nor a transcript of {size}x{size}: {e}{hint}")
        });
    }
    let bytes = emilia_core::files::read_bytes(path, FileKind::GAMES)?;
    let is_wthor = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("wtb"));
    if is_wthor {
        let file = WthorFile::parse(&bytes).map_err(|e| anyhow!("{source}: {e}"))?;
        let count = file.games.len();
        let record = file
            .games
            .get(number - 1)
            .ok_or_else(|| anyhow!("{source} holds {count} games, not {number}"))?;
        let mut game = Game::new(Position::start_of(BoardSize::EIGHT));
        for (i, square) in record.moves.iter().enumerate() {
            game.play_implicit(Move::Play(*square), None, None)
                .map_err(|e| anyhow!("{source}, game {number}, move {}: {e}", i + 1))?;
        }
        return Ok(game);
    }
    let text = String::from_utf8(bytes).map_err(|_| anyhow!("{source} is not text"))?;
    game_text::read_nth_game(&text, number, Some(size))
        .map_err(|e| anyhow!("{source}: {e}{}", size_hint(&e)))
}

/// What to give for a transcript that is a game of another size than the one read.
fn size_hint(e: &GameTextError) -> String {
    e.fits()
        .map(|fits| format!("; give --size {fits}"))
        .unwrap_or_default()
}

/// Values every move of `game` that had a choice (forced passes are left out): exact from
/// `exact` empties on 8x8, else by a search of every move to `depth`. `progress` hears
/// how many of the moves are done.
pub(crate) fn analyse(
    engine: &mut Engine,
    game: &Game,
    depth: u32,
    exact: u32,
    progress: &mut dyn FnMut(usize, usize),
) -> Vec<MoveValue> {
    let choices: Vec<(usize, Position, Move)> = game
        .plies()
        .iter()
        .zip(game.positions())
        .enumerate()
        .filter(|(_, (ply, _))| ply.mv != Move::Pass)
        .map(|(i, (ply, position))| (i + 1, *position, ply.mv))
        .collect();
    let mut values = Vec::new();
    for (done, (ply, position, played)) in choices.iter().enumerate() {
        let (_, _, empties) = position.board.counts();
        let solvable = position.size() == 8 && empties <= exact;
        let value = if solvable {
            solved(engine, position, *played)
        } else {
            searched(engine, position, *played, depth)
        };
        values.push(MoveValue {
            ply: *ply,
            color: position.to_move,
            played: *played,
            empties,
            exact: solvable,
            ..value
        });
        progress(done + 1, choices.len());
    }
    values
}

/// Exact values: one solve for the best move, one more for the move played if it differs.
fn solved(engine: &mut Engine, position: &Position, played: Move) -> MoveValue {
    let none = Limits::default();
    let best = engine.solve(position, &none, &mut |_| {});
    let value = if best.best == played {
        best.score
    } else {
        let child = position.play(played).expect("a move of the game");
        -engine.solve(&child, &none, &mut |_| {}).score
    };
    MoveValue {
        best: best.best,
        best_value: best.score,
        value,
        ..blank(position, played)
    }
}

/// Values at `depth`: every move searched with a full window.
fn searched(engine: &mut Engine, position: &Position, played: Move, depth: u32) -> MoveValue {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let all = position.legal_moves().len();
    let scores = engine.hint(position, all, &limits, &mut |_, _| {});
    let best = scores.first().expect("a position with a move");
    let value = scores
        .iter()
        .find(|s| s.mv == played)
        .map_or(best.score, |s| s.score);
    MoveValue {
        best: best.mv,
        best_value: best.score,
        book: best.book,
        value,
        ..blank(position, played)
    }
}

fn blank(position: &Position, played: Move) -> MoveValue {
    MoveValue {
        ply: 0,
        color: position.to_move,
        played,
        value: Score::from_hundredths(0),
        best: played,
        best_value: Score::from_hundredths(0),
        exact: false,
        book: false,
        empties: 0,
    }
}

fn print_report(game: &Game, values: &[MoveValue], depth: u32, exact: u32) -> Result<()> {
    outln!("{}", game.transcript())?;
    outln!(
        "values for the mover: exact from {exact} empties, else the book's or depth {depth}; \
         loss = best - played, in discs"
    )?;
    outln!(
        "{:>4} {:>7} {:>5} {:>4} {:>8} {:>4} {:>8} {:>6} {:>6}  {:>8}",
        "ply",
        "empties",
        "mover",
        "move",
        "value",
        "best",
        "value",
        "loss",
        "kind",
        "Black"
    )?;
    for v in values {
        outln!(
            "{:>4} {:>7} {:>5} {:>4} {:>8} {:>4} {:>8} {:>6.2} {:>6}  {:>8}",
            v.ply,
            v.empties,
            v.color.to_string(),
            v.played.to_string(),
            v.value.to_string(),
            v.best.to_string(),
            v.best_value.to_string(),
            v.loss().discs(),
            v.kind(),
            v.for_black().to_string()
        )?;
    }
    for color in [Color::Black, Color::White] {
        let mine: Vec<&MoveValue> = values.iter().filter(|v| v.color == color).collect();
        let total: f64 = mine.iter().map(|v| v.loss().discs()).sum();
        let errors = mine.iter().filter(|v| v.loss().discs() >= 2.0).count();
        outln!(
            "{color}: {} moves, {total:.2} discs lost, {:.2} a move, {errors} moves losing 2 or more",
            mine.len(),
            total / mine.len().max(1) as f64
        )?;
    }
    outln!("result: {}", outcome(game))?;
    Ok(())
}

/// The result of a finished game (`B+12`), or `unfinished` with the disc count.
fn outcome(game: &Game) -> String {
    if game.is_over() {
        return game.result();
    }
    let position = game.position();
    format!(
        "unfinished, discs Black {} White {}",
        position.count(Color::Black),
        position.count(Color::White)
    )
}

/// Chart size and margins, in SVG units.
const WIDTH: f64 = 800.0;
const HEIGHT: f64 = 400.0;
const MARGIN: f64 = 50.0;

/// An SVG chart of Black's score after every move (exact values drawn solid, searched ones
/// dashed), with the moves that lost 2 discs or more marked.
pub(crate) fn chart(game: &Game, values: &[MoveValue]) -> String {
    let plies = game.plies().len().max(1) as f64;
    let extreme = values
        .iter()
        .map(|v| v.for_black().discs().abs())
        .fold(8.0, f64::max);
    let range = (extreme / 8.0).ceil() * 8.0;
    let x = |ply: f64| MARGIN + ply / plies * (WIDTH - 2.0 * MARGIN);
    let y = |discs: f64| HEIGHT / 2.0 - discs / range * (HEIGHT / 2.0 - MARGIN);
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" \
         viewBox=\"0 0 {WIDTH} {HEIGHT}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <title>Black's score through the game: {}</title>\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
        escape(&outcome(game))
    );
    // Grid: a line every 8 discs, the zero line darker; plies every 10.
    let mut discs = -range;
    while discs <= range {
        let colour = if discs == 0.0 { "#888" } else { "#ddd" };
        svg.push_str(&format!(
            "<line x1=\"{MARGIN}\" y1=\"{0:.1}\" x2=\"{1}\" y2=\"{0:.1}\" stroke=\"{colour}\"/>\n\
             <text x=\"{2}\" y=\"{3:.1}\" text-anchor=\"end\">{4}</text>\n",
            y(discs),
            WIDTH - MARGIN,
            MARGIN - 6.0,
            y(discs) + 4.0,
            if discs == 0.0 {
                "0".to_string()
            } else {
                format!("{discs:+}")
            }
        ));
        discs += 8.0;
    }
    let mut ply = 0.0;
    while ply <= plies {
        svg.push_str(&format!(
            "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{ply}</text>\n",
            x(ply),
            HEIGHT - MARGIN + 18.0
        ));
        ply += 10.0;
    }
    svg.push_str(&format!(
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">move</text>\n\
         <text x=\"{}\" y=\"24\" text-anchor=\"middle\" font-size=\"14\">Black's score (discs) \
         after each move; result {}</text>\n\
         <text x=\"{}\" y=\"42\" text-anchor=\"middle\" fill=\"#555\">solid: exact; dashed: \
         searched; red: a move losing 2 discs or more</text>\n",
        WIDTH / 2.0,
        HEIGHT - 12.0,
        WIDTH / 2.0,
        escape(&outcome(game)),
        WIDTH / 2.0
    ));
    for exact in [false, true] {
        let points: Vec<String> = values
            .iter()
            .filter(|v| v.exact == exact)
            .map(|v| format!("{:.1},{:.1}", x(v.ply as f64), y(v.for_black().discs())))
            .collect();
        if points.is_empty() {
            continue;
        }
        let dash = if exact {
            ""
        } else {
            " stroke-dasharray=\"4 3\""
        };
        svg.push_str(&format!(
            "<polyline class=\"{}\" points=\"{}\" fill=\"none\" stroke=\"#1f5fbf\" \
             stroke-width=\"2\"{dash}/>\n",
            if exact { "exact" } else { "searched" },
            points.join(" ")
        ));
    }
    for v in values.iter().filter(|v| v.loss().discs() >= 2.0) {
        svg.push_str(&format!(
            "<circle class=\"mistake\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"4\" fill=\"#d02020\">\
             <title>{} {} {}: loses {:.2} (best {})</title></circle>\n",
            x(v.ply as f64),
            y(v.for_black().discs()),
            v.ply,
            v.color,
            v.played,
            v.loss().discs(),
            v.best
        ));
    }
    svg.push_str("</svg>\n");
    svg
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_valued_move_by_move_and_exactly_at_the_end() {
        // A whole game the engine plays against itself at depth 2; the last 12 empties
        // valued exactly.
        let mut engine = Engine::new(Config {
            hash_mib: 4,
            ..Config::default()
        })
        .unwrap();
        let mut game = Game::standard(8).unwrap();
        let limits = Limits {
            depth: Some(2),
            ..Limits::default()
        };
        while !game.is_over() {
            let position = *game.position();
            let report = engine.search(&position, &limits, &mut |_| {});
            game.play(report.best).unwrap();
        }
        let mut engine = Engine::new(Config {
            hash_mib: 16,
            ..Config::default()
        })
        .unwrap();
        let mut calls = 0;
        let values = analyse(&mut engine, &game, 2, 12, &mut |_, _| calls += 1);
        let moves = game.plies().iter().filter(|p| p.mv != Move::Pass).count();
        assert_eq!(values.len(), moves);
        assert_eq!(calls, moves);
        for v in &values {
            assert!(v.loss().hundredths() >= 0, "{v:?}");
            assert_eq!(v.exact, v.empties <= 12, "{v:?}");
            if v.played == v.best {
                assert_eq!(v.value, v.best_value, "{v:?}");
            }
        }
        // Exact values: the last move's value is the final result for its mover.
        let last = values.last().unwrap();
        let position = game.positions()[last.ply - 1];
        let after = position.play(last.played).unwrap();
        assert!(after.is_game_over());
        assert_eq!(
            last.value,
            Score::from_discs(after.final_score_for(last.color))
        );
        let svg = chart(&game, &values);
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.contains("<polyline class=\"exact\""));
        assert!(svg.ends_with("</svg>\n"));
    }
}
