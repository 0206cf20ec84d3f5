//! The game on the page: the record of [`emilia_core::game::Game`] with a redo list, read from
//! the protocol's formats, and what the page draws from it.

use emilia_core::board::{BoardSize, Color, Move, Position};
use emilia_core::formats::game_text::{read_game, GameTextError};
use emilia_core::formats::ggf;
use emilia_core::game::Game;
use wasm_bindgen::prelude::*;

use crate::args;

/// A game being played or looked at on the page.
#[wasm_bindgen]
pub struct WebGame {
    game: Game,
    /// Moves taken back, the latest last: [`WebGame::redo`] plays them again.
    undone: Vec<Move>,
}

/// Why a game could not be set up or a move not be played: the message says what was wrong.
#[derive(Debug)]
pub struct GameError(String);

impl std::fmt::Display for GameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GameError {}

fn error(message: impl ToString) -> GameError {
    GameError(message.to_string())
}

impl WebGame {
    fn of(game: Game) -> WebGame {
        let mut web = WebGame {
            game,
            undone: Vec::new(),
        };
        web.pass_if_forced();
        web
    }

    /// A game read from `text` by the core's reader: a GGF record, a board string
    /// (`<squares> <side>`), or a transcript from the start of a `size` board (passes
    /// implicit or explicit); no text at all is the start of a `size` board.
    pub fn read(text: &str, size: BoardSize) -> Result<WebGame, GameError> {
        match read_game(text, Some(size.side())) {
            Ok(game) => Ok(WebGame::of(game)),
            Err(GameTextError::Empty) => Ok(WebGame::of(Game::new(Position::start_of(size)))),
            // A transcript of another board: the page says which to choose.
            Err(GameTextError::Transcript {
                size,
                error: why,
                fits: Some(other),
            }) => Err(error(format!(
                "not a game on {size}x{size} ({why}): it is one on {other}x{other}, \
                 choose that board to load it"
            ))),
            Err(e) => Err(error(e)),
        }
    }

    /// Plays `mv` for the side to move, then a forced pass of the other side, if any.
    fn play_move(&mut self, mv: Move) -> Result<(), GameError> {
        self.game.play(mv).map_err(error)?;
        self.pass_if_forced();
        Ok(())
    }

    /// Records the pass of a side to move that has no move (undone with the move before).
    fn pass_if_forced(&mut self) {
        if self.game.must_pass() {
            let other = self.game.position().to_move.opponent();
            // A side with no move while the game goes on can always pass.
            let _ = self.game.turn_for(other);
        }
    }

    /// Plays the move named `name` (`f5`) for the side to move; on error nothing changes.
    pub fn play_named(&mut self, name: &str) -> Result<(), GameError> {
        let mv: Move = name.parse().map_err(error)?;
        self.play_move(mv)?;
        self.undone.clear();
        Ok(())
    }

    /// The game as a GGF record with the players' names.
    pub fn ggf_named(&self, black: &str, white: &str) -> String {
        let mut game = self.game.clone();
        game.black = black.to_string();
        game.white = white.to_string();
        ggf::write_game(&game, "Emilia web")
    }

    /// The position before ply `ply` (0 is the start; the number of plies is now).
    pub fn position_at(&self, ply: usize) -> Option<&Position> {
        self.game.positions().get(ply)
    }
}

/// `size` as a board size for JavaScript, refused unless a side the engine plays (the
/// core's message says which).
fn board_size(size: f64) -> Result<BoardSize, JsError> {
    if size.fract() != 0.0 || !(0.0..=f64::from(u32::MAX)).contains(&size) {
        return Err(JsError::new(&format!("size: {size} is not a whole number")));
    }
    BoardSize::new(size as usize).map_err(|e| JsError::new(&format!("size: {e}")))
}

fn color_name(color: Color) -> String {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
    .to_string()
}

#[wasm_bindgen]
impl WebGame {
    /// A game from the start of a `size`x`size` board.
    #[wasm_bindgen(constructor)]
    pub fn new(size: f64) -> Result<WebGame, JsError> {
        let start = Position::start_of(board_size(size)?);
        Ok(WebGame::of(Game::new(start)))
    }

    /// [`WebGame::read`] for JavaScript.
    #[wasm_bindgen(js_name = fromText)]
    pub fn from_text(text: &JsValue, size: f64) -> Result<WebGame, JsError> {
        let text = args::text(text, "text").map_err(|e| JsError::new(&e))?;
        WebGame::read(&text, board_size(size)?).map_err(|e| JsError::new(&e.0))
    }

    /// Squares per side.
    pub fn size(&self) -> usize {
        self.game.position().size()
    }

    /// The board now, as the protocol's board string (`<squares> <side>`).
    pub fn board(&self) -> String {
        self.game.position().to_string()
    }

    /// The board string before ply `ply`, or an empty string past the end.
    #[wasm_bindgen(js_name = boardAt)]
    pub fn board_at(&self, ply: usize) -> String {
        self.position_at(ply)
            .map_or(String::new(), Position::to_string)
    }

    /// `black` or `white`: who is to move.
    #[wasm_bindgen(js_name = toMove)]
    pub fn to_move(&self) -> String {
        color_name(self.game.position().to_move)
    }

    /// The legal moves, space separated (`pass` never: forced passes are played at once;
    /// empty once the game is over).
    pub fn legal(&self) -> String {
        let moves: Vec<String> = self
            .game
            .position()
            .legal_moves()
            .iter()
            .map(Move::to_string)
            .collect();
        moves.join(" ")
    }

    /// [`WebGame::play_named`] for JavaScript.
    pub fn play(&mut self, name: &JsValue) -> Result<(), JsError> {
        let name = args::text(name, "move").map_err(|e| JsError::new(&e))?;
        self.play_named(&name).map_err(|e| JsError::new(&e.0))
    }

    /// Takes back the last move (with the forced pass after it); false at the start.
    pub fn undo(&mut self) -> bool {
        match self.game.undo() {
            Some(mv) => {
                self.undone.push(mv);
                // A forced pass at the start of the record (a board string) stays.
                self.pass_if_forced();
                true
            }
            None => false,
        }
    }

    /// Plays the last move taken back again; false when there is none.
    pub fn redo(&mut self) -> bool {
        match self.undone.pop() {
            Some(mv) => self.play_move(mv).is_ok(),
            None => false,
        }
    }

    /// Whether a move taken back can be played again.
    #[wasm_bindgen(js_name = canRedo)]
    pub fn can_redo(&self) -> bool {
        !self.undone.is_empty()
    }

    /// Takes moves back until at most `ply` plies remain (a forced pass goes with its
    /// move), so that play goes on from there; they can be played again by redo until
    /// another move is played.
    #[wasm_bindgen(js_name = backTo)]
    pub fn back_to(&mut self, ply: usize) {
        while self.ply_count() > ply && self.undo() {}
        // Taken back past a forced pass with its move: the move again stands after it.
        if self.ply_count() < ply {
            self.redo();
        }
    }

    /// The legal moves before ply `ply`, as [`WebGame::legal`] gives them now.
    #[wasm_bindgen(js_name = legalAt)]
    pub fn legal_at(&self, ply: usize) -> String {
        let Some(position) = self.position_at(ply) else {
            return String::new();
        };
        let moves: Vec<String> = position
            .legal_moves()
            .iter()
            .filter(|m| **m != Move::Pass)
            .map(Move::to_string)
            .collect();
        moves.join(" ")
    }

    /// Whether neither side can move.
    #[wasm_bindgen(js_name = isOver)]
    pub fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// Black's discs.
    pub fn black(&self) -> u32 {
        self.game.position().count(Color::Black)
    }

    /// White's discs.
    pub fn white(&self) -> u32 {
        self.game.position().count(Color::White)
    }

    /// The result once over (`B+12`, `W+4`, `Draw`…, as the program writes it).
    pub fn result(&self) -> String {
        self.game.result()
    }

    /// Every ply, space separated: `black f5`, `white pass`, …, comma separated.
    pub fn plies(&self) -> String {
        let plies: Vec<String> = self
            .game
            .plies()
            .iter()
            .map(|p| format!("{} {}", color_name(p.color), p.mv))
            .collect();
        plies.join(",")
    }

    /// Plies played (passes included).
    #[wasm_bindgen(js_name = plyCount)]
    pub fn ply_count(&self) -> usize {
        self.game.plies().len()
    }

    /// The transcript (`f5d6c3`, passes implicit) from the start position.
    pub fn transcript(&self) -> String {
        self.game.transcript()
    }

    /// The game as a GGF record, with the players' names (`black`, `white`).
    pub fn ggf(&self, black: &JsValue, white: &JsValue) -> Result<String, JsError> {
        let named = |value, side| args::text(value, side).map_err(|e| JsError::new(&e));
        Ok(self.ggf_named(&named(black, "black")?, &named(white, "white")?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transcripts_board_strings_and_bad_text_are_read() {
        let game = WebGame::read("f5d6c3", BoardSize::EIGHT).unwrap();
        assert_eq!(game.ply_count(), 3);
        assert_eq!(game.to_move(), "white");
        assert_eq!(game.transcript(), "f5d6c3");
        let board = game.board();
        let same = WebGame::read(&board, BoardSize::EIGHT).unwrap();
        assert_eq!(same.board(), board);
        assert_eq!(same.ply_count(), 0);
        assert!(WebGame::read("f5f5", BoardSize::EIGHT).is_err());
        // A 10x10 opening read as 8x8 names the size it fits.
        let wrong = WebGame::read("e4f4g5h6g6g7", BoardSize::EIGHT)
            .err()
            .unwrap()
            .to_string();
        assert!(
            wrong.ends_with("it is one on 10x10, choose that board to load it"),
            "{wrong}"
        );
        // No text is a new game on the board chosen.
        let empty = WebGame::read(" \n", BoardSize::TEN).unwrap();
        assert_eq!((empty.size(), empty.ply_count()), (10, 0));
        assert!(WebGame::read("XO- X", BoardSize::EIGHT).is_err());
        let ggf_text = game.ggf_named("Ann", "Emilia level 12");
        assert!(
            ggf_text.contains("PB[Ann]PW[Emilia level 12]"),
            "{ggf_text}"
        );
        assert_eq!(
            WebGame::read(&ggf_text, BoardSize::SIX)
                .unwrap()
                .transcript(),
            "f5d6c3"
        );
    }

    #[test]
    fn a_transcript_read_is_the_game_played_move_by_move() {
        // Whole 6x6 games of moves picked by a simple generator, some with forced passes.
        let mut with_passes = 0;
        for seed in 0..20u64 {
            let mut state = seed;
            let mut played = WebGame::read("", BoardSize::SIX).unwrap();
            while !played.is_over() {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1);
                let legal = played.legal();
                let moves: Vec<&str> = legal.split(' ').collect();
                let mv = moves[(state >> 33) as usize % moves.len()];
                played.play_named(mv).unwrap();
            }
            with_passes += usize::from(played.plies().contains("pass"));
            let read = WebGame::read(&played.transcript(), BoardSize::SIX).unwrap();
            assert_eq!(read.plies(), played.plies());
            assert_eq!(read.board(), played.board());
        }
        assert!(with_passes > 0, "no game had a forced pass");
    }

    #[test]
    fn undo_and_redo_walk_the_record() {
        let mut game = WebGame::read("f5d6c3", BoardSize::EIGHT).unwrap();
        let after = game.board();
        assert!(game.undo() && game.undo());
        assert_eq!(game.transcript(), "f5");
        assert!(game.redo() && game.redo());
        assert_eq!(game.board(), after);
        assert!(!game.redo() && !game.can_redo());
        game.back_to(1);
        assert_eq!(game.transcript(), "f5");
        assert!(game.can_redo() && game.redo() && game.redo());
        assert_eq!(game.board(), after);
        assert!(game.undo());
        game.play_named("c4").unwrap();
        assert!(!game.redo());
    }

    #[test]
    fn a_forced_pass_is_played_and_undone_with_its_move() {
        // After d1 White has no disc that flanks anything: it passes, Black moves again.
        let board = format!("XOO-----{}XO------ X", "-".repeat(48));
        let mut game = WebGame::read(&board, BoardSize::EIGHT).unwrap();
        game.play_named("d1").unwrap();
        assert_eq!(game.plies(), "black d1,white pass");
        assert_eq!(game.to_move(), "black");
        assert!(!game.is_over());
        assert!(game.undo());
        assert_eq!(game.ply_count(), 0);
        assert_eq!(game.board(), board);
        assert!(game.play_named("a1").is_err());
        assert_eq!(game.board(), board, "a refused move changes nothing");
    }
}
