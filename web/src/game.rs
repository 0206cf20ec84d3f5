//! The game on the page: the record of [`emilia_core::game::Game`] with a redo list, read from
//! the protocol's formats, and what the page draws from it.

use emilia_core::board::{Color, Move, Position};
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

    /// A game read from `text`: a GGF record, a board string (`<squares> <side>`), or a
    /// transcript from the start of a `size`x`size` board (passes implicit or explicit).
    pub fn read(text: &str, size: usize) -> Result<WebGame, GameError> {
        let text = text.trim();
        if ggf::is_ggf(text) {
            return ggf::parse(text).map(WebGame::of).map_err(error);
        }
        if text.split_whitespace().count() == 2 {
            let position: Position = text.parse().map_err(error)?;
            return Ok(WebGame::of(Game::new(position)));
        }
        let start = Position::start(size).map_err(|e| error(e.to_string()))?;
        let (_, moves) = start.play_transcript(text).map_err(|e| {
            let fits = [6, 8, 10, 12].into_iter().find(|&other| {
                other != size
                    && Position::start(other).is_ok_and(|p| p.play_transcript(text).is_ok())
            });
            match fits {
                Some(other) => error(format!(
                    "not a game on {size}x{size} ({e}): it is one on {other}x{other}, \
                     choose that board to load it"
                )),
                None => error(format!("not a game on {size}x{size}: {e}")),
            }
        })?;
        let mut web = WebGame::of(Game::new(start));
        for mv in moves.into_iter().filter(|m| *m != Move::Pass) {
            web.play_move(mv)?;
        }
        Ok(web)
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

/// `size` as a board size for JavaScript, refused naming it unless 6, 8, 10 or 12.
fn board_size(size: f64) -> Result<usize, JsError> {
    match args::whole(size, "size", 6, 12) {
        Ok(size) if size % 2 == 0 => Ok(size as usize),
        _ => Err(JsError::new(&format!(
            "size: {size} is not a board size: 6, 8, 10 or 12"
        ))),
    }
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
        let size = board_size(size)?;
        Game::standard(size)
            .map(WebGame::of)
            .map_err(|e| JsError::new(&format!("size: {e}")))
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
        let game = WebGame::read("f5d6c3", 8).unwrap();
        assert_eq!(game.ply_count(), 3);
        assert_eq!(game.to_move(), "white");
        assert_eq!(game.transcript(), "f5d6c3");
        let board = game.board();
        let same = WebGame::read(&board, 8).unwrap();
        assert_eq!(same.board(), board);
        assert_eq!(same.ply_count(), 0);
        assert!(WebGame::read("f5f5", 8).is_err());
        // A 10x10 opening read as 8x8 names the size it fits.
        let wrong = WebGame::read("e4f4g5h6g6g7", 8).err().unwrap().to_string();
        assert!(wrong.contains("one on 10x10"), "{wrong}");
        assert!(WebGame::read("XO- X", 8).is_err());
        let ggf_text = game.ggf_named("Ann", "Emilia level 12");
        assert!(
            ggf_text.contains("PB[Ann]PW[Emilia level 12]"),
            "{ggf_text}"
        );
        assert_eq!(WebGame::read(&ggf_text, 6).unwrap().transcript(), "f5d6c3");
    }

    #[test]
    fn undo_and_redo_walk_the_record() {
        let mut game = WebGame::read("f5d6c3", 8).unwrap();
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
        let mut game = WebGame::read(&board, 8).unwrap();
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
