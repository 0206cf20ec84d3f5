//! `emilia solve`: exact endgame solving of one position or of every position of a file, with
//! nodes, time and speed, checked against the file's scores when it has them.

use anyhow::{anyhow, bail, Context, Result};
use std::path::Path;
use std::time::Instant;

use super::args::Args;
use super::cpu_time::cpu_seconds;
use super::output::{note, out, outln};
use emilia_core::board::{BoardSize, Move, Position, SIZES};
use emilia_core::endgame::{Solver, DEFAULT_TABLE_MIB};
use emilia_core::formats::obf::{read_endgames, read_obf, Record};

const HELP: &str = "\
Usage: emilia solve <squares> <side>
       emilia solve --size N
       emilia solve --obf <file>
       emilia solve --endgames <file>

Solves positions exactly: the final disc difference for the side to move under perfect
play (empty squares to the winner) and a best move, with nodes, time and nodes per second.

  <squares> <side>   36, 64, 100 or 144 squares of X, O and - (a1, b1, ... row by row),
                     then X or O to move
  --size N           the start position of the N x N board (6, 8, 10 or 12)
  --obf FILE         every position of an OBF file (`<squares> <X|O>; MOVE:SCORE; ...`),
                     each checked against the file's best score and moves; a line on
                     stderr names each position as its solve starts
  --endgames FILE    every position of an endgame list (`<squares> <Black|White>
                     <move index> <score for Black>`), checked likewise
  --first N          only the first N positions of the file
  --table MIB        transposition table size in MiB (default 64)
  --outcome          prove only whether the side to move wins, draws or loses (half the
                     time of an exact solve in close positions, far less in one-sided
                     ones): the score column says win, draw or loss, checked against the
                     sign of the file's score, and the move keeps that outcome
  --keep-table       keep the table from one position to the next (default: clear it)
  --threads N        threads of each solve, or all (default all: every core the system
                     offers); scores are the same at any count, node counts vary from run
                     to run with more than one
";

/// Runs `emilia solve`.
pub(crate) fn run(args: &[String]) -> Result<()> {
    // Board squares may start with "--": take them out before option parsing.
    let is_squares = |a: &String| {
        SIZES.iter().any(|s| a.len() == s * s) && a.chars().all(|c| "XOxo*-._".contains(c))
    };
    let squares: Vec<String> = args.iter().filter(|a| is_squares(a)).cloned().collect();
    let rest: Vec<String> = args.iter().filter(|a| !is_squares(a)).cloned().collect();
    let mut args = Args::parse(
        &rest,
        &[
            ("obf", 1),
            ("endgames", 1),
            ("first", 1),
            ("table", 1),
            ("size", 1),
            ("threads", 1),
        ],
    )?;
    args.positional.splice(0..0, squares);
    if args.flag("help") {
        out!("{HELP}")?;
        return Ok(());
    }
    args.reject_unknown_flags(&["keep-table", "outcome"])?;
    let position = |position| Record {
        position,
        score: None,
        moves: Vec::new(),
    };
    let mut records = match (
        args.value("obf"),
        args.value("endgames"),
        args.value("size"),
        &args.positional[..],
    ) {
        (Some(path), None, None, []) => read_file(path, read_obf)?,
        (None, Some(path), None, []) => read_file(path, read_endgames)?,
        (None, None, None, [squares, side]) => {
            vec![position(Position::from_parts(squares, side)?)]
        }
        (None, None, Some(_), []) => {
            vec![position(Position::start_of(
                args.get("size", BoardSize::EIGHT)?,
            ))]
        }
        _ => bail!("expected a position, --size N, --obf FILE or --endgames FILE\n\n{HELP}"),
    };
    if let Some(first) = args.value("first") {
        let first: usize = first
            .parse()
            .map_err(|_| anyhow!("--first {first}: not a number"))?;
        records.truncate(first);
    }
    let threads = args.threads("all")?;
    let table_mib = args.table_mib("table", DEFAULT_TABLE_MIB)?;
    let mut solver = Solver::try_new(table_mib).map_err(|e| anyhow!("--table {table_mib}: {e}"))?;
    solver.set_threads(threads);
    let proof = if args.flag("outcome") {
        Proof::Outcome
    } else {
        Proof::Exact
    };
    let report = solve_records(&mut solver, &records, 1, !args.flag("keep-table"), proof)?;
    if report.wrong > 0 {
        bail!(
            "{} of {} scores differ from the file",
            report.wrong,
            records.len()
        );
    }
    Ok(())
}

fn read_file(
    path: &str,
    parse: fn(&str) -> Result<Vec<Record>, emilia_core::formats::obf::FormatError>,
) -> Result<Vec<Record>> {
    let text = emilia_core::files::read_text(Path::new(path), crate::files::POSITIONS)?;
    parse(&text).with_context(|| format!("in {path}"))
}

/// Totals over a run of [`solve_records`].
pub(crate) struct Report {
    /// Nodes over all positions.
    pub(crate) nodes: u64,
    /// Seconds over all positions.
    pub(crate) seconds: f64,
    /// Processor seconds over all positions, where the system reports them.
    pub(crate) cpu_seconds: Option<f64>,
    /// Positions whose score or move disagrees with the file.
    pub(crate) wrong: usize,
    /// Positions whose score differs from the file's only as a plain disc difference
    /// (empty squares not given to the winner) would.
    pub(crate) plain: usize,
}

/// Whether `file`'s score could be the plain disc difference (empties left unawarded) of a
/// game whose world-rule score is `score`, with at most `empties` squares left empty.
fn plain_difference(score: i32, file: i32, empties: u32) -> bool {
    score.signum() == file.signum() && (1..=empties as i32).contains(&(score.abs() - file.abs()))
}

/// A solution's score as the score column shows it: the disc difference, or the outcome.
fn score_text(score: i32, proof: Proof) -> String {
    match (proof, score.signum()) {
        (Proof::Exact, _) => format!("{score:+}"),
        (Proof::Outcome, 1) => "win".to_string(),
        (Proof::Outcome, 0) => "draw".to_string(),
        (Proof::Outcome, _) => "loss".to_string(),
    }
}

/// The move's name on a board of side `size`: its square, `pass`, or `end` when neither
/// side can move.
fn move_name(best: Move, game_over: bool) -> String {
    match best {
        Move::Play(square) => square.to_string(),
        Move::Pass if game_over => "end".to_string(),
        Move::Pass => "pass".to_string(),
    }
}

/// What a solve proves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Proof {
    /// The exact final disc difference.
    Exact,
    /// Only whether the side to move wins, draws or loses ([`Solver::solve_wld`]).
    Outcome,
}

/// Solves every record, printing a line each (numbered from `first_number`) and a total line;
/// clears the table before each position when `clear` is set.
pub(crate) fn solve_records(
    solver: &mut Solver,
    records: &[Record],
    first_number: usize,
    clear: bool,
    proof: Proof,
) -> Result<Report> {
    outln!(
        "{:>4} {:>7} {:>5} {:>6} {:>14} {:>9} {:>9} {:>12}  check",
        "#",
        "empties",
        "move",
        "score",
        "nodes",
        "seconds",
        "cpu s",
        "nodes/s"
    )?;
    let mut report = Report {
        nodes: 0,
        seconds: 0.0,
        cpu_seconds: Some(0.0),
        wrong: 0,
        plain: 0,
    };
    for (i, record) in records.iter().enumerate() {
        let board = &record.position.board;
        if clear {
            solver.clear();
        }
        let (_, _, empties) = board.counts();
        if records.len() > 1 {
            // Progress: a hard position can take minutes before its line is printed.
            note(&format!(
                "solving #{} ({} of {}, {empties} empties)",
                i + first_number,
                i + 1,
                records.len()
            ));
        }
        let (start, cpu_start) = (Instant::now(), cpu_seconds());
        let solution = match proof {
            Proof::Exact => solver.solve_exact(board),
            Proof::Outcome => solver.solve_wld(board).1,
        };
        let seconds = start.elapsed().as_secs_f64();
        let cpu_seconds = cpu_seconds().zip(cpu_start).map(|(end, start)| end - start);
        report.nodes += solution.nodes;
        report.seconds += seconds;
        report.cpu_seconds = report.cpu_seconds.zip(cpu_seconds).map(|(a, b)| a + b);
        let check = match record.score {
            None => String::new(),
            Some(expected) if proof == Proof::Outcome => {
                if solution.score.signum() == expected.signum() {
                    "ok".to_string()
                } else {
                    report.wrong += 1;
                    format!("WRONG: file says {expected:+}")
                }
            }
            Some(expected) => {
                let played = solution.best;
                if solution.score != expected && plain_difference(solution.score, expected, empties)
                {
                    report.plain += 1;
                    format!("file says {expected:+}: empties not given to the winner?")
                } else if solution.score != expected {
                    report.wrong += 1;
                    format!("WRONG: file says {expected:+}")
                } else if !record.best_moves().contains(&played) && record.moves.len() > 1 {
                    report.wrong += 1;
                    format!("WRONG MOVE: file's best is not {played}")
                } else {
                    "ok".to_string()
                }
            }
        };
        outln!(
            "{:>4} {:>7} {:>5} {:>6} {:>14} {:>9.3} {:>9} {:>12.0}  {check}",
            i + first_number,
            empties,
            move_name(solution.best, record.position.is_game_over()),
            score_text(solution.score, proof),
            solution.nodes,
            seconds,
            cpu_seconds.map_or("-".to_string(), |s| format!("{s:.3}")),
            solution.nodes as f64 / seconds.max(1e-9),
        )?;
    }
    outln!(
        "total: {} positions, {} nodes, {:.3} s{}, {:.0} nodes/s{}",
        records.len(),
        report.nodes,
        report.seconds,
        report
            .cpu_seconds
            .map_or(String::new(), |s| format!(" ({s:.3} s of processor time)")),
        report.nodes as f64 / report.seconds.max(1e-9),
        if records.iter().any(|r| r.score.is_some()) {
            let plain = match report.plain {
                0 => String::new(),
                n => format!(", {n} differing as plain disc differences"),
            };
            format!(", {} wrong{plain}", report.wrong)
        } else {
            String::new()
        }
    )?;
    Ok(report)
}
