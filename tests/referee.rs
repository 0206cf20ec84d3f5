//! The referee against small scripted engines (tests/engines/fake_engine.py, Python 3
//! standard library only): whole matches in both protocols, and engines that misbehave.

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use emilia::referee::client::FaultKind;
use emilia::referee::game::Ending;
use emilia::referee::{self, EngineSpec, MatchConfig, MatchOutcome, Protocol, TimeControl};
use emilia_core::board::{BoardSize, Color, Position};

fn fake(options: &str) -> EngineSpec {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/engines/fake_engine.py");
    let mut spec = EngineSpec::gtp(&format!("python3 '{script}' {options}"));
    if options.contains("--proto nboard") {
        spec.protocol = Protocol::Nboard;
        spec.depth = Some(1);
    }
    spec
}

fn config(first: EngineSpec, second: EngineSpec, games: usize) -> MatchConfig {
    let mut config = MatchConfig::new(first, second, games);
    config.time = TimeControl::MoveTime(Duration::from_millis(500));
    config.margin = Duration::from_millis(300);
    config.timeout = Duration::from_secs(10);
    config
}

fn run(config: &MatchConfig) -> MatchOutcome {
    let mut lines = Vec::new();
    let outcome = referee::run(config, &mut |l| lines.push(l.to_string())).unwrap();
    assert_eq!(lines.len(), config.games, "one progress line per game");
    assert!(lines
        .last()
        .unwrap()
        .starts_with(&format!("{0}/{0} games", config.games)));
    outcome
}

fn temp_file(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("emilia-referee-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Checks that the tally, the records and the results file tell the same story, and that
/// every finished game replays legally to its reported score.
fn assert_consistent(outcome: &MatchOutcome, results: &str) {
    let t = &outcome.tally;
    assert_eq!(t.wins + t.draws + t.losses, t.games);
    assert_eq!(t.games as usize, outcome.games.len());
    let points: f64 = outcome.games.iter().map(|g| g.points(0)).sum();
    assert_eq!(points, t.points());
    let lines: Vec<&str> = results.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), outcome.games.len());
    for line in lines {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 8, "{line}");
        let number: usize = fields[0].parse().unwrap();
        let game = &outcome.games[number - 1];
        let (end, _) = Position::start(8)
            .unwrap()
            .play_transcript(fields[7])
            .unwrap();
        match &game.ending {
            Ending::Finished { black, white, .. } => {
                assert!(end.is_game_over(), "{line}");
                assert_eq!(fields[4], format!("{black}-{white}"));
                assert_eq!(end.count(Color::Black), *black);
                assert_eq!(end.count(Color::White), *white);
                let winner = match black.cmp(white) {
                    std::cmp::Ordering::Greater => "black",
                    std::cmp::Ordering::Less => "white",
                    std::cmp::Ordering::Equal => "draw",
                };
                assert_eq!(fields[3], winner);
            }
            Ending::Forfeit { reason, .. } => assert_eq!(fields[5], reason),
        }
    }
}

#[test]
fn a_gtp_match_completes_with_a_consistent_report() {
    let mut config = config(fake("--seed 1 --name one"), fake("--seed 2 --name two"), 4);
    config.concurrency = 2;
    let results = temp_file("gtp-results.tsv");
    let ggf = temp_file("gtp-games.ggf");
    config.results = Some(results.clone());
    config.ggf = Some(ggf.clone());
    let outcome = run(&config);
    let text = std::fs::read_to_string(&results).unwrap();
    assert_consistent(&outcome, &text);
    assert_eq!(outcome.tally.finished, 4, "{}", outcome.report);
    assert!(
        outcome.report.contains("Elo difference"),
        "{}",
        outcome.report
    );
    // Colours alternate game by game.
    let blacks: Vec<usize> = outcome.games.iter().map(|g| g.black).collect();
    assert_eq!(blacks, [0, 1, 0, 1]);
    let records = std::fs::read_to_string(&ggf).unwrap();
    assert_eq!(records.lines().count(), 4);
    assert!(records
        .lines()
        .all(|r| r.starts_with("(;GM[Othello]") && r.ends_with(";)")));
}

#[test]
fn an_nboard_engine_plays_a_gtp_engine_from_openings() {
    let mut config = config(fake("--proto nboard --seed 3"), fake("--seed 4"), 4);
    config.openings = referee::openings::parse(
        "f5f6e6f4e3c5c4e7\nf5d6c4d3c2b3b4b5\n",
        BoardSize::EIGHT,
        "test",
    )
    .unwrap();
    let results = temp_file("nboard-results.tsv");
    config.results = Some(results.clone());
    let outcome = run(&config);
    let text = std::fs::read_to_string(&results).unwrap();
    assert_consistent(&outcome, &text);
    assert_eq!(outcome.tally.finished, 4, "{}", outcome.report);
    // Each opening twice, colours swapped.
    let plays: Vec<(&str, usize)> = outcome
        .games
        .iter()
        .map(|g| (g.opening.as_str(), g.black))
        .collect();
    assert_eq!(
        plays,
        [
            ("f5f6e6f4e3c5c4e7", 0),
            ("f5f6e6f4e3c5c4e7", 1),
            ("f5d6c4d3c2b3b4b5", 0),
            ("f5d6c4d3c2b3b4b5", 1)
        ]
    );
    assert!(outcome.games.iter().all(|g| {
        let transcript: Vec<_> = g.moves.iter().take(8).map(|m| m.mv.to_string()).collect();
        transcript.concat() == g.opening
    }));
}

/// A match of `games` games between a misbehaving engine and a sound one; every game must
/// be lost by the former for `kind`, with `words` in the reason.
fn assert_forfeits(faulty: &str, games: usize, kind: FaultKind, words: &str) {
    for proto in ["", "--proto nboard "] {
        let config = config(
            fake(&format!("{proto}{faulty} --name bad")),
            fake("--seed 5 --name good"),
            games,
        );
        let outcome = run(&config);
        assert_eq!(outcome.tally.losses as usize, games, "{}", outcome.report);
        assert_eq!(outcome.tally.fault_count(0, kind) as usize, games);
        for game in &outcome.games {
            let Ending::Forfeit { reason, loser, .. } = &game.ending else {
                panic!("game {} was not forfeited", game.number)
            };
            assert_eq!(game.engine(*loser), 0);
            assert!(reason.contains(words), "{proto}{reason}");
        }
        assert!(outcome.report.contains(kind.label()), "{}", outcome.report);
    }
}

#[test]
fn an_illegal_move_loses_the_game() {
    // The first move of each game is illegal (a fresh count per game would need a restart,
    // so ask for it at the first move of a one-game match).
    assert_forfeits(
        "--fault illegal --at 1",
        1,
        FaultKind::Illegal,
        "illegal move",
    );
}

#[test]
fn garbage_loses_and_the_engine_is_restarted() {
    // Restarted after each garbage answer, the engine misbehaves again at its first move.
    assert_forfeits("--fault garbage --at 1", 2, FaultKind::Garbage, "garbage");
}

#[test]
fn hanging_past_the_clock_loses_on_time() {
    assert_forfeits("--fault hang --at 2", 2, FaultKind::Time, "time forfeit");
}

#[test]
fn time_odds_let_one_engine_think_longer() {
    // The slow engine thinks for a second at its second move: past the match's 0.5 s a
    // move it forfeits, within its own 2 s it plays on; its opponent keeps the match's.
    for proto in ["", "--proto nboard "] {
        let slow = fake(&format!("{proto}--fault slow --at 2 --name slow"));
        let outcome = run(&config(slow.clone(), fake("--seed 5 --name good"), 1));
        assert_eq!(
            outcome.tally.fault_count(0, FaultKind::Time),
            1,
            "{proto}{}",
            outcome.report
        );
        let mut slow = slow;
        slow.name = Some("slow".to_string());
        slow.time = Some(TimeControl::MoveTime(Duration::from_secs(2)));
        let outcome = run(&config(slow, fake("--seed 5 --name good"), 1));
        assert_eq!(outcome.tally.finished, 1, "{proto}{}", outcome.report);
        assert!(
            outcome.report.contains("0.5 s a move (slow: 2 s a move)"),
            "{}",
            outcome.report
        );
    }
}

#[test]
fn exiting_mid_game_loses_and_the_match_goes_on() {
    assert_forfeits("--fault exit --at 3", 2, FaultKind::Crash, "exit");
}

#[test]
fn an_engine_that_exits_is_reported_so_while_its_child_holds_its_output() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/engines/fake_engine.py");
    for proto in ["", "--proto nboard "] {
        // The shell's `sleep` keeps the engine's output open after the engine has gone;
        // before, the referee waited for the end of it and called the exit a time forfeit.
        let mut bad = EngineSpec::gtp(&format!(
            "sh -c \"sleep 20 & exec python3 '{script}' {proto}--fault exit --at 2\""
        ));
        if !proto.is_empty() {
            bad.protocol = Protocol::Nboard;
            bad.depth = Some(1);
        }
        let outcome = run(&config(bad, fake("--seed 5 --name good"), 1));
        assert_eq!(
            outcome.tally.fault_count(0, FaultKind::Crash),
            1,
            "{proto}{}",
            outcome.report
        );
        let Ending::Forfeit { reason, .. } = &outcome.games[0].ending else {
            panic!("not forfeited: {}", outcome.report)
        };
        assert!(reason.contains("exit code 3"), "{proto}{reason}");
    }
}

#[test]
fn an_endless_line_loses_at_once_without_filling_memory() {
    // 4 MiB with no line ending: before, the referee buffered it all and then lost the
    // engine on time (1 GiB took it to 2.4 GB).
    assert_forfeits(
        "--fault flood --at 1",
        1,
        FaultKind::Garbage,
        "a line longer than 256 KiB",
    );
}

#[test]
fn a_reply_without_its_blank_line_is_malformed_not_late() {
    let config = config(
        fake("--fault noblank --at 1 --name bad"),
        fake("--seed 5 --name good"),
        1,
    );
    let outcome = run(&config);
    assert_eq!(
        outcome.tally.fault_count(0, FaultKind::Garbage),
        1,
        "{}",
        outcome.report
    );
    let Ending::Forfeit { reason, .. } = &outcome.games[0].ending else {
        panic!("the game was not forfeited")
    };
    assert!(reason.contains("no blank line ended the reply"), "{reason}");
}

/// Whether process `pid` still runs (a zombie waiting to be reaped does not).
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        let state = stat.rsplit(')').next().unwrap_or("").trim_start();
        !state.starts_with('Z')
    })
}

#[test]
fn an_engine_started_by_a_wrapper_script_is_ended_with_it() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/engines/fake_engine.py");
    let pidfile = temp_file("wrapped-engine.pid");
    let _ = std::fs::remove_file(&pidfile);
    let wrapper = temp_file("wrapper.sh");
    // Not `exec`: the engine is the script's child, as in many wrappers.
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\npython3 '{script}' --fault hang --at 1 --pidfile '{}'\nexit $?\n",
            pidfile.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    let config = config(
        EngineSpec::gtp(&format!("'{}'", wrapper.display())),
        fake("--seed 5"),
        1,
    );
    let outcome = run(&config);
    assert_eq!(
        outcome.tally.fault_count(0, FaultKind::Time),
        1,
        "{}",
        outcome.report
    );
    let pid: u32 = std::fs::read_to_string(&pidfile)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while alive(pid) && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!alive(pid), "the wrapped engine {pid} still runs");
}

/// The number in file `path`, once something has written it (waiting up to 10 s).
fn pid_in(path: &std::path::Path) -> u32 {
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        if let Ok(pid) = text.trim().parse() {
            return pid;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{} never written",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Writes an executable shell script `name` (in the tests' temporary directory) of `text`.
fn executable_script(name: &str, text: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = temp_file(name);
    std::fs::write(&path, text).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// Sends `signal` to `child` (`what` in messages) once a game has started among its engines,
/// and asserts that it ends by that signal within 10 s and that every process of `pids` (its
/// engines and their children) ends within 5 s after it; survivors are killed.
fn assert_a_signal_ends_all(
    child: &mut std::process::Child,
    pids: Vec<u32>,
    signal: i32,
    what: &str,
) {
    use std::os::unix::process::ExitStatusExt;
    // Let the game start, so that an engine hangs over its move.
    std::thread::sleep(Duration::from_millis(300));
    let child_pid = libc::pid_t::try_from(child.id()).unwrap();
    // SAFETY: a plain system call on our own child, not reaped yet.
    assert_eq!(unsafe { libc::kill(child_pid, signal) }, 0);
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("the {what} did not end on signal {signal}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    assert_eq!(status.signal(), Some(signal), "{status:?}");
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while pids.iter().any(|&pid| alive(pid)) && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let survivors: Vec<u32> = pids.into_iter().filter(|&pid| alive(pid)).collect();
    for &pid in &survivors {
        // SAFETY: a plain system call; the survivors are this test's hanging engines.
        unsafe { libc::kill(pid as libc::pid_t, libc::SIGKILL) };
    }
    assert!(
        survivors.is_empty(),
        "processes {survivors:?} outlived signal {signal} to the {what}"
    );
}

#[test]
fn a_signal_to_the_referee_ends_every_engine_and_their_children() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/engines/fake_engine.py");
    for (signal, name) in [
        (libc::SIGINT, "int"),
        (libc::SIGTERM, "term"),
        (libc::SIGHUP, "hup"),
    ] {
        let wrapper_pidfile = temp_file(&format!("signal-{name}-wrapper.pid"));
        let engine_pidfile = temp_file(&format!("signal-{name}-engine.pid"));
        let other_pidfile = temp_file(&format!("signal-{name}-other.pid"));
        for file in [&wrapper_pidfile, &engine_pidfile, &other_pidfile] {
            let _ = std::fs::remove_file(file);
        }
        // A wrapper script whose engine, its child, hangs at its first move.
        let wrapper = executable_script(
            &format!("signal-{name}.sh"),
            &format!(
                "#!/bin/sh\necho $$ > '{}'\npython3 '{script}' --fault hang --at 1 --pidfile '{}'\n",
                wrapper_pidfile.display(),
                engine_pidfile.display()
            ),
        );
        let mut referee = Command::new(env!("CARGO_BIN_EXE_emilia"))
            .args([
                "match",
                "--engine",
                &format!("'{}'", wrapper.display()),
                "--engine",
                &format!(
                    "python3 '{script}' --fault hang --at 1 --pidfile '{}'",
                    other_pidfile.display()
                ),
                "--tc",
                "600",
            ])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let pids = [&wrapper_pidfile, &engine_pidfile, &other_pidfile].map(|f| pid_in(f));
        assert_a_signal_ends_all(&mut referee, pids.to_vec(), signal, "referee");
    }
}

#[test]
fn the_command_line_runs_a_match_and_prints_the_report() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/engines/fake_engine.py");
    let output = Command::new(env!("CARGO_BIN_EXE_emilia"))
        .args([
            "match",
            "--engine",
            &format!("python3 {script} --seed 7"),
            "name=seven",
            "--engine",
            &format!("python3 {script} --seed 8"),
            "name=eight",
            "--games",
            "2",
            "--tc",
            "20",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stdout.contains("Score of seven vs eight"), "{stdout}");
    assert!(stderr.contains("2/2 games"), "{stderr}");
}

#[test]
fn results_and_ggf_files_are_replaced_only_with_force() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/engines/fake_engine.py");
    let results = temp_file("precious.tsv");
    let ggf = temp_file("precious.ggf");
    let run_match = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_emilia"))
            .args([
                "match",
                "--engine",
                &format!("python3 {script} --seed 3"),
                "--engine",
                &format!("python3 {script} --seed 4"),
                "--games",
                "1",
                "--tc",
                "20",
            ])
            .args(extra)
            .output()
            .unwrap()
    };
    for (option, path) in [("--results", &results), ("--ggf", &ggf)] {
        std::fs::write(path, "precious\n").unwrap();
        let output = run_match(&[option, path.to_str().unwrap()]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{option}: {stderr}");
        assert!(stderr.contains("exists: give --force"), "{stderr}");
        assert_eq!(std::fs::read_to_string(path).unwrap(), "precious\n");
    }
    let output = run_match(&[
        "--results",
        results.to_str().unwrap(),
        "--ggf",
        ggf.to_str().unwrap(),
        "--force",
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let written = std::fs::read_to_string(&results).unwrap();
    assert_eq!(
        written.lines().count(),
        2,
        "a header and one game: {written}"
    );
    assert!(std::fs::read_to_string(&ggf)
        .unwrap()
        .starts_with("(;GM[Othello]"));
}

#[test]
fn an_engine_that_cannot_start_fails_the_match_with_its_command() {
    let config = config(EngineSpec::gtp("no-such-engine-xyz"), fake(""), 2);
    let error = referee::run(&config, &mut |_| {})
        .err()
        .unwrap()
        .to_string();
    assert!(error.contains("no-such-engine-xyz"), "{error}");
}

#[test]
fn lines_outside_replies_are_tolerated() {
    let config = config(fake("--chatty --seed 13"), fake("--seed 14"), 2);
    let outcome = run(&config);
    assert_eq!(outcome.tally.finished, 2, "{}", outcome.report);
}

#[test]
fn engines_that_pass_implicitly_play_through_forced_passes() {
    let mut config = config(fake("--implicit-pass --seed 11"), fake("--seed 12"), 6);
    config.size = BoardSize::SIX;
    let outcome = run(&config);
    assert_eq!(outcome.tally.finished, 6, "{}", outcome.report);
    let passes = outcome
        .games
        .iter()
        .flat_map(|g| &g.moves)
        .filter(|m| m.mv == emilia_core::board::Move::Pass)
        .count();
    assert!(
        passes > 0,
        "no forced pass happened: the test proves nothing"
    );
}

fn emilia(arguments: &str) -> EngineSpec {
    EngineSpec::gtp(&format!("'{}' {arguments}", env!("CARGO_BIN_EXE_emilia")))
}

#[test]
fn two_emilias_play_a_consistent_match_over_gtp() {
    let mut config = config(emilia(""), emilia("--player kukreja"), 4);
    config.time = TimeControl::Depth(2);
    config.openings = referee::openings::parse(
        include_str!("../data/xot-openings.txt"),
        BoardSize::EIGHT,
        "xot-openings.txt",
    )
    .unwrap();
    let results = temp_file("emilia-gtp.tsv");
    config.results = Some(results.clone());
    let outcome = run(&config);
    assert_consistent(&outcome, &std::fs::read_to_string(&results).unwrap());
    assert_eq!(outcome.tally.finished, 4, "{}", outcome.report);
    // Both report their depths through the extension; the depth option caps Emilia's.
    let (sum, moves) = outcome.tally.depth[0];
    assert!(
        moves > 0 && sum <= 2 * u64::from(moves),
        "{}",
        outcome.report
    );
    assert!(outcome.report.contains("average depth"));
}

#[test]
fn two_emilias_play_a_consistent_match_over_nboard() {
    let mut first = emilia("");
    first.protocol = Protocol::Nboard;
    first.depth = Some(2);
    let mut second = emilia("--player greedy");
    second.protocol = Protocol::Nboard;
    second.depth = Some(1);
    let mut config = config(first, second, 2);
    config.time = TimeControl::Clock {
        base: Duration::from_secs(20),
        increment: Duration::ZERO,
    };
    let results = temp_file("emilia-nboard.tsv");
    config.results = Some(results.clone());
    let outcome = run(&config);
    assert_consistent(&outcome, &std::fs::read_to_string(&results).unwrap());
    assert_eq!(outcome.tally.finished, 2, "{}", outcome.report);
    assert_eq!(
        outcome.tally.wins, 2,
        "Emilia beats greedy: {}",
        outcome.report
    );
}

#[test]
fn a_clock_increment_reaches_emilia_in_both_protocols() {
    // The match's clock, or the engine's own one where the match's has no increment.
    for (protocol, own) in [
        (Protocol::Gtp, false),
        (Protocol::Nboard, false),
        (Protocol::Gtp, true),
        (Protocol::Nboard, true),
    ] {
        let log = temp_file(&format!("increment-{protocol:?}-{own}.log"));
        let _ = std::fs::remove_file(&log);
        let mut first = emilia(&format!("--depth 2 --log '{}'", log.display()));
        let mut second = emilia("--player greedy");
        first.protocol = protocol;
        second.protocol = protocol;
        if protocol == Protocol::Nboard {
            first.depth = Some(2);
            second.depth = Some(1);
        }
        let clock = TimeControl::Clock {
            base: Duration::from_secs(20),
            increment: Duration::from_millis(50),
        };
        if own {
            first.time = Some(clock);
        }
        let mut config = config(first, second, 1);
        config.time = if own {
            TimeControl::Clock {
                base: Duration::from_secs(20),
                increment: Duration::ZERO,
            }
        } else {
            clock
        };
        let outcome = run(&config);
        assert_eq!(outcome.tally.finished, 1, "{}", outcome.report);
        // GTP has no increment: Emilia is told it by its extension; NBoard's game record
        // carries it in the clock.
        let told = match protocol {
            Protocol::Gtp => "> time_increment 0.050",
            Protocol::Nboard => "TI[0:20/0:00.05]",
        };
        let text = std::fs::read_to_string(&log).unwrap();
        assert!(text.contains(told), "{protocol:?}: {text}");
    }
}

#[test]
fn limits_go_with_genmove_only_when_asked() {
    // By default an engine hears GTP's time_left; `limits_in_genmove` gives Emilia its
    // clock or move time in genmove itself, as `emilia bench clock` measures them.
    let clock = TimeControl::Clock {
        base: Duration::from_secs(20),
        increment: Duration::ZERO,
    };
    let move_time = TimeControl::MoveTime(Duration::from_millis(200));
    for (number, (time, in_genmove, told)) in [
        (clock, false, "> time_left black 20 0"),
        (clock, true, "> genmove black 20000"),
        (move_time, false, "> time_left black 0.200 1"),
        (move_time, true, "> genmove black movetime 200"),
    ]
    .into_iter()
    .enumerate()
    {
        let log = temp_file(&format!("limits-{number}.log"));
        let _ = std::fs::remove_file(&log);
        let mut first = emilia(&format!("--depth 1 --log '{}'", log.display()));
        first.limits_in_genmove = in_genmove;
        let mut config = config(first, emilia("--player greedy"), 1);
        config.time = time;
        let outcome = run(&config);
        assert_eq!(outcome.tally.finished, 1, "{}", outcome.report);
        let text = std::fs::read_to_string(&log).unwrap();
        assert!(text.contains(told), "{time:?} {in_genmove}: {text}");
        // One way or the other, never both.
        let bare_genmove = text
            .lines()
            .any(|l| l.trim_end().ends_with("> genmove black"));
        assert_eq!(bare_genmove, !in_genmove, "{time:?}: {text}");
        assert_eq!(
            text.contains("> time_left"),
            !in_genmove,
            "{time:?}: {text}"
        );
    }
}

#[test]
fn a_signal_to_the_clock_benchmark_ends_its_engines_and_their_children() {
    // Before, `bench clock` started its engines in its own process group and out of the
    // referee's table: `kill` of the benchmark left them running.
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/engines/fake_engine.py");
    for (signal, name) in [(libc::SIGTERM, "term"), (libc::SIGHUP, "hup")] {
        // Each engine is a wrapper script that lists its number, with its child, an engine
        // that hangs at its first move, whose number goes to a file named after the list.
        let list = temp_file(&format!("clock-signal-{name}.pids"));
        let _ = std::fs::remove_file(&list);
        let wrapper = executable_script(
            &format!("clock-signal-{name}.sh"),
            &format!(
                "#!/bin/sh\necho $$ >> '{list}'\npython3 '{script}' --fault hang --at 1 --pidfile '{list}.'$$\n",
                list = list.display()
            ),
        );
        let mut bench = Command::new(env!("CARGO_BIN_EXE_emilia"))
            .args([
                "bench", "clock", "--clocks", "1000", "--games", "1", "--engine",
            ])
            .arg(&wrapper)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        // Both wrappers and both engines, once started.
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        let wrappers: Vec<u32> = loop {
            let text = std::fs::read_to_string(&list).unwrap_or_default();
            let pids: Vec<u32> = text.lines().filter_map(|l| l.trim().parse().ok()).collect();
            if pids.len() == 2 {
                break pids;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "the engines never started"
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        let mut pids: Vec<u32> = wrappers
            .iter()
            .map(|w| pid_in(&PathBuf::from(format!("{}.{w}", list.display()))))
            .collect();
        pids.extend(&wrappers);
        assert_a_signal_ends_all(&mut bench, pids, signal, "benchmark");
    }
}
