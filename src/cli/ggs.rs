//! `emilia ggs`: plays on the Generic Game Server's Othello service (see docs/ggs.md).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};

use super::args::Args;
use super::engines::{new_engine_with_hash, EngineOptions};
use super::output::outln;
use super::signals::{stop_on_signals, STOP};
use crate::ggs::client::{Ask, Client, EngineMaker, Options};
use crate::ggs::clock::{self, Setting};
use crate::ggs::connection::Log;
use crate::ggs::message::GameType;
use crate::ggs::policy::{Policy, Rated};
use crate::ggs::record::Records;
use crate::protocol::session_log::SessionLog;
use emilia_core::board::BoardSize;
use emilia_core::search::Limits;

/// The environment variable that may hold the password.
const PASSWORD_VARIABLE: &str = "EMILIA_GGS_PASSWORD";
/// Longest password file read.
const MAX_PASSWORD_FILE: u64 = 4096;

const HELP: &str = "\
Usage: emilia ggs --login NAME [--password-file FILE] [options]

Plays on GGS, the Generic Game Server, in its Othello service /os: accepts the requests
the policy allows (and challenges with --ask), plays each game with its own engine within
the server's clocks, appends every finished game to a GGF file and prints a result line
for each. Ctrl-C or SIGTERM leaves the server cleanly. See docs/ggs.md.

Connection:
  --host H              server (default skatgame.net)
  --port P              port (default 5000; the server also listens on 4000)
  --login NAME          the account, 2 to 8 characters (created on a first login)
  --password-file FILE  the password, the file's first line; else the environment
                        variable EMILIA_GGS_PASSWORD (never on the command line)
  --keepalive S         an empty line after S seconds without sending (default 60)
  --reconnects N        attempts to reconnect after the connection drops (default 10)
Games:
  --open N              games played at once (default 1; a synchro pair counts once)
  --games N             leave once N games have finished (default: play on)
  --ask TYPE CLOCK WHO  challenge WHO once logged in, and again after each game until
                        --games end: --ask 8 05:00//01:00 bob
  --sizes LIST          board sizes accepted, of 6,8,10,12 (default all four)
  --no-synchro          decline synchro pairs (s8)
  --no-random           decline random starts (s8r20)
  --rated R             any, only or never (default any)
  --opponents LIST      accept requests from these logins only (comma-separated)
  --min-time T          least main time accepted, [mm:]ss (default 1)
  --max-time T          most main time accepted (default 60:00)
  --min-extension T     least extension accepted (default 0)
  (anti-Othello and komi games are always declined)
Engine:
  --threads N           search threads in all, shared by the games running (default all)
  --hash MIB            search tables of each game (default 64)
  --depth D             deepest midgame search, besides the clock
  --ponder              think on the opponent's time
  --lag S               seconds taken off the server's clock for each move still to
                        play, for the messages' time on the way (default 0.1)
Records:
  --record FILE         append each finished game to FILE as one GGF line
  --log FILE            append the session (every line both ways, the password
                        redacted, and the client's decisions) to FILE
Engine options before the subcommand (emilia --eval classic ggs ...) set every game's
engine.
";

/// Runs `emilia ggs`.
pub(crate) fn run(args: &[String], engine_options: &EngineOptions) -> Result<()> {
    let args = Args::parse(
        args,
        &[
            ("host", 1),
            ("port", 1),
            ("login", 1),
            ("password-file", 1),
            ("password", 1),
            ("keepalive", 1),
            ("reconnects", 1),
            ("open", 1),
            ("games", 1),
            ("ask", 3),
            ("sizes", 1),
            ("rated", 1),
            ("opponents", 1),
            ("min-time", 1),
            ("max-time", 1),
            ("min-extension", 1),
            ("threads", 1),
            ("hash", 1),
            ("depth", 1),
            ("lag", 1),
            ("record", 1),
            ("log", 1),
        ],
    )?;
    if args.flag("help") {
        return outln!("{HELP}");
    }
    args.reject_unknown_flags(&["no-synchro", "no-random", "ponder"])?;
    if let Some(extra) = args.positional.first() {
        bail!("unexpected argument '{extra}' (`emilia ggs --help` lists the options)");
    }
    if args.value("password").is_some() {
        bail!(
            "--password is not taken: a password on the command line shows in the process \
             list; give --password-file FILE or set {PASSWORD_VARIABLE}"
        );
    }
    let login = args
        .value("login")
        .ok_or_else(|| anyhow!("--login NAME is needed (`emilia ggs --help`)"))?
        .to_string();
    // The server's rule: 2 to 8 characters, not starting with '.' or '_', without ',' or '\\'.
    let allowed = |c: char| c.is_ascii_graphic() && c != ',' && c != '\\';
    if !(2..=8).contains(&login.len())
        || login.starts_with(['.', '_'])
        || !login.chars().all(allowed)
    {
        bail!(
            "--login {login:?}: GGS logins have 2 to 8 characters, not starting with '.' or \
             '_', without spaces, ',' or '\\'"
        );
    }
    let password = password(args.value("password-file").map(Path::new))?;
    let options = options(&args, login, password.clone())?;
    let hash = args.table_mib("hash", 64)?;
    let ponder = args.flag("ponder");
    let engine_options = engine_options.clone();
    let make_engine: EngineMaker = Arc::new(move || {
        let mut engine = new_engine_with_hash(&engine_options, hash)?;
        if ponder {
            engine.set_option("ponder", "on")?;
        }
        Ok(engine)
    });
    let session_log = match args.value("log") {
        Some(path) => {
            Some(SessionLog::open(Path::new(path)).with_context(|| format!("--log {path}"))?)
        }
        None => None,
    };
    let log = Log::new(session_log, &password);
    let record = args.value("record").map(PathBuf::from);
    let say = Box::new(|line: &str| {
        // A closed stdout stops no game: the records and the log still have it.
        let _ = outln!("{line}");
    });
    let records = Arc::new(Records::new(record, log.clone(), say));
    stop_on_signals();
    let mut client = Client::new(options, make_engine, log, records, &STOP);
    client.run()
}

/// The password: the first line of `file`, else the environment variable.
fn password(file: Option<&Path>) -> Result<String> {
    let text = match file {
        Some(path) => {
            let meta = std::fs::metadata(path)
                .with_context(|| format!("--password-file {}", path.display()))?;
            if !meta.is_file() || meta.len() > MAX_PASSWORD_FILE {
                bail!(
                    "--password-file {}: expected a small text file (at most {MAX_PASSWORD_FILE} bytes)",
                    path.display()
                );
            }
            std::fs::read_to_string(path)
                .with_context(|| format!("--password-file {}", path.display()))?
        }
        None => std::env::var(PASSWORD_VARIABLE).map_err(|_| {
            anyhow!("no password: give --password-file FILE or set {PASSWORD_VARIABLE}")
        })?,
    };
    let line = text.lines().next().unwrap_or("").trim().to_string();
    if line.is_empty() || line.chars().any(|c| c.is_control()) {
        bail!("the password is empty or holds control characters");
    }
    Ok(line)
}

/// A `[mm:]ss` time of option `name`.
fn time(args: &Args, name: &str, default: &str) -> Result<Duration> {
    let text = args.value(name).unwrap_or(default);
    clock::duration(text).ok_or_else(|| anyhow!("--{name} {text}: expected [hh:][mm:]ss"))
}

/// A comma-separated list of option `name`.
fn list(args: &Args, name: &str) -> Vec<String> {
    args.value(name)
        .map(|v| {
            v.split(',')
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect()
        })
        .unwrap_or_default()
}

fn options(args: &Args, login: String, password: String) -> Result<Options> {
    let mut policy = Policy::default();
    if args.value("sizes").is_some() {
        policy.sizes = list(args, "sizes")
            .iter()
            .map(|s| {
                let size: BoardSize = s.parse().map_err(|e| anyhow!("--sizes {s}: {e}"))?;
                Ok(size.side())
            })
            .collect::<Result<_>>()?;
    }
    policy.synchro = !args.flag("no-synchro");
    policy.random = !args.flag("no-random");
    policy.rated = match args.value("rated").unwrap_or("any") {
        "any" => Rated::Any,
        "only" => Rated::Only,
        "never" => Rated::Never,
        other => bail!("--rated {other}: expected any, only or never"),
    };
    policy.opponents = list(args, "opponents");
    policy.min_main = time(args, "min-time", "1")?;
    policy.max_main = time(args, "max-time", "60:00")?;
    policy.min_extension = time(args, "min-extension", "0")?;
    let ask = match args.values("ask") {
        [kind, setting, who] => Some(Ask {
            kind: GameType::parse(kind)
                .ok_or_else(|| anyhow!("--ask: {kind} is not a game type (8, s8, 10, s8r20...)"))?,
            setting: Setting::parse(setting)
                .ok_or_else(|| anyhow!("--ask: {setting} is not a clock (05:00//01:00)"))?,
            opponent: who.clone(),
        }),
        [] => None,
        _ => bail!("--ask takes a type, a clock and an opponent, once"),
    };
    let port: u16 = args.get("port", 5000)?;
    let depth: Option<u32> = match args.value("depth") {
        Some(d) => Some(
            d.parse()
                .ok()
                .filter(|d| (1..=60).contains(d))
                .ok_or_else(|| anyhow!("--depth {d}: expected 1 to 60"))?,
        ),
        None => None,
    };
    let lag: f64 = args.get("lag", 0.1)?;
    if !(0.0..=10.0).contains(&lag) {
        bail!("--lag {lag}: expected 0 to 10 seconds");
    }
    let open: u32 = args.get("open", 1)?;
    if !(1..=50).contains(&open) {
        bail!("--open {open}: expected 1 to 50");
    }
    Ok(Options {
        host: args.value("host").unwrap_or("skatgame.net").to_string(),
        port,
        login,
        password,
        policy,
        open,
        ask,
        games: args.value("games").map(|g| g.parse()).transpose()?,
        threads: args.threads("all")?,
        limits: Limits {
            depth,
            ..Limits::default()
        },
        lag: Duration::from_secs_f64(lag),
        keepalive: args.seconds("keepalive", 60.0)?,
        reconnects: args.get("reconnects", 10)?,
        max_backoff: Duration::from_secs(60),
    })
}
