//! `emilia book`: builds, scores, inspects, merges, teaches and checks opening books.

use super::signals::{stop_on_signals, STOP};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use super::args::Args;
use super::output::{duration_text, note, out, Stdout};
use crate::book_builder::build::{self, BuildOptions};
use crate::book_builder::deepen::{DeepenOptions, Deepener, Progress};
use crate::book_builder::expand::{self, ExpandOptions};
use crate::book_builder::{coverage, games, verify};
use crate::protocol::diagram::diagram;
use emilia_core::board::{AnyBoard, Board, BoardSize, Position, Square};
use emilia_core::book::{format, Backing, Book, Key, Leaf, Shard};
use emilia_core::eval::pattern::symmetry;

const HELP: &str = "\
Usage: emilia book <subcommand> ...

Opening books: 8x8 positions that enough games reached, with a value for every examined
move from the engine's own search (see book.md).

  build --out FILE [--min-games N] [--max-ply P] [--force] <.wtb file or directory>...
        a book of the positions at which at least N games (default 2) played a move,
        within their first P moves (default 60), linked by the moves played; not scored
  deepen BOOK [--depth D] [--solve E] [--hash MIB] [--save-every S] [--shard i/N --out F]
        scores the book: at every position the best move that is no link is searched to
        depth D (default 18), or solved exactly with at most E empty squares (default 24),
        then values are carried up the links. Saves every S seconds (default 60) and when
        stopped (Ctrl-C, SIGTERM), then exits with failure; run it again to resume.
        --shard: only part i (from 0) of N of the positions, split by a hash. --out: the
        leaves scored (the shard's) go to F, which a run resumes from, and BOOK is left as
        it is; `merge` unites BOOK and the parts' files
  show [--book FILE] <transcript | squares side>
        the book's moves and values in a position (default: the built-in book)
  stat [BOOK]
        positions, links, depths, share of exact leaves (default: the built-in book)
  merge --out FILE [--force] BOOK BOOK...
        one book of several; leaves that became links are left unscored for deepen
  learn BOOK <games file>... [--depth D] [--solve E] [--hash MIB]
        adds the lines of played games (WTHOR .wtb, GGF, transcripts one a line, or the
        results file of emilia match) down to E empty squares, then scores what is new
  verify [--book FILE] [--sample N] [--seed S] [--hash MIB]
        compares N random positions (default 200) with fresh searches at the book's depth
  expand BOOK [--max-ply P] [--margin M]
        at every scored position after at most P moves (default 20), makes the best move
        that is no link a link when it is at most M discs worse than the best (default 1),
        and adds the position it leads to, unscored: deepen scores it; repeat both to grow
        the book where the engine's own play goes
  coverage [--book FILE] <games file>...
        replays the games and reports how many plies each stays in the book (positions
        in it with every move scored): the median, and the share staying 16 and 20 plies
";

/// Runs `emilia book`.
pub fn run(args: &[String]) -> Result<()> {
    let (command, rest) = match args.split_first() {
        Some((first, rest)) => (first.as_str(), rest),
        None => ("--help", &[][..]),
    };
    match command {
        "-h" | "--help" | "help" => out!("{HELP}"),
        "build" => build_cmd(rest),
        "deepen" => deepen_cmd(rest),
        "show" => show_cmd(rest),
        "stat" => stat_cmd(rest),
        "merge" => merge_cmd(rest),
        "learn" => learn_cmd(rest),
        "verify" => verify_cmd(rest),
        "coverage" => coverage_cmd(rest),
        "expand" => expand_cmd(rest),
        other => bail!("unknown book subcommand '{other}'\n\n{HELP}"),
    }
}

fn parse(args: &[String], valued: &[(&str, usize)], flags: &[&str]) -> Result<Option<Args>> {
    let args = Args::parse(args, valued)?;
    if args.flag("help") {
        out!("{HELP}")?;
        return Ok(None);
    }
    args.reject_unknown_flags(flags)?;
    Ok(Some(args))
}

/// `--out FILE`, refused when the file exists unless `--force`.
fn output_path(args: &Args) -> Result<PathBuf> {
    let Some(out) = args.value("out") else {
        bail!("--out FILE is required\n\n{HELP}");
    };
    let out = PathBuf::from(out);
    super::output::refuse_existing(&out, args.flag("force"))?;
    Ok(out)
}

/// The book at `path`, or the built-in one.
fn load(path: Option<&str>) -> Result<Book> {
    match path {
        Some(path) => Ok(format::read(Path::new(path))?),
        None => Ok(Book::embedded()?.as_ref().clone()),
    }
}

fn deepen_options(args: &Args) -> Result<DeepenOptions> {
    let defaults = DeepenOptions::default();
    let options = DeepenOptions {
        depth: args.get("depth", defaults.depth)?,
        solve_empties: args.get("solve", defaults.solve_empties)?,
        hash_mib: args.table_mib("hash", defaults.hash_mib)?,
        shard: match args.value("shard") {
            Some(text) => text.parse::<Shard>()?,
            None => Shard::WHOLE,
        },
    };
    if !(1..=60).contains(&options.depth) {
        bail!("--depth {} is out of range 1 to 60", options.depth);
    }
    if options.solve_empties > 30 {
        bail!(
            "--solve {}: exact solves beyond 30 empty squares would take days",
            options.solve_empties
        );
    }
    Ok(options)
}

fn build_cmd(args: &[String]) -> Result<()> {
    let Some(args) = parse(
        args,
        &[("out", 1), ("min-games", 1), ("max-ply", 1)],
        &["force"],
    )?
    else {
        return Ok(());
    };
    let out = output_path(&args)?;
    if args.positional.is_empty() {
        bail!("no game files given\n\n{HELP}");
    }
    let defaults = BuildOptions::default();
    let options = BuildOptions {
        min_games: args.get("min-games", defaults.min_games)?,
        max_ply: args.get("max-ply", defaults.max_ply)?,
    };
    if options.min_games == 0 {
        bail!("--min-games must be at least 1");
    }
    let start = Instant::now();
    let paths: Vec<PathBuf> = args.positional.iter().map(PathBuf::from).collect();
    let files = crate::train::games::game_files(&paths)?;
    let mut all = Vec::new();
    for file in &files {
        let read = games::read_wthor(file)?;
        note(&format!("read {}: {} games", file.display(), read.len()));
        all.extend(read);
    }
    note(&format!(
        "{} games from {} files; keeping positions at least {} reached",
        all.len(),
        files.len(),
        options.min_games
    ));
    let book = build::build(&all, &options);
    format::write(&book, &out)?;
    note(&format!(
        "wrote {}: {} positions in {:.1} s; score it with `emilia book deepen {}`",
        out.display(),
        book.len(),
        start.elapsed().as_secs_f64(),
        out.display()
    ));
    Ok(())
}

fn progress_text(p: &Progress) -> String {
    let each = |time: Duration, n: usize| {
        if n == 0 {
            "-".to_string()
        } else {
            format!("{:.2} s", (time / n as u32).as_secs_f64())
        }
    };
    format!(
        "searched {}/{} ({} each), solved {}/{} ({} each), {} so far, {}",
        p.searched,
        p.to_search,
        each(p.search_time, p.searched),
        p.solved,
        p.to_solve,
        each(p.solve_time, p.solved),
        duration_text(p.elapsed),
        match p.left() {
            _ if p.finished() => "done".to_string(),
            Some(left) => format!("about {} left", duration_text(left)),
            None => "time left not known yet".to_string(),
        }
    )
}

/// Scores `book` and saves it to `path` as it goes: the whole book, or with `leaves_only`
/// the leaves of the options' shard ([`Book::leaves_of`]).
fn deepen_and_save(
    book: &mut Book,
    path: &Path,
    options: DeepenOptions,
    every: Duration,
    leaves_only: bool,
) -> Result<()> {
    stop_on_signals();
    let mut deepener = Deepener::new(options);
    let mut save = |book: &Book| -> Result<(), format::BookFileError> {
        if leaves_only {
            format::write(&book.leaves_of(options.shard), path)
        } else {
            format::write(book, path)
        }
    };
    let progress = deepener.run(book, &STOP, every, &mut save, &mut |p| {
        note(&format!("deepen: {}", progress_text(p)))
    })?;
    // A stopped run fails, so that a batch scheduler (or a script) that stopped it does not
    // take the unfinished book for a finished one.
    if !progress.finished() {
        bail!(
            "stopped before every position was scored; saved {}: run the same command again \
             to go on",
            path.display()
        );
    }
    note(&format!("saved {}: every position scored", path.display()));
    Ok(())
}

fn deepen_cmd(args: &[String]) -> Result<()> {
    let Some(args) = parse(
        args,
        &[
            ("depth", 1),
            ("solve", 1),
            ("hash", 1),
            ("save-every", 1),
            ("shard", 1),
            ("out", 1),
        ],
        &[],
    )?
    else {
        return Ok(());
    };
    let [path] = &args.positional[..] else {
        bail!("expected one book file\n\n{HELP}");
    };
    let options = deepen_options(&args)?;
    let every = Duration::from_secs(args.get("save-every", 60u64)?.max(1));
    let mut book = format::read(Path::new(path))?;
    // With --out the leaves scored go to a file of their own (a shard's, or all of them),
    // which a stopped run resumes from; the book is left as it is.
    let path = match args.value("out") {
        None if options.shard != Shard::WHOLE => {
            bail!("--shard needs --out FILE for the shard's leaves")
        }
        None => PathBuf::from(path),
        Some(out) => {
            let out = PathBuf::from(out);
            if out.exists() {
                let done = format::read(&out)?;
                note(&format!(
                    "{}: resuming from its {} leaves",
                    out.display(),
                    done.len()
                ));
                book.merge(&done);
            }
            out
        }
    };
    note(&format!(
        "{}: {} positions; depth {}, exact from {} empty squares; shard {}",
        path.display(),
        book.len(),
        options.depth,
        options.solve_empties,
        options.shard
    ));
    deepen_and_save(
        &mut book,
        &path,
        options,
        every,
        args.value("out").is_some(),
    )
}

fn learn_cmd(args: &[String]) -> Result<()> {
    let Some(args) = parse(args, &[("depth", 1), ("solve", 1), ("hash", 1)], &[])? else {
        return Ok(());
    };
    let [path, files @ ..] = &args.positional[..] else {
        bail!("expected a book file and game files\n\n{HELP}");
    };
    if files.is_empty() {
        bail!("no game files given\n\n{HELP}");
    }
    let options = deepen_options(&args)?;
    let path = Path::new(path);
    let mut book = format::read(path)?;
    let mut lines = Vec::new();
    for file in files {
        lines.extend(games::read(Path::new(file))?);
    }
    let learned = build::learn(&mut book, &lines, options.solve_empties);
    note(&format!(
        "{} games: {} new positions, {} new links",
        learned.games, learned.positions, learned.links
    ));
    deepen_and_save(&mut book, path, options, Duration::from_secs(60), false)
}

fn merge_cmd(args: &[String]) -> Result<()> {
    let Some(args) = parse(args, &[("out", 1)], &["force"])? else {
        return Ok(());
    };
    let out = output_path(&args)?;
    let [first, others @ ..] = &args.positional[..] else {
        bail!("no books to merge\n\n{HELP}");
    };
    let mut book = format::read(Path::new(first))?;
    for other in others {
        book.merge(&format::read(Path::new(other))?);
    }
    format::write(&book, &out)?;
    let unscored = build::unscored(&book);
    note(&format!(
        "wrote {}: {} positions{}",
        out.display(),
        book.len(),
        if unscored > 0 {
            format!(", {unscored} to score with `emilia book deepen`")
        } else {
            String::new()
        }
    ));
    Ok(())
}

/// Reads a position: `squares side`, or a transcript from the start (empty: the start).
fn position_of(words: &[String]) -> Result<Position> {
    if let [squares, side] = words {
        if squares.len() == 64 {
            return Ok(Position::from_parts(squares, side)?);
        }
    }
    let start = Position::start_of(BoardSize::EIGHT);
    let text = words.concat();
    if text.eq_ignore_ascii_case("start") {
        return Ok(start);
    }
    let (position, _) = start
        .play_transcript(&text)
        .with_context(|| format!("malformed transcript '{text}'"))?;
    Ok(position)
}

fn show_cmd(args: &[String]) -> Result<()> {
    // Board squares may start with "--": take them out before option parsing.
    let is_squares = |a: &String| a.len() == 64 && a.chars().all(|c| "XOxo*-._".contains(c));
    let squares: Vec<String> = args.iter().filter(|a| is_squares(a)).cloned().collect();
    let rest: Vec<String> = args.iter().filter(|a| !is_squares(a)).cloned().collect();
    let Some(mut args) = parse(&rest, &[("book", 1)], &[])? else {
        return Ok(());
    };
    args.positional.splice(0..0, squares);
    let position = position_of(&args.positional)?;
    let book = load(args.value("book"))?;
    let AnyBoard::Eight(board) = position.board else {
        bail!("books are 8x8 only");
    };
    let mut out = Stdout;
    writeln!(out, "{}", diagram(&position, true))?;
    let (key, _) = Key::of(&board);
    let Some(node) = book.node(&key) else {
        writeln!(out, "Not in the book.")?;
        return Ok(());
    };
    let value = match node.value() {
        Some((v, b)) => format!("value {:+.2} ({b})", v as f64 / 100.0),
        None => "not fully scored yet".to_string(),
    };
    writeln!(out, "In the book: {} games, {value}.", node.games)?;
    let Some(scores) = book.scores(&board) else {
        return Ok(());
    };
    writeln!(out, "move  value  backing    games")?;
    for s in scores {
        writeln!(
            out,
            "{:<4} {:+6.2}  {:<9} {:>6}",
            Square::from_index(s.square, 8).to_string(),
            s.value as f64 / 100.0,
            s.backing.to_string(),
            s.games
        )?;
    }
    Ok(())
}

fn stat_cmd(args: &[String]) -> Result<()> {
    let Some(args) = parse(args, &[], &[])? else {
        return Ok(());
    };
    let path = match &args.positional[..] {
        [] => None,
        [path] => Some(path.as_str()),
        _ => bail!("expected at most one book file\n\n{HELP}"),
    };
    let started = Instant::now();
    let book = load(path)?;
    let load_time = started.elapsed();
    let bytes = format::encode(&book).len();
    let mut out = Stdout;
    writeln!(
        out,
        "positions: {} ({:.2} MB), read and checked in {:.1} ms",
        book.len(),
        bytes as f64 / 1e6,
        load_time.as_secs_f64() * 1e3
    )?;
    // What a move from the book costs: every position looked up in one of its eight
    // orientations, all of its moves scored.
    let boards: Vec<emilia_core::board::Board8> = book
        .nodes()
        .enumerate()
        .map(|(i, (key, _))| emilia_core::board::Board8 {
            player: symmetry::bits(i % symmetry::COUNT, key.player),
            opponent: symmetry::bits(i % symmetry::COUNT, key.opponent),
        })
        .collect();
    let started = Instant::now();
    let found = boards.iter().filter(|b| book.scores(b).is_some()).count();
    let lookup = started.elapsed().as_secs_f64() / boards.len().max(1) as f64;
    writeln!(
        out,
        "lookup with every move scored: {:.2} µs a position ({found} of {} found)",
        lookup * 1e6,
        boards.len()
    )?;
    let links: usize = book.nodes().map(|(_, n)| n.links.len()).sum();
    let scored = book.nodes().filter(|(_, n)| n.value().is_some()).count();
    writeln!(out, "links: {links}; positions fully scored: {scored}")?;
    let mut depths: std::collections::BTreeMap<Backing, usize> = Default::default();
    let mut nothing = 0;
    for (_, node) in book.nodes() {
        match &node.leaf {
            Leaf::Move(m) => *depths.entry(m.backing).or_default() += 1,
            Leaf::Unscored => *depths.entry(Backing::Unscored).or_default() += 1,
            Leaf::Nothing => nothing += 1,
        }
    }
    let leaves: usize = depths.values().sum();
    let exact = depths.get(&Backing::Exact).copied().unwrap_or(0);
    writeln!(
        out,
        "leaves: {leaves}, exact {exact} ({:.1} %); positions with every move a link: {nothing}",
        100.0 * exact as f64 / leaves.max(1) as f64
    )?;
    for (backing, count) in &depths {
        writeln!(out, "  {backing}: {count}")?;
    }
    // A position's value rests on the weakest of its moves' backings.
    let mut backings: std::collections::BTreeMap<Backing, usize> = Default::default();
    for (_, node) in book.nodes() {
        let backing = node.value().map_or(Backing::Unscored, |(_, b)| b);
        *backings.entry(backing).or_default() += 1;
    }
    let exact = backings.get(&Backing::Exact).copied().unwrap_or(0);
    let spread: Vec<String> = backings.iter().map(|(b, n)| format!("{b}: {n}")).collect();
    writeln!(
        out,
        "positions by the backing of their value: {}; exact {:.1} %",
        spread.join(", "),
        100.0 * exact as f64 / book.len().max(1) as f64
    )?;
    let mut plies: std::collections::BTreeMap<u32, usize> = Default::default();
    for (key, _) in book.nodes() {
        *plies
            .entry((60 - key.board().empties()) / 10 * 10)
            .or_default() += 1;
    }
    let spread: Vec<String> = plies
        .iter()
        .map(|(p, n)| format!("{p}-{}: {n}", p + 9))
        .collect();
    writeln!(out, "positions by moves played: {}", spread.join(", "))?;
    if let Some((v, b)) = book
        .node(&Key::of(&emilia_core::board::Board8::START).0)
        .and_then(|n| n.value())
    {
        writeln!(
            out,
            "start position: {:+.2} for Black ({b})",
            v as f64 / 100.0
        )?;
    }
    Ok(())
}

fn expand_cmd(args: &[String]) -> Result<()> {
    let Some(args) = parse(args, &[("max-ply", 1), ("margin", 1)], &[])? else {
        return Ok(());
    };
    let [path] = &args.positional[..] else {
        bail!("expected one book file\n\n{HELP}");
    };
    let margin: f64 = args.get("margin", 1.0)?;
    if !(0.0..=128.0).contains(&margin) {
        bail!("--margin {margin} is out of range 0 to 128 discs");
    }
    let options = ExpandOptions {
        max_ply: args.get("max-ply", 20)?,
        margin: (margin * 100.0).round() as i32,
    };
    let path = Path::new(path);
    let mut book = format::read(path)?;
    let grown = expand::expand(&mut book, &options);
    format::write(&book, path)?;
    note(&format!(
        "{}: {} new links, {} new positions ({} in all); score them with `emilia book \
         deepen {}`",
        path.display(),
        grown.links,
        grown.positions,
        book.len(),
        path.display()
    ));
    Ok(())
}

fn coverage_cmd(args: &[String]) -> Result<()> {
    let Some(args) = parse(args, &[("book", 1)], &[])? else {
        return Ok(());
    };
    if args.positional.is_empty() {
        bail!("no game files given\n\n{HELP}");
    }
    let book = load(args.value("book"))?;
    let mut lines = Vec::new();
    for file in &args.positional {
        lines.extend(games::read(Path::new(file))?);
    }
    let found = coverage::coverage(&book, &lines);
    let mut out = Stdout;
    let summary = |plies: &[usize]| {
        format!(
            "median {:.1} plies, {:.1} % of games 16 plies or more, {:.1} % 20 or more",
            coverage::median(plies),
            100.0 * coverage::share_at_least(plies, 16),
            100.0 * coverage::share_at_least(plies, 20)
        )
    };
    writeln!(
        out,
        "{} games, {} book positions; in the book (every move scored): {}",
        lines.len(),
        book.len(),
        summary(&found.scored)
    )?;
    if found.present != found.scored {
        writeln!(
            out,
            "present in the book, scored or not: {}",
            summary(&found.present)
        )?;
    }
    Ok(())
}

fn verify_cmd(args: &[String]) -> Result<()> {
    let Some(args) = parse(
        args,
        &[("book", 1), ("sample", 1), ("seed", 1), ("hash", 1)],
        &[],
    )?
    else {
        return Ok(());
    };
    if !args.positional.is_empty() {
        bail!("unexpected argument '{}'\n\n{HELP}", args.positional[0]);
    }
    let book = load(args.value("book"))?;
    let sample: usize = args.get("sample", 200)?;
    let start = Instant::now();
    let agreement = verify::verify(
        &book,
        sample,
        args.get("seed", 1)?,
        args.table_mib("hash", 64)?,
        &mut |check, done| {
            log::info!(
                "{done}: book {:+.2} fresh {:+.2} ({}, {} links)",
                check.book as f64 / 100.0,
                check.fresh as f64 / 100.0,
                check.backing,
                book.node(&check.key).map_or(0, |n| n.links.len())
            );
            if done % 20 == 0 {
                note(&format!("verify: {done}/{sample}"));
            }
        },
    );
    let mut out = Stdout;
    let share = agreement.share_within(2);
    writeln!(
        out,
        "{} positions: {:.1} % within 2 discs of a fresh search, {:.1} % within 1; mean \
         difference {:.2} discs, largest {:.2}; {:.1} s",
        agreement.checks.len(),
        100.0 * share,
        100.0 * agreement.share_within(1),
        agreement.mean_difference(),
        agreement.worst(),
        start.elapsed().as_secs_f64()
    )?;
    writeln!(
        out,
        "goal: at least 95 % within 2 discs: {}",
        if share >= 0.95 { "met" } else { "not met" }
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_read_from_transcripts_and_boards() {
        let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let start = Position::start(8).unwrap();
        assert_eq!(position_of(&words(&["start"])).unwrap(), start);
        assert_eq!(position_of(&[]).unwrap(), start);
        let after = position_of(&words(&["f5d6", "c3"])).unwrap();
        assert_eq!(after, start.play_transcript("f5d6c3").unwrap().0);
        let board = position_of(&words(&[&start.squares_string(), "X"])).unwrap();
        assert_eq!(board, start);
        let err = position_of(&words(&["f5f5"])).unwrap_err();
        assert!(
            format!("{err:#}").contains("malformed transcript 'f5f5'"),
            "{err:#}"
        );
        assert!(board.board.has_moves());
    }
}
