//! The server's messages: lines read one at a time and turned into [`Message`]s. Board
//! blocks (`|` lines after `/os: join` or `/os: update`) are gathered until the line that
//! ends them. A line that means nothing to the client is `Ignored`, never an error.

use emilia_core::board::{Color, Move, Position};

use super::clock::{Reading, Setting};

/// A game type as GGS writes it: `[s]<size>[k][r<n>][b|w][a]` (`8`, `s8`, `s8r20`, `10a`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct GameType {
    pub(crate) text: String,
    pub(crate) size: usize,
    pub(crate) synchro: bool,
    pub(crate) komi: bool,
    pub(crate) random: Option<u32>,
    pub(crate) anti: bool,
    /// The colour asked for (`b`, `w`), if any.
    pub(crate) color: Option<Color>,
}

impl GameType {
    /// Reads a type; `None` for text that is none.
    pub(crate) fn parse(text: &str) -> Option<GameType> {
        let bytes = text.as_bytes();
        let mut i = 0;
        let synchro = bytes.first().is_some_and(|b| b.eq_ignore_ascii_case(&b's'));
        if synchro {
            i += 1;
        }
        let digits = bytes[i..].iter().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 || digits > 2 {
            return None;
        }
        let size = text[i..i + digits].parse().ok()?;
        i += digits;
        let mut kind = GameType {
            text: text.to_string(),
            size,
            synchro,
            komi: false,
            random: None,
            anti: false,
            color: None,
        };
        while i < bytes.len() {
            let c = bytes[i].to_ascii_lowercase();
            i += 1;
            match c {
                b'k' => kind.komi = true,
                b'a' => kind.anti = true,
                b'b' => kind.color = Some(Color::Black),
                b'w' => kind.color = Some(Color::White),
                b'r' => {
                    let n = bytes[i..].iter().take_while(|b| b.is_ascii_digit()).count();
                    kind.random = Some(text[i..i + n].parse().unwrap_or(0));
                    i += n;
                }
                _ => return None,
            }
        }
        Some(kind)
    }
}

/// A request line: `/os: +   .0 1720.0 alice    01:00//00:10        8 U 1720.0 bob`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Request {
    pub(crate) id: String,
    pub(crate) from: String,
    pub(crate) setting: Setting,
    pub(crate) kind: GameType,
    pub(crate) rated: bool,
    /// Who is asked (empty or `*` for anyone).
    pub(crate) to: String,
}

/// How a match ended, as `- match` says it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Outcome {
    /// The first-named player's score (discs).
    Score(f64),
    /// A player left.
    Left(String),
    /// Aborted or otherwise ended without a score.
    Other(String),
}

/// One player as a board block's clock line shows them.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Player {
    pub(crate) name: String,
    pub(crate) color: Color,
    pub(crate) clock: Option<Reading>,
}

/// One move line of a block: `|  4: b2/-1.50/6.16`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct BlockMove {
    pub(crate) number: u32,
    pub(crate) mv: Move,
    pub(crate) eval: Option<f64>,
    pub(crate) seconds: Option<f64>,
}

/// A board block: the game's start, its moves as the block lists them, the players with
/// their clocks, and the position now.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Block {
    /// The first board the block shows (the game's start in a join with its moves).
    pub(crate) first: Option<Position>,
    pub(crate) moves: Vec<BlockMove>,
    /// The last clock lines, Black's and White's.
    pub(crate) players: Vec<Player>,
    /// The last board the block shows, with the side to move.
    pub(crate) now: Option<Position>,
}

/// What one server line (or block) says.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Message {
    LoginPrompt,
    PasswordPrompt,
    Ready,
    /// A request opened (`true`) or gone (`false`).
    Request(Request, bool),
    MatchStart {
        id: String,
        players: [String; 2],
        kind: GameType,
        rated: bool,
    },
    MatchEnd {
        id: String,
        players: [String; 2],
        outcome: Outcome,
    },
    /// The end of one game of a synchro match: the first-named player's score.
    GameEnd {
        id: String,
        first: String,
        score: f64,
    },
    /// A board block: `join` (a game to follow) or `update` (a move made).
    Board {
        id: String,
        join: bool,
        kind: Option<GameType>,
        block: Block,
    },
    /// A refusal: `/os: error .0 illegal move`, `/os: ERR ...` (id when one is named).
    Error {
        id: Option<String>,
        text: String,
    },
    /// Main time (`fatal` false) or the extension ran out.
    Timeout {
        id: String,
        login: String,
        fatal: bool,
    },
    /// Anything else: logged as ignored.
    Ignored(String),
}

/// Longest line kept; the rest of a longer line is dropped by the reader.
pub(crate) const MAX_LINE: usize = 4096;
/// Most lines a block may hold (a 12x12 join with its moves is a few hundred).
const MAX_BLOCK_LINES: usize = 2000;

/// Turns lines into messages; holds a board block until the line after it.
#[derive(Default)]
pub(crate) struct Parser {
    pending: Option<(String, bool, Option<GameType>, Vec<String>)>,
}

impl Parser {
    /// Reads one line (without its line end); returns the messages it completes (a block
    /// ends at the first line that is not part of it).
    pub(crate) fn line(&mut self, line: &str) -> Vec<Message> {
        let mut out = Vec::new();
        if let Some(rest) = line.strip_prefix('|') {
            match &mut self.pending {
                Some((.., lines)) if lines.len() < MAX_BLOCK_LINES => lines.push(rest.into()),
                Some(_) => {}
                None => out.push(Message::Ignored(line.to_string())),
            }
            return out;
        }
        if let Some((id, join, kind, lines)) = self.pending.take() {
            out.push(Message::Board {
                id,
                join,
                kind,
                block: block(&lines),
            });
        }
        if let Some(header) = board_header(line) {
            self.pending = Some(header);
        } else {
            out.push(message(line));
        }
        out
    }
}

/// `/os: join .0 8 K?` or `/os: update .0 8 K?`: the id, whether a join, and the type.
fn board_header(line: &str) -> Option<(String, bool, Option<GameType>, Vec<String>)> {
    let words: Vec<&str> = line.strip_prefix("/os: ")?.split_whitespace().collect();
    let join = match *words.first()? {
        "join" => true,
        "update" => false,
        _ => return None,
    };
    let id = words.get(1).filter(|id| id.starts_with('.'))?;
    // `client +` sends GGF on the same line (`join .3 (;GM…`) or a move: not a block.
    if words.len() > 4 || words.get(2).is_some_and(|w| w.starts_with('(')) {
        return None;
    }
    let kind = words.get(2).and_then(|t| GameType::parse(t));
    Some((id.to_string(), join, kind, Vec::new()))
}

/// What a line that starts no block says.
fn message(line: &str) -> Message {
    let ignored = || Message::Ignored(line.to_string());
    if line.starts_with(": Enter login") {
        return Message::LoginPrompt;
    }
    if line.starts_with(": Enter your password") {
        return Message::PasswordPrompt;
    }
    if line == "READY" {
        return Message::Ready;
    }
    let Some(body) = line.strip_prefix("/os: ") else {
        return ignored();
    };
    let words: Vec<&str> = body.split_whitespace().collect();
    let parsed = match words.as_slice() {
        ["+", "match", id, _, a, _, b, kind, rated, ..] => {
            GameType::parse(kind).map(|kind| Message::MatchStart {
                id: id.to_string(),
                players: [a.to_string(), b.to_string()],
                kind,
                rated: *rated == "R",
            })
        }
        ["-", "match", id, _, a, _, b, _, _, rest @ ..] => Some(Message::MatchEnd {
            id: id.to_string(),
            players: [a.to_string(), b.to_string()],
            outcome: outcome(rest),
        }),
        [sign @ ("+" | "-"), id, _, from, setting, kind, rated, rest @ ..]
            if id.starts_with('.') =>
        {
            request(id, from, setting, kind, rated, rest).map(|r| Message::Request(r, *sign == "+"))
        }
        ["end", id, "(", first, "vs.", _, ")", score] => {
            score.parse().ok().map(|score| Message::GameEnd {
                id: id.to_string(),
                first: first.to_string(),
                score,
            })
        }
        ["error", id, ..] if id.starts_with('.') => Some(Message::Error {
            id: Some(id.to_string()),
            text: body.to_string(),
        }),
        ["ERR", ..] => Some(Message::Error {
            id: None,
            text: body.to_string(),
        }),
        [kind @ ("timeout" | "fatal-timeout"), id, login, ..] => Some(Message::Timeout {
            id: id.to_string(),
            login: login.to_string(),
            fatal: *kind == "fatal-timeout",
        }),
        _ => None,
    };
    parsed.unwrap_or_else(ignored)
}

fn request(
    id: &str,
    from: &str,
    setting: &str,
    kind: &str,
    rated: &str,
    rest: &[&str],
) -> Option<Request> {
    Some(Request {
        id: id.to_string(),
        from: from.to_string(),
        setting: Setting::parse(setting)?,
        kind: GameType::parse(kind)?,
        rated: rated == "R",
        to: rest.get(1).map_or(String::new(), |s| s.to_string()),
    })
}

/// The end of a `- match` line: a score, `NAME left`, or anything else.
fn outcome(rest: &[&str]) -> Outcome {
    match rest {
        [score, ..] if score.parse::<f64>().is_ok() => {
            Outcome::Score(score.parse().unwrap_or_default())
        }
        [name, "left", ..] => Outcome::Left(name.to_string()),
        _ => Outcome::Other(rest.join(" ")),
    }
}

/// Reads a block's lines (without their `|`).
fn block(lines: &[String]) -> Block {
    let mut out = Block {
        first: None,
        moves: Vec::new(),
        players: Vec::new(),
        now: None,
    };
    let mut players = Vec::new();
    let mut rows: Vec<String> = Vec::new();
    let mut size = 0;
    for line in lines {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            [] => {}
            [side, "to", "move"] => {
                let board = (rows.len() == size && size > 0)
                    .then(|| Position::from_parts(&rows.concat(), side).ok())
                    .flatten();
                if out.first.is_none() {
                    out.first = board;
                }
                out.now = board.or(out.now);
                rows.clear();
            }
            [number, mv] if number.ends_with(':') => {
                if let Some(m) = block_move(number, mv) {
                    out.moves.push(m);
                }
            }
            letters
                if letters
                    .iter()
                    .all(|w| w.len() == 1 && w.as_bytes()[0].is_ascii_uppercase()) =>
            {
                size = letters.len();
            }
            [row, cells @ ..] if row.parse::<u32>().is_ok() && cells.len() > size && size > 0 => {
                rows.push(cells[..size].concat());
            }
            [name, rating_color @ ..] if line.contains('(') => {
                if let Some(p) = player(name, &rating_color.join(" ")) {
                    players.push(p);
                }
            }
            _ => {}
        }
    }
    // The last two clock lines are the players now.
    let keep = players.len().saturating_sub(2);
    out.players = players.split_off(keep);
    out
}

/// `alice    (1720.0 *) 00:58,1:0//00:10,1:0` after the name.
fn player(name: &str, rest: &str) -> Option<Player> {
    let inside = rest.strip_prefix('(')?;
    let (inside, clock) = inside.split_once(')')?;
    let color = inside.split_whitespace().last()?.parse().ok()?;
    Some(Player {
        name: name.to_string(),
        color,
        clock: Reading::parse(clock),
    })
}

/// `4:` and `b2/-1.50/6.16` (or `d3//1.30`, `pa`, `PASS`).
fn block_move(number: &str, text: &str) -> Option<BlockMove> {
    let number = number.trim_end_matches(':').parse().ok()?;
    let mut fields = text.split('/');
    let mv: Move = fields.next()?.parse().ok()?;
    let eval = fields.next().and_then(|e| e.parse().ok());
    let seconds = fields.next().and_then(|s| s.parse().ok());
    (number > 0).then_some(BlockMove {
        number,
        mv,
        eval,
        seconds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_all(text: &str) -> Vec<Message> {
        let mut parser = Parser::default();
        text.lines().flat_map(|l| parser.line(l)).collect()
    }

    const JOIN: &str = "/os: join .0 8 K?
|3 move(s)
|bob      (2037.8 *) 05:00//01:00
|alice    (1402.2 O) 05:00//01:00
|
|   A B C D E F G H
| 1 - - - - - - - - 1 
| 2 - - - - - - - - 2 
| 3 - - - - - - - - 3 
| 4 - - - O * - - - 4 
| 5 - - - * O - - - 5 
| 6 - - - - - - - - 6 
| 7 - - - - - - - - 7 
| 8 - - - - - - - - 8 
|   A B C D E F G H
|
|* to move
|  1: d3//1.30
|  2: c3/-1.50/0.75
|  3: b3//0.75
|bob      (2037.8 *) 04:57,2:0//01:00,2:0
|alice    (1402.2 O) 04:54,1:0//01:00,1:0
|
|   A B C D E F G H
| 1 - - - - - - - - 1 
| 2 - - - - - - - - 2 
| 3 - * * * - - - - 3 
| 4 - - - O * - - - 4 
| 5 - - - * O - - - 5 
| 6 - - - - - - - - 6 
| 7 - - - - - - - - 7 
| 8 - - - - - - - - 8 
|   A B C D E F G H
|
|O to move
READY";

    #[test]
    fn a_join_with_moves_gives_start_moves_clocks_and_board() {
        let messages = parse_all(JOIN);
        assert_eq!(messages.len(), 2);
        let Message::Board {
            id,
            join,
            kind,
            block,
        } = &messages[0]
        else {
            panic!("{messages:?}");
        };
        assert_eq!((id.as_str(), *join), (".0", true));
        assert_eq!(kind.as_ref().map(|k| k.size), Some(8));
        assert_eq!(block.first, Position::start(8).ok());
        let moves: Vec<String> = block.moves.iter().map(|m| m.mv.to_string()).collect();
        assert_eq!(moves, ["d3", "c3", "b3"]);
        assert_eq!(block.moves[1].eval, Some(-1.5));
        let replayed = Position::start(8)
            .unwrap()
            .play_transcript("d3c3b3")
            .unwrap()
            .0;
        assert_eq!(block.now, Some(replayed));
        assert_eq!(block.players.len(), 2);
        assert_eq!(block.players[1].name, "alice");
        assert_eq!(block.players[1].color, Color::White);
        let clock = block.players[1].clock.unwrap();
        assert_eq!((clock.left.as_secs(), clock.moves), (294, 1));
        assert_eq!(messages[1], Message::Ready);
    }

    #[test]
    fn one_line_messages_read_and_the_rest_is_ignored() {
        let text = "/os: +   .0 1720.0 alice    01:00//00:10        s8r20 U 1720.0 bob
/os: -   .5 1402.2 alice    01:00//00:10        8 R 2037.8 bob
/os: + match .1 1720 alice 1720 bob s8 U
/os: - match .0 1720 alice 1720 bob 8 U +40.00
/os: - match .4 1402 alice 2038 bob 8 U alice left
/os: - match .0 1402 alice 2038 bob 8 U aborted
/os: end .1.0 ( alice vs. bob ) -64.00
/os: error .0 illegal move
/os: ERR match '.999' not found.
/os: timeout .2 alice (*)
/os: fatal-timeout .2 alice (*)
: +ack:  tell /os play .0 d3 => tell /os play .0 d3
|  stray
/os: + match .x
\u{0}\u{ff}garbage";
        let m = parse_all(text);
        let Message::Request(r, true) = &m[0] else {
            panic!("{:?}", m[0])
        };
        assert_eq!(
            (r.id.as_str(), r.from.as_str(), r.to.as_str()),
            (".0", "alice", "bob")
        );
        assert!(r.kind.synchro && r.kind.random == Some(20) && !r.rated);
        assert!(matches!(&m[1], Message::Request(r, false) if r.rated));
        assert!(matches!(&m[2], Message::MatchStart { kind, .. } if kind.synchro));
        assert!(
            matches!(&m[3], Message::MatchEnd { outcome: Outcome::Score(s), .. } if *s == 40.0)
        );
        assert!(
            matches!(&m[4], Message::MatchEnd { outcome: Outcome::Left(n), .. } if n == "alice")
        );
        assert!(matches!(
            &m[5],
            Message::MatchEnd {
                outcome: Outcome::Other(_),
                ..
            }
        ));
        assert!(matches!(&m[6], Message::GameEnd { score, .. } if *score == -64.0));
        assert!(matches!(&m[7], Message::Error { id: Some(id), .. } if id == ".0"));
        assert!(matches!(&m[8], Message::Error { id: None, .. }));
        assert!(matches!(&m[9], Message::Timeout { fatal: false, .. }));
        assert!(matches!(&m[10], Message::Timeout { fatal: true, .. }));
        assert!(
            m[11..].iter().all(|m| matches!(m, Message::Ignored(_))),
            "{:?}",
            &m[11..]
        );
    }

    #[test]
    fn game_types_read_their_letters() {
        let t = GameType::parse("s10r14").unwrap();
        assert!(t.synchro && t.size == 10 && t.random == Some(14) && !t.komi);
        let t = GameType::parse("8kab").unwrap();
        assert!(t.komi && t.anti && t.color == Some(Color::Black));
        for bad in ["", "s", "x8", "8z", "123"] {
            assert!(GameType::parse(bad).is_none(), "{bad}");
        }
    }
}
