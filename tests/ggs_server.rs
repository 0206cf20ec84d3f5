//! `emilia ggs` against the real GGS server, started once for these tests and shared by
//! them, each test with logins of its own (the benchmark starts a server of its own; see
//! ggs_support). Skipped with a message where the server's source is absent.

mod ggs_support;

use std::time::Duration;

use emilia_core::board::{Color, Position};
use ggs_support::{replay, squeezing, Client, Conn, Relay, Scratch, Server};

const PASSWORD: &str = "pw-Zq81x";
const OPPONENT_PASSWORD: &str = "a-pass";
const MINUTE: Duration = Duration::from_secs(60);

/// One test's logins on the shared server: the client under test's (password `PASSWORD`)
/// and its opponent's (`OPPONENT_PASSWORD`), used by no other test, so that no test sees
/// another's requests or games.
struct Logins {
    client: &'static str,
    opponent: &'static str,
}

impl Logins {
    const fn new(client: &'static str, opponent: &'static str) -> Logins {
        Logins { client, opponent }
    }
}

const ACCEPT: Logins = Logins::new("emil1", "alice1");
const PASSES: Logins = Logins::new("emil2", "alice2");
const PAIR: Logins = Logins::new("emil3", "ann3");
const SYNCHRO: Logins = Logins::new("emil4", "ann4");
const TIMEOUT: Logins = Logins::new("emil5", "alice5");
const CUT: Logins = Logins::new("emil6", "alice6");
const SIGTERM: Logins = Logins::new("emil7", "alice7");
const SIZES: Logins = Logins::new("emil8", "ann8");
const EVERY_TEST: [Logins; 8] = [ACCEPT, PASSES, PAIR, SYNCHRO, TIMEOUT, CUT, SIGTERM, SIZES];

/// The server these tests share, with every test's logins.
fn shared_server() -> Option<&'static Server> {
    let users: Vec<String> = EVERY_TEST
        .iter()
        .flat_map(|l| {
            [
                format!("{}:{PASSWORD}", l.client),
                format!("{}:{OPPONENT_PASSWORD}", l.opponent),
            ]
        })
        .collect();
    let users: Vec<&str> = users.iter().map(String::as_str).collect();
    Server::shared(&users)
}

/// The score a `- match` line gives its first-named player.
fn first_score(line: &str) -> f64 {
    line.split_whitespace().last().unwrap().parse().unwrap()
}

/// Checks that every record reads back, replays to a finished board, and that its `RE` is
/// that board's score for Black; returns the scores.
fn finished_records(client: &Client, count: usize) -> Vec<(Position, i32)> {
    let records = client.records();
    assert_eq!(records.len(), count, "records: {records:?}");
    records
        .iter()
        .map(|r| {
            let (end, re) = replay(r);
            assert!(end.is_game_over(), "an unfinished game: {r}");
            let black = end.final_score_for(Color::Black);
            assert_eq!(re, emilia_core::formats::ggf::result(black), "{r}");
            (end, black)
        })
        .collect()
}

#[test]
fn requests_are_declined_or_accepted_and_a_game_is_played_to_the_end() {
    let Some(server) = shared_server() else {
        return;
    };
    let Logins {
        client: me,
        opponent: foe,
    } = ACCEPT;
    let scratch = Scratch::new("accept");
    let mut emil = Client::start(
        &scratch,
        server.port,
        me,
        PASSWORD,
        &["--games", "1", "--depth", "2"],
    );
    emil.wait_ready();
    let mut alice = Conn::login(server.port, foe, OPPONENT_PASSWORD);
    alice.expect("open 1 =>", MINUTE);
    // Anti-Othello: declined, with the reason in the log; the request goes.
    alice.send(&format!("ts ask 8a 01:00//00:10 {me}"));
    alice.expect("/os: +", MINUTE);
    alice.expect("/os: -", MINUTE);
    emil.wait_log("anti-Othello is not played", MINUTE);
    // A clock outside the bounds: declined too.
    alice.send(&format!("ts ask 8 02:00:00//00:10 {me}"));
    alice.expect("/os: -", MINUTE);
    emil.wait_log("main time 7200s is outside", MINUTE);
    // A 6x6 game: accepted and played to the end.
    alice.send(&format!("ts ask 6 01:00//00:10 {me}"));
    let (end, _) = alice.play_game(foe, 2 * MINUTE, &mut squeezing);
    let alice_score = first_score(&end);
    assert_eq!(emil.wait(MINUTE), 0, "{}", emil.read(&emil.stderr));
    let scores = finished_records(&emil, 1);
    let emil_black = emil.records()[0].contains(&format!("PB[{me}]"));
    let emil_score = if emil_black {
        scores[0].1
    } else {
        -scores[0].1
    };
    assert_eq!(f64::from(emil_score), -alice_score, "{end}");
    let out = emil.out_text();
    assert!(out.starts_with("result ."), "{out}");
    assert!(out.contains(&format!("{me} {emil_score:+}")), "{out}");
    emil.assert_password_kept();
}

#[test]
fn passes_are_sent_and_followed() {
    let Some(server) = shared_server() else {
        return;
    };
    let Logins {
        client: me,
        opponent: foe,
    } = PASSES;
    let scratch = Scratch::new("passes");
    // Random moves against moves that leave the fewest replies: passes come soon.
    let mut emil = Client::start_with(
        &scratch,
        server.port,
        me,
        PASSWORD,
        &["--player", "random", "--seed", "7"],
        &[],
    );
    emil.wait_ready();
    let mut alice = Conn::login(server.port, foe, OPPONENT_PASSWORD);
    alice.expect("open 1 =>", MINUTE);
    let mut passed = [0u32; 2];
    let mut games = 0;
    // The client's player repeats itself from game to game: the test's side varies, a
    // random move now and then.
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut varied = |position: &Position| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let moves = position.legal_moves();
        if state.is_multiple_of(3) {
            moves[(state >> 8) as usize % moves.len()]
        } else {
            squeezing(position)
        }
    };
    while passed.contains(&0) && games < 20 {
        alice.send(&format!("ts ask 6 01:00//00:10 {me}"));
        let (_, passes) = alice.play_game(foe, MINUTE, &mut varied);
        games += 1;
        let record = emil.wait_records(games);
        let emil_color = if record.contains(&format!("PB[{me}]")) {
            Color::Black
        } else {
            Color::White
        };
        passed[0] += passes[emil_color.index()];
        passed[1] += passes[emil_color.opponent().index()];
    }
    emil.terminate();
    assert_eq!(emil.wait(MINUTE), 0);
    assert!(
        passed[0] > 0 && passed[1] > 0,
        "passes by the client and its opponent: {passed:?}"
    );
    // Each of the client's passes went as `pa`; every game reads back to its end.
    let log = emil.log_text();
    let sent = log
        .lines()
        .filter(|l| l.contains("< tell /os play .") && l.ends_with(" pa"))
        .count();
    assert_eq!(sent as u32, passed[0]);
    finished_records(&emil, games);
    emil.assert_password_kept();
}

#[test]
fn two_clients_play_an_8x8_game_through_the_server() {
    let Some(server) = shared_server() else {
        return;
    };
    let Logins {
        client: me,
        opponent: foe,
    } = PAIR;
    let scratch = Scratch::new("pair");
    let mut emil = Client::start(
        &scratch,
        server.port,
        me,
        PASSWORD,
        &["--games", "1", "--depth", "3"],
    );
    emil.wait_ready();
    let mut ann = Client::start(
        &scratch,
        server.port,
        foe,
        OPPONENT_PASSWORD,
        &[
            "--games",
            "1",
            "--depth",
            "3",
            "--ponder",
            "--ask",
            "8",
            "00:40//00:10",
            me,
        ],
    );
    assert_eq!(ann.wait(2 * MINUTE), 0);
    assert_eq!(emil.wait(MINUTE), 0);
    let a = finished_records(&ann, 1);
    let e = finished_records(&emil, 1);
    assert_eq!(a[0], e[0], "both clients hold the same game");
    assert!(emil.log_text().contains("accept ."));
    emil.assert_password_kept();
}

#[test]
fn a_synchro_pair_with_a_random_start_is_played_at_once() {
    let Some(server) = shared_server() else {
        return;
    };
    let Logins {
        client: me,
        opponent: foe,
    } = SYNCHRO;
    let scratch = Scratch::new("synchro");
    let mut emil = Client::start(
        &scratch,
        server.port,
        me,
        PASSWORD,
        &["--games", "2", "--depth", "2", "--threads", "2"],
    );
    emil.wait_ready();
    let mut ann = Client::start(
        &scratch,
        server.port,
        foe,
        OPPONENT_PASSWORD,
        &[
            "--games",
            "2",
            "--depth",
            "2",
            "--ask",
            "s8r20",
            "01:00//00:10",
            me,
        ],
    );
    assert_eq!(ann.wait(2 * MINUTE), 0);
    assert_eq!(emil.wait(MINUTE), 0);
    let a = finished_records(&ann, 2);
    let e = finished_records(&emil, 2);
    // The same two games, each from the same random start with 20 discs.
    let mut a_sorted: Vec<i32> = a.iter().map(|g| g.1).collect();
    let mut e_sorted: Vec<i32> = e.iter().map(|g| g.1).collect();
    a_sorted.sort();
    e_sorted.sort();
    assert_eq!(a_sorted, e_sorted);
    let starts: Vec<String> = emil
        .records()
        .iter()
        .map(|r| {
            r.split("BO[")
                .nth(1)
                .unwrap()
                .split(']')
                .next()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(starts[0], starts[1], "both games of the pair start alike");
    assert_eq!(
        starts[0].matches(['*', 'O']).count() - 1,
        20,
        "{}",
        starts[0]
    );
    // The games ran at once: each game's thread, with half the threads.
    let log = emil.log_text();
    assert!(
        log.contains(".0: game started") && log.contains(".1: game started"),
        "{log}"
    );
    let out = emil.out_text();
    assert_eq!(
        out.lines().filter(|l| l.starts_with("result .")).count(),
        2,
        "{out}"
    );
    emil.assert_password_kept();
    ann.assert_password_kept();
}

#[test]
fn main_time_running_out_goes_on_in_the_extension() {
    let Some(server) = shared_server() else {
        return;
    };
    let Logins {
        client: me,
        opponent: foe,
    } = TIMEOUT;
    let scratch = Scratch::new("timeout");
    let mut emil = Client::start(
        &scratch,
        server.port,
        me,
        PASSWORD,
        &["--games", "1", "--min-time", "0", "--lag", "0"],
    );
    emil.wait_ready();
    let mut alice = Conn::login(server.port, foe, OPPONENT_PASSWORD);
    alice.expect("open 1 =>", MINUTE);
    // No main time: the client plays the whole game in its 40-second extension.
    alice.send(&format!("ts ask 8 00:00//00:40 {me}"));
    let (end, _) = alice.play_game(foe, 3 * MINUTE, &mut squeezing);
    assert!(alice.seen.contains("/os: timeout"), "{}", alice.seen);
    assert!(
        !alice.seen.contains("fatal-timeout"),
        "lost by the extension: {end}"
    );
    assert_eq!(emil.wait(MINUTE), 0);
    let log = emil.log_text();
    assert!(log.contains(&format!("{me} is out of main time")), "{log}");
    let records = emil.records();
    assert_eq!(records.len(), 1);
    let (board, re) = replay(&records[0]);
    assert!(board.is_game_over(), "{}", records[0]);
    assert!(re.ends_with(":t"), "{re}");
    emil.assert_password_kept();
}

#[test]
fn a_cut_connection_is_reconnected_and_the_game_followed() {
    let Some(server) = shared_server() else {
        return;
    };
    let Logins {
        client: me,
        opponent: foe,
    } = CUT;
    let relay = Relay::start(server.port);
    let scratch = Scratch::new("cut");
    let mut emil = Client::start(
        &scratch,
        relay.port,
        me,
        PASSWORD,
        &["--games", "2", "--depth", "2"],
    );
    emil.wait_ready();
    let mut alice = Conn::login(server.port, foe, OPPONENT_PASSWORD);
    alice.expect("open 1 =>", MINUTE);
    alice.send(&format!("ts ask 8 01:00//00:10 {me}"));
    alice.play_moves(foe, MINUTE, 4, &mut squeezing);
    relay.cut();
    // The server ends the game: the client left.
    let end = alice.expect("/os: - match", MINUTE);
    assert!(end.ends_with(&format!("{me} left")), "{end}");
    // The client logs in again, ends the game as the server did, and plays on.
    emil.wait_log("reconnecting in", MINUTE);
    let logged_in = format!("logged in as {me}");
    let logins = || emil.log_text().matches(&logged_in).count();
    let deadline = std::time::Instant::now() + MINUTE;
    while logins() < 2 {
        assert!(std::time::Instant::now() < deadline, "{}", emil.log_text());
        std::thread::sleep(Duration::from_millis(100));
    }
    emil.wait_log("not resumed by the server", MINUTE);
    alice.send(&format!("ts ask 8 01:00//00:10 {me}"));
    let (end, _) = alice.play_game(foe, 2 * MINUTE, &mut squeezing);
    assert!(
        end.split_whitespace()
            .last()
            .unwrap()
            .parse::<f64>()
            .is_ok(),
        "{end}"
    );
    assert_eq!(emil.wait(MINUTE), 0);
    let records = emil.records();
    assert_eq!(records.len(), 2, "{records:?}");
    assert!(records[0].contains("RE[?]"), "{}", records[0]);
    assert!(replay(&records[1]).0.is_game_over());
    let out = emil.out_text();
    assert!(out.contains("left: the connection was lost"), "{out}");
    emil.assert_password_kept();
}

#[test]
fn sigterm_leaves_the_server_and_keeps_the_records() {
    let Some(server) = shared_server() else {
        return;
    };
    let Logins {
        client: me,
        opponent: foe,
    } = SIGTERM;
    let scratch = Scratch::new("sigterm");
    let mut emil = Client::start(&scratch, server.port, me, PASSWORD, &["--depth", "2"]);
    emil.wait_ready();
    let mut alice = Conn::login(server.port, foe, OPPONENT_PASSWORD);
    alice.expect("open 1 =>", MINUTE);
    alice.send(&format!("ts ask 8 01:00//00:10 {me}"));
    alice.play_moves(foe, MINUTE, 2, &mut squeezing);
    emil.terminate();
    assert_eq!(emil.wait(MINUTE), 0);
    let end = alice.expect("/os: - match", MINUTE);
    assert!(end.ends_with(&format!("{me} left")), "{end}");
    let log = emil.log_text();
    assert!(
        log.contains("< quit") && log.contains("left the server"),
        "{log}"
    );
    let records = emil.records();
    assert_eq!(records.len(), 1);
    assert!(records[0].contains("RE[?]"));
    emil.assert_password_kept();
}

/// A CPU-bound process, killed on drop.
struct Burner(std::process::Child);

impl Drop for Burner {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The benchmark (not a CI test; `cargo test --test ggs_server -- --ignored --nocapture`):
/// two clients, 20 games at 00:10//00:02 with two CPU-bound processes beside them. No game
/// may be lost on time; every record reads back and replays to the announced result.
#[test]
#[ignore]
fn benchmark_twenty_games_at_ten_seconds_under_load() {
    let Some(server) = Server::start(15300, &["ann:a-pass", &format!("emil:{PASSWORD}")]) else {
        return;
    };
    let scratch = Scratch::new("bench");
    let _burners: Vec<Burner> = (0..2)
        .map(|_| {
            Burner(
                std::process::Command::new("sh")
                    .args(["-c", "while :; do :; done"])
                    .spawn()
                    .unwrap(),
            )
        })
        .collect();
    let games = "20";
    let mut emil = Client::start(&scratch, server.port, "emil", PASSWORD, &["--games", games]);
    emil.wait_ready();
    let mut ann = Client::start(
        &scratch,
        server.port,
        "ann",
        "a-pass",
        &["--games", games, "--ask", "8", "00:10//00:02", "emil"],
    );
    assert_eq!(ann.wait(30 * MINUTE), 0);
    assert_eq!(emil.wait(MINUTE), 0);
    for client in [&ann, &emil] {
        finished_records(client, 20);
        let log = client.log_text();
        assert!(
            !log.contains("/os: timeout") && !log.contains("fatal-timeout"),
            "lost on time"
        );
        // Seconds a move by the engine's own count, from the records.
        let mut seconds: Vec<f64> = Vec::new();
        let login = if std::ptr::eq(client, &ann) {
            "ann"
        } else {
            "emil"
        };
        for record in client.records() {
            let black = record.contains(&format!("PB[{login}]"));
            let own = if black { "B[" } else { "W[" };
            for part in record.split(']') {
                if let Some(mv) = part.rsplit_once(own).map(|(_, m)| m) {
                    if let Some(s) = mv.split('/').nth(2).and_then(|s| s.parse::<f64>().ok()) {
                        seconds.push(s);
                    }
                }
            }
        }
        let mean = seconds.iter().sum::<f64>() / seconds.len() as f64;
        let longest = seconds.iter().cloned().fold(0.0, f64::max);
        // The closest call: the least main time the server's blocks showed this login.
        let least = log
            .lines()
            .filter(|l| l.contains(&format!("> |{login} ")))
            .filter_map(|l| l.split(") ").nth(1)?.split(',').next().map(str::to_string))
            .filter_map(|t| {
                let (m, s) = t.trim().split_once(':')?;
                Some(m.parse::<u64>().ok()? * 60 + s.parse::<u64>().ok()?)
            })
            .min();
        eprintln!(
            "{login}: {} moves, {mean:.3} s a move on average, longest {longest:.2} s, least \
             main time left shown {least:?} s",
            seconds.len()
        );
        eprintln!("{}", client.out_text());
    }
}

#[test]
fn ten_and_twelve_boards_are_played_and_the_records_analysed() {
    let Some(server) = shared_server() else {
        return;
    };
    let Logins {
        client: me,
        opponent: foe,
    } = SIZES;
    let scratch = Scratch::new("sizes");
    let mut emil = Client::start(
        &scratch,
        server.port,
        me,
        PASSWORD,
        &["--games", "2", "--depth", "2"],
    );
    emil.wait_ready();
    for size in ["10", "12"] {
        let mut ann = Client::start(
            &scratch,
            server.port,
            foe,
            OPPONENT_PASSWORD,
            &[
                "--games",
                "1",
                "--depth",
                "2",
                "--ask",
                size,
                "02:00//00:30",
                me,
            ],
        );
        assert_eq!(ann.wait(2 * MINUTE), 0);
    }
    assert_eq!(emil.wait(MINUTE), 0);
    let games = finished_records(&emil, 2);
    assert_eq!((games[0].0.size(), games[1].0.size()), (10, 12));
    // The record file reads in `emilia analyze`, game by game.
    for number in ["1", "2"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_emilia"))
            .arg("analyze")
            .arg(&emil.record)
            .args(["--game", number, "--depth", "1", "--threads", "1"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    emil.assert_password_kept();
}
