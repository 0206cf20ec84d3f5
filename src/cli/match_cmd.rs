//! `emilia match`: plays two engines against each other and reports the score.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{anyhow, bail, Result};

use super::output::{self, out};
use crate::referee::{self, openings, EngineSpec, MatchConfig, Protocol, TimeControl};
use emilia_core::board::BoardSize;

const HELP: &str = "\
Usage: emilia match --engine CMD [ENGINE OPTIONS] --engine CMD [ENGINE OPTIONS] [OPTIONS]

Plays games between two engines started as child processes and reports the score from the
first engine's point of view. The referee keeps its own board and clocks: an engine that
plays an illegal move, answers garbage, overruns its time, hangs or exits loses that game
(the reason goes to the results); one that played an illegal move plays on in the next
game, any other is restarted for it. Ctrl-C and other ending signals end the engines too.

  --engine CMD        an engine's command line, e.g. \"emilia --player greedy\" or
                      \"edax -gtp\"; words split as a shell would
Engine options (after its --engine):
  proto=gtp|nboard    its protocol (default gtp; NTest and Edax -nboard speak nboard)
  name=NAME           its name in reports (default: the command)
  dir=DIR             its working directory
  depth=N             its search depth (NBoard engines, which have no time commands)
  tc=S[+I]            its own game clock, over the match's (time odds)
  st=S                its own fixed time a move, over the match's
  stderr=show         show its stderr (discarded by default)

Options:
  --games N           games to play (default 2)
  --openings FILE     openings, one transcript a line (XOT format); each is played twice
                      with colours swapped, in file order (default: the start position,
                      colours alternating)
  --tc S[+I]          game clock: S seconds per side, plus I after each move (default 10)
  --st S              fixed time: S seconds a move
  --depth N           fixed depth a move (engines must take a depth)
  --size N            board side: 6, 8, 10 or 12 (default 8)
  --concurrency N     games played at the same time (default 1)
  --margin MS         grace beyond an engine's time before it forfeits (default 200)
  --timeout S         time to answer other commands, or a move at fixed depth (default 30)
  --results FILE      write every game (players, result, reason, transcript), tab-separated
  --ggf FILE          write every game as a GGF record
  --force             replace an existing --results or --ggf file (refused without)
";

/// Parses a number of seconds (`1.5`) into a duration.
fn seconds(text: &str, what: &str) -> Result<Duration> {
    let value: f64 = text
        .parse()
        .map_err(|_| anyhow!("{what}: '{text}' is not a number of seconds"))?;
    Duration::try_from_secs_f64(value).map_err(|_| anyhow!("{what}: {text} s is out of range"))
}

/// Parses a game clock (`4+0.05`: seconds per side, plus seconds after each move).
fn clock(text: &str, what: &str) -> Result<TimeControl> {
    let (base, increment) = text.split_once('+').unwrap_or((text, "0"));
    Ok(TimeControl::Clock {
        base: seconds(base, what)?,
        increment: seconds(increment, &format!("{what} increment"))?,
    })
}

fn number<T: std::str::FromStr>(text: &str, what: &str) -> Result<T> {
    text.parse()
        .map_err(|_| anyhow!("{what}: '{text}' is not a valid number"))
}

/// Applies an engine option word (`proto=nboard`) to `spec`.
fn engine_option(spec: &mut EngineSpec, word: &str) -> Result<()> {
    let (key, value) = word
        .split_once('=')
        .ok_or_else(|| anyhow!("'{word}': engine options look like key=value"))?;
    match key {
        "proto" | "protocol" => {
            spec.protocol = match value.to_ascii_lowercase().as_str() {
                "gtp" => Protocol::Gtp,
                "nboard" => Protocol::Nboard,
                _ => bail!("proto={value}: expected gtp or nboard"),
            }
        }
        "name" => spec.name = Some(value.to_string()),
        "dir" => spec.dir = Some(PathBuf::from(value)),
        "depth" => spec.depth = Some(number(value, "depth")?),
        "tc" => spec.time = Some(clock(value, "tc")?),
        "st" => spec.time = Some(TimeControl::MoveTime(seconds(value, "st")?)),
        "stderr" => spec.stderr = matches!(value, "show" | "yes" | "1" | "true"),
        _ => bail!("unknown engine option '{key}': use proto, name, dir, depth, tc, st or stderr"),
    }
    Ok(())
}

/// Reads the command line into a match configuration.
pub(crate) fn parse(args: &[String]) -> Result<Option<MatchConfig>> {
    let mut engines: Vec<EngineSpec> = Vec::new();
    let mut games = 2usize;
    let mut openings_file: Option<String> = None;
    let mut time = None;
    let mut size = BoardSize::EIGHT;
    let mut concurrency = 1usize;
    let mut margin = Duration::from_millis(200);
    let mut timeout = Duration::from_secs(30);
    let mut results = None;
    let mut ggf = None;
    let mut force = false;
    let mut words = args.iter();
    while let Some(word) = words.next() {
        let mut value = |name: &str| {
            words
                .next()
                .cloned()
                .ok_or_else(|| anyhow!("{name} needs a value"))
        };
        match word.as_str() {
            "-h" | "--help" => return Ok(None),
            "--engine" => engines.push(EngineSpec::gtp(&value("--engine")?)),
            "--games" => games = number(&value("--games")?, "--games")?,
            "--openings" => openings_file = Some(value("--openings")?),
            "--tc" => time = Some(clock(&value("--tc")?, "--tc")?),
            "--st" => time = Some(TimeControl::MoveTime(seconds(&value("--st")?, "--st")?)),
            "--depth" => time = Some(TimeControl::Depth(number(&value("--depth")?, "--depth")?)),
            "--size" => {
                let text = value("--size")?;
                size = text.parse().map_err(|e| anyhow!("--size {text}: {e}"))?;
            }
            "--concurrency" => concurrency = number(&value("--concurrency")?, "--concurrency")?,
            "--margin" => margin = Duration::from_millis(number(&value("--margin")?, "--margin")?),
            "--timeout" => timeout = seconds(&value("--timeout")?, "--timeout")?,
            "--results" => results = Some(PathBuf::from(value("--results")?)),
            "--ggf" => ggf = Some(PathBuf::from(value("--ggf")?)),
            "--force" => force = true,
            option if option.contains('=') && !option.starts_with('-') => {
                let spec = engines
                    .last_mut()
                    .ok_or_else(|| anyhow!("engine option '{option}' before any --engine"))?;
                engine_option(spec, option)?;
            }
            other => bail!("unknown argument '{other}'; `emilia match --help` lists them"),
        }
    }
    let [first, second]: [EngineSpec; 2] = engines
        .try_into()
        .map_err(|_| anyhow!("a match needs exactly two --engine options"))?;
    let mut config = MatchConfig::new(first, second, games);
    if let Some(time) = time {
        config.time = time;
    }
    config.size = size;
    config.concurrency = concurrency;
    config.margin = margin;
    config.timeout = timeout;
    for path in results.iter().chain(&ggf) {
        output::refuse_existing(path, force)?;
    }
    config.results = results;
    config.ggf = ggf;
    if let Some(file) = openings_file {
        let text = emilia_core::files::read_text(Path::new(&file), crate::files::OPENINGS)?;
        config.openings = openings::parse(&text, size, &file)?;
        config.openings_source = Some(file);
    }
    Ok(Some(config))
}

/// Runs `emilia match`.
pub(crate) fn run(args: &[String]) -> Result<()> {
    let Some(config) = parse(args)? else {
        out!("{HELP}")?;
        return Ok(());
    };
    if let Some(warning) = concurrency_warning(&config, available_cores()) {
        output::note(&warning);
    }
    let outcome = referee::run(&config, &mut |line| output::note(line))?;
    out!("{}", outcome.report)?;
    Ok(())
}

/// The cores this process may run on (1 if the system does not say).
fn available_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A warning when more games run at once than there are `cores` under a clock: engines
/// that share a core think slower than their clocks run and lose games on time (64 games
/// at 0.01 s a move on two cores forfeited 5). Played anyway: a user may mean it, and a
/// fixed depth has no clock to lose.
fn concurrency_warning(config: &MatchConfig, cores: usize) -> Option<String> {
    let at_once = config.concurrency.min(config.games);
    let timed = !matches!(config.time, TimeControl::Depth(_));
    (timed && at_once > cores).then(|| {
        format!(
            "warning: --concurrency {}: {at_once} games at once on {cores} cores; engines \
             that share a core think slower than their clocks run and may lose on time \
             (at most {cores} keeps the clocks fair)",
            config.concurrency
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<String> {
        crate::referee::engine_process::split_command_line(text).unwrap()
    }

    #[test]
    fn engines_take_their_own_options() {
        let config = parse(&args(
            "--engine 'emilia --player greedy' name=greedy --engine ./ntest proto=nboard \
             depth=12 dir=/tmp --games 10 --tc 5+0.1 --size 8 --concurrency 2",
        ))
        .unwrap()
        .unwrap();
        assert_eq!(config.engines[0].command, "emilia --player greedy");
        assert_eq!(config.engines[0].name.as_deref(), Some("greedy"));
        assert_eq!(config.engines[1].protocol, Protocol::Nboard);
        assert_eq!(config.engines[1].depth, Some(12));
        assert_eq!(config.games, 10);
        assert_eq!(
            config.time,
            TimeControl::Clock {
                base: Duration::from_secs(5),
                increment: Duration::from_millis(100)
            }
        );
        assert_eq!(config.concurrency, 2);
        assert_eq!(config.engines[0].time, None, "the match's clock");
    }

    #[test]
    fn an_engine_may_have_its_own_time() {
        let config = parse(&args(
            "--engine a tc=60+1 --engine b st=0.25 --tc 4+0.05 --games 2",
        ))
        .unwrap()
        .unwrap();
        assert_eq!(
            config.engines[0].time,
            Some(TimeControl::Clock {
                base: Duration::from_secs(60),
                increment: Duration::from_secs(1)
            })
        );
        assert_eq!(
            config.engines[1].time,
            Some(TimeControl::MoveTime(Duration::from_millis(250)))
        );
        assert_eq!(
            config.time,
            TimeControl::Clock {
                base: Duration::from_secs(4),
                increment: Duration::from_millis(50)
            }
        );
    }

    #[test]
    fn mistakes_are_explained() {
        let error = |text: &str| parse(&args(text)).err().unwrap().to_string();
        assert!(error("--engine a").contains("exactly two"));
        assert!(error("proto=gtp --engine a --engine b").contains("before any --engine"));
        assert!(error("--engine a proto=uci --engine b").contains("gtp or nboard"));
        assert!(error("--engine a --engine b --st fast").contains("--st"));
        assert!(error("--engine a tc=4+x --engine b").contains("tc increment"));
        assert!(error("--engine a st=-1 --engine b").contains("st"));
        assert!(error("--engine a --engine b --bogus").contains("--bogus"));
        assert!(parse(&args("--help")).unwrap().is_none());
    }

    #[test]
    fn more_timed_games_at_once_than_cores_are_warned_of() {
        let config = |text: &str| parse(&args(text)).unwrap().unwrap();
        let many = config("--engine a --engine b --games 64 --concurrency 64 --st 0.01");
        let warning = concurrency_warning(&many, 2).unwrap();
        assert!(warning.contains("64 games at once on 2 cores"), "{warning}");
        assert_eq!(concurrency_warning(&many, 64), None);
        // Fewer games than the concurrency: only the games count.
        let few = config("--engine a --engine b --games 2 --concurrency 64");
        assert_eq!(concurrency_warning(&few, 2), None);
        let deep = config("--engine a --engine b --games 64 --concurrency 64 --depth 3");
        assert_eq!(concurrency_warning(&deep, 2), None);
    }
}
