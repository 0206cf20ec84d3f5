//! `emilia ggs` against a small scripted server, for what the real server cannot be made
//! to do: garbage lines, an overlong line, blocks of games not played, a refused move and
//! a connection cut in the middle of a board block. The lines it sends are those the real
//! server sends (../shared/ggs-server/sessions/).

mod ggs_support;

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::time::Duration;

use emilia_core::board::{Color, Move, Position};
use ggs_support::{replay, Client, Scratch};

const PASSWORD: &str = "scripted-pw-5531";

/// One connection of the scripted server.
struct Line {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
}

impl Line {
    fn accept(listener: &TcpListener) -> Line {
        let (stream, _) = listener.accept().unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        Line {
            reader: BufReader::new(stream.try_clone().unwrap()),
            writer: stream,
        }
    }

    fn send(&mut self, text: &str) {
        let text = text.replace('\n', "\r\n");
        self.writer.write_all(text.as_bytes()).unwrap();
    }

    fn read(&mut self) -> String {
        let mut line = String::new();
        self.reader.read_line(&mut line).unwrap();
        assert!(!line.is_empty(), "the client closed the connection");
        line.trim_end().to_string()
    }

    /// The next line that is not empty (keep-alive) .
    fn command(&mut self) -> String {
        loop {
            let line = self.read();
            if !line.is_empty() {
                return line;
            }
        }
    }

    /// The login exchange and the client's setup; checks the password sent.
    fn login(&mut self) {
        self.send(
            "\nGeneric Game Server (GGS)\n\n: Enter login (yours, or one you'd like to use).\n",
        );
        assert_eq!(self.read(), "emil");
        self.send(": Enter your password.\n");
        assert_eq!(self.read(), PASSWORD);
        self.send("READY\n");
        let mut setup = Vec::new();
        for _ in 0..4 {
            setup.push(self.command());
        }
        assert_eq!(setup, ["ms /os", "ts client -", "ts open 1", "ts continue"]);
    }

    /// Reads the client's move in game .0.
    fn play(&mut self) -> Move {
        let line = self.command();
        let rest = line
            .strip_prefix("tell /os play .0 ")
            .unwrap_or_else(|| panic!("not a move: {line}"));
        rest.split('/').next().unwrap().parse().unwrap()
    }
}

/// A board block as the server writes it: the clock lines, the board, the side to move.
fn board_lines(position: &Position) -> String {
    let size = position.size();
    let letters: Vec<String> = (0..size)
        .map(|c| ((b'A' + c as u8) as char).to_string())
        .collect();
    let mut out = String::from("|emil     (1720.0 *) 00:58,1:0//00:10,1:0\n");
    out.push_str("|alice    (1720.0 O) 00:59,1:0//00:10,1:0\n|\n");
    out.push_str(&format!("|   {}\n", letters.join(" ")));
    for row in 0..size {
        let cells: Vec<char> = (0..size)
            .map(|col| match position.disc(row * size + col) {
                Some(Color::Black) => '*',
                Some(Color::White) => 'O',
                None => '-',
            })
            .collect();
        let cells: Vec<String> = cells.iter().map(char::to_string).collect();
        out.push_str(&format!("|{:2} {} {}\n", row + 1, cells.join(" "), row + 1));
    }
    out.push_str(&format!("|   {}\n|\n", letters.join(" ")));
    let side = if position.to_move == Color::Black {
        '*'
    } else {
        'O'
    };
    out.push_str(&format!("|{side} to move\n"));
    out
}

fn update(number: usize, mv: Move, after: &Position) -> String {
    format!(
        "\n/os: update .0 8 K?\n|{number:3}: {mv}//0.50\n{}READY\n",
        board_lines(after)
    )
}

#[test]
fn garbage_a_refused_move_and_a_cut_connection_are_survived() {
    let listener = TcpListener::bind(("127.0.0.1", 0)).unwrap();
    let port = listener.local_addr().unwrap().port();
    let scratch = Scratch::new("scripted");
    let mut emil = Client::start(
        &scratch,
        port,
        "emil",
        PASSWORD,
        &["--games", "1", "--depth", "2", "--keepalive", "1"],
    );
    let mut line = Line::accept(&listener);
    line.login();
    // Lines that mean nothing, or nothing here: every one read, none fatal.
    line.send("\u{0}\u{7f} garbage \u{1b}[31m\n");
    line.writer.write_all(&[0xff, 0xfe, b'\r', b'\n']).unwrap();
    line.send(&format!("{}\n", "x".repeat(20_000)));
    line.send("|a stray block line\n/os: join\n/os: - match .77\n/os: + match .0 1720\n");
    line.send("/os: update .9 8 K?\n|garbage\n|* to move\nREADY\n");
    line.send("/os: join .5 8 K?\n|0 move(s)\n|bob (1720.0 *) 00:58,1:0//00:10,1:0\nREADY\n");
    // A game: the client is Black and moves first.
    let start = Position::start(8).unwrap();
    line.send("\n/os: + match .0 1720 emil 1720 alice 8 U\nREADY\n");
    line.send(&format!(
        "\n/os: join .0 8 K?\n|0 move(s)\n|  0: PASS\n{}READY\n",
        board_lines(&start)
    ));
    let first = line.play();
    assert!(start.legal_moves().contains(&first));
    // Refused: the client moves again within its clock, another move this time.
    line.send("\n/os: error .0 illegal move\nREADY\n");
    let second = line.play();
    assert_ne!(second, first, "the refused move again");
    assert!(start.legal_moves().contains(&second));
    let mut position = start.play(second).unwrap();
    let mut moves = vec![second];
    line.send(&update(1, second, &position));
    // White's reply, then the client's move, then a block cut in its middle.
    let reply = position.legal_moves()[0];
    position = position.play(reply).unwrap();
    moves.push(reply);
    line.send(&update(2, reply, &position));
    let third = line.play();
    position = position.play(third).unwrap();
    moves.push(third);
    let block = update(3, third, &position).replace('\n', "\r\n");
    line.writer
        .write_all(&block.as_bytes()[..block.len() / 2])
        .unwrap();
    drop(line);
    // The client comes back, logs in again, and the game is joined with its moves.
    let mut line = Line::accept(&listener);
    line.login();
    let reply = position.legal_moves()[0];
    let before = position;
    position = position.play(reply).unwrap();
    moves.push(reply);
    let mut join = String::from("\n/os: join .0 8 K?\n|4 move(s)\n");
    join.push_str(&board_lines(&start));
    for (i, mv) in moves.iter().enumerate() {
        join.push_str(&format!("|{:3}: {mv}//0.50\n", i + 1));
    }
    join.push_str(&board_lines(&position));
    join.push_str("READY\n");
    line.send(&join);
    let fifth = line.play();
    assert!(position.legal_moves().contains(&fifth), "{before:?}");
    position = position.play(fifth).unwrap();
    moves.push(fifth);
    // An update whose board is not what its move makes: the board wins.
    let replies = position.legal_moves();
    assert!(replies.len() > 1);
    let shown = position.play(replies[1]).unwrap();
    line.send(&update(6, replies[0], &shown));
    let seventh = line.play();
    assert!(
        shown.legal_moves().contains(&seventh),
        "{seventh} on the board shown"
    );
    line.send("\n/os: - match .0 1720 emil 1720 alice 8 U +10.00\nREADY\n");
    assert_eq!(
        emil.wait(Duration::from_secs(60)),
        0,
        "{}",
        emil.read(&emil.stderr)
    );
    let records = emil.records();
    assert_eq!(records.len(), 1, "{records:?}");
    let (_, re) = replay(&records[0]);
    assert_eq!(re, "+10");
    // The record starts from the board taken from the server, with the move made on it.
    let seventh = seventh.to_string().to_uppercase();
    assert!(
        records[0].contains(&format!("[{seventh}/")),
        "{}",
        records[0]
    );
    let squares = shown.squares_string().replace('X', "*");
    assert!(
        records[0].contains(&format!("BO[8 {squares} *]")),
        "{}",
        records[0]
    );
    let log = emil.log_text();
    assert!(log.contains(".0: refused: error .0 illegal move"), "{log}");
    assert!(log.contains("reconnecting in"), "{log}");
    assert!(log.contains("differs from the game held"), "{log}");
    assert!(
        log.contains(".9: a board of a game not played here"),
        "{log}"
    );
    assert!(
        emil.out_text().contains("emil +10, won"),
        "{}",
        emil.out_text()
    );
    emil.assert_password_kept();
}

#[test]
fn a_wrong_password_is_refused_and_said_without_the_password() {
    let listener = TcpListener::bind(("127.0.0.1", 0)).unwrap();
    let port = listener.local_addr().unwrap().port();
    let scratch = Scratch::new("wrong");
    let mut emil = Client::start(&scratch, port, "emil", PASSWORD, &[]);
    let mut line = Line::accept(&listener);
    line.send(": Enter login (yours, or one you'd like to use).\n");
    assert_eq!(line.read(), "emil");
    line.send(": Enter your password.\n");
    assert_eq!(line.read(), PASSWORD);
    // What the server says to a wrong password.
    line.send(": ERR Password is incorrect.\n: Enter login (yours, or one you'd like to use).\n");
    assert_eq!(emil.wait(Duration::from_secs(60)), 2);
    let said = emil.read(&emil.stderr);
    assert!(said.contains("refused the login emil"), "{said}");
    emil.assert_password_kept();
}
